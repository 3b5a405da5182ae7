package datafile

// How deep arrays and hashes nest in a value, and how much text it holds with its YAML aliases
// expanded: the limits of data and facts files.

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
	id, isCollection := collectionID(v)
	switch {
	case !isCollection:
		return 0
	case id == nil:
		return 1
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

// textExceeds reports whether v, written out with its shared (aliased) collections repeated,
// holds more than limit bytes of text: its strings and a byte for each value. Each shared
// collection is measured once.
func textExceeds(v any, limit int) bool {
	return textSize(v, map[any]int{}, limit) > limit
}

// textSize is textExceeds' measure, saturating at limit+1.
func textSize(v any, memo map[any]int, limit int) int {
	id, isCollection := collectionID(v)
	switch s, isStr := v.(string); {
	case isStr:
		return min(len(s)+1, limit+1)
	case !isCollection || id == nil:
		return 1
	}
	if n, ok := memo[id]; ok {
		return n
	}
	total := 1
	add := func(x any) bool {
		total = min(total+textSize(x, memo, limit), limit+1)
		return total <= limit
	}
	if h, isHash := v.(*model.Hash); isHash {
		h.Each(func(k, x any) bool { return add(k) && add(x) })
	} else {
		list, _ := v.([]any) // a Hash or an array here
		for _, x := range list {
			if !add(x) {
				break
			}
		}
	}
	memo[id] = total
	return total
}

// collectionID identifies a hash or array shared through YAML aliases: the *Hash, or the array's
// first element (nil for an empty array, which nothing needs to tell apart).
func collectionID(v any) (id any, isCollection bool) {
	switch t := v.(type) {
	case *model.Hash:
		return t, true
	case []any:
		if len(t) == 0 {
			return nil, true
		}
		return &t[0], true
	}
	return nil, false
}
