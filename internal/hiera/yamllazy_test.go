package hiera

import (
	"context"
	"encoding/json"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// parseDataYAML reads a data file as readDataYAML does, but whole: every value built at once. The
// lazy reader's reference.
func parseDataYAML(data []byte, share *model.Sharing) (any, error) {
	v, _, err := readYAML(data, yamlSetup{share: share, maxNesting: maxDataNesting})
	return v, err
}

// checkLazyYAML fails t when readDataYAML reads text otherwise than parseDataYAML: the same
// error or value, or, read lazily, the same root keys in the same order whose values, built in
// any order and concurrently, are the same, with the same RichData verdicts.
func checkLazyYAML(t *testing.T, text string) {
	t.Helper()
	want, wantErr := parseDataYAML([]byte(text), testSharing)
	got, err := readDataYAML([]byte(text), testSharing)
	lz, lazy := got.(*lazyYAML)
	full, isHash := want.(*model.Hash)
	switch {
	case !lazy && (err == nil) != (wantErr == nil):
		t.Errorf("%q: read with error %v, a full read with %v", text, err, wantErr)
		return
	case !lazy && err != nil && err.Error() != wantErr.Error():
		t.Errorf("%q: error %q, a full read's %q", text, err, wantErr)
		return
	case !lazy:
		if !identical(got, want) {
			t.Errorf("%q: got %s, a full read %s", text, ytShow(got), ytShow(want))
		}
		return
	case err != nil || wantErr != nil || !isHash:
		t.Errorf("%q: read lazily (error %v), a full read gives %s, %v", text, err, ytShow(want), wantErr)
		return
	}
	if !identical(lz.keys.Keys(), full.Keys()) {
		t.Errorf("%q: root keys %s, a full read's %s", text, ytShow(lz.keys.Keys()), ytShow(full.Keys()))
		return
	}
	// Four goroutines build the values, each in its own order.
	type built struct {
		v   any
		bad string
		err error
	}
	n := lz.keys.Len()
	results := make([][]built, 4)
	var wg sync.WaitGroup
	for g := range results {
		results[g] = make([]built, n)
		order := rand.New(rand.NewSource(int64(g))).Perm(n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, i := range order {
				idx, _ := lz.keys.Get(lz.keys.RawKeys()[i])
				at, _ := idx.(int)
				v, bad, err := lz.valueAt(at)
				results[g][i] = built{v, bad, err}
			}
		}()
	}
	wg.Wait()
	invalid := invalidRootKeys(full)
	for i, k := range full.Keys() {
		wantV, _ := full.Get(k)
		ks, _ := k.(string)
		for _, res := range results {
			b := res[i]
			if b.err != nil || !identical(b.v, wantV) {
				t.Errorf("%q: key %s: built %s (error %v), a full read has %s", text, ytShow(k), ytShow(b.v), b.err, ytShow(wantV))
			}
			if _, isStr := k.(string); isStr && b.bad != invalid[ks] {
				t.Errorf("%q: key %s: not RichData as %q, a full read says %q", text, ytShow(k), b.bad, invalid[ks])
			}
		}
	}
}

// lazyYAMLCorpus returns texts to read lazily: FuzzFastYAML's seeds, a generated hierarchy's
// files whole, and the YAML data files of the conformance cases.
func lazyYAMLCorpus(t *testing.T) []string {
	var out []string
	for _, s := range yamlTestLiterals(t) {
		out = append(out, s, "k: "+s+"\n")
	}
	out = append(out, fastYAMLCases...)
	out = append(out, fastYAMLFallbacks...)
	out = append(out, benchgenFiles(t)...)
	paths, err := filepath.Glob(filepath.Join("testdata", "conformance", "cases", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no conformance cases: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			Files map[string]string `json:"files"`
		}
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for name, text := range c.Files {
			if strings.HasSuffix(name, ".yaml") && !strings.HasSuffix(name, "hiera.yaml") {
				out = append(out, text)
			}
		}
	}
	r := rand.New(rand.NewSource(4))
	for i := 0; i < 500; i++ {
		var b strings.Builder
		randomYAMLBlock(r, &b, r.Intn(2), 0)
		out = append(out, b.String())
	}
	return out
}

func TestLazyYAMLAsFullRead(t *testing.T) {
	lazily := 0
	for _, text := range lazyYAMLCorpus(t) {
		checkLazyYAML(t, text)
		if v, _ := readDataYAML([]byte(text), testSharing); v != nil {
			if _, ok := v.(*lazyYAML); ok {
				lazily++
			}
		}
	}
	if lazily < 500 {
		t.Errorf("only %d texts read lazily", lazily)
	}
}

// TestLazyYAMLWhole: what decides whether a file can be read at all is still decided over the
// whole file, so a lookup of a key before a syntax error fails as before, while a key whose value
// is not RichData fails only its own lookups.
func TestLazyYAMLWhole(t *testing.T) {
	good := "first: 1\nsecond:\n  a: [1, 2]\n"
	tests := map[string]struct {
		data, key, err string
	}{
		"syntax error late":        {data: good + "third:\n  - x\n  y: 1\n", key: "first", err: "line 5: did not find expected '-' indicator"},
		"bad scalar late":          {data: good + "third: \"\\q\"\n", key: "first", err: "Unable to parse"},
		"tab late":                 {data: good + "third:\n\t- x\n", key: "first", err: "Unable to parse"},
		"not RichData":             {data: good + "third:\n  true: 1\n", key: "third", err: "got Hash[Boolean[true], Integer[1, 1], 1, 1]"},
		"not RichData, other keys": {data: good + "third:\n  true: 1\n", key: "second"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
				t.Fatal(err)
			}
			write := func(name, text string) {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("hiera.yaml", "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n")
			write("data/common.yaml", tt.data)
			res, err := NewEngine(filepath.Join(dir, "hiera.yaml")).Lookup(context.Background(), Request{Key: tt.key})
			if tt.err == "" {
				if err != nil || !res.Found {
					t.Fatalf("got %v, %v", res, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), "common.yaml") {
				t.Fatalf("error %v, want one naming common.yaml with %q", err, tt.err)
			}
		})
	}
}

// TestLazyYAMLConcurrentLookups: lookups of the same file's keys from many goroutines (under -race).
func TestLazyYAMLConcurrentLookups(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 50; i++ {
		b.WriteString("key" + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + ":\n  list: [1, 2]\n  h:\n    x: y\n")
	}
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hiera.yaml"), []byte("version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "common.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	e := NewEngine(filepath.Join(dir, "hiera.yaml"))
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				key := "key" + string(rune('a'+(i+g)%26)) + strings.Repeat("x", ((i+g)%50)/26) + ".h.x"
				res, err := e.Lookup(context.Background(), Request{Key: key})
				if err != nil || !res.Found || res.Value != "y" {
					t.Errorf("%s: %v, %v", key, res.Value, err)
				}
			}
		}()
	}
	wg.Wait()
}
