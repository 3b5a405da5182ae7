package hiera_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Engine.NodeKeys and Engine.LookupNode: a node's keys, and many keys in one call.

// nodeFixture has three layers: a global hierarchy of two levels (one reached only by another
// node), an environment, a module with a default_hierarchy, a module without hiera.yaml and one
// whose version 3 hiera.yaml Puppet ignores.
var nodeFixture = files{
	"hiera.yaml": twoLevels,
	"data/nodes/web01.yaml": "role: web\nntp::servers: [node]\n\"top.dot\": literal\nnothing: ~\n1: integer key\ntrue: boolean key\n" +
		"users: {bob: {uid: 1}}\n",
	"data/nodes/db01.yaml":                     "db_only: 1\n",
	"data/common.yaml":                         "role: base\ntop: {dot: dug}\nlookup_options:\n  ntp::servers: {merge: unique}\n  secret: {convert_to: Sensitive}\nsecret: s3cret\n",
	"environments/production/hiera.yaml":       level5,
	"environments/production/data/common.yaml": "env_key: \"%{lookup('role')}-env\"\n",
	"environments/production/modules/ntp/hiera.yaml": "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n" +
		"default_hierarchy:\n  - name: defaults\n    path: defaults.yaml\n",
	"environments/production/modules/ntp/data/common.yaml":     "ntp::servers: [module]\nunqualified: never reached\n",
	"environments/production/modules/ntp/data/defaults.yaml":   "ntp::driftfile: /var/lib/ntp/drift\n",
	"environments/production/modules/nohiera/data/common.yaml": "nohiera::x: 1\n",
	"environments/production/modules/old/hiera.yaml":           ":backends: [yaml]\n:hierarchy: [common]\n",
	"environments/production/modules/old/data/common.yaml":     "old::x: 1\n",
}

var web01 = map[string]any{"trusted": map[string]any{"certname": "web01"}}

func TestNodeKeys(t *testing.T) {
	e, _ := layeredEngine(t, nodeFixture)
	keys, err := e.NodeKeys(context.Background(), scopeOf(t, nil, web01))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"role", "ntp::servers", "top.dot", "nothing", "users", // the node's file, non-string keys left out
		"top", "secret", // common.yaml: role and ntp::servers once, lookup_options left out
		"env_key",        // the environment
		"ntp::driftfile", // module ntp's default_hierarchy; its unqualified key left out
	}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
}

func TestLookupNode(t *testing.T) {
	e, dir := layeredEngine(t, nodeFixture)
	scope := scopeOf(t, nil, web01)
	res, err := e.LookupNode(context.Background(), hiera.NodeRequest{Scope: scope})
	if err != nil {
		t.Fatal(err)
	}
	answers := map[string]hiera.NodeAnswer{}
	var order []string
	for _, a := range res.Answers {
		answers[a.Key] = a
		order = append(order, a.Key)
		if a.Err != nil {
			t.Errorf("%s: %v", a.Key, a.Err)
		}
	}
	if want := []string{"role", "ntp::servers", "top.dot", "nothing", "users", "top", "secret", "env_key", "ntp::driftfile"}; !cmp.Equal(want, order) {
		t.Errorf("answers in order %v, want %v", order, want)
	}
	// Each answer is what a single lookup answers.
	for _, key := range order {
		single, err := lookup(t, e, hiera.Request{Key: key, Scope: scope})
		a := answers[key]
		if err != nil || a.Result.Found != single.Found || a.Result.Sensitive != single.Sensitive ||
			jsonOf(t, a.Result.Value) != jsonOf(t, single.Value) || !cmp.Equal(a.Result.Sources, single.Sources) {
			t.Errorf("%s: node answer %+v, single lookup %+v (%v)", key, a.Result, single, err)
		}
	}
	for key, want := range map[string]string{
		"ntp::servers": `["node","module"]`, "top.dot": `"dug"`, "nothing": "null", "env_key": `"web-env"`,
		"ntp::driftfile": `"/var/lib/ntp/drift"`,
	} {
		if a := answers[key]; !a.Result.Found || jsonOf(t, a.Result.Value) != want {
			t.Errorf("%s = %s (found %v), want %s", key, jsonOf(t, a.Result.Value), a.Result.Found, want)
		}
	}
	if !answers["secret"].Result.Sensitive {
		t.Error("secret: not Sensitive")
	}
	if got := answers["ntp::servers"].Result.Sources; len(got) != 2 || got[1].Module != "ntp" ||
		got[0].File != filepath.Join(dir, "data/nodes/web01.yaml") {
		t.Errorf("ntp::servers sources %+v", got)
	}
	if !slicesContain(res.Warnings, "old") {
		t.Errorf("warnings %q: want the ignored version 3 hiera.yaml of module old", res.Warnings)
	}
}

