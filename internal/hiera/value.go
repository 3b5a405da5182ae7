package hiera

import (
	"fmt"
	"math/big"
	"sort"
)

// Values inside the engine are a closed set of Go types, mirroring Puppet's RichData:
//
//	nil          YAML null / Ruby nil (a *found* nil; "not found" is a separate flag)
//	bool
//	int64        integers that fit
//	*big.Int     integers that do not fit in int64 (Ruby Bignum), kept exact
//	float64
//	string
//	[]any        arrays
//	*Hash        ordered hashes whose keys are scalars (string, int64, *big.Int, float64, bool, nil)
//
// Values read from data files are shared by the cache and by concurrent lookups: code must never
// mutate a value it did not create itself (use Copy first).

// Hash is an insertion-ordered map, like a Ruby Hash. Keys may be any scalar value.
//
// Most hashes in data files are small, so a hash of up to hashIndexMin entries has no index and is
// searched linearly; a larger one gets its index as soon as it grows past that (in Set, never in a
// reader: hashes are read by concurrent lookups).
type Hash struct {
	keys  []any
	vals  []any
	index map[any]int // mapKey(key) -> position; nil while the hash is small
}

// hashIndexMin is the size past which a hash keeps an index.
const hashIndexMin = 8

// NewHash returns an empty hash with room for n entries.
func NewHash(n int) *Hash {
	if n <= 0 {
		return &Hash{}
	}
	// One allocation for keys and values: keys use the first half, values the second.
	buf := make([]any, 0, 2*n)
	return &Hash{keys: buf[0:0:n], vals: buf[n : n : 2*n]}
}

// mapKey turns a scalar key into a comparable Go map key. Ruby's eql? keeps 1 and 1.0 apart,
// and so do Go interface keys; big integers are keyed by their decimal text.
type bigKey string

func mapKey(k any) any {
	if b, ok := k.(*big.Int); ok {
		return bigKey(b.String())
	}
	return k
}

// sameKey is mapKey(a) == mapKey(b) without building map keys.
func sameKey(a, b any) bool {
	if x, ok := a.(*big.Int); ok {
		y, ok := b.(*big.Int)
		return ok && x.Cmp(y) == 0
	}
	return a == b
}

// find returns the position of k, or -1.
func (h *Hash) find(k any) int {
	if h.index != nil {
		if i, ok := h.index[mapKey(k)]; ok {
			return i
		}
		return -1
	}
	for i, e := range h.keys {
		if sameKey(e, k) {
			return i
		}
	}
	return -1
}

// Len is the number of entries.
func (h *Hash) Len() int {
	if h == nil {
		return 0
	}
	return len(h.keys)
}

// Keys returns the keys in order. The slice must not be modified.
func (h *Hash) Keys() []any {
	if h == nil {
		return nil
	}
	return h.keys
}

// Get returns the value stored under k.
func (h *Hash) Get(k any) (any, bool) {
	if h == nil {
		return nil, false
	}
	if i := h.find(k); i >= 0 {
		return h.vals[i], true
	}
	return nil, false
}

// Set stores v under k, keeping the position of an existing key and appending a new one.
func (h *Hash) Set(k, v any) {
	if i := h.find(k); i >= 0 {
		h.vals[i] = v
		return
	}
	h.keys = append(h.keys, k)
	h.vals = append(h.vals, v)
	switch n := len(h.keys); {
	case h.index != nil:
		h.index[mapKey(k)] = n - 1
	case n > hashIndexMin:
		h.index = make(map[any]int, max(n, cap(h.keys)))
		for i, e := range h.keys {
			h.index[mapKey(e)] = i
		}
	}
}

// Delete removes k, keeping the order of the other entries.
func (h *Hash) Delete(k any) {
	i := h.find(k)
	if i < 0 {
		return
	}
	h.keys = append(h.keys[:i], h.keys[i+1:]...)
	h.vals = append(h.vals[:i], h.vals[i+1:]...)
	if h.index != nil {
		delete(h.index, mapKey(k))
		for j := i; j < len(h.keys); j++ {
			h.index[mapKey(h.keys[j])] = j
		}
	}
}

// Each calls fn for every entry in order until fn returns false.
func (h *Hash) Each(fn func(k, v any) bool) {
	if h == nil {
		return
	}
	for i, k := range h.keys {
		if !fn(k, h.vals[i]) {
			return
		}
	}
}

// Copy returns a deep copy of v: hashes and arrays are new, scalars are shared (they are immutable).
func Copy(v any) any {
	switch t := v.(type) {
	case *Hash:
		out := NewHash(t.Len())
		for i, k := range t.keys {
			out.Set(k, Copy(t.vals[i]))
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = Copy(e)
		}
		return out
	default:
		return v
	}
}

// Equal reports whether a and b are the same value with the same types (Ruby ==, but 1 and 1.0
// differ, as Array#| and Array#uniq see them). Hash equality ignores order, as Ruby's does.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool, string, float64:
		return a == b
	case int64:
		if y, ok := b.(*big.Int); ok {
			return y.IsInt64() && y.Int64() == x
		}
		return a == b
	case *big.Int:
		switch y := b.(type) {
		case *big.Int:
			return x.Cmp(y) == 0
		case int64:
			return x.IsInt64() && x.Int64() == y
		}
		return false
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case *Hash:
		y, ok := b.(*Hash)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for i, k := range x.keys {
			w, ok := y.Get(k)
			if !ok || !Equal(x.vals[i], w) {
				return false
			}
		}
		return true
	}
	return false
}

// FromGo converts plain Go data (as decoded from JSON or built by the provider) into engine values:
// map[string]any becomes a *Hash with sorted keys, ints become int64, []T becomes []any.
func FromGo(v any) (any, error) {
	switch t := v.(type) {
	case nil, bool, string, int64, float64, *big.Int:
		return t, nil
	case int:
		return int64(t), nil
	case int32:
		return int64(t), nil
	case float32:
		return float64(t), nil
	case *big.Float:
		if t.IsInt() {
			i, _ := t.Int(nil)
			return normInt(i), nil
		}
		f, _ := t.Float64()
		return f, nil
	case *Hash:
		return t, nil
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		h := NewHash(len(keys))
		for _, k := range keys {
			cv, err := FromGo(t[k])
			if err != nil {
				return nil, err
			}
			h.Set(k, cv)
		}
		return h, nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			cv, err := FromGo(e)
			if err != nil {
				return nil, err
			}
			out[i] = cv
		}
		return out, nil
	case []string:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = e
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported value of Go type %T", v)
}

// normInt returns an int64 when i fits, else i itself.
func normInt(i *big.Int) any {
	if i.IsInt64() {
		return i.Int64()
	}
	return i
}
