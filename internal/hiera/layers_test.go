package hiera_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
)

// Puppet's layers beyond what the conformance cases pin: the engine's API (no global layer, an
// explicit modulepath), explain text, warnings, caches and the confinement of module layers.

// level5 is a one-level version 5 hiera.yaml over data/common.yaml.
const level5 = "version: 5\nhierarchy:\n  - name: \"common\"\n    path: \"common.yaml\"\n"

// layeredEngine writes a fixture and returns an engine over its hiera.yaml (if the fixture has one)
// and environments/production.
func layeredEngine(t *testing.T, fs files) (*hiera.Engine, string) {
	t.Helper()
	dir := writeFiles(t, fs)
	config := ""
	if _, ok := fs["hiera.yaml"]; ok {
		config = filepath.Join(dir, "hiera.yaml")
	}
	return hiera.NewLayeredEngine(config, hiera.Layers{Environment: filepath.Join(dir, "environments", "production")}), dir
}

// defaultHierarchyFixture is the conformance case layer-mod-default-hierarchy.
var defaultHierarchyFixture = files{
	"hiera.yaml":                                             simpleConfig,
	"data/common.yaml":                                       "ntp::servers: [global]\n",
	"environments/production/hiera.yaml":                     level5,
	"environments/production/modules/ntp/hiera.yaml":         "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\ndefault_hierarchy:\n  - name: defaults\n    path: defaults.yaml\n",
	"environments/production/modules/ntp/data/common.yaml":   "ntp::keys: [common]\n",
	"environments/production/modules/ntp/data/defaults.yaml": "ntp::servers: [default]\nntp::keys: [default]\nntp::driftfile: /var/lib/ntp/drift\nntp::cfg: {a: 1}\n",
}

// TestExplainLayers pins explanations through the three layers as `puppet lookup --explain
// --merge unique` printed them (Puppet 7.23): the data providers, a module that does not exist,
// the default_hierarchy and the layer stage's merge, headed only when two layers answered.
func TestExplainLayers(t *testing.T) {
	t.Parallel()
	e, dir := layeredEngine(t, defaultHierarchyFixture)
	for key, want := range map[string]string{
		"ntp::driftfile": `Searching for "ntp::driftfile"
  Merge strategy unique
    Global Data Provider (hiera configuration version 5)
      Using configuration "@ROOT@/hiera.yaml"
      Hierarchy entry "common"
        Path "@ROOT@/data/common.yaml"
          Original path: "common.yaml"
          No such key: "ntp::driftfile"
    Environment Data Provider (hiera configuration version 5)
      Using configuration "@ROOT@/environments/production/hiera.yaml"
      Hierarchy entry "common"
        Path "@ROOT@/environments/production/data/common.yaml"
          Original path: "common.yaml"
          Path not found
    Module "ntp" Data Provider (hiera configuration version 5)
      Using configuration "@ROOT@/environments/production/modules/ntp/hiera.yaml"
      Hierarchy entry "common"
        Path "@ROOT@/environments/production/modules/ntp/data/common.yaml"
          Original path: "common.yaml"
          No such key: "ntp::driftfile"
  Searching default_hierarchy of module "ntp"
    Searching for "lookup_options"
      Module "ntp" Data Provider (hiera configuration version 5)
        Using configuration "@ROOT@/environments/production/modules/ntp/hiera.yaml"
        Hierarchy entry "defaults"
          Path "@ROOT@/environments/production/modules/ntp/data/defaults.yaml"
            Original path: "defaults.yaml"
            No such key: "lookup_options"
    Searching for "ntp::driftfile"
      Module "ntp" Data Provider (hiera configuration version 5)
        Using configuration "@ROOT@/environments/production/modules/ntp/hiera.yaml"
        Hierarchy entry "defaults"
          Path "@ROOT@/environments/production/modules/ntp/data/defaults.yaml"
            Original path: "defaults.yaml"
            Found key: "ntp::driftfile" value: "/var/lib/ntp/drift"
`,
		"nosuch::x": `Searching for "nosuch::x"
  Merge strategy unique
    Global Data Provider (hiera configuration version 5)
      Using configuration "@ROOT@/hiera.yaml"
      Hierarchy entry "common"
        Path "@ROOT@/data/common.yaml"
          Original path: "common.yaml"
          No such key: "nosuch::x"
    Environment Data Provider (hiera configuration version 5)
      Using configuration "@ROOT@/environments/production/hiera.yaml"
      Hierarchy entry "common"
        Path "@ROOT@/environments/production/data/common.yaml"
          Original path: "common.yaml"
          Path not found
    Module "nosuch" not found
Function lookup() did not find a value for the name 'nosuch::x'
`,
	} {
		res, err := lookup(t, e, hiera.Request{Key: key, Merge: &merge.Merge{Strategy: "unique"}, Explain: true})
		if err != nil {
			t.Fatal(err)
		}
		want = strings.ReplaceAll(want, "@ROOT@", dir)
		if diff := cmp.Diff(want, res.Explanation); diff != "" {
			t.Errorf("%s: explanation (-want +got):\n%s", key, diff)
		}
	}
}

