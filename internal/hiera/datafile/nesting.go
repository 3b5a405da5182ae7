package datafile

// How deep arrays and hashes nest in a value, for the data-file nesting limit.

import "github.com/hieraform/terraform-provider-hiera/internal/hiera/model"

// nestingExceeds reports whether arrays and hashes nest more than limit levels deep in v (the
// file's top hash is one level). When shared is set, collections may be shared through YAML
// aliases, and each is measured once.
func nestingExceeds(v any, limit int, shared bool) bool {
	var memo map[any]int
	if shared {
		memo = map[any]int{}
	}
	return nesting(v, memo) > limit
}

// nesting is the number of array and hash levels in v. With a memo, shared collections are
// measured once (memo is keyed by the *Hash or the array's first element).
func nesting(v any, memo map[any]int) int {
	var id any
	switch t := v.(type) {
	case *model.Hash:
		id = t
	case []any:
		if len(t) == 0 {
			return 1
		}
		id = &t[0]
	default:
		return 0
	}
	if d, ok := memo[id]; ok {
		return d
	}
	deepest := 0
	measure := func(x any) {
		if d := nesting(x, memo); d > deepest {
			deepest = d
		}
	}
	if h, isHash := v.(*model.Hash); isHash {
		h.Each(func(_, x any) bool { measure(x); return true })
	} else {
		list, _ := v.([]any) // nesting is only called on a Hash or an array
		for _, x := range list {
			measure(x)
		}
	}
	if memo != nil {
		memo[id] = deepest + 1
	}
	return deepest + 1
}
