// Pitfalls: silent traps Puppet has too (it answers without a word), reported without changing
// any answer when a request asks for them.
package hiera

import (
	"fmt"
	"strings"
)

// maxPitfalls bounds the pitfalls of one lookup; each is a sentence.
const maxPitfalls = 10

// noteUnset records that a value interpolated variable expr and found it unset (Puppet makes it an
// empty string), when the request asks for pitfalls.
func (inv *invocation) noteUnset(expr string) {
	if !inv.req.Pitfalls {
		return
	}
	key := "" // the innermost key being looked up (the recursion guard also holds "scope:x" names)
	for i := len(inv.nameStack) - 1; i >= 0 && key == ""; i-- {
		if !strings.HasPrefix(inv.nameStack[i], "scope:") {
			key = inv.nameStack[i]
		}
	}
	if key == "" {
		return
	}
	inv.pitfall(fmt.Sprintf("The value of %q interpolates %%{%s}, which is not set: it became an empty string, as in Puppet. "+
		"Give the fact or variable in facts or scope, or check its name.", key, expr))
}

func (inv *invocation) pitfall(msg string) {
	if len(inv.pitfalls) >= maxPitfalls || inv.pitfallSeen[msg] {
		return
	}
	if inv.pitfallSeen == nil {
		inv.pitfallSeen = map[string]bool{}
	}
	inv.pitfallSeen[msg] = true
	inv.pitfalls = append(inv.pitfalls, msg)
}

// findPitfalls adds the pitfalls of the key root's lookup that do not come from its values: facts
// whose names hold a dot, hierarchy paths that interpolate a variable that is not set, and a
// module with data but no hiera.yaml.
func (inv *invocation) findPitfalls(root string) {
	inv.req.Scope.Facts.Each(func(k, _ any) bool {
		if name, isStr := k.(string); isStr && strings.Contains(name, ".") {
			top, sub, _ := strings.Cut(name, ".")
			inv.pitfall(fmt.Sprintf("The fact %q has a dot in its name: %%{facts.%s} reads the fact %q and its key %q, never this fact, "+
				"as in Puppet. Give it nested instead (facts = { %s = { %s = ... } }).", name, name, top, sub, top, sub))
		}
		return len(inv.pitfalls) < maxPitfalls
	})
	layers, err := inv.layersFor(root)
	if err != nil {
		return
	}
	for _, l := range layers {
		if note := moduleWithoutConfig(l); note != "" {
			inv.pitfall(note)
		}
		if l.cfg != nil {
			inv.unsetInPaths(l)
		}
	}
}

// unsetInPaths adds a pitfall for each variable a hierarchy path of layer l interpolates that is
// not set: the path then holds an empty string (nodes/.yaml), and the level silently finds nothing.
func (inv *invocation) unsetInPaths(l *layer) {
	defer inv.leave(inv.enter(l))
	for _, entries := range [2][]*entry{l.cfg.entries, l.cfg.defaultEntries} {
		for _, e := range entries {
			inv.unsetInPath(l, e, e.datadir)
			if e.locKind == "mapped_paths" { // a variable name, a key and a template: not a path
				continue
			}
			for _, tpl := range e.locs {
				inv.unsetInPath(l, e, tpl)
			}
		}
	}
}

func (inv *invocation) unsetInPath(l *layer, e *entry, tpl string) {
	t := compilePathTemplate(tpl)
	if t.slow {
		return
	}
	for _, v := range t.vars {
		if inv.unsetVariable(v) {
			inv.pitfall(fmt.Sprintf("The hierarchy level %q (%s) interpolates %%{%s} in %q, which is not set: the path holds an empty "+
				"string there and the level finds nothing, as in Puppet. Give the fact or variable in facts or scope, or check its name.",
				e.name, l.cfg.path, v.expr, tpl))
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