// TestLayersWithoutGlobal: an environment (or a modulepath) without a global hiera.yaml is no error.
func TestLayersWithoutGlobal(t *testing.T) {
	t.Parallel()
	e, _ := layeredEngine(t, files{
		"environments/production/hiera.yaml":                   level5,
		"environments/production/data/common.yaml":             "env: \"%{environment}\"\n",
		"environments/production/modules/ntp/hiera.yaml":       level5,
		"environments/production/modules/ntp/data/common.yaml": "ntp::servers: [pool]\n",
	})
	if e.ConfigPath() != "" {
		t.Errorf("ConfigPath() = %q, want none", e.ConfigPath())
	}
	wantValue(t, e, "env", `"production"`)
	wantValue(t, e, "ntp::servers", `["pool"]`)
	res, err := lookup(t, e, hiera.Request{Key: "missing"})
	if err != nil || res.Found {
		t.Errorf("missing: found=%v err=%v, want not found", res.Found, err)
	}
}

func TestLayersNoneIsAnError(t *testing.T) {
	t.Parallel()
	err := mustFail(t, hiera.NewLayeredEngine("", hiera.Layers{}), hiera.Request{Key: "a"})
	wantContains(t, "error", err.Error(), "no hiera.yaml, environment or modulepath")
	if err.Key != "a" {
		t.Errorf("Key = %q, want a", err.Key)
	}
}

// TestLayersModulepath: an explicit modulepath replaces the environment's (environment.conf's),
// the first directory holding a module wins, and it works without an environment.
func TestLayersModulepath(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, files{
		"env/environment.conf":                  "modulepath = conf-modules\n",
		"env/conf-modules/ntp/hiera.yaml":       level5,
		"env/conf-modules/ntp/data/common.yaml": "ntp::x: conf\n",
		"first/ntp/hiera.yaml":                  level5,
		"first/ntp/data/common.yaml":            "ntp::x: first\n",
		"second/ntp/hiera.yaml":                 level5,
		"second/ntp/data/common.yaml":           "ntp::x: second\nntp::y: second\n",
		"second/apache/hiera.yaml":              level5,
		"second/apache/data/common.yaml":        "apache::x: second\n",
	})
	for name, env := range map[string]string{"with environment": filepath.Join(dir, "env"), "without": ""} {
		e := hiera.NewLayeredEngine("", hiera.Layers{Environment: env, Modulepath: []string{filepath.Join(dir, "first"), filepath.Join(dir, "missing"), filepath.Join(dir, "second")}})
		t.Run(name, func(t *testing.T) {
			wantValue(t, e, "ntp::x", `"first"`)
			wantValue(t, e, "apache::x", `"second"`)
			if res, err := lookup(t, e, hiera.Request{Key: "ntp::y"}); err != nil || res.Found {
				t.Errorf("ntp::y: found=%v err=%v; the second copy of ntp must be ignored", res.Found, err)
			}
		})
	}
}

