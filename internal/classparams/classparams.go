// Package classparams checks Hiera data against the Puppet code that reads it: the classes and
// type aliases of every module of the modulepath and of the environment's manifests/ (read with
// internal/manifest, never run). Automatic parameter lookup binds the key ntp::servers to the
// parameter $servers of class ntp; Check says, in Puppet's words, when a node's value for such a
// key does not match the parameter's declared type, and UnknownKey when a module's key names no
// parameter and no key a manifest looks up. hieraform check and the provider's check_params use
// it. Safe for concurrent use.
package classparams

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/ptype"
	"github.com/hieraform/terraform-provider-hiera/internal/manifest"
)

// Code is what the checks read of an environment's Puppet code.
type Code struct {
	code       *manifest.Code
	modules    map[string]bool     // the modules of the modulepath, by name
	lookedUp   map[string]bool     // the literal keys of explicit lookups (manifests, templates, data interpolations)
	moduleKeys map[string][]string // each module's parameter keys and looked-up keys, for "did you mean"
	classes    int
	aliases    *ptype.Aliases

	mu    sync.Mutex
	types map[*manifest.Param]paramType
}

// paramType is a parameter's declared type, parsed with the code's aliases, or why it cannot be.
type paramType struct {
	t   *ptype.Type
	err error
}

// Read reads the manifests and types of the engine's modules and environment. A manifest it
// cannot read is a warning: the data is checked against the rest. A modulepath that cannot be
// read (an environment.conf Puppet rejects) is a problem every lookup reports: no module's code
// is read then.
func Read(engine *hiera.Engine) (*Code, []string) {
	mods, warnings, _ := engine.Modules()
	c := &Code{modules: map[string]bool{}, lookedUp: map[string]bool{}, moduleKeys: map[string][]string{},
		types: map[*manifest.Param]paramType{}}
	var dirs []string
	for _, m := range mods {
		c.modules[m.Name] = true
		dirs = append(dirs, filepath.Join(m.Dir, "manifests"), filepath.Join(m.Dir, "types"))
	}
	if env := engine.EnvironmentDir(); env != "" {
		dirs = append(dirs, filepath.Join(env, "manifests"))
	}
	c.code = manifest.Read(dirs...)
	for _, p := range c.code.Problems {
		warnings = append(warnings, p.Error()+" (a manifest that cannot be read: its classes are not checked)")
	}
	for _, f := range c.code.Files {
		c.classes += len(f.Classes)
		for _, cl := range f.Classes {
			for _, p := range cl.Params {
				c.addKey(cl.Name + "::" + p.Name)
			}
		}
		for _, l := range f.Lookups {
			c.lookedUp[l.Key] = true
			c.addKey(l.Key)
		}
	}
	c.readNamedKeys(engine, mods)
	c.aliases = ptype.NewAliases(func(name string) (string, string, bool) {
		if a := c.code.Alias(name); a != nil {
			return a.Name, a.Type, true
		}
		return "", "", false
	})
	return c, warnings
}

func (c *Code) addKey(key string) {
	if mod, _, ok := strings.Cut(key, "::"); ok {
		c.moduleKeys[mod] = append(c.moduleKeys[mod], key)
	}
}

// Classes is how many classes the code defines.
func (c *Code) Classes() int { return c.classes }

// param is the class parameter automatic parameter lookup binds key to (ntp::servers: class ntp,
// parameter servers), nil when there is none.
func (c *Code) param(key string) (*manifest.Class, *manifest.Param) {
	i := strings.LastIndex(key, "::")
	if i <= 0 {
		return nil, nil
	}
	class := c.code.Class(key[:i])
	if class == nil {
		return nil, nil
	}
	for _, p := range class.Params {
		if p.Name == key[i+2:] {
			return class, p
		}
	}
	return nil, nil
}

// UnknownKey says whether key is a key of a module of the modulepath that names no class
// parameter and no key a manifest looks up, with the parameter and looked-up keys near it.
func (c *Code) UnknownKey(key string) (unknown bool, near []string) {
	mod, _, ok := strings.Cut(key, "::")
	if !ok || !c.modules[mod] || c.lookedUp[key] {
		return false, nil
	}
	if _, p := c.param(key); p != nil {
		return false, nil
	}
	return true, hiera.NearestKeys(key, c.moduleKeys[mod])
}

// UnknownKeyMessage says that key names no class parameter of its module and no key a manifest
// looks up (UnknownKey).
func UnknownKeyMessage(key string) string {
	mod, _, _ := strings.Cut(key, "::")
	return fmt.Sprintf("key %s names no parameter of a class of module %s and no key its manifests look up", key, mod)
}

// typeOf is the parameter's declared type, parsed once.
func (c *Code) typeOf(p *manifest.Param) (*ptype.Type, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if pt, ok := c.types[p]; ok {
		return pt.t, pt.err
	}
	t, err := c.aliases.Parse(p.Type)
	if err == nil {
		if name := ptype.Unresolved(t); name != "" {
			t, err = nil, fmt.Errorf("Resource type not found: %s", name) //nolint:staticcheck // ST1005: Puppet's words
		}
	}
	c.types[p] = paramType{t, err}
	return t, err
}

// ClassReference is how Puppet names a class in messages: Class[Ntp::Config].
func ClassReference(name string) string {
	segs := strings.Split(name, "::")
	for i, s := range segs {
		if s != "" {
			segs[i] = strings.ToUpper(s[:1]) + s[1:]
		}
	}
	return "Class[" + strings.Join(segs, "::") + "]"
}

// Check checks the value automatic parameter lookup binds to a class parameter on a node (the
// key's answer, lookup_options applied) against the parameter's declared type: nil when it
// matches, when the key names no typed parameter, or when it is undef and the parameter has a
// default (Puppet takes the default). A mismatch is an error with Puppet's message and the key,
// at the data file and line the value came from (Hint names the parameter's line); a type that
// cannot be resolved (an unknown type, an alias loop) an error at the manifest's file and line,
// without a key. A secret's value is never shown.
func (c *Code) Check(a hiera.NodeAnswer) *model.Error {
	if a.Err != nil || !a.Result.Found {
		return nil //nolint:nilerr // a failing lookup is reported as such, not as a parameter problem
	}
	class, p := c.param(a.Key)
	if p == nil || p.Type == "" || (a.Result.Value == nil && p.HasDefault) {
		return nil // untyped: Any; undef with a default: the default
	}
	t, err := c.typeOf(p)
	if err != nil {
		return &model.Error{Message: fmt.Sprintf("%s: parameter '%s': %v", ClassReference(class.Name), p.Name, err),
			File: class.File, Line: p.Line, ValueFree: true, Hint: fmt.Sprintf("The value of %s is not checked", a.Key)}
	}
	v := a.Result.Value
	if a.Result.Wrapped {
		v = ptype.SensitiveValue{Value: v}
	}
	msg := ptype.CheckParameter(ClassReference(class.Name), p.Name, t, v)
	if msg == "" {
		return nil
	}
	secret := a.Result.Sensitive && !a.Result.Wrapped // a decrypted value: Puppet's message could show it
	if secret {
		msg = fmt.Sprintf("%s: parameter '%s' expects a value of type %s (details withheld: the value is secret)",
			ClassReference(class.Name), p.Name, t)
	}
	e := &model.Error{Message: msg, Key: a.Key, ValueFree: secret,
		Hint: fmt.Sprintf("The parameter is declared at %s:%d", class.File, p.Line)}
	return hiera.PlaceAt(e, a.Key, a.Result.Sources)
}
