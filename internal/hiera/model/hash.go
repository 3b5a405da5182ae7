package model

import (
	"hash/maphash"
	"math"
	"math/big"
)

// Hash is an insertion-ordered map, like a Ruby Hash. Keys may be any scalar value.
//
// A large hierarchy holds hundreds of thousands of hashes, mostly small and mostly with one of a
// few thousand lists of keys, so a hash is kept compact: the values are its own, and the keys are
// a keyList that the hashes read from data files share (see sharing.go). A hash of up to
// HashIndexMin entries has no index and is searched linearly; a larger one gets its index as soon
// as it grows past that (in Set, never in a reader: hashes are read by concurrent lookups).
type Hash struct {
	kl   *keyList // nil while empty; as many keys as vals
	Vals []any
}

// keyList is the keys of a hash in order. A shared list belongs to several hashes and never
// changes: a hash that changes its keys first takes a list of its own.
type keyList struct {
	keys   []any
	index  *hashIndex // nil while the list is small
	shared bool
	next   *keyList // a shared list's successor among those with the same hash (see sharing)
}

// HashIndexMin is the size past which a hash keeps an index.
const HashIndexMin = 8

// hashParts is a hash with its own key list, allocated together.
type hashParts struct {
	Hash
	list keyList
}

// init makes h's keys and values the two halves of store, with room for n entries each.
func (h *hashParts) init(store []any, n int) *Hash {
	h.list.keys = store[:0:n]
	h.Vals = store[n : n : 2*n]
	h.kl = &h.list
	return &h.Hash
}

// NewHash returns an empty hash with room for n entries. A small hash is one object (fewer
// objects make garbage collection cheaper).
func NewHash(n int) *Hash {
	switch {
	case n <= 0:
		return &Hash{}
	case n == 1:
		b := new(struct {
			hashParts
			store [2]any
		})
		return b.init(b.store[:], n)
	case n == 2:
		b := new(struct {
			hashParts
			store [4]any
		})
		return b.init(b.store[:], n)
	case n <= 4:
		b := new(struct {
			hashParts
			store [8]any
		})
		return b.init(b.store[:], 4)
	}
	return new(hashParts).init(make([]any, 2*n), n)
}

// RawKeys are the hash's keys in order. Never append to them or change them.
func (h *Hash) RawKeys() []any {
	if h.kl == nil {
		return nil
	}
	return h.kl.keys
}

// ownKeys returns the hash's key list after making it the hash's own, if it was shared or missing.
func (h *Hash) ownKeys() *keyList {
	switch {
	case h.kl == nil:
		h.kl = &keyList{}
	case h.kl.shared: // shared lists are small: no index to copy
		keys := make([]any, len(h.kl.keys), len(h.kl.keys)+1)
		copy(keys, h.kl.keys)
		h.kl = &keyList{keys: keys}
	}
	return h.kl
}

// hashIndex is an open-addressing table of the positions of a hash's keys: much smaller than a
// Go map of interface keys. A slot holds position+1; 0 is free.
type hashIndex struct {
	slots []int32
}

// sameKey reports whether a and b are the same hash key, as Ruby's eql? sees them: Go's == (which
// keeps 1 and 1.0 apart), except that big integers are compared by value.
func sameKey(a, b any) bool {
	if x, ok := a.(*big.Int); ok {
		y, ok := b.(*big.Int)
		return ok && x.Cmp(y) == 0
	}
	return a == b
}

// buildIndex indexes all of the list's keys in a table at most half full.
func (l *keyList) buildIndex() {
	size := 16
	for size < 2*cap(l.keys) {
		size *= 2
	}
	l.index = &hashIndex{slots: make([]int32, size)}
	for i, k := range l.keys {
		l.index.add(k, i)
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
	case Symbol:
		return maphash.String(hashSeed, t.Name)
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
	if h.kl == nil {
		return -1
	}
	if x := h.kl.index; x != nil {
		return int(x.slots[x.slot(h.kl.keys, k)]) - 1
	}
	for i, e := range h.kl.keys {
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
	return len(h.Vals)
}

// Keys returns the keys in order. The slice must not be modified.
func (h *Hash) Keys() []any {
	if h == nil {
		return nil
	}
	return h.RawKeys()
}

// Get returns the value stored under k.
func (h *Hash) Get(k any) (any, bool) {
	if h == nil {
		return nil, false
	}
	if i := h.find(k); i >= 0 {
		return h.Vals[i], true
	}
	return nil, false
}

// Set stores v under k, keeping the position of an existing key and appending a new one.
func (h *Hash) Set(k, v any) {
	if i := h.find(k); i >= 0 {
		h.Vals[i] = v
		return
	}
	l := h.ownKeys()
	l.keys = append(l.keys, k)
	h.Vals = append(h.Vals, v)
	switch n := len(l.keys); {
	case l.index != nil && 2*n <= len(l.index.slots):
		l.index.add(k, n-1)
	case n > HashIndexMin:
		l.buildIndex() // first or larger
	}
}

// Delete removes k, keeping the order of the other entries.
func (h *Hash) Delete(k any) {
	i := h.find(k)
	if i < 0 {
		return
	}
	l := h.ownKeys()
	last := len(l.keys) - 1
	copy(l.keys[i:], l.keys[i+1:])
	copy(h.Vals[i:], h.Vals[i+1:])
	l.keys[last], h.Vals[last] = nil, nil // no longer referenced
	l.keys, h.Vals = l.keys[:last], h.Vals[:last]
	if l.index != nil {
		l.buildIndex() // positions have moved
	}
}

// Each calls fn for every entry in order until fn returns false.
func (h *Hash) Each(fn func(k, v any) bool) {
	if h == nil {
		return
	}
	for i, k := range h.RawKeys() {
		if !fn(k, h.Vals[i]) {
			return
		}
	}
}

// ValueHash hashes a value so that Equal values hash alike: arrays by their elements in order,
// hashes by their entries in any order (Equal ignores hash order).
func ValueHash(v any) uint64 {
	switch t := v.(type) {
	case []any:
		h := mix64(uint64(len(t)) ^ hashIntSeed)
		for _, e := range t {
			h = mix64(h ^ ValueHash(e))
		}
		return h
	case *Hash:
		h := uint64(t.Len())
		for i, k := range t.RawKeys() {
			h += mix64(keyHash(k) ^ mix64(ValueHash(t.Vals[i])))
		}
		return mix64(h ^ 3)
	case *big.Int:
		if t.IsInt64() { // Equal to the int64
			return keyHash(t.Int64())
		}
	case *big.Float: // equal ones are equal as float64 too
		return keyHash(NearFloat(t)) ^ 5
	case nil:
		return 4
	}
	return keyHash(v)
}