// TestModules lists the modules data and code come from: the first directory of the modulepath
// holding a name wins, names Puppet takes for no module (Upper, a-b, a file) are left out; without
// a Modulepath, the environment.conf's.
func TestModules(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, files{
		"env/environment.conf":           "modulepath = conf-modules\n",
		"env/conf-modules/stdlib/README": "",
		"first/ntp/README":               "",
		"second/ntp/README":              "",
		"second/apache/README":           "",
		"second/Upper/README":            "",
		"second/not-a-module/README":     "",
		"second/file":                    "",
	})
	e := hiera.NewLayeredEngine("", hiera.Layers{Modulepath: []string{filepath.Join(dir, "first"), filepath.Join(dir, "missing"), filepath.Join(dir, "second")}})
	mods, _, err := e.Modules()
	want := []hiera.Module{{Name: "apache", Dir: filepath.Join(dir, "second", "apache")}, {Name: "ntp", Dir: filepath.Join(dir, "first", "ntp")}}
	if err != nil || !slices.Equal(mods, want) {
		t.Errorf("got %v, %v; want %v", mods, err, want)
	}
	e = hiera.NewLayeredEngine("", hiera.Layers{Environment: filepath.Join(dir, "env")})
	if mods, _, err := e.Modules(); err != nil || len(mods) != 1 || mods[0].Name != "stdlib" {
		t.Errorf("environment.conf's modulepath: got %v, %v", mods, err)
	}
}

