package hiera

import "time"

// SetClock replaces the engine's clock, so that tests can move past StampCheckInterval without
// sleeping.
func SetClock(e *Engine, now func() time.Time) { e.now = now }

// CachedDecryptors counts the engine's cached eyaml decryptors (keyed by key file path and version).
func CachedDecryptors(e *Engine) int {
	n := 0
	e.decryptors.Range(func(_, _ any) bool { n++; return true })
	return n
}

// MissCompared counts the keys ExplainMiss compared for its suggestions.
func MissCompared(m Miss) int { return m.compared }

// SetListBounds lowers DataFiles' bounds until the returned function restores them.
func SetListBounds(files, entries int) (restore func()) {
	f, e := maxListedDataFiles, maxListedEntries
	maxListedDataFiles, maxListedEntries = files, entries
	return func() { maxListedDataFiles, maxListedEntries = f, e }
}

// NestedComputed counts the nested lookups the engine computed (not answered from memory).
func NestedComputed(e *Engine) int64 { return e.nestedComputed.Load() }

// SetCacheBounds sets the data-file cache's bounds (probation, protected) and the result cache's,
// in bytes, until the returned function restores them.
func SetCacheBounds(probation, protected, results int64) (restore func()) {
	p, q, r := maxProbationBytes, maxProtectedBytes, maxResultBytes
	maxProbationBytes, maxProtectedBytes, maxResultBytes = probation, protected, results
	return func() { maxProbationBytes, maxProtectedBytes, maxResultBytes = p, q, r }
}

// CachePeaks is the most bytes the engine's data-file cache and result cache held at once.
func CachePeaks(e *Engine) (files, results int64) {
	_, _, files = e.parsed.bytes()
	e.results.mu.RLock()
	defer e.results.mu.RUnlock()
	return files, e.results.peak
}

// FileParses counts the data files the engine parsed.
func FileParses(e *Engine) int64 { return e.fileParses.Load() }