func slicesContain(list []string, part string) bool {
	for _, s := range list {
		if strings.Contains(s, part) {
			return true
		}
	}
	return false
}

func TestLookupNodeKeysAndPrefixes(t *testing.T) {
	e, _ := layeredEngine(t, nodeFixture)
	scope := scopeOf(t, nil, web01)
	res, err := e.LookupNode(context.Background(), hiera.NodeRequest{Scope: scope,
		Keys: []string{"users.bob.uid", "db_only", "ntp::driftfile", "nohiera::x", "old::x", "unqualified", "lookup_options"}})
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, a := range res.Answers {
		if a.Err != nil {
			t.Errorf("%s: %v", a.Key, a.Err)
		}
		found[a.Key] = a.Result.Found
	}
	want := map[string]bool{"users.bob.uid": true, "db_only": false, "ntp::driftfile": true, "nohiera::x": false, "old::x": false,
		"unqualified": false, "lookup_options": false}
	if diff := cmp.Diff(want, found); diff != "" {
		t.Errorf("found (-want +got):\n%s", diff)
	}

	res, err = e.LookupNode(context.Background(), hiera.NodeRequest{Scope: scope, Prefixes: []string{"ntp::", "to"}})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, a := range res.Answers {
		keys = append(keys, a.Key)
	}
	if want := []string{"ntp::servers", "top.dot", "top", "ntp::driftfile"}; !cmp.Equal(want, keys) {
		t.Errorf("prefixes: keys %v, want %v", keys, want)
	}
}

func TestLookupNodeErrors(t *testing.T) {
	fixture := files{
		"hiera.yaml":            twoLevels,
		"data/nodes/web01.yaml": "a: \"%{lookup('loop')}\"\nloop: \"%{lookup('loop')}\"\nok: 1\n",
		"data/common.yaml":      "b: 2\n",
	}
	e, _ := newEngine(t, fixture)
	scope := scopeOf(t, nil, web01)
	res, err := e.LookupNode(context.Background(), hiera.NodeRequest{Scope: scope})
	if err != nil {
		t.Fatal(err)
	}
	failed := map[string]string{}
	for _, a := range res.Answers {
		if a.Err != nil {
			failed[a.Key] = a.Err.Error()
			if he := hieraError(t, a.Err); he.Key != a.Key {
				t.Errorf("%s: error's key %q", a.Key, he.Key)
			}
		} else if !a.Result.Found {
			t.Errorf("%s: not found", a.Key)
		}
	}
	if len(failed) != 2 || !strings.Contains(failed["loop"], "Recursive lookup") || !strings.Contains(failed["a"], "Recursive lookup") {
		t.Errorf("failed keys %v, want a and loop with their recursion", failed)
	}

	// A data file the node reaches that does not parse fails the listing; the keys of the rest are
	// listed still, and answered as in one Puppet compile: the first key fails reading the global
	// lookup_options from that file, the keys after it see none (lookup_adapter.rb keeps them nil),
	// so ok, found before common.yaml, is answered.
	addFiles(t, filepath.Dir(e.ConfigPath()), files{"data/common.yaml": "b: [unclosed\n"})
	hiera.SetClock(e, func() time.Time { return time.Now().Add(time.Hour) })
	res, err = e.LookupNode(context.Background(), hiera.NodeRequest{Scope: scope})
	if err != nil {
		t.Fatal(err)
	}
	if he := hieraError(t, res.ListErr); he.Line == 0 || !strings.HasSuffix(he.File, "common.yaml") || he.Level != "common" {
		t.Errorf("listing error %q: want the file, line and level", res.ListErr)
	}
	if len(res.Answers) != 3 || res.Answers[0].Err == nil || !strings.HasSuffix(hieraError(t, res.Answers[0].Err).File, "common.yaml") ||
		res.Answers[2].Key != "ok" || res.Answers[2].Err != nil || res.Answers[2].Result.Value != int64(1) {
		t.Errorf("answers %+v: want a failing with common.yaml's error, loop, and ok answered", res.Answers)
	}
	if keys, err := e.NodeKeys(context.Background(), scope); err == nil || len(keys) != 3 {
		t.Errorf("NodeKeys listed %v (%v) over a broken file: want the other file's keys and the error", keys, err)
	}
	// Named keys are looked up without listing: the file fails each key's lookup, as it fails a
	// single lookup.
	res, err = e.LookupNode(context.Background(), hiera.NodeRequest{Scope: scope, Keys: []string{"ok"}})
	if err != nil || res.ListErr != nil || len(res.Answers) != 1 || res.Answers[0].Err == nil || hieraError(t, res.Answers[0].Err).Key != "ok" {
		t.Errorf("keys = [ok]: %+v, %v", res, err)
	}
	// A file reached by another node only does not matter.
	other := scopeOf(t, nil, map[string]any{"trusted": map[string]any{"certname": "db01"}})
	addFiles(t, filepath.Dir(e.ConfigPath()), files{"data/common.yaml": "b: 2\n", "data/nodes/db01.yaml": "{\n"})
	hiera.SetClock(e, func() time.Time { return time.Now().Add(2 * time.Hour) })
	if res, err := e.LookupNode(context.Background(), hiera.NodeRequest{Scope: scope}); err != nil || res.ListErr != nil {
		t.Errorf("web01 with db01's file broken: %v, %v", err, res.ListErr)
	}
	if res, err := e.LookupNode(context.Background(), hiera.NodeRequest{Scope: other}); err != nil || res.ListErr == nil {
		t.Errorf("db01 with its own file broken: %v, no listing error", err)
	}
}