// TestLayersWarnings: what Puppet warns about reaches Result.Warnings, naming the file.
func TestLayersWarnings(t *testing.T) {
	t.Parallel()
	e, dir := layeredEngine(t, files{
		"hiera.yaml":                                           simpleConfig,
		"environments/production/hiera.yaml":                   "version: 3\n",
		"environments/production/environment.conf":             "modulepath = $codedir/modules:modules:$basemodulepath\n",
		"environments/production/modules/ntp/hiera.yaml":       level5,
		"environments/production/modules/ntp/data/common.yaml": "ntp::x: 1\nservers: [unqualified]\n",
	})
	res := mustFind(t, e, hiera.Request{Key: "ntp::x"})
	env := filepath.Join(dir, "environments", "production")
	want := []string{
		env + "/hiera.yaml: hiera.yaml version 3 found at the environment root was ignored",
		env + "/environment.conf: modulepath entry '$codedir/modules' names the Puppet setting $codedir, which this provider does not know: skipped (list the directory in the provider's modulepath instead)",
		"Module 'ntp': Value returned from data_hash function 'yaml_data', when using location '" + env + "/modules/ntp/data/common.yaml', must use keys qualified with the name of the module",
	}
	if diff := cmp.Diff(want, res.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	// a second lookup warns again (the warning is not lost to the result cache)
	res = mustFind(t, e, hiera.Request{Key: "ntp::x"})
	if len(res.Warnings) != 3 {
		t.Errorf("second lookup: warnings %q, want the same 3", res.Warnings)
	}
}

// TestEnvironmentConfAsPuppet: environment.conf's modulepath is read as Puppet 7 reads it: quotes
// at the value's ends dropped, ** globs expanded to the directories they match (a glob matching
// none warns), the first of two modulepath lines wins, and {a,b} alternatives fail to parse, as in
// Puppet, with a message saying why.
func TestEnvironmentConfAsPuppet(t *testing.T) {
	t.Parallel()
	modules := files{
		"environments/production/hiera.yaml":                                       level5,
		"environments/production/site/ntp/hiera.yaml":                              level5,
		"environments/production/site/ntp/data/common.yaml":                        "ntp::x: site\n",
		"environments/production/vendor/acme/deep/modules/apache/hiera.yaml":       level5,
		"environments/production/vendor/acme/deep/modules/apache/data/common.yaml": "apache::x: vendor\n",
	}
	for conf, want := range map[string]map[string]string{
		"modulepath = \"site:modules\"\n":                     {"ntp::x": `"site"`},
		"modulepath = 'site'\n":                               {"ntp::x": `"site"`},
		"modulepath = site:vendor/**/modules\n":               {"ntp::x": `"site"`, "apache::x": `"vendor"`},
		"modulepath = vendor/*/deep/modules\n":                {"apache::x": `"vendor"`},
		"modulepath = site\nmodulepath = vendor/**/modules\n": {"ntp::x": `"site"`, "apache::x": ""},
		"modulepath = site {owner = root, mode = 0644}\n":     {"ntp::x": `"site"`},
	} {
		fs := files{"environments/production/environment.conf": conf}
		for k, v := range modules {
			fs[k] = v
		}
		e, _ := layeredEngine(t, fs)
		for key, value := range want {
			res, err := lookup(t, e, hiera.Request{Key: key})
			switch {
			case err != nil:
				t.Errorf("%q: %s: %v", conf, key, err)
			case value == "" && res.Found:
				t.Errorf("%q: %s found %s, want not found", conf, key, jsonOf(t, res.Value))
			case value != "" && (!res.Found || jsonOf(t, res.Value) != value):
				t.Errorf("%q: %s found=%v %s, want %s", conf, key, res.Found, jsonOf(t, res.Value), value)
			}
		}
	}
	e, dir := layeredEngine(t, files{"environments/production/environment.conf": "modulepath = site:vendor/**/nothing\n"})
	res, err := lookup(t, e, hiera.Request{Key: "ntp::x"})
	if err != nil || res.Found {
		t.Fatalf("found=%v err=%v", res.Found, err)
	}
	conf := filepath.Join(dir, "environments/production/environment.conf")
	if diff := cmp.Diff([]string{conf + ": modulepath entry 'vendor/**/nothing' matches no directory"}, res.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	e, dir = layeredEngine(t, files{"environments/production/environment.conf": "# modules\nmodulepath = {site,modules}\n"})
	conf = filepath.Join(dir, "environments/production/environment.conf")
	he := mustFail(t, e, hiera.Request{Key: "ntp::x"})
	wantContains(t, "error", he.Error(), "Could not parse '{site,modules}' (Puppet reads {...} in a setting's value as file options", "so {a,b} alternatives fail to parse in Puppet too: list the directories)")
	if he.File != conf || he.Line != 2 {
		t.Errorf("error at %s line %d, want %s line 2", he.File, he.Line, conf)
	}
}

// TestLayersErrors: every way a layer's files can be wrong is an error naming the file (and line).
func TestLayersErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		fs        files
		key       string
		file      string
		line      int
		wantParts []string
	}{
		"environment.conf line": {
			fs:  files{"environments/production/environment.conf": "modulepath = site\nnot a setting\n"},
			key: "ntp::x", file: "environments/production/environment.conf", line: 2,
			wantParts: []string{"Could not match line not a setting"},
		},
		"environment.conf ${}": {
			fs:  files{"environments/production/environment.conf": "modulepath = ${basemodulepath}\n"},
			key: "ntp::x", file: "environments/production/environment.conf", line: 1,
			wantParts: []string{"Could not parse '${basemodulepath}'"},
		},
		"module hiera.yaml version 4 in the global layer": {
			fs:  files{"hiera.yaml": "version: 4\n"},
			key: "a", file: "hiera.yaml",
			wantParts: []string{"hiera.yaml version 4 cannot be used in the global layer"},
		},
		"module glob leaving the module": {
			fs:  files{"environments/production/modules/ntp/hiera.yaml": "version: 5\nhierarchy:\n  - name: all\n    glob: \"../../*/data/*.yaml\"\n"},
			key: "ntp::x", file: "environments/production/modules/ntp/hiera.yaml",
			wantParts: []string{"escapes the data directory", "modules/ntp"},
		},
		"module path from a fact leaving the module": {
			fs:  files{"environments/production/modules/ntp/hiera.yaml": "version: 5\nhierarchy:\n  - name: os\n    path: \"/%{facts.os}.yaml\"\n"},
			key: "ntp::x", file: "environments/production/modules/ntp/hiera.yaml",
			wantParts: []string{"outside", "modules/ntp"},
		},
		"version 4 unknown backend": {
			fs:  files{"environments/production/hiera.yaml": "version: 4\nhierarchy:\n  - name: common\n    backend: foo\n"},
			key: "a", file: "environments/production/hiera.yaml", line: 4,
			wantParts: []string{"No data provider is registered for backend 'foo'"},
		},
		"version 4 missing name": {
			fs:  files{"environments/production/hiera.yaml": "version: 4\nhierarchy:\n  - backend: yaml\n"},
			key: "a", file: "environments/production/hiera.yaml",
			wantParts: []string{"entry 'hierarchy' index 0 expects a value for key 'name'"},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fs := files{"environments/production/hiera.yaml": level5}
			for k, v := range tt.fs {
				fs[k] = v
			}
			e, dir := layeredEngine(t, fs)
			err := mustFail(t, e, hiera.Request{Key: tt.key, Scope: scopeOf(t, map[string]any{"os": "../../../../etc/passwd"}, nil)})
			wantContains(t, "error", err.Error(), tt.wantParts...)
			if err.File != filepath.Join(dir, tt.file) || err.Line != tt.line || err.Key != tt.key {
				t.Errorf("error at %s line %d key %q, want %s line %d key %q", err.File, err.Line, err.Key, tt.file, tt.line, tt.key)
			}
		})
	}
}

