package hiera_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
)

// wmfLike is a hierarchy as Wikimedia's: the node's own file, then levels served by the site's
// functions (wmflib::regex_data, wmflib::expand_path over a directory), then a YAML level again.
var wmfLike = files{
	"hiera.yaml": `version: 5
hierarchy:
  - name: node
    path: "hosts/%{facts.hostname}.yaml"
  - name: Regex lookup
    lookup_key: wmflib::regex_data
    path: regex.yaml
    options:
      node: "%{facts.fqdn}"
  - name: role
    path: role.yaml
  - name: common
    lookup_key: wmflib::expand_path
    path: common
`,
	"data/hosts/db1.yaml":    "lookup_options:\n  merged: {merge: deep}\n  sens: {convert_to: Sensitive}\nprofile::mariadb::mysql_role: master\nmerged: {a: 1}\nsens: s\n",
	"data/regex.yaml":        "dbs:\n  __regex: !ruby/regexp /^db/\n  profile::x: 1\n",
	"data/role.yaml":         "profile::role_key: r\n",
	"data/common/ntp.yaml":   "ntp::servers: [a]\n",
	"data/common/common.yml": "x: 1\n",
}

var db1 = map[string]any{"hostname": "db1", "fqdn": "db1.eqiad.wmnet"}

// TestCustomLevels: a level served by a function the engine does not provide is read in Puppet's
// order (issue 43): the key the node's own file has is Puppet's answer, a lookup that reaches the
// level fails naming the level and the function, every lookup warns once about such levels.
func TestCustomLevels(t *testing.T) {
	e, dir := newEngine(t, wmfLike)
	scope := scopeOf(t, db1, nil)
	res := mustFind(t, e, hiera.Request{Key: "profile::mariadb::mysql_role", Scope: scope})
	if res.Value != "master" || len(res.Warnings) != 1 {
		t.Fatalf("value %v, warnings %q: want master and one warning", res.Value, res.Warnings)
	}
	wantContains(t, "warning", res.Warnings[0], filepath.Join(dir, "hiera.yaml"), `"Regex lookup" (lookup_key wmflib::regex_data), "common" (lookup_key wmflib::expand_path)`,
		"lookup_options they may hold are not applied")
	// lookup_options of the levels before it apply: convert_to, and a merge, which reaches the level
	if res := mustFind(t, e, hiera.Request{Key: "sens", Scope: scope}); !res.Sensitive {
		t.Errorf("sens: not Sensitive")
	}
	for _, req := range []hiera.Request{{Key: "merged", Scope: scope}, {Key: "profile::mariadb::mysql_role", Scope: scope, Merge: &merge.Merge{Strategy: "deep"}}} {
		he := mustFail(t, e, req)
		if !errors.Is(he, hiera.ErrCustomFunction) || he.Level != "Regex lookup" || he.File != filepath.Join(dir, "hiera.yaml") {
			t.Errorf("%s: error %v: want ErrCustomFunction at level Regex lookup of hiera.yaml", req.Key, he)
		}
	}
	for _, key := range []string{"profile::role_key", "nowhere"} {
		he := mustFail(t, e, hiera.Request{Key: key, Scope: scope})
		wantContains(t, "error", he.Error(), "lookup_key function 'wmflib::regex_data'", `hierarchy level "Regex lookup"`,
			"no modulepath is given to find module \"wmflib\" in", "ignore_functions")
	}
	// another node, with no file of its own: the level's file exists, the lookup reaches it
	other := scopeOf(t, map[string]any{"hostname": "web1", "fqdn": "web1.eqiad.wmnet"}, nil)
	if he := mustFail(t, e, hiera.Request{Key: "profile::mariadb::mysql_role", Scope: other}); he.Level != "Regex lookup" {
		t.Errorf("web1: %v", he)
	}

}

// TestCustomLevelsExplain: explain shows a custom level as skipped, and why.
func TestCustomLevelsExplain(t *testing.T) {
	e, _ := newEngine(t, wmfLike)
	res := mustFind(t, e, hiera.Request{Key: "profile::mariadb::mysql_role", Scope: scopeOf(t, db1, nil), Explain: true})
	wantContains(t, "explanation", res.Explanation, `Hierarchy entry "node"`, `Found key: "profile::mariadb::mysql_role" value: "master"`)
	e = hiera.NewLayeredEngine(filepath.Join(writeFiles(t, wmfLike), "hiera.yaml"), hiera.Layers{IgnoreFunctions: []string{"wmflib::regex_data", "wmflib::expand_path"}})
	res = mustFind(t, e, hiera.Request{Key: "profile::role_key", Scope: scopeOf(t, db1, nil), Explain: true})
	wantContains(t, "explanation", res.Explanation, `Hierarchy entry "Regex lookup"`,
		"Skipped: ignore_functions reads the levels of lookup_key function 'wmflib::regex_data' as holding no data", `Found key: "profile::role_key" value: "r"`)
}

