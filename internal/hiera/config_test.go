package hiera_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// TestConfigValidation covers the hiera.yaml version 5 rules of hiera-semantics.md §2.2: each invalid file fails the
// first lookup with Puppet's message, and the error names the hiera.yaml (and the line, where Puppet
// gives one).
func TestConfigValidation(t *testing.T) {
	t.Parallel()
	const wrongType = "The Lookup Configuration at '@CONFIG@' has wrong type, "
	tests := map[string]struct {
		config  string
		message string // exact; @CONFIG@ is the hiera.yaml path
		line    int    // the error's Line field
		level   string // the error's Level field, when it names an entry
	}{
		"unknown-top-key": {
			config:  "version: 5\nhirarchy: []\n",
			message: wrongType + "unrecognized key 'hirarchy'",
		},
		"unknown-entry-key": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    pth: a.yaml\n",
			message: wrongType + "entry 'hierarchy' index 0 unrecognized key 'pth'",
		},
		"entry-without-name": {
			config:  "version: 5\nhierarchy:\n  - path: a.yaml\n",
			message: wrongType + "entry 'hierarchy' index 0 expects a value for key 'name'",
		},
		"entry-with-empty-name": {
			config:  "version: 5\nhierarchy:\n  - name: ''\n    path: a.yaml\n",
			message: wrongType + "entry 'hierarchy' index 0 expects a value for key 'name'",
		},
		"second-entry-not-a-hash": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    path: a.yaml\n  - just a string\n",
			message: wrongType + "entry 'hierarchy' index 1 expects a Hash value, got String",
		},
		"hierarchy-not-an-array": {
			config:  "version: 5\nhierarchy: {name: x}\n",
			message: wrongType + "entry 'hierarchy' expects an Array value, got Struct",
		},
		"defaults-not-a-hash": {
			config:  "version: 5\ndefaults: yaml_data\n",
			message: wrongType + "entry 'defaults' expects a Hash value, got String",
		},
		"defaults-unknown-key": {
			config:  "version: 5\ndefaults:\n  hiera3_backend: yaml\n",
			message: wrongType + "entry 'defaults' unrecognized key 'hiera3_backend'",
		},
		"empty-paths": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    paths: []\n",
			message: wrongType + "entry 'hierarchy' index 0 entry 'paths' expects size to be at least 1, got 0",
		},
		"paths-not-an-array": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    paths: a.yaml\n",
			message: wrongType + "entry 'hierarchy' index 0 entry 'paths' expects an Array value, got String",
		},
		"paths-with-empty-string": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    paths: [a.yaml, '']\n",
			message: wrongType + "entry 'hierarchy' index 0 entry 'paths' index 1 expects a String[1] value, got String",
		},
		"empty-path": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    path: ''\n",
			message: wrongType + "entry 'hierarchy' index 0 entry 'path' expects a String[1] value, got String",
		},
		"path-not-a-string": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    path: 42\n",
			message: wrongType + "entry 'hierarchy' index 0 entry 'path' expects a String[1] value, got Integer",
		},
		"mapped-paths-two-elements": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    mapped_paths: [facts.roles, role]\n",
			message: wrongType + "entry 'hierarchy' index 0 entry 'mapped_paths' expects size to be 3, got 2",
		},
		"option-key-starting-with-digit": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    path: a.yaml\n    options:\n      1x: y\n",
			message: wrongType + "entry 'hierarchy' index 0 entry 'options' key of entry '1x' expects a match for Pattern[/\\A[A-Za-z](:?[0-9A-Za-z_-]*[0-9A-Za-z])?\\z/], got '1x'",
			level:   "x",
		},
		"options-not-a-hash": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    path: a.yaml\n    options: [a]\n",
			message: wrongType + "entry 'hierarchy' index 0 entry 'options' expects a Hash value, got Tuple",
			level:   "x",
		},
		"duplicate-name": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    path: a.yaml\n  - name: y\n    path: b.yaml\n  - name: x\n    path: c.yaml\n",
			message: "Hierarchy name 'x' defined more than once. First defined at (line: 3)",
			line:    7,
		},
		"no-function-anywhere": {
			config:  "version: 5\ndefaults:\n  datadir: data\nhierarchy:\n  - name: x\n    path: a.yaml\n",
			message: "One of data_hash, lookup_key, data_dig, or hiera3_backend must be defined in hierarchy 'x'",
			level:   "x",
		},
		"two-functions-in-entry": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    data_hash: yaml_data\n    lookup_key: eyaml_lookup_key\n    path: a.yaml\n",
			message: "Only one of data_hash, lookup_key, data_dig, or hiera3_backend can be defined in hierarchy 'x'",
			level:   "x",
		},
		"two-functions-in-defaults": {
			config:  "version: 5\ndefaults:\n  data_hash: yaml_data\n  data_dig: foo\n",
			message: "Only one of data_hash, lookup_key, data_dig, or hiera3_backend can be defined in defaults",
		},
		"two-location-keys": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    path: a.yaml\n    glob: '*.yaml'\n",
			message: "Only one of path, paths, glob, globs, uri, uris, or mapped_paths can be defined in hierarchy 'x'",
			level:   "x",
		},
		"reserved-option-path-in-entry": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    lookup_key: eyaml_lookup_key\n    path: a.yaml\n    options:\n      path: b\n",
			message: "Option key 'path' used in hierarchy 'x' is reserved by Puppet",
			level:   "x",
		},
		"reserved-option-uri-in-defaults": {
			config:  "version: 5\ndefaults:\n  data_hash: yaml_data\n  options:\n    uri: b\n",
			message: "Option key 'uri' used in defaults is reserved by Puppet",
		},
		"default-hierarchy-outside-module": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    path: a.yaml\ndefault_hierarchy:\n  - name: d\n    path: d.yaml\n",
			message: "'default_hierarchy' is only allowed in the module layer",
			line:    5,
		},
		"hiera3-backend-yaml": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    hiera3_backend: yaml\n    path: a.yaml\n",
			message: `Use "data_hash: yaml_data" instead of "hiera3_backend: yaml"`,
			line:    4,
			level:   "x",
		},
		"hiera3-backend-json": {
			config:  "version: 5\nhierarchy:\n  - name: x\n    hiera3_backend: json\n    path: a.json\n",
			message: `Use "data_hash: json_data" instead of "hiera3_backend: json"`,
			line:    4,
			level:   "x",
		},
		"hiera3-backend-custom": {
			config:  "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n  - name: vault level\n    hiera3_backend: vault\n    path: a\n",
			message: "Hierarchy entry 'vault level' uses hiera3_backend 'vault': Hiera 3 backends are Ruby code, which this provider does not run",
			line:    5,
			level:   "vault level",
		},
		"version-4": {
			config:  "version: 4\nhierarchy:\n  - name: common\n    backend: yaml\n",
			message: "hiera.yaml version 4 cannot be used in the global layer",
		},
		"version-6": {
			config:  "version: 6\n",
			message: "This runtime does not support hiera.yaml version 6",
		},
		"version-not-a-number": {
			config:  "version: five\n",
			message: "This runtime does not support hiera.yaml version five",
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, dir := newEngine(t, files{"hiera.yaml": tt.config})
			cfg := filepath.Join(dir, "hiera.yaml")
			he := mustFail(t, e, hiera.Request{Key: "a"})
			if want := strings.ReplaceAll(tt.message, "@CONFIG@", cfg); he.Message != want {
				t.Errorf("message:\n got  %s\n want %s", he.Message, want)
			}
			if he.File != cfg {
				t.Errorf("File = %q, want %q", he.File, cfg)
			}
			if he.Line != tt.line {
				t.Errorf("Line = %d, want %d", he.Line, tt.line)
			}
			if he.Level != tt.level {
				t.Errorf("Level = %q, want %q", he.Level, tt.level)
			}
			if he.Key != "a" {
				t.Errorf("Key = %q, want %q", he.Key, "a")
			}
			wantContains(t, "Error()", he.Error(), "file: "+cfg)
		})
	}
}

