package gcheadroom

import (
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		live, headroom uint64
		floor, want    int
	}{
		{live: 0, headroom: 32 * mb, floor: 20, want: 100},
		{live: 10 * mb, headroom: 32 * mb, floor: 20, want: 100},  // small heaps keep Go's default
		{live: 32 * mb, headroom: 32 * mb, floor: 20, want: 100},  // exactly doubling
		{live: 64 * mb, headroom: 32 * mb, floor: 20, want: 50},   // grows by the headroom
		{live: 128 * mb, headroom: 32 * mb, floor: 20, want: 25},  // ...
		{live: 1024 * mb, headroom: 32 * mb, floor: 20, want: 20}, // never below the floor
	} {
		if got := Percent(tc.live, tc.headroom, tc.floor); got != tc.want {
			t.Errorf("Percent(%d MB, %d MB, %d) = %d, want %d", tc.live/mb, tc.headroom/mb, tc.floor, got, tc.want)
		}
	}
}

func gogc() uint64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// waitForGOGC collects garbage until GOGC is want (the tuner runs after a collection, on the
// finalizer goroutine), at most collections times: a count, not a deadline, so that a busy machine
// only makes it slower.
func waitForGOGC(want uint64, collections int) uint64 {
	for i := 0; i < collections && gogc() != want; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // lets the finalizer goroutine run
	}
	return gogc()
}

var live [][]byte

// The two tests below run in this order: Start does its work once per process.

func TestStartLeavesUsersGOGC(t *testing.T) {
	t.Setenv("GOGC", "100")
	Start(1, 10) // would set GOGC to 10 on any heap
	live = make([][]byte, 64)
	for i := range live {
		live[i] = make([]byte, 1<<20)
	}
	if got := waitForGOGC(10, 50); got != 100 {
		t.Errorf("GOGC is %d with the user's GOGC=100 set; want 100", got)
	}
}

func TestStartLowersGOGCForLargeHeaps(t *testing.T) {
	Start(8<<20, 10) // 8 MB of headroom on a 64 MB live heap: 12%
	if got := waitForGOGC(12, 10000); got != 12 {
		t.Errorf("GOGC is %d on a 64 MB live heap with 8 MB of headroom; want 12", got)
	}
	live = nil
	if got := waitForGOGC(100, 10000); got != 100 {
		t.Errorf("GOGC is %d once the heap is small again; want 100", got)
	}
}
