package hiera_test

import (
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// Version 3 hiera.yaml corners that Hiera 3's and Puppet's own specs check (issue #11); the answers
// are the ones Puppet 7.23 and the Hiera 3.10 command line gave (cases h3-* in the conformance corpus).
func TestHiera3Corners(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t, files{
		"hiera.yaml": ":backends: [yaml, eyaml]\n:hierarchy: [node, common]\n:yaml:\n  :datadir: data\n" +
			":eyaml:\n  :datadir: data\n  :extension: xyaml\n:merge_behavior: deeper\n:deep_merge_options:\n  :unpack_arrays: ','\n",
		"data/node.yaml": "h: {l: [x3], m: ['a,b', c]}\n",
		"data/common.yaml": "h: {l: ['x1,x2'], m: [d, 'e,,f', 1], n: ['p,q']}\ndotted.key: {a: 1}\ndotted.list: [x]\n" +
			"chain: \"test_%{rspec}_test\"\nmixed: \"x-%{mixed}-y\"\nloop: \"%{loop1}\"\n",
		"data/common.xyaml": "b: from-xyaml\n",
		"data/commonxyaml":  "b: wrong-file\n",
	})
	scope := scopeOf(t, map[string]any{"rspec": "%{first}", "first": "%{last}", "last": "final",
		"mixed": "a-%{last}-b-%{first}", "loop1": "%{loop2}", "loop2": "%{loop1}"}, nil)
	tests := map[string]struct {
		req     hiera.Request
		want    string
		message string
	}{
		"extension gets its dot":     {req: hiera.Request{Key: "b"}, want: `"from-xyaml"`},
		"quoted dotted key, hash":    {req: hiera.Request{Key: "'dotted.key'", Function: hiera.FuncHash}, want: `{"a":1}`},
		"quoted dotted key, array":   {req: hiera.Request{Key: "'dotted.list'", Function: hiera.FuncArray}, want: `["x"]`},
		"unpack_arrays":              {req: hiera.Request{Key: "h", Function: hiera.FuncHash}, want: `{"l":["x1","x2","x3"],"m":["d","e","","f","1","a","b","c"],"n":["p,q"]}`},
		"fact chain":                 {req: hiera.Request{Key: "chain", Scope: scope}, want: `"test_final_test"`},
		"fact with text and tokens":  {req: hiera.Request{Key: "mixed", Scope: scope}, want: `"x-a-final-b-final-y"`},
		"fact loop":                  {req: hiera.Request{Key: "loop", Scope: scope}, message: "recursion detected in [loop, scope:loop1, scope:loop2]"},
		"unquoted dotted key, array": {req: hiera.Request{Key: "dotted.list", Function: hiera.FuncArray}, message: "Resolution type :array is illegal when accessing values using dotted keys"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res, err := lookup(t, e, tt.req)
			if tt.message != "" {
				if err == nil {
					t.Fatalf("want error, got %s", jsonOf(t, res.Value))
				}
				wantContains(t, "message", hieraError(t, err).Error(), tt.message)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := jsonOf(t, res.Value); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}