// TestConfigAccepted covers valid files: the defaults of a minimal file, symbol keys, the option key
// pattern's quirk, per-entry functions and options.
func TestConfigAccepted(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		fs   files
		key  string
		want string // JSON of the value found
	}{
		"only-version-uses-data-common-yaml": {
			fs:   files{"hiera.yaml": "version: 5\n", "data/common.yaml": "a: from default hierarchy\n"},
			key:  "a",
			want: `"from default hierarchy"`,
		},
		"defaults-holding-only-comments-is-no-defaults": { // as Puppet (found on puppet-magic_castle)
			fs: files{
				"hiera.yaml":       "version: 5\ndefaults:\n  # datadir: elsewhere\nhierarchy:\n  - name: c\n    path: common.yaml\n",
				"data/common.yaml": "a: data dir\n",
			},
			key:  "a",
			want: `"data dir"`,
		},
		"defaults-without-datadir-still-use-data": {
			fs: files{
				"hiera.yaml":  "version: 5\ndefaults:\n  data_hash: yaml_data\nhierarchy:\n  - name: c\n    path: c.yaml\n",
				"data/c.yaml": "a: data dir\n",
				"c.yaml":      "a: next to hiera.yaml\n",
			},
			key:  "a",
			want: `"data dir"`,
		},
		"defaults-function-and-datadir": {
			fs: files{
				"hiera.yaml":   "version: 5\ndefaults:\n  data_hash: json_data\n  datadir: jdata\nhierarchy:\n  - name: c\n    path: c.json\n",
				"jdata/c.json": `{"a": ["json", 1]}`,
				"data/c.json":  `{"a": "wrong dir"}`,
			},
			key:  "a",
			want: `["json",1]`,
		},
		"symbol-keys": {
			fs: files{
				"hiera.yaml":      ":version: 5\n:defaults:\n  :datadir: sym\n:hierarchy:\n  - :name: common\n    :data_hash: yaml_data\n    :path: common.yaml\n",
				"sym/common.yaml": "a: symbols\n",
			},
			key:  "a",
			want: `"symbols"`,
		},
		"option-key-with-colon": {
			fs: files{
				"hiera.yaml":   "version: 5\nhierarchy:\n  - name: e\n    lookup_key: eyaml_lookup_key\n    path: c.eyaml\n    options:\n      a:b: 1\n",
				"data/c.eyaml": "a: plain\n",
			},
			key:  "a",
			want: `"plain"`,
		},
		"plan-hierarchy-ignored": {
			fs: files{
				"hiera.yaml":     "version: 5\nplan_hierarchy:\n  - name: p\n    path: plan.yaml\nhierarchy:\n  - name: c\n    path: c.yaml\n",
				"data/c.yaml":    "a: regular\n",
				"data/plan.yaml": "a: plan\n",
			},
			key:  "a",
			want: `"regular"`,
		},
		"entry-options-replace-defaults-options": {
			// yaml_data refuses any option: the entry's empty options hash replaces the inherited one
			fs: files{
				"hiera.yaml":  "version: 5\ndefaults:\n  data_hash: yaml_data\n  options:\n    foo: 1\nhierarchy:\n  - name: c\n    path: c.yaml\n    options: {}\n",
				"data/c.yaml": "a: own options\n",
			},
			key:  "a",
			want: `"own options"`,
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, _ := newEngine(t, tt.fs)
			res := mustFind(t, e, hiera.Request{Key: tt.key})
			if got := jsonOf(t, res.Value); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestConfigInheritedOptionsRejectedByYAMLData(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{
		"hiera.yaml":  "version: 5\ndefaults:\n  data_hash: yaml_data\n  options:\n    foo: 1\nhierarchy:\n  - name: c\n    path: c.yaml\n",
		"data/c.yaml": "a: 1\n",
	})
	he := mustFail(t, e, hiera.Request{Key: "a"})
	want := "Lookup of key 'lookup_options' failed: 'yaml_data' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function"
	if he.Message != want {
		t.Errorf("message %q, want %q", he.Message, want)
	}
	if he.Level != "c" || he.File != filepath.Join(dir, "hiera.yaml") {
		t.Errorf("Level %q File %q", he.Level, he.File)
	}
}

func TestConfigMissingFile(t *testing.T) {
	t.Parallel()
	tests := map[string]func(dir string) string{
		"no-such-file":      func(dir string) string { return filepath.Join(dir, "nope", "hiera.yaml") },
		"relative-path":     func(dir string) string { return filepath.Join(dir, "sub", "..", "missing.yaml") },
		"path-is-directory": func(dir string) string { return dir },
	}
	for name, pathFor := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := pathFor(dir)
			e := hiera.NewEngine(path)
			he := mustFail(t, e, hiera.Request{Key: "a"})
			clean := filepath.Clean(path)
			wantContains(t, "message", he.Message, clean)
			if he.File != clean || e.ConfigPath() != clean {
				t.Errorf("File %q, ConfigPath %q, want %q", he.File, e.ConfigPath(), clean)
			}
		})
	}
}