// TestIgnoreFunctions: the opt-in reads the named functions' levels as holding no data, with one
// warning naming them; a function not named still fails the lookups that reach it.
func TestIgnoreFunctions(t *testing.T) {
	dir := writeFiles(t, wmfLike)
	e := hiera.NewLayeredEngine(filepath.Join(dir, "hiera.yaml"), hiera.Layers{IgnoreFunctions: []string{"wmflib::regex_data"}})
	scope := scopeOf(t, db1, nil)
	res := mustFind(t, e, hiera.Request{Key: "profile::role_key", Scope: scope})
	if res.Value != "r" || len(res.Warnings) != 2 {
		t.Fatalf("value %v, warnings %q", res.Value, res.Warnings)
	}
	wantContains(t, "warning", res.Warnings[0], "read as holding no data, as ignore_functions asks", `"Regex lookup" (lookup_key wmflib::regex_data)`)
	wantContains(t, "warning", res.Warnings[1], `"common" (lookup_key wmflib::expand_path)`)
	if strings.Contains(res.Warnings[1], "regex_data") {
		t.Errorf("the ignored function is named as unread: %q", res.Warnings[1])
	}
	he := mustFail(t, e, hiera.Request{Key: "nowhere", Scope: scope})
	if he.Level != "common" || !errors.Is(he, hiera.ErrCustomFunction) {
		t.Errorf("error %v: want the level common's", he)
	}
	e = hiera.NewLayeredEngine(filepath.Join(dir, "hiera.yaml"), hiera.Layers{IgnoreFunctions: []string{"wmflib::regex_data", "wmflib::expand_path"}})
	res, err := e.Lookup(context.Background(), hiera.Request{Key: "nowhere", Scope: scope})
	if err != nil || res.Found || len(res.Warnings) != 1 {
		t.Errorf("nowhere with both ignored: %+v, %v: want not found, one warning", res, err)
	}
}

// TestCustomLevelsNode: a whole-node read succeeds: the keys of the levels the engine reads are
// listed, those whose lookups reach a custom level fail one by one.
func TestCustomLevelsNode(t *testing.T) {
	e, _ := newEngine(t, wmfLike)
	res, err := e.LookupNode(context.Background(), hiera.NodeRequest{Scope: scopeOf(t, db1, nil)})
	if err != nil || res.ListErr != nil {
		t.Fatalf("%v, %v", err, res.ListErr)
	}
	var found, failed []string
	for _, a := range res.Answers {
		switch {
		case a.Err != nil:
			if !errors.Is(a.Err, hiera.ErrCustomFunction) {
				t.Errorf("%s: %v", a.Key, a.Err)
			}
			failed = append(failed, a.Key)
		case a.Result.Found:
			found = append(found, a.Key)
		}
	}
	if !slices.Equal(found, []string{"profile::mariadb::mysql_role", "sens"}) || !slices.Equal(failed, []string{"merged", "profile::role_key"}) {
		t.Errorf("found %v, failed %v", found, failed)
	}
	if n := len(res.Warnings); n != 1 {
		t.Errorf("warnings %q: want one", res.Warnings)
	}
}

// TestCustomFunctionFound: a function found where Puppet loads it is named with its file; one no
// module or environment has is Puppet's error, at the level that a lookup (or its lookup_options)
// reaches; a level none of whose locations exists is never reached (Puppet never loads it).
func TestCustomFunctionFound(t *testing.T) {
	fs := files{
		"hiera.yaml":                         "version: 5\nhierarchy:\n  - {name: node, path: node.yaml}\n  - {name: custom, lookup_key: mymod::custom, path: custom.yaml}\n",
		"data/node.yaml":                     "b: node\n",
		"data/custom.yaml":                   "c: 1\n",
		"environments/production/hiera.yaml": "version: 5\n",
		"environments/production/modules/mymod/functions/custom.pp": "function mymod::custom(String $key, Hash $options, Puppet::LookupContext $context) { $context.not_found() }\n",
	}
	e, dir := layeredEngine(t, fs)
	mustFind(t, e, hiera.Request{Key: "b"})
	he := mustFail(t, e, hiera.Request{Key: "c"})
	wantContains(t, "error", he.Error(), "found at "+filepath.Join(dir, "environments/production/modules/mymod/functions/custom.pp"))

	for name, tt := range map[string]struct{ config, message, level string }{
		"in a module without it": {config: "version: 5\nhierarchy:\n  - {name: node, path: node.yaml}\n  - {name: x, lookup_key: mymod::other, path: custom.yaml}\n",
			message: "Unable to find 'lookup_key' function named 'mymod::other'", level: "x"},
		"unqualified": {config: "version: 5\ndefaults:\n  lookup_key: vault_lookup\nhierarchy:\n  - name: secrets\n    path: custom.yaml\n",
			message: "Unable to find 'lookup_key' function named 'vault_lookup'", level: "secrets"},
		"data_dig": {config: "version: 5\nhierarchy:\n  - name: dig level\n    data_dig: my_dig\n    path: custom.yaml\n",
			message: "Unable to find 'data_dig' function named 'my_dig'", level: "dig level"},
	} {
		t.Run(name, func(t *testing.T) {
			addFiles(t, dir, files{"hiera.yaml": tt.config})
			e := hiera.NewLayeredEngine(filepath.Join(dir, "hiera.yaml"), hiera.Layers{Environment: filepath.Join(dir, "environments", "production")})
			he := mustFail(t, e, hiera.Request{Key: "b"}) // found before it: its lookup_options search reaches it
			if he.Message != tt.message || he.Level != tt.level || he.File != filepath.Join(dir, "hiera.yaml") {
				t.Errorf("error %q level %q file %q", he.Message, he.Level, he.File)
			}
			addFiles(t, dir, files{"hiera.yaml": strings.ReplaceAll(tt.config, "custom.yaml", "absent.yaml")})
			e = hiera.NewLayeredEngine(filepath.Join(dir, "hiera.yaml"), hiera.Layers{Environment: filepath.Join(dir, "environments", "production")})
			if res, err := e.Lookup(context.Background(), hiera.Request{Key: "nowhere"}); err != nil || res.Found {
				t.Errorf("a level whose file does not exist: %+v, %v", res, err)
			}
		})
	}
}
