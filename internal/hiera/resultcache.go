package hiera

import (
	"strconv"
	"sync"
)

// The result cache makes warm lookups cheap. A search's merged value depends only on which files
// the hierarchy resolves to (and their versions), the root key and the merge; unless interpolation
// changed a value (facts, lookup()), decryption happened or a warning was raised, in which case the
// search is not cached. Cached values are shared and never mutated.

const maxCachedResults = 1 << 16

type resultCache struct {
	mu      sync.RWMutex
	entries map[string]cachedResult
}

type cachedResult struct {
	value    any
	found    bool
	searched []string // the levels the search consulted, for not-found diagnostics
}

// get and put take the key as bytes: a lookup builds it in a buffer, and only storing it needs a
// string.
func (c *resultCache) get(key []byte) (cachedResult, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	r, ok := c.entries[string(key)]
	return r, ok
}

func (c *resultCache) put(key []byte, r cachedResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxCachedResults {
		c.entries = make(map[string]cachedResult) // simple bound: start over
	}
	c.entries[string(key)] = r
}

// hierarchySignature identifies the files the layers' hierarchies resolve to for this
// invocation's scope, with their versions. ok is false when a hierarchy cannot be signed (an entry
// fails to resolve: the uncached search then reports the error where Puppet would).
func (inv *invocation) hierarchySignature(layers []*layer) ([]byte, bool) {
	id := make([]byte, 0, 32)
	for _, l := range layers {
		id = append(append(append(id, byte('0'+l.place)), l.module...), 0)
	}
	if sig, ok := inv.signatures[string(id)]; ok {
		return sig, true
	}
	b := append(make([]byte, 0, 1024), id...)
	for _, l := range layers {
		if l.cfg == nil {
			continue
		}
		if !inv.signLayer(l, &b) {
			return nil, false
		}
	}
	if inv.signatures == nil {
		inv.signatures = map[string][]byte{}
	}
	inv.signatures[string(id)] = b
	return b, true
}

func (inv *invocation) signLayer(l *layer, b *[]byte) bool {
	defer inv.leave(inv.enter(l))
	*b = append(append(*b, l.cfg.path...), 0)
	for _, e := range l.cfg.entries {
		locs, err := inv.entryLocations(e)
		if err != nil {
			return false
		}
		*b = append(append(append(append(*b, e.name...), 0), e.fn.name...), 0)
		for _, loc := range locs {
			*b = append(*b, loc.path...)
			if df, exists := inv.data(loc.path, e.fn); exists {
				*b = df.stamp.appendTo(*b)
				for _, inc := range df.includes {
					*b = inc.stamp.appendTo(append(append(*b, 1), inc.path...))
				}
			}
			*b = append(*b, 0)
		}
	}
	return true
}

// appendTo writes a file version into a signature.
func (s fileStamp) appendTo(b []byte) []byte {
	b = strconv.AppendInt(append(b, 1), s.size, 36)
	return strconv.AppendInt(append(b, 1), s.mtime.UnixNano(), 36)
}

// entryLocations resolves an entry's locations once per invocation.
func (inv *invocation) entryLocations(e *entry) ([]location, error) {
	if locs, ok := inv.locs[e]; ok {
		return locs, nil
	}
	locs, err := inv.locations(e)
	if err != nil {
		return nil, err
	}
	if inv.locs == nil {
		inv.locs = map[*entry][]location{}
	}
	inv.locs[e] = locs
	return locs, nil
}

// data returns a data file, stat-ing it once per invocation.
func (inv *invocation) data(path string, fn *dataFunction) (*dataFile, bool) {
	key := fileKey{fn: fn, path: path}
	if df, ok := inv.files[key]; ok {
		return df, df != nil
	}
	df, exists := inv.engine.dataFor(path, fn)
	if inv.files == nil {
		inv.files = map[fileKey]*dataFile{}
	}
	inv.files[key] = df // nil when the file does not exist
	return df, exists
}

// cachedSearch runs search, a search of root over layers, with the engine's result cache in front
// (never while explaining).
func (inv *invocation) cachedSearch(layers []*layer, root string, m *Merge, search func() (any, bool, error)) (any, bool, error) {
	if inv.ex != nil {
		return search()
	}
	sig, ok := inv.hierarchySignature(layers)
	if !ok {
		return search()
	}
	key := make([]byte, 0, len(root)+len(m.Deep.KnockoutPrefix)+len(sig)+32)
	key = m.appendKey(append(append(key, root...), 0))
	key = append(key, sig...)
	if r, hit := inv.engine.results.get(key); hit {
		for _, name := range r.searched {
			inv.noteSearched(name)
		}
		return r.value, r.found, nil
	}
	before, searchedBefore := inv.volatile, len(inv.searched)
	v, found, err := search()
	if err == nil && inv.volatile == before {
		searched := append([]string(nil), inv.searched[searchedBefore:]...)
		inv.engine.results.put(key, cachedResult{value: v, found: found, searched: searched})
	}
	return v, found, err
}
