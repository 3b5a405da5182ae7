// Package modeltest builds and compares engine values in tests.
package hiera

// mtH builds a hash from alternating keys and values.
func mtH(kv ...any) *Hash {
	h := NewHash(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

// mtA builds an array.
func mtA(e ...any) []any {
	if e == nil {
		return []any{}
	}
	return e
}

// mtSame compares values including hash key order.
func mtSame(a, b any) bool {
	switch x := a.(type) {
	case *Hash:
		y, ok := b.(*Hash)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for i, k := range x.Keys() {
			if !Equal(k, y.Keys()[i]) || !mtSame(x.vals[i], y.vals[i]) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !mtSame(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return Equal(a, b)
}
