package hiera

// Nested lookups answered once per invocation. Keys that interpolate the same keys again
// (a: "%{lookup('b')}%{lookup('b')}", b: "%{lookup('c')}%{lookup('c')}", ...) cost Puppet 2^n
// lookups; a node read looks every key up in one invocation and would pay that for each key.
// A nested lookup that succeeded gives the same answer wherever it is asked again in the
// invocation: what it reads is the same, and a recursion it would meet elsewhere is one it met
// already (a key on the guard that its lookup reaches reaches it back, a failure then too). The
// exceptions are the guard's depth, checked against the depth the answer needed, and lookups
// made while lookup_options are assembled (they see options not yet there), never remembered nor
// answered. Each use counts the nested lookups the answer cost, so the bound on a lookup's work
// (maxNestedLookups) fails the same lookups as without the memo.

import "slices"

// nestedAnswer is a remembered nested lookup and what it did to the invocation.
type nestedAnswer struct {
	value     any
	found     bool
	cost      int  // the nested lookups its computation counted
	depth     int  // how much deeper than where it was asked the recursion guard went
	sensitive bool // it touched a secret (inv.sensitive, inv.redact)
	redact    bool
}

// answerNested is lookup()'s answer for an interpolated key: remembered, or looked up.
func (inv *invocation) answerNested(key string) (any, bool, error) {
	if inv.ex != nil || (inv.req.Pitfalls && !inv.nodeRead) || slices.Contains(inv.nameStack, optionsKey) {
		inv.engine.nestedComputed.Add(1)
		return inv.lookupTop(key, nil, FuncLookup) // the trace and pitfalls are the lookups'
	}
	base := len(inv.nameStack)
	if a, ok := inv.answers[key]; ok && base+a.depth <= maxGuardDepth {
		if inv.nestedLookups += a.cost; inv.nestedLookups > maxNestedLookups {
			return nil, false, tooManyNestedLookups(key)
		}
		inv.deepest = max(inv.deepest, base+a.depth)
		inv.sensitive, inv.redact = inv.sensitive || a.sensitive, inv.redact || a.redact
		inv.volatile++ // as the lookup itself would: an interpolated value is not for the result cache
		return a.value, a.found, nil
	}
	inv.engine.nestedComputed.Add(1)
	sensitive, redact, deepest := inv.sensitive, inv.redact, inv.deepest
	count, assembled := inv.nestedLookups, inv.optionsAssembled
	inv.sensitive, inv.redact, inv.deepest = false, false, base
	v, found, err := inv.lookupTop(key, nil, FuncLookup)
	a := nestedAnswer{value: v, found: found, cost: inv.nestedLookups - count, depth: inv.deepest - base, sensitive: inv.sensitive, redact: inv.redact}
	inv.sensitive, inv.redact, inv.deepest = sensitive || a.sensitive, redact || a.redact, max(deepest, inv.deepest)
	// an answer that assembled a module's lookup_options is not kept: answered from memory, the
	// assembly would happen later, perhaps where it fails as recursion
	if err == nil && inv.optionsAssembled == assembled {
		if inv.answers == nil {
			inv.answers = map[string]nestedAnswer{}
		}
		inv.answers[key] = a
	}
	return v, found, err
}
