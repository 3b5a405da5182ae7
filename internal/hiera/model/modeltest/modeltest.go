package modeltest

import "github.com/hieraform/terraform-provider-hiera/internal/hiera/model"

// H builds a hash from alternating keys and values.
func H(kv ...any) *model.Hash {
	h := model.NewHash(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

// A builds an array.
func A(e ...any) []any {
	if e == nil {
		return []any{}
	}
	return e
}

// Same compares values including hash key order.
func Same(a, b any) bool {
	switch x := a.(type) {
	case *model.Hash:
		y, ok := b.(*model.Hash)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for i, k := range x.Keys() {
			if !model.Equal(k, y.Keys()[i]) || !Same(x.Vals[i], y.Vals[i]) {
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
			if !Same(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return model.Equal(a, b)
}
