package hiera

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// TestNodeReadFanOut: keys that all interpolate keys whose lookups double at each level (Puppet:
// 2^21 lookups each). Alone, each fails on the bound of 100,000 nested lookups; a node read of
// them all spent that bound anew for every key (126 s for a 13 KB file). Now a nested lookup that
// succeeded is answered once per read: the read computes a few lookups per key, and every key
// gets the answer it gets alone (the bound still counts the lookups the answers cost).
func TestNodeReadFanOut(t *testing.T) {
	var data strings.Builder
	const keys, levels = 50, 20
	for i := range keys {
		fmt.Fprintf(&data, "k%d: \"%%{lookup('f0')}\"\n", i)
	}
	fmt.Fprintf(&data, "small: \"%%{lookup('f8')}\"\n") // 2^13 lookups: found
	for i := range levels {
		fmt.Fprintf(&data, "f%d: \"%%{lookup('f%d')}%%{lookup('f%d')}\"\n", i, i+1, i+1)
	}
	fmt.Fprintf(&data, "f%d: x\n", levels)
	e := commonEngine(t, data.String())
	ctx := context.Background()
	res, err := e.LookupNode(ctx, NodeRequest{})
	if err != nil || res.ListErr != nil {
		t.Fatal(err, res.ListErr)
	}
	if n := NestedComputed(e); n > 10*int64(len(res.Answers)) {
		t.Errorf("the node read of %d keys computed %d nested lookups, want at most 10 per key", len(res.Answers), n)
	}
	for _, a := range res.Answers {
		alone, err := e.Lookup(ctx, Request{Key: a.Key})
		if (err != nil) != (a.Err != nil) || err == nil && model.ToS(alone.Value) != model.ToS(a.Result.Value) {
			t.Errorf("%s: node read %v (%.20s), alone %v (%.20s)", a.Key, a.Err, model.ToS(a.Result.Value), err, model.ToS(alone.Value))
		}
		level := -1
		_, _ = fmt.Sscanf(a.Key, "f%d", &level) // keys other than f<N> keep -1
		// f4 needs 2^17-2 nested lookups, f5 2^16-2
		if wantFound := a.Key == "small" || level >= 5; (a.Err == nil) != wantFound {
			t.Errorf("%s: %v", a.Key, a.Err)
		}
	}
}

// TestInterpolatedTextBound: a key interpolating a long value twice, each level doubling it, fails
// once the lookup built more text than its bound, before it is written; in a node read the keys
// together stop at the read's bound. The bounds are lowered to 64 KiB and 1 MiB here (64 MiB and
// 1 GiB in use).
func TestInterpolatedTextBound(t *testing.T) {
	defer func(one, read int) { maxInterpolatedText, maxReadInterpolatedText = one, read }(maxInterpolatedText, maxReadInterpolatedText)
	maxInterpolatedText, maxReadInterpolatedText = 64<<10, 1<<20
	var data strings.Builder
	fmt.Fprintf(&data, "l0: %s\n", strings.Repeat("x", 1<<10))
	for i := 1; i <= 7; i++ {
		fmt.Fprintf(&data, "l%d: \"%%{lookup('l%d')}%%{lookup('l%d')}\"\n", i, i-1, i-1)
	}
	for i := range 70 { // 16 KiB built each (l4's answer is remembered): 1,120 KiB together
		fmt.Fprintf(&data, "k%d: \"%%{lookup('l4')}\"\n", i)
	}
	e := commonEngine(t, data.String())
	ctx := context.Background()
	// l7 is 128 KiB
	if _, err := e.Lookup(ctx, Request{Key: "l7"}); err == nil || !strings.Contains(err.Error(), "The lookup built more than 64 KiB of text by interpolation") {
		t.Errorf("l7: %v", err)
	}
	if res, err := e.Lookup(ctx, Request{Key: "l5"}); err != nil || len(model.ToS(res.Value)) != 32<<10 {
		t.Errorf("l5: %v", err)
	}
	res, err := e.LookupNode(ctx, NodeRequest{})
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, a := range res.Answers {
		switch {
		case a.Err != nil && strings.Contains(a.Err.Error(), "The node read built more than 1 MiB of text by interpolation, over all its keys"):
			failed++
		case a.Err != nil && a.Key != "l6" && a.Key != "l7": // l6: 64 KiB, and its parts
			t.Errorf("%s: %v", a.Key, a.Err)
		}
	}
	if failed == 0 || failed > 30 {
		t.Errorf("%d keys of the node read stopped at its bound", failed)
	}
}

// commonEngine is an engine whose one level, common, reads data/common.yaml holding data.
func commonEngine(t *testing.T, data string) *Engine {
	dir := t.TempDir()
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "data"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "hiera.yaml"), []byte("version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "data", "common.yaml"), []byte(data), 0o644))
	return NewEngine(filepath.Join(dir, "hiera.yaml"))
}