func TestConfigMalformedYAML(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{"hiera.yaml": "version: 5\nhierarchy:\n  - name: x\n    path: [unclosed\n"})
	he := mustFail(t, e, hiera.Request{Key: "a"})
	cfg := filepath.Join(dir, "hiera.yaml")
	wantContains(t, "message", he.Message, "Unable to parse hiera.yaml")
	if he.File != cfg {
		t.Errorf("File %q, want %q", he.File, cfg)
	}
	if he.Line == 0 {
		t.Errorf("Line not set: %v", he)
	}
}

// TestConfigVersion3 covers the conversion of a Hiera 3 configuration (hiera-semantics.md §2.6): one entry per
// backend in :backends: order, each walking the whole :hierarchy:, with the extension appended.
func TestConfigVersion3(t *testing.T) {
	t.Parallel()
	const v3 = `---
:backends:
  - yaml
  - json
:hierarchy:
  - "nodes/%{::trusted.certname}"
  - "roles/%{role}"
  - common
:yaml:
  :datadir: "@ROOT@/hieradata"
:json:
  :datadir: jdata
:merge_behavior: deeper
`
	fs := files{
		"hiera.yaml":                            v3,
		"hieradata/nodes/web1.example.com.yaml": "node_only: node\nh: {node: 1, arr: [n]}\nlist: [n1]\n",
		"hieradata/roles/web.yaml":              "h: {role: 1, arr: [r]}\nlist: n1\n",
		"hieradata/common.yaml":                 "common_only: yaml common\nh: {common: 1, arr: [c], node: 0}\nlist: [c1, c2]\nboth: yaml\n",
		"jdata/common.json":                     `{"json_only": "json common", "h": {"json": 1}, "both": "json", "list": ["j1"]}`,
	}
	facts := map[string]any{"role": "web", "fqdn": "web1.example.com"}
	tests := map[string]struct {
		req  hiera.Request
		want string
	}{
		"yaml-first-found":         {req: hiera.Request{Key: "both"}, want: `"yaml"`},
		"node-level-via-trusted":   {req: hiera.Request{Key: "node_only"}, want: `"node"`},
		"json-backend-after-yaml":  {req: hiera.Request{Key: "json_only"}, want: `"json common"`},
		"hiera-hash-deeper":        {req: hiera.Request{Key: "h", Function: hiera.FuncHash}, want: `{"json":1,"common":1,"arr":["c","r","n"],"node":1,"role":1}`},
		"hiera-array":              {req: hiera.Request{Key: "list", Function: hiera.FuncArray}, want: `["n1","c1","c2","j1"]`},
		"lookup-ignores-behaviour": {req: hiera.Request{Key: "h"}, want: `{"node":1,"arr":["n"]}`},
	}
	e, _ := newEngine(t, fs)
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req := tt.req
			req.Scope = scopeOf(t, facts, nil)
			res := mustFind(t, e, req)
			if got := jsonOf(t, res.Value); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	t.Run("searched-names-backends", func(t *testing.T) {
		t.Parallel()
		res, err := lookup(t, e, hiera.Request{Key: "nope", Scope: scopeOf(t, facts, nil)})
		if err != nil || res.Found {
			t.Fatalf("found=%v err=%v", res.Found, err)
		}
		if diff := cmp.Diff([]string{"yaml", "json"}, res.Searched); diff != "" {
			t.Errorf("Searched (-want +got):\n%s", diff)
		}
	})
}