// A YAML file that parses but does not read as yaml_data reads it (a date) is listed all the same,
// so that the keys it fails are named.
func TestLookupNodeUnreadableFile(t *testing.T) {
	e, _ := newEngine(t, files{"hiera.yaml": simpleConfig, "data/common.yaml": "d: 2001-12-14\n"})
	res, err := e.LookupNode(context.Background(), hiera.NodeRequest{})
	if err != nil || res.ListErr == nil || len(res.Answers) != 1 || res.Answers[0].Key != "d" || res.Answers[0].Err == nil {
		t.Errorf("%+v, %v: want d, failing, and the listing's error", res, err)
	}
}

func TestLookupNodeBrokenConfigs(t *testing.T) {
	for name, fs := range map[string]files{
		"environment hiera.yaml": {"environments/production/hiera.yaml": "version: 5\nhierarchy: 1\n"},
		"module hiera.yaml":      {"environments/production/modules/m/hiera.yaml": "version: 5\nhierarchy: [{name: x}]\n"},
		"lookup_options": {
			"environments/production/hiera.yaml":       level5,
			"environments/production/data/common.yaml": "lookup_options: 1\n",
		},
		"hierarchy path": {
			"environments/production/hiera.yaml": "version: 5\nhierarchy:\n  - name: x\n    path: \"%{lookup('x')}.yaml\"\n",
		},
	} {
		t.Run(name, func(t *testing.T) {
			e, _ := layeredEngine(t, fs)
			res, err := e.LookupNode(context.Background(), hiera.NodeRequest{})
			if err != nil || res.ListErr == nil {
				t.Fatalf("no listing error: %+v, %v", res, err)
			}
			if he := hieraError(t, res.ListErr); he.File == "" {
				t.Errorf("error %q names no file", res.ListErr)
			}
		})
	}
	// A global hiera.yaml that does not validate: every lookup fails with its error; the keys of
	// the data directory beside it are named.
	e, _ := newEngine(t, files{"hiera.yaml": "version: 5\nhierarchy:\n  - name: bad\n    lookup_key: yaml_data\n    path: common.yaml\n",
		"data/common.yaml": "a: 1\nlookup_options: {}\n", "data/nodes/x.json": `{"b": 2}`})
	res, err := e.LookupNode(context.Background(), hiera.NodeRequest{})
	if err != nil || res.ListErr == nil || len(res.Answers) != 2 || res.Answers[0].Key != "a" || res.Answers[1].Key != "b" ||
		!strings.Contains(res.Answers[0].Err.Error(), "yaml_data") {
		t.Errorf("%+v, %v: want a and b, failing with the hiera.yaml's error", res, err)
	}
	e = hiera.NewEngine(filepath.Join(t.TempDir(), "hiera.yaml"))
	res, err = e.LookupNode(context.Background(), hiera.NodeRequest{Keys: []string{"a"}})
	if err != nil || len(res.Answers) != 1 || res.Answers[0].Err == nil || !strings.Contains(res.Answers[0].Err.Error(), "hiera.yaml") {
		t.Errorf("a missing hiera.yaml: %+v, %v", res, err)
	}
}

