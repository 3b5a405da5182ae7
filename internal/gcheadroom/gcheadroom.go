// Package gcheadroom bounds how far the heap may grow between garbage collections.
//
// With the default GOGC=100 the Go heap may grow to twice what was live after the last
// collection. The provider's live heap is mostly parsed Hiera data, which for a large hierarchy
// is hundreds of megabytes: doubling it would double the process's memory for no benefit. After
// every collection Start's tuner lowers GOGC so that the heap may grow by at most a fixed number
// of bytes (the headroom), never less than a floor percentage, and never above 100. Small heaps
// keep Go's default. The Go compiler tunes its own heap the same way (cmd/compile's
// AdjustStartingHeap).
package gcheadroom

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Percent is the GOGC value that lets a heap with live bytes grow by at most headroom bytes,
// within [floor, 100].
func Percent(live, headroom uint64, floor int) int {
	if live == 0 {
		return 100
	}
	p := headroom * 100 / live
	switch {
	case p >= 100:
		return 100
	case p < uint64(floor):
		return floor
	}
	return int(p)
}

var once sync.Once

// Start runs the tuner for the rest of the process. It does nothing when the user set GOGC or
// GOMEMLIMIT: their choice wins.
func Start(headroom uint64, floor int) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	once.Do(func() {
		current := 100
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		forEachGC(func() {
			metrics.Read(sample)
			if sample[0].Value.Kind() != metrics.KindUint64 {
				return
			}
			if p := Percent(sample[0].Value.Uint64(), headroom, floor); p != current {
				current = p
				debug.SetGCPercent(p)
			}
		})
	})
}

// forEachGC calls fn after each garbage collection, from the finalizer goroutine: an object
// that nothing references is finalized by the next collection, and each finalizer sets up
// the next one.
func forEachGC(fn func()) {
	type sentinel [32]byte // large enough not to share a block with other tiny objects
	var finalize func(*sentinel)
	finalize = func(s *sentinel) {
		fn()
		runtime.SetFinalizer(s, finalize)
	}
	runtime.SetFinalizer(new(sentinel), finalize)
}
