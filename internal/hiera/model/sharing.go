package model

import (
	"math"
	"sync"
)

// Sharing lets the data files of one engine share what they repeat. Each level of a hierarchy
// repeats mostly the same keys, and most of its hashes have one of a few thousand lists of keys
// (a large hierarchy had 600,000 small hashes with 14,000 key lists): shared, they take a fifth
// less memory. A file's reader already shares scalars within the file.
type Sharing struct {
	mu    sync.Mutex
	keys  map[string]any      // the values of plain keys, by text
	lists map[uint64]*keyList // shared key lists by the hash of their keys, chained through next
	count int                 // lists in lists
}

// sharingMax bounds each table; past it, new keys and key lists are not shared.
const sharingMax = 1 << 16

// Key returns the shared value of the plain key text s. A nil table has none.
func (t *Sharing) Key(s string) (any, bool) {
	if t == nil {
		return nil, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	v, ok := t.keys[s]
	return v, ok
}

// ShareKey returns the shared value of the plain key text s, which is v unless another file got
// there first.
func (t *Sharing) ShareKey(s string, v any) any {
	if t == nil {
		return v
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if old, ok := t.keys[s]; ok {
		return old
	}
	if t.keys == nil {
		t.keys = map[string]any{}
	}
	if len(t.keys) < sharingMax {
		t.keys[s] = v
	}
	return v
}

// HashOf returns the hash of the alternating keys and values in kv, as Set would build it one
// entry at a time. A small hash without duplicate keys shares its key list through t.
func (t *Sharing) HashOf(kv []any) *Hash {
	n := len(kv) / 2
	if t == nil || n == 0 || n > HashIndexMin || hasDuplicateKeys(kv) {
		h := NewHash(n)
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	h := hashOfValues(n)
	h.kl = t.keyList(kv)
	for i := range h.Vals {
		h.Vals[i] = kv[2*i+1]
	}
	return h
}

// keyList returns the shared list of the keys of kv (alternating keys and values).
func (t *Sharing) keyList(kv []any) *keyList {
	sum := uint64(len(kv))
	for i := 0; i < len(kv); i += 2 {
		sum = mix64(sum ^ keyHash(kv[i]))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for l := t.lists[sum]; l != nil; l = l.next {
		if identicalKeys(l.keys, kv) {
			return l
		}
	}
	l := newSharedList(len(kv) / 2)
	for i := range l.keys {
		l.keys[i] = kv[2*i]
	}
	if t.count < sharingMax {
		if t.lists == nil {
			t.lists = map[uint64]*keyList{}
		}
		l.next, t.lists[sum] = t.lists[sum], l
		t.count++
	}
	return l
}

// newSharedList allocates a shared key list of n keys, a small one together with its keys:
// looking a list up then reads one object, not two.
func newSharedList(n int) *keyList {
	var l *keyList
	switch n {
	case 1:
		l = listWithKeys(func(a *[1]any) []any { return a[:] })
	case 2:
		l = listWithKeys(func(a *[2]any) []any { return a[:] })
	case 3:
		l = listWithKeys(func(a *[3]any) []any { return a[:] })
	case 4:
		l = listWithKeys(func(a *[4]any) []any { return a[:] })
	default:
		l = &keyList{keys: make([]any, n)}
	}
	l.shared = true
	return l
}

// listWithKeys allocates a key list and the array A of its keys as one object (Go cannot slice
// an array whose length is a type parameter, so keys does).
func listWithKeys[A any](keys func(*A) []any) *keyList {
	b := new(struct {
		keyList
		store A
	})
	b.keys = keys(&b.store)
	return &b.keyList
}

// identicalKeys reports whether keys are the keys of kv, of the same types and written the same:
// -0.0 and 0.0 are the same key, but a hash shows the one it was given.
func identicalKeys(keys, kv []any) bool {
	if 2*len(keys) != len(kv) {
		return false
	}
	for i, k := range keys {
		if x, ok := k.(float64); ok {
			y, ok := kv[2*i].(float64)
			if !ok || math.Float64bits(x) != math.Float64bits(y) {
				return false
			}
		} else if k != kv[2*i] {
			return false
		}
	}
	return true
}

// hasDuplicateKeys reports whether kv (alternating keys and values, a few) repeats a key.
func hasDuplicateKeys(kv []any) bool {
	for i := 0; i < len(kv); i += 2 {
		for j := i + 2; j < len(kv); j += 2 {
			if sameKey(kv[i], kv[j]) {
				return true
			}
		}
	}
	return false
}

// hashOfValues allocates a hash of n values (at most HashIndexMin) together with them, leaving
// its keys to the caller.
func hashOfValues(n int) *Hash {
	switch n {
	case 1:
		b := new(struct {
			Hash
			store [1]any
		})
		b.Vals = b.store[:]
		return &b.Hash
	case 2:
		b := new(struct {
			Hash
			store [2]any
		})
		b.Vals = b.store[:]
		return &b.Hash
	case 3:
		b := new(struct {
			Hash
			store [3]any
		})
		b.Vals = b.store[:]
		return &b.Hash
	case 4:
		b := new(struct {
			Hash
			store [4]any
		})
		b.Vals = b.store[:]
		return &b.Hash
	}
	return &Hash{Vals: make([]any, n)}
}