func TestConfigVersion3MergeBehaviors(t *testing.T) {
	t.Parallel()
	data := files{
		"hieradata/high.yaml": "h: {a: high, arr: [h1], only_high: 1}\n",
		"hieradata/low.yaml":  "h: {a: low, arr: [l1], only_low: 1}\n",
	}
	tests := map[string]struct {
		behavior string
		want     string
	}{
		"native": {behavior: "native", want: `{"a":"high","arr":["h1"],"only_low":1,"only_high":1}`},
		"deeper": {behavior: "deeper", want: `{"a":"high","arr":["l1","h1"],"only_low":1,"only_high":1}`},
		// Hiera 3.10's own deep (preserve_unmergeables): the lower value wins, arrays lower first
		"deep": {behavior: "deep", want: `{"a":"low","arr":["l1","h1"],"only_low":1,"only_high":1}`},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fs := files{"hiera.yaml": ":backends: yaml\n:hierarchy: [high, low]\n:yaml:\n  :datadir: hieradata\n:merge_behavior: " + tt.behavior + "\n"}
			for k, v := range data {
				fs[k] = v
			}
			e, _ := newEngine(t, fs)
			res := mustFind(t, e, hiera.Request{Key: "h", Function: hiera.FuncHash})
			if got := jsonOf(t, res.Value); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestConfigVersion3Errors(t *testing.T) {
	t.Parallel()
	const yamlDir = ":yaml:\n  :datadir: d\n"
	tests := map[string]struct {
		config  string
		message string
		line    int
	}{
		"duplicate-backend": {
			config:  ":backends:\n  - yaml\n  - json\n  - yaml\n" + yamlDir + ":json:\n  :datadir: d\n",
			message: "Backend 'yaml' is defined more than once. First defined at (line: 2)",
			line:    4,
		},
		"explicit-version-3": {
			config:  ":version: 3\n:backends: [json, json]\n:json:\n  :datadir: d\n",
			message: "Backend 'json' is defined more than once. First defined at (line: 2)",
			line:    2,
		},
		"unsupported-backend":         {config: ":backends: [yaml, vault]\n" + yamlDir, message: "Hiera 3 backend 'vault' is not supported (only yaml, json, eyaml and hocon)"},
		"no-datadir":                  {config: ":backends: [yaml]\n", message: "Hiera 3 backend 'yaml' has no :datadir:"},
		"bad-merge-behavior":          {config: ":backends: yaml\n" + yamlDir + ":merge_behavior: deepest\n", message: "Hiera 3 :merge_behavior: must be native, deep or deeper, got 'deepest'"},
		"hierarchy-not-strings":       {config: ":backends: yaml\n" + yamlDir + ":hierarchy:\n  a: b\n", message: ":hierarchy: must be a string or an array of strings, got Struct"},
		"deep-merge-options-not-hash": {config: ":backends: yaml\n" + yamlDir + ":deep_merge_options: [x]\n", message: ":deep_merge_options: must be a hash"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, dir := newEngine(t, files{"hiera.yaml": tt.config})
			he := mustFail(t, e, hiera.Request{Key: "a", Function: hiera.FuncHash})
			wantContains(t, "message", he.Message, tt.message)
			if he.File != filepath.Join(dir, "hiera.yaml") {
				t.Errorf("File %q", he.File)
			}
			if he.Line != tt.line {
				t.Errorf("Line = %d, want %d", he.Line, tt.line)
			}
		})
	}
}

// A data file path that names a directory fails every lookup, with Ruby's message, as in Puppet.
func TestDataFileIsDirectory(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: first\n    path: common.yaml\n  - name: dir\n    path: sub\n",
		"data/common.yaml": "a: 1\n",
		"data/sub/x.yaml":  "b: 2\n",
	})
	_, err := e.Lookup(context.Background(), hiera.Request{Key: "b"})
	var herr *model.Error
	if !errors.As(err, &herr) || !strings.HasSuffix(herr.Message, "Is a directory @ io_fread - "+filepath.Join(dir, "data", "sub")) || herr.Level != "dir" {
		t.Fatalf("got %v", err)
	}
}

