package cli

// check against the Puppet code that reads the data: the class parameters automatic parameter
// lookup binds keys to, their declared types, and the keys manifests look up by name.

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/ptype"
	"github.com/hieraform/terraform-provider-hiera/internal/manifest"
)

// puppetCode is what check reads of the environment's Puppet code: the classes and type aliases
// of every module of the modulepath and of the environment's manifests/, and the keys manifests
// look up by name.
type puppetCode struct {
	code       *manifest.Code
	modules    map[string]bool     // the modules of the modulepath, by name
	lookedUp   map[string]bool     // the literal keys of explicit lookups
	moduleKeys map[string][]string // each module's parameter keys and looked-up keys, for "did you mean"
	aliases    *ptype.Aliases
	types      map[*manifest.Param]paramType
}

// paramType is a parameter's declared type, parsed with the code's aliases, or why it cannot be.
type paramType struct {
	t   *ptype.Type
	err error
}

// readPuppetCode reads the manifests and types of the engine's modules and environment. A
// manifest it cannot read is a warning: the data is checked against the rest. A modulepath that
// cannot be read (an environment.conf Puppet rejects) is a problem the data's check reports: no
// module's code is read then.
func readPuppetCode(engine *hiera.Engine) (*puppetCode, []string) {
	mods, warnings, _ := engine.Modules()
	pc := &puppetCode{modules: map[string]bool{}, lookedUp: map[string]bool{}, moduleKeys: map[string][]string{},
		types: map[*manifest.Param]paramType{}}
	var dirs []string
	for _, m := range mods {
		pc.modules[m.Name] = true
		dirs = append(dirs, filepath.Join(m.Dir, "manifests"), filepath.Join(m.Dir, "types"))
	}
	if env := engine.EnvironmentDir(); env != "" {
		dirs = append(dirs, filepath.Join(env, "manifests"))
	}
	pc.code = manifest.Read(dirs...)
	for _, p := range pc.code.Problems {
		warnings = append(warnings, p.Error()+" (a manifest that cannot be read: its classes are not checked)")
	}
	for _, f := range pc.code.Files {
		for _, c := range f.Classes {
			for _, p := range c.Params {
				pc.addKey(c.Name + "::" + p.Name)
			}
		}
		for _, l := range f.Lookups {
			pc.lookedUp[l.Key] = true
			pc.addKey(l.Key)
		}
	}
	pc.aliases = ptype.NewAliases(func(name string) (string, string, bool) {
		if a := pc.code.Alias(name); a != nil {
			return a.Name, a.Type, true
		}
		return "", "", false
	})
	return pc, warnings
}

func (pc *puppetCode) addKey(key string) {
	if mod, _, ok := strings.Cut(key, "::"); ok {
		pc.moduleKeys[mod] = append(pc.moduleKeys[mod], key)
	}
}

// classes is how many classes the code defines.
func (pc *puppetCode) classes() int {
	n := 0
	for _, f := range pc.code.Files {
		n += len(f.Classes)
	}
	return n
}

// param is the class parameter automatic parameter lookup binds key to (ntp::servers: class ntp,
// parameter servers), nil when there is none.
func (pc *puppetCode) param(key string) (*manifest.Class, *manifest.Param) {
	i := strings.LastIndex(key, "::")
	if i <= 0 {
		return nil, nil
	}
	c := pc.code.Class(key[:i])
	if c == nil {
		return nil, nil
	}
	for _, p := range c.Params {
		if p.Name == key[i+2:] {
			return c, p
		}
	}
	return nil, nil
}

// unknownKey says whether key is a key of a module of the modulepath that names no class
// parameter and no key a manifest looks up, with the parameter and looked-up keys near it.
func (pc *puppetCode) unknownKey(key string) (unknown bool, near []string) {
	mod, _, ok := strings.Cut(key, "::")
	if !ok || !pc.modules[mod] || pc.lookedUp[key] {
		return false, nil
	}
	if _, p := pc.param(key); p != nil {
		return false, nil
	}
	return true, hiera.NearestKeys(key, pc.moduleKeys[mod])
}

// typeOf is the parameter's declared type, parsed once.
func (pc *puppetCode) typeOf(p *manifest.Param) (*ptype.Type, error) {
	if pt, ok := pc.types[p]; ok {
		return pt.t, pt.err
	}
	t, err := pc.aliases.Parse(p.Type)
	if err == nil {
		if name := ptype.Unresolved(t); name != "" {
			t, err = nil, fmt.Errorf("Resource type not found: %s", name)
		}
	}
	pc.types[p] = paramType{t, err}
	return t, err
}

// classReference is how Puppet names a class in messages: Class[Ntp::Config].
func classReference(name string) string {
	segs := strings.Split(name, "::")
	for i, s := range segs {
		if s != "" {
			segs[i] = strings.ToUpper(s[:1]) + s[1:]
		}
	}
	return "Class[" + strings.Join(segs, "::") + "]"
}

// checkKeys reports the keys of a data file that name no class parameter and no looked-up key of
// their module: a problem when a parameter's key is near (a typo), else a note (a problem with
// --strict).
func (c *checker) checkKeys(f hiera.DataFile, keys []string) {
	for _, key := range keys {
		unknown, near := c.code.unknownKey(key)
		if !unknown {
			continue
		}
		line, _ := hiera.KeyLine(f.File, key)
		mod, _, _ := strings.Cut(key, "::")
		e := &model.Error{Message: fmt.Sprintf("key %s names no parameter of a class of module %s and no key its manifests look up", key, mod),
			File: f.File, Line: line, Level: f.Level, ValueFree: true}
		if len(near) > 0 {
			e.Hint = fmt.Sprintf("Did you mean %s?", strings.Join(near, " or "))
			c.report(e, "", true)
			continue
		}
		if c.strict {
			c.report(e, "", true)
			continue
		}
		c.note(e)
	}
}

// checkParam checks the value automatic parameter lookup binds to a class parameter on a node (the
// key's answer, lookup_options applied) against the parameter's declared type, in Puppet's words,
// at the value's file and line.
func (c *checker) checkParam(node string, a hiera.NodeAnswer) {
	class, p := c.code.param(a.Key)
	if p == nil || p.Type == "" || (a.Result.Value == nil && p.HasDefault) {
		return // untyped: Any; undef with a default: the default
	}
	t, err := c.code.typeOf(p)
	if err != nil {
		c.report(&model.Error{Message: fmt.Sprintf("%s: parameter '%s': %v", classReference(class.Name), p.Name, err),
			File: class.File, Line: p.Line, ValueFree: true,
			Hint: fmt.Sprintf("The value of %s is not checked", a.Key)}, "", false)
		return
	}
	v := a.Result.Value
	if a.Result.Wrapped {
		v = ptype.SensitiveValue{Value: v}
	}
	msg := ptype.CheckParameter(classReference(class.Name), p.Name, t, v)
	if msg == "" {
		return
	}
	secret := a.Result.Sensitive && !a.Result.Wrapped // a decrypted value: Puppet's message could show it
	if secret {
		msg = fmt.Sprintf("%s: parameter '%s' expects a value of type %s (details withheld: the value is secret)",
			classReference(class.Name), p.Name, t)
	}
	e := &model.Error{Message: msg, Key: a.Key, ValueFree: secret,
		Hint: fmt.Sprintf("The parameter is declared at %s:%d", class.File, p.Line)}
	c.report(placeAtValue(e, a.Key, a.Result.Sources), node, true)
}
