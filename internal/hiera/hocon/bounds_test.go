package hocon

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// allocated is the bytes f allocates (the package's tests do not run in parallel).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestResolutionBounds: what a small file can make resolution do is counted — the text that
// concatenations build, the values resolved, copied and merged — and refused with a clear error,
// in work and memory far below what the file asks for.
func TestResolutionBounds(t *testing.T) {
	doubling := []string{`a0 = "` + strings.Repeat("x", 10000) + `"`} // 15 KB that asks for 3.2 TB of text
	for i := 1; i <= 5; i++ {
		doubling = append(doubling, fmt.Sprintf("a%d = %s", i, strings.Repeat(fmt.Sprintf("${a%d}", i-1), 200)))
	}
	stacked := "a = {}\n" + strings.Repeat("a = {b: ${a}}\n", 5000) // each line merges over all before it
	var chain strings.Builder                                       // each level doubles the work of the one below
	chain.WriteString("a0 { x = 1 }\n")
	for i := 1; i < 60; i++ {
		fmt.Fprintf(&chain, "a%d = ${a%d} { y%d = ${a%d} }\n", i, i-1, i, i-1)
	}
	for name, tc := range map[string]struct{ text, want string }{
		"doubling text":       {strings.Join(doubling, "\n"), "concatenations and substitutions build more than 67108864 bytes of text"},
		"stacked merges":      {stacked, "String: 1996: substitutions and merges take more than 2000000 resolution steps"},
		"doubling references": {chain.String(), "values once substitutions are resolved (each copies the value it names; the text has 775 tokens)"},
	} {
		var err error
		bytes := allocated(func() { _, err = Parse(tc.text, Options{}) })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", name, err, tc.want)
		}
		if bytes > 512<<20 {
			t.Errorf("%s: %d MB allocated for a file of %d KB", name, bytes>>20, len(tc.text)>>10)
		}
	}
}

// TestNestingBound: the nesting limit holds however the depth is built: braces, a dotted key (one
// object per part), substitutions nesting a value in itself.
func TestNestingBound(t *testing.T) {
	deepKey := func(parts int) string { return "a" + strings.Repeat(".a", parts-1) + " = 1\n" }
	if _, err := Parse(deepKey(1000), Options{}); err != nil {
		t.Errorf("a key of 1000 parts: %v", err)
	}
	_, err := Parse("b = 1\n"+deepKey(10000), Options{})
	if err == nil || err.Error() != "String: 2: objects and arrays nested more than 1000 levels (a key of 10000 parts)" {
		t.Errorf("a key of 10000 parts: %v", err)
	}
	_, err = Parse("x { y { "+deepKey(999)+" } }", Options{})
	if err == nil || !strings.Contains(err.Error(), "nested more than 1000 levels (a key of 999 parts)") {
		t.Errorf("a key of 999 parts two levels down: %v", err)
	}
	var nested strings.Builder
	nested.WriteString("a0 = {}\n")
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&nested, "a%d = {x: ${a%d}}\n", i, i-1)
	}
	_, err = Parse(nested.String(), Options{})
	if err == nil || err.Error() != "the value of a999 nests objects and arrays more than 1000 levels (through substitutions or includes)" {
		t.Errorf("substitutions: %v", err)
	}
}

// TestMemoryOfTheInput: a large array or many keys cost memory of the order of the text, not
// gigabytes (the tokens are read as the parser needs them).
func TestMemoryOfTheInput(t *testing.T) {
	array := "a = [" + strings.Repeat("1,", 1<<20) + "1]\n"
	var keys strings.Builder
	for i := 0; i < 200000; i++ {
		fmt.Fprintf(&keys, "key_number_%09d = 1\n", i)
	}
	for name, text := range map[string]string{"array": array, "keys": keys.String()} {
		var err error
		bytes := allocated(func() { _, err = Parse(text, Options{}) })
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ratio := float64(bytes) / float64(len(text)); ratio > 100 { // about 350 before reading tokens as needed
			t.Errorf("%s: %d MB allocated for %d MB of text (%.0f x)", name, bytes>>20, len(text)>>20, ratio)
		} else {
			t.Logf("%s: %.0f bytes allocated per byte of text", name, ratio)
		}
	}
}