func TestLookupNodeHiera3(t *testing.T) {
	e, _ := newEngine(t, files{
		"hiera.yaml":       ":backends: [yaml, json]\n:yaml:\n  :datadir: \"@ROOT@/data\"\n:json:\n  :datadir: \"@ROOT@/data\"\n:hierarchy: [\"%{::role}\", common]\n",
		"data/web.yaml":    "a: web\n",
		"data/common.yaml": "a: common\nb: yaml\n",
		"data/common.json": `{"c": "json", "b": "json"}`,
		"data/db.yaml":     "d: db\n",
	})
	res, err := e.LookupNode(context.Background(), hiera.NodeRequest{Scope: scopeOf(t, map[string]any{"role": "web"}, nil)})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]any{}
	for _, a := range res.Answers {
		got[a.Key] = a.Result.Value
	}
	if diff := cmp.Diff(map[string]any{"a": "web", "b": "yaml", "c": "json"}, got); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
}

// NodeResult.Files: the data files the node reaches, in lookup order, each once; Request.Without:
// the answer as if one file had no value for one key, first-found and merged, the result cache
// keeping the two answers apart.
func TestNodeFilesAndWithout(t *testing.T) {
	e, dir := layeredEngine(t, nodeFixture)
	ctx := context.Background()
	scope := scopeOf(t, nil, web01)
	res, err := e.LookupNode(ctx, hiera.NodeRequest{Scope: scope})
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range res.Files {
		rel, _ := filepath.Rel(dir, f.File)
		files = append(files, f.Layer+" "+f.Module+" "+f.Level+" "+rel)
	}
	want := []string{"global  node data/nodes/web01.yaml", "global  common data/common.yaml",
		"environment  common environments/production/data/common.yaml",
		"module ntp common environments/production/modules/ntp/data/common.yaml",
		"module ntp defaults environments/production/modules/ntp/data/defaults.yaml"}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	nodeFile, common := filepath.Join(dir, "data/nodes/web01.yaml"), filepath.Join(dir, "data/common.yaml")
	for _, c := range []struct {
		key     string
		without hiera.Omission
		want    any
	}{
		{"role", hiera.Omission{}, "web"},
		{"role", hiera.Omission{File: nodeFile, Key: "role"}, "base"},
		{"role", hiera.Omission{File: nodeFile, Key: "other"}, "web"},
		{"role", hiera.Omission{File: common, Key: "role"}, "web"},
		{"ntp::servers", hiera.Omission{File: nodeFile, Key: "ntp::servers"}, []any{"module"}},
		{"role", hiera.Omission{}, "web"}, // the cache kept the answers apart
	} {
		r, err := e.Lookup(ctx, hiera.Request{Key: c.key, Scope: scope, Without: c.without})
		if err != nil || !r.Found || !model.Equal(r.Value, c.want) {
			t.Errorf("%s without %v: %v (found %v, err %v), want %v", c.key, c.without, r.Value, r.Found, err, c.want)
		}
	}
	r, err := e.Lookup(ctx, hiera.Request{Key: "db_only", Scope: scopeOf(t, nil, map[string]any{"trusted": map[string]any{"certname": "db01"}}),
		Without: hiera.Omission{File: filepath.Join(dir, "data/nodes/db01.yaml"), Key: "db_only"}})
	if err != nil || r.Found {
		t.Errorf("a key only the file left out has: found %v, err %v", r.Found, err)
	}
}

// NodeRequest.Only keeps the listed keys it accepts; NodeResult.Files are listed all the same.
func TestNodeOnly(t *testing.T) {
	e, _ := layeredEngine(t, nodeFixture)
	res, err := e.LookupNode(context.Background(), hiera.NodeRequest{Scope: scopeOf(t, nil, web01),
		Only: func(k string) bool { return strings.HasPrefix(k, "ntp::") }})
	if err != nil || res.ListErr != nil {
		t.Fatal(err, res.ListErr)
	}
	var keys []string
	for _, a := range res.Answers {
		keys = append(keys, a.Key)
	}
	if diff := cmp.Diff([]string{"ntp::servers", "ntp::driftfile"}, keys); diff != "" || len(res.Files) != 5 {
		t.Errorf("keys (-want +got):\n%s\nfiles %v", diff, res.Files)
	}
}
