// Pitfalls: silent traps Puppet has too (it answers without a word), reported without changing
// any answer when a request asks for them. This file is the analysis run once a lookup has its
// answer (findPitfalls); what a lookup notices while it runs (a value interpolating an unset
// variable) is noted by interpolate.go.
package hiera

import (
	"fmt"
	"strings"
	"sync"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// findPitfalls adds the pitfalls of the key root's lookup that do not come from its values: facts
// whose names hold a dot, a certname taken from networking.fqdn, hierarchy paths that interpolate
// a variable that is not set, and a module with data but no hiera.yaml.
func (inv *invocation) findPitfalls(root string) {
	pitfalls := &inv.engine.pitfalls
	for _, msg := range pitfalls.get(scopePitfallKey{scope: inv.req.Scope}, inv.scopeNotes) {
		inv.pitfall(msg)
	}
	layers, err := inv.layersFor(root)
	if err != nil {
		return
	}
	for _, l := range layers {
		if note := moduleWithoutConfig(l); note != "" {
			inv.pitfall(note)
		}
		if l.cfg != nil {
			for _, msg := range pitfalls.get(scopePitfallKey{scope: inv.req.Scope, cfg: l.cfg}, func() notes { return inv.unsetInPaths(l) }) {
				inv.pitfall(msg)
			}
		}
	}
}

// scopePitfallCache holds the pitfalls of a scope that no key changes: those of its facts' names
// (cfg nil) and of each hierarchy's paths (by its configuration). The engine knows a scope by its
// hashes' identity (see Scope). Scanning the paths, with the trusted hash it builds, cost a warm
// lookup as much as the rest of it.
type scopePitfallCache struct {
	mu      sync.RWMutex
	entries map[scopePitfallKey]notes
}

type scopePitfallKey struct {
	scope Scope
	cfg   *config
}

// maxCachedScopePitfalls bounds scopePitfallCache, as maxCachedSignatures the signatures.
const maxCachedScopePitfalls = 1 << 12

func (c *scopePitfallCache) get(key scopePitfallKey, find func() notes) notes {
	c.mu.RLock()
	found, ok := c.entries[key]
	c.mu.RUnlock()
	if ok {
		return found
	}
	found = find()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxCachedScopePitfalls {
		c.entries = map[scopePitfallKey]notes{} // simple bound: start over
	}
	c.entries[key] = found
	return found
}

// scopeNotes are the pitfalls of the scope itself: a certname taken from networking.fqdn (the
// trusted hash built from the facts, none given), the facts whose names hold a dot.
func (inv *invocation) scopeNotes() notes {
	var found notes
	if t, isHash := inv.scope.trustedHash().(*model.Hash); isHash {
		_, stored := TrustedFact(inv.scope.facts)
		if _, given := inv.scope.vars.Get("trusted"); !given && !stored && inv.scope.facts.Len() > 0 {
			c, _ := t.Get("certname")
			if name, isStr := c.(string); isStr && name == NetworkingFQDN(inv.scope.facts) && !hasFact(inv.scope.facts, "clientcert", "fqdn") {
				found.add(CertnameFromFQDNNote(name))
			}
		}
	}
	for _, msg := range inv.dottedFacts() {
		found.add(msg)
	}
	return found
}

// hasFact reports whether facts has one of names, not null.
func hasFact(facts *model.Hash, names ...string) bool {
	for _, n := range names {
		if v, _ := facts.Get(n); v != nil {
			return true
		}
	}
	return false
}

// dottedFacts are the pitfalls of the facts whose names hold a dot.
func (inv *invocation) dottedFacts() notes {
	var found notes
	inv.req.Scope.Facts.Each(func(k, _ any) bool {
		if name, isStr := k.(string); isStr && strings.Contains(name, ".") {
			top, sub, _ := strings.Cut(name, ".")
			found.add(fmt.Sprintf("The fact %q has a dot in its name: %%{facts.%s} reads the fact %q and its key %q, never this fact, "+
				"as in Puppet. Give it nested instead (facts = { %s = { %s = ... } }).", name, name, top, sub, top, sub))
		}
		return len(found) < maxPitfalls
	})
	return found
}

// unsetInPaths are the pitfalls of the variables the hierarchy paths of layer l interpolate that
// are not set: the path then holds an empty string (nodes/.yaml), and the level silently finds nothing.
func (inv *invocation) unsetInPaths(l *layer) notes {
	defer inv.leave(inv.enter(l))
	var found notes
	for _, entries := range [2][]*entry{l.cfg.Entries, l.cfg.DefaultEntries} {
		for _, e := range entries {
			inv.unsetInPath(&found, l, e, e.Datadir)
			if e.LocKind == "mapped_paths" { // a variable name, a key and a template: not a path
				continue
			}
			for _, tpl := range e.Locs {
				inv.unsetInPath(&found, l, e, tpl)
			}
		}
	}
	return found
}

func (inv *invocation) unsetInPath(found *notes, l *layer, e *entry, tpl string) {
	t := compilePathTemplate(tpl)
	if t.slow {
		return
	}
	for _, v := range t.vars {
		if inv.unsetVariable(v) {
			found.add(fmt.Sprintf("The hierarchy level %q (%s) interpolates %%{%s} in %q, which is not set: the path holds an empty "+
				"string there and the level finds nothing, as in Puppet. Give the fact or variable in facts or scope, or check its name.",
				e.Name, l.cfg.Path, v.expr, tpl))
		}
	}
}

// unsetVariable reports whether a path variable has no value in the lookup's scope.
func (inv *invocation) unsetVariable(v pathVar) bool {
	val, ok := inv.scope.get(v.root)
	if !ok || val == nil {
		return true
	}
	if len(v.segs) > 1 {
		got, found, err := dig(val, v.segs, v.expr)
		return err == nil && (!found || got == nil)
	}
	return false
}
