package hiera

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"sync"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/hieraconfig"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// The result cache makes warm lookups cheap. A search's merged value depends only on which files
// the hierarchy resolves to (and their versions), the root key and the merge; unless interpolation
// changed a value (facts, lookup()), decryption happened or a warning was raised, in which case the
// search is not cached. Cached values are shared and never mutated.

// maxResultBytes bounds the result cache by the bytes its entries hold (resultBytes: the keys,
// signatures, searched levels, sources and values, as estimated); full, it starts over. A fleet's
// read gives every node a signature of its own, so each node's results would otherwise stay until
// the process exits (10,000 nodes x 4 keys of the benchmarks' fleet: 100 MB). An entry of more than an eighth of it is not
// kept: its search runs again.
var maxResultBytes int64 = 16 << 20 // a variable for its test

type resultCache struct {
	mu      sync.RWMutex
	entries map[string]map[string]cachedResult // by hierarchy signature, then root key and merge
	bytes   int64
	peak    int64 // the most bytes held at once, for tests
}

type cachedResult struct {
	value    any
	found    bool
	searched []string // the levels the search consulted, for not-found diagnostics
	sources  []Source // the files that gave the value
}

// get and put take the keys as bytes: a lookup builds them in buffers, and only storing them
// needs strings. The signature, a kilobyte for a large hierarchy, is stored once for all its keys.
func (c *resultCache) get(sig, key []byte) (cachedResult, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	r, ok := c.entries[string(sig)][string(key)]
	return r, ok
}

func (c *resultCache) put(sig, key []byte, r cachedResult) {
	limit := maxResultBytes / 8
	size := resultBytes(r, int64(len(key)), limit)
	if size > limit {
		return
	}
	sigSize := entryOverhead + int64(len(sig)) // when the entry is its signature's first
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || c.bytes+size+sigSize > maxResultBytes {
		c.entries, c.bytes = make(map[string]map[string]cachedResult), 0 // simple bound: start over
	}
	byKey := c.entries[string(sig)]
	if byKey == nil {
		byKey = map[string]cachedResult{}
		c.entries[string(sig)] = byKey
		c.bytes += sigSize
	}
	if _, ok := byKey[string(key)]; ok {
		return // another lookup put it meanwhile (a search's result depends only on its keys)
	}
	byKey[string(key)] = r
	c.bytes += size
	c.peak = max(c.peak, c.bytes)
}

// entryOverhead is what an entry of a map, its string header and slices take besides their bytes.
const entryOverhead = 64

// resultBytes estimates the bytes r and its key hold, counting no further than limit: its value
// whole, even where it is a data file's own (a first found value), so that the estimate is never
// less than what the entry alone keeps alive.
func resultBytes(r cachedResult, keyLen, limit int64) int64 {
	n := entryOverhead + keyLen + int64(16*len(r.searched))
	for _, s := range r.searched {
		n += int64(len(s))
	}
	for _, s := range r.sources {
		n += entryOverhead + int64(len(s.Layer)+len(s.Module)+len(s.Level)+len(s.File))
	}
	return valueBytes(r.value, n, limit)
}

// valueBytes adds to n the bytes of the engine value v (the headers and contents of its strings,
// arrays and hashes), stopping once the sum passes limit.
func valueBytes(v any, n, limit int64) int64 {
	n += 16 // the interface
	switch t := v.(type) {
	case string:
		n += 16 + int64(len(t))
	case []any:
		n += 24
		for _, e := range t {
			if n > limit {
				return n
			}
			n = valueBytes(e, n, limit)
		}
	case *model.Hash:
		n += entryOverhead
		t.Each(func(k, e any) bool {
			n = valueBytes(e, valueBytes(k, n, limit), limit)
			return n <= limit
		})
	case *big.Int, *big.Float:
		n += 32
	}
	return n
}

// hierarchySignature identifies the files the layers' hierarchies resolve to for this
// invocation's scope, with their versions. ok is false when a hierarchy cannot be signed (an entry
// fails to resolve: the uncached search then reports the error where Puppet would).
func (inv *invocation) hierarchySignature(layers []*layer) ([]byte, bool) {
	var buf [64]byte
	id := buf[:0]
	for _, l := range layers {
		id = append(append(append(id, byte('0'+l.place)), l.module...), 0)
	}
	for _, s := range inv.signatures {
		if s.id == string(id) {
			return s.sig, true
		}
	}
	now := inv.engine.now().UnixNano()
	key := signatureKey{scope: inv.req.Scope, layers: inv.engine.layerIDs.intern(id)}
	sig, ok := inv.engine.signatures.get(key, layers, now)
	if !ok {
		sig = append(make([]byte, 0, 1024), id...)
		s := signing{until: math.MaxInt64, lasting: true}
		for _, l := range layers {
			if l.cfg == nil {
				continue
			}
			if !inv.signLayer(l, &sig, &s) {
				return nil, false
			}
		}
		if s.lasting && now < s.until {
			inv.engine.signatures.put(key, layers, sig, s.until)
		}
	}
	inv.signatures = append(inv.signatures, layersSignature{id: key.layers, sig: sig})
	return sig, true
}

// layersSignature is a hierarchy signature an invocation computed, by its layers' id.
type layersSignature struct {
	id  string
	sig []byte
}

