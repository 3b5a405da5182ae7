package hiera_test

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
)

// Result.Sources: the data files that gave a result its value, most specific first.

// twoLevels is a node level over a common level.
const twoLevels = `version: 5
hierarchy:
  - name: node
    path: "nodes/%{trusted.certname}.yaml"
  - name: common
    path: common.yaml
`

func TestSources(t *testing.T) {
	e, dir := newEngine(t, files{
		"hiera.yaml": twoLevels,
		"data/nodes/web01.yaml": "first: node\ndeep: {a: 1}\nlisted: [n]\nref: \"%{lookup('first')}\"\ndug: {x: 1}\n" +
			"alias: \"%{alias('listed')}\"\n",
		"data/common.yaml": "first: common\ndeep: {b: 2}\nlisted: [c]\nonly_common: 1\ndug: {y: 2}\n" +
			"lookup_options:\n  deep: {merge: deep}\n",
	})
	scope := scopeOf(t, nil, map[string]any{"trusted": map[string]any{"certname": "web01"}})
	node := hiera.Source{Layer: "global", Level: "node", File: filepath.Join(dir, "data/nodes/web01.yaml")}
	common := hiera.Source{Layer: "global", Level: "common", File: filepath.Join(dir, "data/common.yaml")}
	for _, tc := range []struct {
		name string
		req  hiera.Request
		want []hiera.Source
	}{
		{"first found stops at the node level", hiera.Request{Key: "first"}, []hiera.Source{node}},
		{"found on a lower level only", hiera.Request{Key: "only_common"}, []hiera.Source{common}},
		{"a merge from lookup_options takes both", hiera.Request{Key: "deep"}, []hiera.Source{node, common}},
		{"an explicit merge takes both", hiera.Request{Key: "listed", Merge: &merge.Merge{Strategy: "unique"}}, []hiera.Source{node, common}},
		{"hiera_array takes both", hiera.Request{Key: "listed", Function: hiera.FuncArray}, []hiera.Source{node, common}},
		{"a dotted key: the root's file", hiera.Request{Key: "dug.x"}, []hiera.Source{node}},
		{"an interpolated lookup: only the key's own file", hiera.Request{Key: "ref"}, []hiera.Source{node}},
		{"an alias: only the key's own file", hiera.Request{Key: "alias"}, []hiera.Source{node}},
		{"candidate names: the one found", hiera.Request{Keys: []string{"nothing", "only_common"}}, []hiera.Source{common}},
		{"the default answered", hiera.Request{Key: "nothing", Default: "d", HasDefault: true}, nil},
		{"a dig that finds nothing under the first-found root", hiera.Request{Key: "dug.y", Default: "d", HasDefault: true}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Scope = scope
			for round := range 2 { // the second from the result cache
				res, err := lookup(t, e, tc.req)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tc.want, res.Sources); diff != "" {
					t.Errorf("round %d: sources (-want +got):\n%s", round, diff)
				}
			}
		})
	}
}

func TestSourcesLayers(t *testing.T) {
	e, dir := layeredEngine(t, files{
		"hiera.yaml":                               simpleConfig,
		"data/common.yaml":                         "ntp::servers: [global]\n",
		"environments/production/hiera.yaml":       level5,
		"environments/production/data/common.yaml": "ntp::servers: [env]\nlookup_options:\n  ntp::servers: {merge: unique}\n",
		"environments/production/modules/ntp/hiera.yaml": "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n" +
			"default_hierarchy:\n  - name: defaults\n    path: defaults.yaml\n",
		"environments/production/modules/ntp/data/common.yaml":   "ntp::servers: [module]\n",
		"environments/production/modules/ntp/data/defaults.yaml": "ntp::driftfile: /var/lib/ntp/drift\n",
	})
	env := filepath.Join(dir, "environments/production")
	res := mustFind(t, e, hiera.Request{Key: "ntp::servers"})
	want := []hiera.Source{
		{Layer: "global", Level: "common", File: filepath.Join(dir, "data/common.yaml")},
		{Layer: "environment", Level: "common", File: filepath.Join(env, "data/common.yaml")},
		{Layer: "module", Module: "ntp", Level: "common", File: filepath.Join(env, "modules/ntp/data/common.yaml")},
	}
	if diff := cmp.Diff(want, res.Sources); diff != "" {
		t.Errorf("merged over three layers (-want +got):\n%s", diff)
	}
	res = mustFind(t, e, hiera.Request{Key: "ntp::driftfile"})
	want = []hiera.Source{{Layer: "module", Module: "ntp", Level: "defaults", File: filepath.Join(env, "modules/ntp/data/defaults.yaml")}}
	if diff := cmp.Diff(want, res.Sources); diff != "" {
		t.Errorf("from the module's default_hierarchy (-want +got):\n%s", diff)
	}
}

func TestSourcesHiera3(t *testing.T) {
	e, dir := newEngine(t, files{
		"hiera.yaml":       ":backends: [yaml]\n:yaml:\n  :datadir: \"@ROOT@/data\"\n:hierarchy: [\"node\", \"common\"]\n",
		"data/node.yaml":   "h: {a: 1}\n",
		"data/common.yaml": "h: {b: 2}\n",
	})
	res := mustFind(t, e, hiera.Request{Key: "h", Function: hiera.FuncHash})
	if len(res.Sources) != 2 || res.Sources[0].File != filepath.Join(dir, "data/node.yaml") || res.Sources[1].File != filepath.Join(dir, "data/common.yaml") {
		t.Errorf("hiera_hash over a version 3 hierarchy: sources %+v, want node.yaml then common.yaml", res.Sources)
	}
}
