package ptype

import (
	"fmt"
	"strings"
	"sync"
)

// Aliases are the type aliases a code base defines (type Stdlib::Port = Integer[0, 65535]),
// resolved as Puppet's loaders resolve them: by name in any case, each parsed once, on first use.
// An alias may use itself inside a container (type Tree = Array[Variant[String, Tree]]); one that
// reaches only aliases and variants is Puppet's error ("cannot be resolved to a real type"). Safe
// for concurrent use.
type Aliases struct {
	define func(name string) (canonical, src string, ok bool)

	mu       sync.Mutex
	resolved map[string]*Type // by lower-case name
	failed   map[string]error
	pass     []*Type // the aliases the current Parse defined, checked when it ends
}

// maxAliasChain bounds how many aliases one parse may resolve in a chain (an alias whose
// definition names an alias, ...), so that a hostile code base cannot exhaust the stack.
const maxAliasChain = 100

// NewAliases resolves the names define knows: it returns an alias's name as defined
// (Stdlib::Port) and its type expression, ok false when the code base defines no such alias.
func NewAliases(define func(name string) (canonical, src string, ok bool)) *Aliases {
	return &Aliases{define: define, resolved: map[string]*Type{}, failed: map[string]error{}}
}

// Parse is Parse with the code base's aliases resolved. An alias whose definition does not parse,
// or cannot be resolved to a real type, is an error naming it.
func (a *Aliases) Parse(src string) (*Type, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	t, err := parse(src, a)
	pass := a.pass
	a.pass = nil
	var first error
	for _, alias := range pass { // the first defined is the first named
		if alias.resolved == nil {
			continue // its definition failed: resolve recorded why
		}
		if err := a.check(alias); err != nil {
			key := strings.ToLower(alias.name)
			delete(a.resolved, key)
			a.failed[key] = err
			if first == nil {
				first = err
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if first != nil {
		return nil, first
	}
	return t, nil
}

// resolve is the alias named name (a reference when the code base defines none), parsing its
// definition on first use.
func (a *Aliases) resolve(name string) (*Type, error) {
	key := strings.ToLower(name)
	if t, ok := a.resolved[key]; ok {
		return t, nil
	}
	if err, ok := a.failed[key]; ok {
		return nil, err
	}
	canonical, src, ok := a.define(name)
	if !ok {
		return &Type{kind: ptReference, name: name}, nil
	}
	if len(a.pass) >= maxAliasChain {
		return nil, fmt.Errorf("type alias '%s': more than %d type aliases resolved for one type", canonical, maxAliasChain)
	}
	t := &Type{kind: ptAlias, name: canonical, defined: true}
	a.resolved[key] = t // an alias using itself finds itself
	a.pass = append(a.pass, t)
	r, err := parse(src, a)
	if err != nil {
		delete(a.resolved, key)
		if _, named := err.(*aliasError); !named {
			err = &aliasError{fmt.Sprintf("type alias '%s': %v", canonical, err)}
		}
		a.failed[key] = err
		return nil, err
	}
	t.resolved = r
	return t, nil
}

// aliasError is an alias whose definition cannot be used (it names the alias).
type aliasError struct{ msg string }

func (e *aliasError) Error() string { return e.msg }

// check is Puppet's test that an alias resolves to a real type: something other than aliases and
// variants is reachable from it. An alias that reaches itself again through aliases, variants and
// Optional/NotUndef only, a real type beside it (Variant[String, Self]), would check values
// forever here: it is refused too.
func (a *Aliases) check(t *Type) error {
	concrete, loop := false, false
	seen := map[*Type]bool{}
	var walk func(u *Type, depth int, direct bool)
	walk = func(u *Type, depth int, direct bool) {
		if u == nil || depth > ptypeMaxDepth {
			return
		}
		switch u.kind {
		case ptAlias:
			if u == t && depth > 0 && direct {
				loop = true
			}
			if seen[u] || u.resolved == nil {
				return
			}
			seen[u] = true
			walk(u.resolved, depth+1, direct)
			return
		case ptVariant, ptOptional, ptNotUndef:
			if u.kind != ptVariant {
				concrete = true
			}
			for _, m := range append(append([]*Type{}, u.types...), u.elem) {
				walk(m, depth+1, direct)
			}
			return
		}
		concrete = true
		for _, c := range append([]*Type{u.key, u.elem}, u.types...) {
			walk(c, depth+1, false)
		}
		for _, e := range u.elements {
			walk(e.value, depth+1, false)
		}
	}
	walk(t, 0, true)
	switch {
	case !concrete:
		return &aliasError{fmt.Sprintf("Type alias '%s' cannot be resolved to a real type", t.name)}
	case loop:
		return &aliasError{fmt.Sprintf("Type alias '%s' refers to itself outside an Array, Hash, Tuple, Struct or Sensitive: it cannot be checked", t.name)}
	}
	return nil
}
