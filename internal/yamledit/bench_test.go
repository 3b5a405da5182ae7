package yamledit

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// plainFile is a data file of n root keys in plain block style, as most node files are.
func plainFile(n int) []byte {
	var b strings.Builder
	b.WriteString("---\n# generated\n")
	for i := range n {
		fmt.Fprintf(&b, "profile::key_%d:\n  name: value %d\n  list:\n    - a\n    - b\n  port: %d\n", i, i, i)
	}
	return []byte(b.String())
}

// A plain file is only skimmed: Parse and a Set in the middle allocate about twenty times the
// file's size (the engine's skim, twice), not the hundred times of yaml.v3's node tree and values.
func TestParse_plainFileIsSkimmed(t *testing.T) {
	src := plainFile(40000) // about 2.6 MB
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f, err := Parse("big.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Set("profile::key_20000", map[string]any{"name": "new"}, Options{}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 30*uint64(len(src)) {
		t.Errorf("Parse and Set allocated %d bytes for a file of %d", alloc, len(src))
	}
}

func BenchmarkParseSet(b *testing.B) {
	for _, n := range []int{10, 40000} {
		src := plainFile(n)
		b.Run(fmt.Sprintf("keys=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for range b.N {
				f, err := Parse("f.yaml", src)
				if err != nil {
					b.Fatal(err)
				}
				if err := f.Set(fmt.Sprintf("profile::key_%d", n/2), "x", Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
