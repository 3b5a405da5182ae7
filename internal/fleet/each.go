package fleet

import (
	"context"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls do(i) for every i in [0, count), on as many goroutines as the machine has cores and
// no more, so that a fleet's read uses every core while at most that many nodes are in flight (the
// caller keeps each node's result, sized by its own bounds). It returns when every call has
// returned, or when ctx is done (the calls not started are not made). do must be safe to call
// concurrently; a panic in do is re-raised in the caller.
func Each(ctx context.Context, count int, do func(i int)) {
	workers := min(count, runtime.NumCPU())
	if workers <= 1 {
		for i := 0; i < count && ctx.Err() == nil; i++ {
			do(i)
		}
		return
	}
	defer widen()()
	var next atomic.Int64
	var wg sync.WaitGroup
	var panicked atomic.Value
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					panicked.CompareAndSwap(nil, panicValue{r})
				}
			}()
			for ctx.Err() == nil && panicked.Load() == nil {
				i := int(next.Add(1)) - 1
				if i >= count {
					return
				}
				do(i)
			}
		}()
	}
	wg.Wait()
	if p, ok := panicked.Load().(panicValue); ok {
		panic(p.v)
	}
}

type panicValue struct{ v any }

// EachInOrder is Each for results wanted in order: keep(i, r) is called with do(i)'s result for i
// = 0, 1, ..., one call at a time, as soon as every result before it was kept, so that the caller
// can write each out and let it go (a fleet's answers, node after node by name) instead of holding
// them all. do(i) starts only once fewer than window results would wait for an earlier one, so
// that few are held however slow one call is. When ctx is done, the results not kept yet are
// dropped. A panic in do or keep is re-raised in the caller.
func EachInOrder[R any](ctx context.Context, count int, do func(i int) R, keep func(i int, r R)) {
	window := 2 * runtime.NumCPU()
	var mu sync.Mutex
	moved := sync.NewCond(&mu) // next moved on, or the calls stop
	next, stopped := 0, false  // the next index to keep; a call panicked
	waiting := make(map[int]R, window)
	defer context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		moved.Broadcast()
	})()
	Each(ctx, count, func(i int) {
		defer func() {
			if r := recover(); r != nil {
				mu.Lock()
				stopped = true
				moved.Broadcast()
				mu.Unlock()
				panic(r)
			}
		}()
		mu.Lock()
		for i >= next+window && !stopped && ctx.Err() == nil {
			moved.Wait()
		}
		proceed := !stopped && ctx.Err() == nil
		mu.Unlock()
		if !proceed {
			return
		}
		r := do(i)
		mu.Lock()
		defer mu.Unlock()
		waiting[i] = r
		for {
			r, ok := waiting[next]
			if !ok {
				break
			}
			delete(waiting, next)
			keep(next, r)
			next++
		}
		moved.Broadcast()
	})
}

// The provider runs on one core (main.go: Terraform's many small calls arrive one at a time), but a
// fleet's read is one call doing the work of hundreds: while any Each runs, the process may use every
// core, unless the user set GOMAXPROCS.
var cores struct {
	sync.Mutex
	users int // Each calls running
	prev  int // GOMAXPROCS before the first of them
}

// widen raises GOMAXPROCS to the number of cores and returns what restores it.
func widen() (restore func()) {
	if os.Getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	cores.Lock()
	defer cores.Unlock()
	if cores.users == 0 {
		cores.prev = runtime.GOMAXPROCS(0)
		if cores.prev < runtime.NumCPU() {
			runtime.GOMAXPROCS(runtime.NumCPU())
		}
	}
	cores.users++
	return func() {
		cores.Lock()
		defer cores.Unlock()
		if cores.users--; cores.users == 0 && runtime.GOMAXPROCS(0) != cores.prev {
			runtime.GOMAXPROCS(cores.prev)
		}
	}
}
