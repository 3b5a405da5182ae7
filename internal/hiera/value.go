package hiera

import (
	"fmt"
	"hash/maphash"
	"math"
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
	index *hashIndex // nil while the hash is small
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

// hashIndex is an open-addressing table of the positions of a hash's keys: much smaller than a
// Go map of interface keys. A slot holds position+1; 0 is free.
type hashIndex struct {
	slots []int32
}

// bigKey is a big integer as a comparable Go value (its decimal text).
type bigKey string

// sameKey reports whether a and b are the same hash key, as Ruby's eql? sees them: Go's == (which
// keeps 1 and 1.0 apart), except that big integers are compared by value.
func sameKey(a, b any) bool {
	if x, ok := a.(*big.Int); ok {
		y, ok := b.(*big.Int)
		return ok && x.Cmp(y) == 0
	}
	return a == b
}

// buildIndex indexes all of h's keys in a table at most half full.
func (h *Hash) buildIndex() {
	size := 16
	for size < 2*cap(h.keys) {
		size *= 2
	}
	h.index = &hashIndex{slots: make([]int32, size)}
	for i, k := range h.keys {
		h.index.add(k, i)
	}
}

var (
	hashSeed    = maphash.MakeSeed()
	hashIntSeed = maphash.String(hashSeed, "int")
)

// keyHash hashes a key so that sameKey keys hash alike. Keys are scalars; anything else hashes to 0,
// which is slow but right.
func keyHash(k any) uint64 {
	switch t := k.(type) {
	case string:
		return maphash.String(hashSeed, t)
	case int64:
		return mix64(uint64(t) ^ hashIntSeed)
	case float64:
		if t == 0 {
			t = 0 // -0.0 == 0.0
		}
		return mix64(math.Float64bits(t) ^ hashIntSeed)
	case *big.Int:
		h := hashIntSeed + uint64(t.Sign())
		for _, w := range t.Bits() {
			h = mix64(h ^ uint64(w))
		}
		return h
	case bool:
		if t {
			return 1
		}
		return 2
	case rubySymbol:
		return maphash.String(hashSeed, t.name)
	}
	return 0
}

// mix64 is splitmix64's finalizer.
func mix64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	return x ^ x>>33
}

// slot returns where k is in the table, or the free slot where it would go.
func (x *hashIndex) slot(keys []any, k any) int {
	mask := uint64(len(x.slots) - 1)
	for i := keyHash(k) & mask; ; i = (i + 1) & mask {
		if p := x.slots[i]; p == 0 || sameKey(keys[p-1], k) {
			return int(i)
		}
	}
}

func (x *hashIndex) add(k any, pos int) {
	mask := uint64(len(x.slots) - 1)
	i := keyHash(k) & mask
	for x.slots[i] != 0 {
		i = (i + 1) & mask
	}
	x.slots[i] = int32(pos + 1)
}

// find returns the position of k, or -1.
func (h *Hash) find(k any) int {
	if h.index != nil {
		return int(h.index.slots[h.index.slot(h.keys, k)]) - 1
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
	case h.index != nil && 2*n <= len(h.index.slots):
		h.index.add(k, n-1)
	case n > hashIndexMin:
		h.buildIndex() // first or larger
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
		h.buildIndex() // positions have moved
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
	case []any, *Hash:
		return containersEqual(a, b, Equal)
	}
	return false
}

// containersEqual compares two arrays or two hashes element by element with eq (hash order is
// ignored, as in Ruby); false for anything else.
func containersEqual(a, b any, eq func(a, b any) bool) bool {
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !eq(x[i], y[i]) {
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
			if !ok || !eq(x.vals[i], w) {
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
