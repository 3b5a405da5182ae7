package hiera_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// deepHierarchy writes two levels whose key "hash" nests depth-1 hashes below the file's top hash
// (depth levels in all, the data-file limit at 1,000) and "array" as many arrays; the innermost
// value interpolates a fact, so no lookup is answered from the result cache.
func deepHierarchy(tb testing.TB, depth int) string {
	tb.Helper()
	dir := tb.TempDir()
	level := func(leaf string) string {
		hash := strings.Repeat("{k: ", depth-2) + "{leaf: '" + leaf + "'}" + strings.Repeat("}", depth-2)
		array := strings.Repeat("[", depth-1) + "'" + leaf + "'" + strings.Repeat("]", depth-1)
		return "hash: " + hash + "\narray: " + array + "\n"
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			tb.Fatal(err)
		}
	}
	write("hiera.yaml", "version: 5\ndefaults: {datadir: ., data_hash: yaml_data}\nhierarchy:\n  - name: node\n    path: node.yaml\n  - name: common\n    path: common.yaml\n")
	write("node.yaml", level("%{facts.x}"))
	write("common.yaml", level("common"))
	return filepath.Join(dir, "hiera.yaml")
}

// deepRequests are the lookups of a deep value the benchmark and test run: first found, a deep
// merge, an explained deep merge, a value_type check.
func deepRequests(tb testing.TB) map[string]hiera.Request {
	facts, err := model.FromGo(map[string]any{"x": "fact"})
	h, ok := facts.(*model.Hash)
	if err != nil || !ok {
		tb.Fatal(err)
	}
	scope := hiera.Scope{Facts: h}
	deep, err := merge.Parse("deep")
	if err != nil {
		tb.Fatal(err)
	}
	return map[string]hiera.Request{
		"first":      {Key: "hash", Scope: scope},
		"array":      {Key: "array", Scope: scope},
		"deep":       {Key: "hash", Merge: deep, Scope: scope},
		"explain":    {Key: "hash", Merge: deep, Scope: scope, Explain: true},
		"value_type": {Key: "hash", Scope: scope, ValueType: "Hash[String, Hash]", HasValueType: true},
	}
}

func BenchmarkDeepValue(b *testing.B) {
	ctx := context.Background()
	for _, depth := range []int{250, 500, 1000} {
		engine := hiera.NewEngine(deepHierarchy(b, depth))
		for name, req := range deepRequests(b) {
			b.Run(fmt.Sprintf("%s/depth=%d", name, depth), func(b *testing.B) {
				for b.Loop() {
					res, err := engine.Lookup(ctx, req)
					if err != nil || !res.Found {
						b.Fatal(err)
					}
					if _, err := datafile.MarshalJSON(res.Value); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestDeepValue looks up values 1,000 levels deep (the data-file limit) as BenchmarkDeepValue does
// and checks the answers: the innermost value interpolated, merged, explained, encoded.
func TestDeepValue(t *testing.T) {
	t.Parallel()
	const depth = 1000
	engine := hiera.NewEngine(deepHierarchy(t, depth))
	for name, req := range deepRequests(t) {
		res, err := engine.Lookup(context.Background(), req)
		if err != nil || !res.Found {
			t.Fatalf("%s: %v, found %v", name, err, res.Found)
		}
		levels, v := 1, res.Value // the key's value is one level below the file's top hash
		for {
			if h, ok := v.(*model.Hash); ok && h.Len() == 1 {
				v, _ = h.Get(h.Keys()[0])
			} else if a, ok := v.([]any); ok && len(a) == 1 {
				v = a[0]
			} else {
				break
			}
			levels++
		}
		if levels != depth || v != "fact" {
			t.Errorf("%s: %d levels down to %v, want %d levels down to \"fact\"", name, levels, v, depth)
		}
		if req.Explain && !strings.Contains(res.Explanation, "fact") {
			t.Errorf("%s: the explanation does not show the value", name)
		}
		js, err := datafile.MarshalJSON(res.Value)
		if err != nil || !strings.Contains(string(js), `"fact"`) {
			t.Errorf("%s: JSON %.80s, %v", name, js, err)
		}
	}
}