// internTable hands out one string per text: the layers' ids, which every lookup builds in a
// buffer, become keys without an allocation each.
type internTable struct {
	mu sync.RWMutex
	m  map[string]string
}

func (t *internTable) intern(b []byte) string {
	t.mu.RLock()
	s, ok := t.m[string(b)]
	t.mu.RUnlock()
	if ok {
		return s
	}
	s = string(b)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil || len(t.m) >= maxCachedSignatures {
		t.m = map[string]string{} // simple bound (ids name modules, which keys choose): start over
	}
	t.m[s] = s
	return s
}

// signing is what a signature depends on besides the scope and the configurations.
type signing struct {
	until   int64 // the engine looks at none of the files again before this (Unix nanoseconds)
	lasting bool  // false when the locations depend on more than the scope (globs, ...)
}

func (inv *invocation) signLayer(l *layer, b *[]byte, s *signing) bool {
	defer inv.leave(inv.enter(l))
	*b = append(append(*b, l.cfg.Path...), 0)
	for _, e := range l.cfg.Entries {
		locs, err := inv.entryLocations(e)
		if err != nil {
			return false
		}
		if inv.cfg.V3 != nil || (e.LocKind != "path" && e.LocKind != "paths") {
			s.lasting = false // globs and mapped_paths depend on more than the scope
		}
		*b = append(append(append(append(*b, e.Name...), 0), e.Function.Name...), 0)
		for _, loc := range locs {
			*b = append(*b, loc.path...)
			df, exists, until := inv.data(loc.path, e.Function)
			s.until = min(s.until, until)
			if exists {
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

// A hierarchy's signature outlives the lookup that computed it: for the same scope (the same Facts
// and Vars hashes, which callers never change), the same configurations and plain paths, the
// hierarchy resolves to the same files, and the engine does not look at those again before
// StampCheckInterval has passed. A warm lookup with a scope it has seen (every data source
// without facts of its own, in the provider) then skips resolving its hierarchy.

const maxCachedSignatures = 1 << 12

type signatureCache struct {
	mu      sync.Mutex
	entries map[signatureKey]cachedSignature
}

type signatureKey struct {
	scope  Scope
	layers string // the layers' places and modules
}

type cachedSignature struct {
	configs []*config // the layers' configurations, in order
	sig     []byte
	until   int64
}

func (c *signatureCache) get(key signatureKey, layers []*layer, now int64) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || now >= e.until || len(e.configs) != len(layers) {
		return nil, false
	}
	for i, l := range layers {
		if e.configs[i] != l.cfg {
			return nil, false
		}
	}
	return e.sig, true
}

func (c *signatureCache) put(key signatureKey, layers []*layer, sig []byte, until int64) {
	configs := make([]*config, len(layers))
	for i, l := range layers {
		configs[i] = l.cfg
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxCachedSignatures {
		c.entries = make(map[signatureKey]cachedSignature) // simple bound: start over
	}
	c.entries[key] = cachedSignature{configs: configs, sig: sig, until: until}
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

// data returns a data file of the current layer, stat-ing it once per invocation; until is
// dataFor's.
func (inv *invocation) data(path string, fn *hieraconfig.Function) (*dataFile, bool, int64) {
	key := fileKey{fn: fn, path: path, configDir: inv.cfg.Dir}
	if f, ok := inv.files[key]; ok {
		return f.df, f.df != nil, f.until
	}
	df, exists, until := inv.engine.dataFor(key)
	if inv.files == nil {
		inv.files = map[fileKey]seenFile{}
	}
	inv.files[key] = seenFile{df: df, until: until} // df nil when the file does not exist
	return df, exists, until
}

// cachedSearch runs search, a search of root over layers, with the engine's result cache in front
// (never while explaining).
func (inv *invocation) cachedSearch(layers []*layer, root string, m *merge.Merge, search func() (any, bool, error)) (any, bool, error) {
	if inv.ex != nil {
		return search()
	}
	sig, ok := inv.hierarchySignature(layers)
	if !ok {
		return search()
	}
	var buf [128]byte // most keys fit: no allocation
	key := m.AppendKey(append(append(buf[:0], root...), 0))
	if inv.req.Without.Key == root { // the answer without a file's value is another answer
		key = append(append(key, 0), inv.req.Without.File...)
	}
	if r, hit := inv.engine.results.get(sig, key); hit {
		if len(inv.searched) == 0 { // the names are distinct already; clipped, so appending copies
			inv.searched = r.searched
		}
		for _, name := range r.searched {
			inv.noteSearched(name)
		}
		if len(inv.sources) == 0 { // clipped: appending copies, and truncating keeps the capacity out (keepSources)
			inv.sources = r.sources
		} else {
			inv.sources = append(inv.sources, r.sources...)
		}
		return r.value, r.found, nil
	}
	before, searchedBefore, sourcesBefore := inv.volatile, len(inv.searched), len(inv.sources)
	v, found, err := search()
	if err == nil && inv.volatile == before {
		searched := slices.Clip(append([]string(nil), inv.searched[searchedBefore:]...))
		var sources []Source
		if found && len(inv.sources) > sourcesBefore {
			sources = slices.Clip(slices.Clone(inv.sources[sourcesBefore:]))
		}
		inv.engine.results.put(sig, key, cachedResult{value: v, found: found, searched: searched, sources: sources})
	}
	return v, found, err
}
