package hiera_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
)

func explainEngine(t *testing.T) (*hiera.Engine, string) {
	t.Helper()
	return newEngine(t, files{
		"hiera.yaml": `version: 5
hierarchy:
  - name: Per node
    path: "nodes/%{trusted.certname}.yaml"
  - name: Common
    paths: [missing.yaml, common.yaml]
`,
		"data/nodes/web01.yaml": "h: {a: node}\nname: \"%{hostname}\"\n",
		"data/common.yaml": `lookup_options:
  h:
    merge: deep
  secret:
    convert_to: Sensitive
  to_list:
    convert_to: [Array, true]
h: {b: common}
secret: hunter2-SECRET
secret_interpolated: "%{lookup('secret')}"
to_list: x
`,
	})
}

// TestExplainGolden pins one whole explanation, as `puppet lookup --explain` prints it: the data
// provider, levels, paths, missing files, merges (headed only where two or more variants are
// merged) and dig.
func TestExplainGolden(t *testing.T) {
	t.Parallel()
	e, dir := explainEngine(t)
	res := mustFind(t, e, hiera.Request{Key: "h.b", Explain: true,
		Scope: scopeOf(t, nil, map[string]any{"trusted": map[string]any{"certname": "web01"}})})
	want := strings.ReplaceAll(`Using merge options from "lookup_options" hash
Searching for "h.b"
  Global Data Provider (hiera configuration version 5)
    Using configuration "@ROOT@/hiera.yaml"
    Merge strategy deep
      Hierarchy entry "Per node"
        Path "@ROOT@/data/nodes/web01.yaml"
          Original path: "nodes/%{trusted.certname}.yaml"
          Found key: "h" value: {
            "a" => "node"
          }
      Hierarchy entry "Common"
        Merge strategy deep
          Path "@ROOT@/data/missing.yaml"
            Original path: "missing.yaml"
            Path not found
          Path "@ROOT@/data/common.yaml"
            Original path: "common.yaml"
            Found key: "h" value: {
              "b" => "common"
            }
          Merged result: {
            "b" => "common"
          }
      Merged result: {
        "b" => "common",
        "a" => "node"
      }
  Sub key: "b"
    Found key: "b" value: "common"
`, "@ROOT@", dir)
	if diff := cmp.Diff(want, res.Explanation); diff != "" {
		t.Errorf("explanation (-want +got):\n%s", diff)
	}
}

func TestExplainMentions(t *testing.T) {
	t.Parallel()
	e, _ := explainEngine(t)
	scope := scopeOf(t, map[string]any{"hostname": "web01"}, map[string]any{"trusted": map[string]any{"certname": "web01"}})
	tests := map[string]struct {
		req     hiera.Request
		want    []string
		notWant []string
	}{
		"not-found": {
			req: hiera.Request{Key: "nosuch"},
			want: []string{`Hierarchy entry "Per node"`, `Hierarchy entry "Common"`, `No such key: "nosuch"`, "Path not found",
				"Function lookup() did not find a value for the name 'nosuch'"},
		},
		"default": {
			req:  hiera.Request{Key: "nosuch", Default: []any{"d"}, HasDefault: true},
			want: []string{`Using the default value: [`, `"d"`},
		},
		"first-found": {
			req:     hiera.Request{Key: "name"},
			want:    []string{`Found key: "name" value: "web01"`, `Interpolation on "%{hostname}"`, "Global Scope", `Found key: "hostname" value: "web01"`},
			notWant: []string{"Merge strategy", `Hierarchy entry "Common"`},
		},
		"explicit-merge": {
			req:  hiera.Request{Key: "h", Merge: &merge.Merge{Strategy: "deep", Deep: merge.DeepOptions{KnockoutPrefix: "--"}}},
			want: []string{"Merge strategy deep", `"knockout_prefix" => "--"`, "Merged result: {"},
		},
		"convert-to": {
			req:  hiera.Request{Key: "to_list"},
			want: []string{"Applying convert_to lookup_option with arguments [Array, true]"},
		},
		"missing-sub-key": {
			req:  hiera.Request{Key: "h.zz"},
			want: []string{`Sub key: "zz"`, `No such key: "zz"`},
		},
		"reserved-key": {
			req:  hiera.Request{Key: "lookup_options"},
			want: []string{`Invalid key "lookup_options"`},
		},
		"sensitive-key": {
			req:     hiera.Request{Key: "secret"},
			want:    []string{`Found key: "secret" value: (sensitive value)`},
			notWant: []string{"hunter2"},
		},
		"sensitive-key-with-default-unused": {
			req:     hiera.Request{Key: "secret", Default: "d", HasDefault: true},
			notWant: []string{"hunter2", "Using the default value"},
		},
		"sensitive-via-interpolation": {
			req:     hiera.Request{Key: "secret_interpolated"},
			notWant: []string{"hunter2"},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req := tt.req
			req.Explain = true
			req.Scope = scope
			res, err := lookup(t, e, req)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(res.Explanation, w) {
					t.Errorf("explanation lacks %q:\n%s", w, res.Explanation)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(res.Explanation, w) {
					t.Errorf("explanation contains %q:\n%s", w, res.Explanation)
				}
			}
		})
	}
}