// A global hiera.yaml that is not a hash (or is empty) is Puppet's Hiera 3 default config, whose
// datadir lies outside the project: the layer reads nothing, and a warning says why (cases
// edge-empty-global-hiera-yaml, edge-list-global-hiera-yaml).
func TestGlobalConfigNotAHashReadsNothing(t *testing.T) {
	t.Parallel()
	for name, config := range map[string]string{"empty-file": "", "not-a-hash": "- version: 5\n"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, dir := newEngine(t, files{"hiera.yaml": config, "data/common.yaml": "a: 1\n"})
			res, err := e.Lookup(context.Background(), hiera.Request{Key: "a"})
			want := filepath.Join(dir, "hiera.yaml") + ": File exists but does not contain a valid YAML hash. Falling back to Hiera version 3 default config; the global layer reads nothing"
			if err != nil || res.Found || len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], want) {
				t.Errorf("got found=%v err=%v warnings=%q; want not found with the warning %q...", res.Found, err, res.Warnings, want)
			}
		})
	}
}

// A global hiera.yaml that does not exist is Puppet's default configuration (data/common.yaml
// beside it) when the engine is told to read it as Puppet does, with a warning naming the path;
// otherwise ErrConfigNotFound (cases edge-no-global-hiera-yaml, edge-no-global-env).
func TestMissingGlobalConfig(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, files{"data/common.yaml": "a: from-default\n", "data/other.yaml": "b: 1\n"})
	cfg := filepath.Join(dir, "hiera.yaml")
	res, err := hiera.NewLayeredEngine(cfg, hiera.Layers{DefaultConfig: true}).Lookup(context.Background(), hiera.Request{Key: "a"})
	if err != nil || !res.Found || res.Value != "from-default" || len(res.Warnings) != 1 ||
		!strings.Contains(res.Warnings[0], "There is no hiera.yaml at "+cfg) || !strings.Contains(res.Warnings[0], filepath.Join(dir, "data", "common.yaml")) {
		t.Errorf("DefaultConfig: got %v found=%v err=%v warnings=%q", res.Value, res.Found, err, res.Warnings)
	}
	_, err = hiera.NewEngine(cfg).Lookup(context.Background(), hiera.Request{Key: "a"})
	if !errors.Is(err, hiera.ErrConfigNotFound) {
		t.Errorf("without DefaultConfig: err = %v, want ErrConfigNotFound", err)
	}
}