// TestLayersCache: the caches follow each layer's files: a module added, a module's data and
// hiera.yaml changed, environment.conf changed between lookups of one engine.
func TestLayersCache(t *testing.T) {
	t.Parallel()
	e, dir := layeredEngine(t, files{"environments/production/hiera.yaml": level5})
	var tick atomic.Int64 // every lookup is a second later: past StampCheckInterval, files are looked at again
	hiera.SetClock(e, func() time.Time { return time.Unix(tick.Add(1), 0) })
	env := filepath.Join(dir, "environments", "production")
	if res, err := lookup(t, e, hiera.Request{Key: "ntp::x"}); err != nil || res.Found {
		t.Fatalf("before the module exists: found=%v err=%v", res.Found, err)
	}
	addFiles(t, env, files{"modules/ntp/hiera.yaml": level5, "modules/ntp/data/common.yaml": "ntp::x: one\n"})
	wantValue(t, e, "ntp::x", `"one"`)
	later := time.Now().Add(time.Hour)
	rewrite(t, filepath.Join(env, "modules/ntp/data/common.yaml"), "ntp::x: two\n", later)
	wantValue(t, e, "ntp::x", `"two"`)
	addFiles(t, env, files{"modules/ntp/data/other.yaml": "ntp::x: other\n"})
	rewrite(t, filepath.Join(env, "modules/ntp/hiera.yaml"), "version: 5\nhierarchy:\n  - name: other\n    path: other.yaml\n", later)
	wantValue(t, e, "ntp::x", `"other"`)
	addFiles(t, env, files{"site/ntp/hiera.yaml": level5, "site/ntp/data/common.yaml": "ntp::x: site\n", "environment.conf": "modulepath = site:modules\n"})
	wantValue(t, e, "ntp::x", `"site"`)
}

// TestLayersModuleSeenWithinInterval: where a module is (or is not) is trusted for
// StampCheckInterval, as a file is; a module that appears or goes is seen after it.
func TestLayersModuleSeenWithinInterval(t *testing.T) {
	t.Parallel()
	e, dir := layeredEngine(t, files{"environments/production/hiera.yaml": level5})
	clock := withClock(e)
	env := filepath.Join(dir, "environments", "production")
	found := func() bool {
		t.Helper()
		res, err := lookup(t, e, hiera.Request{Key: "ntp::x"})
		if err != nil {
			t.Fatal(err)
		}
		return res.Found
	}
	if found() {
		t.Fatal("found before the module exists")
	}
	addFiles(t, env, files{"modules/ntp/hiera.yaml": level5, "modules/ntp/data/common.yaml": "ntp::x: one\n"})
	if found() {
		t.Error("a module added within StampCheckInterval was seen: the modulepath was looked at again")
	}
	clock.advance(hiera.StampCheckInterval)
	if !found() {
		t.Error("a module added was not seen after StampCheckInterval")
	}
	if err := os.RemoveAll(filepath.Join(env, "modules", "ntp")); err != nil {
		t.Fatal(err)
	}
	clock.advance(hiera.StampCheckInterval)
	if found() {
		t.Error("a module removed was still found after StampCheckInterval")
	}
}

// TestLayersConcurrent runs lookups of several modules at once (go test -race checks the caches).
func TestLayersConcurrent(t *testing.T) {
	t.Parallel()
	fs := files{"hiera.yaml": simpleConfig, "data/common.yaml": "lookup_options:\n  \"^m\\\\d::list$\": {merge: unique}\n", "environments/production/hiera.yaml": level5}
	for i := 0; i < 4; i++ {
		fs[fmt.Sprintf("environments/production/modules/m%d/hiera.yaml", i)] = level5
		fs[fmt.Sprintf("environments/production/modules/m%d/data/common.yaml", i)] = fmt.Sprintf("m%d::list: [%d]\n", i, i)
		fs["environments/production/data/common.yaml"] += fmt.Sprintf("m%d::list: [env]\n", i)
	}
	e, _ := layeredEngine(t, fs)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				m := (g + i) % 4
				res, err := lookup(t, e, hiera.Request{Key: fmt.Sprintf("m%d::list", m)})
				if err != nil {
					t.Error(err)
					return
				}
				if got, want := jsonOf(t, res.Value), fmt.Sprintf(`["env",%d]`, m); got != want {
					t.Errorf("m%d::list = %s, want %s", m, got, want)
					return
				}
			}
		}(g)
	}
	wg.Wait()
}