func TestExplainOffByDefault(t *testing.T) {
	t.Parallel()
	e, _ := explainEngine(t)
	res := mustFind(t, e, hiera.Request{Key: "h"})
	if res.Explanation != "" {
		t.Errorf("Explanation without Explain: %q", res.Explanation)
	}
}

func TestExplainEyamlValueHidden(t *testing.T) {
	t.Parallel()
	const plaintext = "eyaml-PLAINTEXT"
	e, _ := eyamlEngine(t, eyamlConfig, "pw: "+encrypt(t, plaintext)+"\nlist:\n  - "+encrypt(t, plaintext)+"\n",
		"list: [plain]\nref: \"%{lookup('pw')}\"\n")
	for _, req := range []hiera.Request{
		{Key: "pw"},
		{Key: "list", Function: hiera.FuncArray},
		{Key: "ref"},
	} {
		req.Explain = true
		res := mustFind(t, e, req)
		if !strings.Contains(jsonOf(t, res.Value), plaintext) || !res.Sensitive {
			t.Errorf("%s: value %s Sensitive %v", req.Key, jsonOf(t, res.Value), res.Sensitive)
		}
		if strings.Contains(res.Explanation, plaintext) {
			t.Errorf("%s: plaintext in the explanation:\n%s", req.Key, res.Explanation)
		}
		wantContains(t, "explanation", res.Explanation, "(sensitive value)")
	}
}

// TestExplainBounded: a large value found at many locations would make the trace grow with
// locations × value size (here 250 kB through 200 locations: 50 MB); the trace stops at 1 MiB with
// a note, while the lookup itself still answers.
func TestExplainBounded(t *testing.T) {
	t.Parallel()
	var data strings.Builder
	data.WriteString("big:\n")
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&data, "  - item-%06d-xxxxxx\n", i)
	}
	fs := files{"data/big.yaml": data.String()}
	var paths []string
	for i := 0; i < 200; i++ {
		paths = append(paths, fmt.Sprintf("\"n%d/../big.yaml\"", i))
		fs[fmt.Sprintf("data/n%d/keep", i)] = ""
	}
	fs["hiera.yaml"] = "version: 5\nhierarchy:\n  - name: many\n    paths: [" + strings.Join(paths, ", ") + "]\n"
	e, _ := newEngine(t, fs)
	res := mustFind(t, e, hiera.Request{Key: "big", Merge: &merge.Merge{Strategy: "unique"}, Explain: true})
	if n := len(res.Explanation); n > 1<<20+200 || !strings.HasSuffix(res.Explanation, "... explanation truncated: it would exceed 1048576 bytes (large values found at many locations)\n") {
		t.Errorf("explanation of %d bytes ending %q", n, res.Explanation[max(0, n-200):])
	}
	if list, ok := res.Value.([]any); !ok || len(list) != 10000 {
		t.Errorf("value: %T of %d elements", res.Value, len(list))
	}
}
