package hiera_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
)

// TestLocations covers how hierarchy entries find their files (hiera-semantics.md §2.3): path, paths, glob, globs,
// mapped_paths, datadirs, and files that do not exist.
func TestLocations(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		fs    files
		facts map[string]any
		req   hiera.Request
		want  string // JSON of the value; "" = not found
	}{
		"path-interpolated-from-facts": {
			fs: files{
				"hiera.yaml":            "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{facts.hostname}.yaml\"\n",
				"data/nodes/web01.yaml": "a: node web01\n",
				"data/nodes/web02.yaml": "a: node web02\n",
			},
			facts: map[string]any{"hostname": "web01"},
			req:   hiera.Request{Key: "a"},
			want:  `"node web01"`,
		},
		"path-missing-variable-gives-empty-text": {
			fs: files{
				"hiera.yaml":       "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{nosuch}.yaml\"\n",
				"data/nodes/.yaml": "a: dot file\n",
			},
			req:  hiera.Request{Key: "a"},
			want: `"dot file"`,
		},
		"paths-first-existing-wins": {
			fs: files{
				"hiera.yaml":       "version: 5\nhierarchy:\n  - name: several\n    paths: [missing.yaml, second.yaml, third.yaml]\n",
				"data/second.yaml": "a: second\n",
				"data/third.yaml":  "a: third\n",
			},
			req:  hiera.Request{Key: "a"},
			want: `"second"`,
		},
		"paths-merged-in-order": {
			fs: files{
				"hiera.yaml":       "version: 5\nhierarchy:\n  - name: several\n    paths: [second.yaml, third.yaml]\n",
				"data/second.yaml": "a: [s]\n",
				"data/third.yaml":  "a: [t, s]\n",
			},
			req:  hiera.Request{Key: "a", Merge: &merge.Merge{Strategy: "unique"}},
			want: `["s","t"]`,
		},
		"no-extension-added": {
			fs: files{
				"hiera.yaml":       "version: 5\nhierarchy:\n  - name: c\n    path: common\n",
				"data/common.yaml": "a: with extension\n",
				"data/common":      "a: exact name\n",
			},
			req:  hiera.Request{Key: "a"},
			want: `"exact name"`,
		},
		"glob-sorted": {
			fs: files{
				"hiera.yaml":        "version: 5\nhierarchy:\n  - name: g\n    glob: \"roles/*.yaml\"\n",
				"data/roles/b.yaml": "a: b\nl: [b]\n",
				"data/roles/a.yaml": "a: a\nl: [a]\n",
				"data/roles/c.yml":  "a: not matched\n",
			},
			req:  hiera.Request{Key: "a"},
			want: `"a"`,
		},
		"glob-merge-sorted": {
			fs: files{
				"hiera.yaml":        "version: 5\nhierarchy:\n  - name: g\n    glob: \"roles/*.yaml\"\n",
				"data/roles/b.yaml": "l: [b]\n",
				"data/roles/a.yaml": "l: [a]\n",
				"data/roles/c.yaml": "l: [c]\n",
			},
			req:  hiera.Request{Key: "l", Function: hiera.FuncArray},
			want: `["a","b","c"]`,
		},
		"globs-keep-pattern-order": {
			fs: files{
				"hiera.yaml":    "version: 5\nhierarchy:\n  - name: g\n    globs: [\"z/*.yaml\", \"a/*.yaml\"]\n",
				"data/a/1.yaml": "l: [a1]\n",
				"data/z/9.yaml": "l: [z9]\n",
				"data/z/1.yaml": "l: [z1]\n",
			},
			req:  hiera.Request{Key: "l", Function: hiera.FuncArray},
			want: `["z1","z9","a1"]`,
		},
		"glob-skips-directories": {
			fs: files{
				"hiera.yaml":               "version: 5\nhierarchy:\n  - name: g\n    glob: \"g/*\"\n",
				"data/g/a.yaml/inner.yaml": "a: inside a directory\n",
				"data/g/b.yaml":            "a: file\n",
			},
			req:  hiera.Request{Key: "a"},
			want: `"file"`,
		},
		"glob-interpolated": {
			fs: files{
				"hiera.yaml":      "version: 5\nhierarchy:\n  - name: g\n    glob: \"%{facts.site}/*.yaml\"\n",
				"data/pdx/x.yaml": "a: pdx\n",
				"data/ams/x.yaml": "a: ams\n",
			},
			facts: map[string]any{"site": "ams"},
			req:   hiera.Request{Key: "a"},
			want:  `"ams"`,
		},
		"glob-without-match-is-not-found": {
			fs: files{
				"hiera.yaml": "version: 5\nhierarchy:\n  - name: g\n    glob: \"none/*.yaml\"\n",
			},
			req: hiera.Request{Key: "a"},
		},
		"mapped-paths-array": {
			fs: files{
				"hiera.yaml":          "version: 5\nhierarchy:\n  - name: roles\n    mapped_paths: [facts.roles, role, \"roles/%{role}.yaml\"]\n",
				"data/roles/web.yaml": "l: [web]\n",
				"data/roles/db.yaml":  "l: [db]\n",
				"data/roles/app.yaml": "l: [app]\n",
			},
			facts: map[string]any{"roles": []any{"db", "web"}},
			req:   hiera.Request{Key: "l", Function: hiera.FuncArray},
			want:  `["db","web"]`,
		},
		"mapped-paths-hash": {
			fs: files{
				"hiera.yaml":      "version: 5\nhierarchy:\n  - name: m\n    mapped_paths: [facts.h, kv, \"p/%{kv.0}-%{kv.1}.yaml\"]\n",
				"data/p/x-1.yaml": "r: [x1]\n",
				"data/p/y-2.yaml": "r: [y2]\n",
			},
			facts: map[string]any{"h": map[string]any{"x": "1", "y": "2"}},
			req:   hiera.Request{Key: "r", Function: hiera.FuncArray},
			want:  `["x1","y2"]`,
		},
		"mapped-paths-string": {
			fs: files{
				"hiera.yaml":          "version: 5\nhierarchy:\n  - name: roles\n    mapped_paths: [role, r, \"roles/%{r}.yaml\"]\n",
				"data/roles/web.yaml": "a: web\n",
			},
			facts: map[string]any{"role": "web"},
			req:   hiera.Request{Key: "a"},
			want:  `"web"`,
		},
		"mapped-paths-missing-variable": {
			fs: files{
				"hiera.yaml":       "version: 5\nhierarchy:\n  - name: m\n    mapped_paths: [facts.nope, r, \"roles/%{r}.yaml\"]\n  - name: c\n    path: common.yaml\n",
				"data/roles/.yaml": "x: wrong\n",
				"data/common.yaml": "x: common\n",
			},
			req:  hiera.Request{Key: "x"},
			want: `"common"`,
		},
		"absolute-datadir": {
			fs: files{
				"hiera.yaml":       "version: 5\ndefaults:\n  datadir: \"@ROOT@/abs\"\n  data_hash: yaml_data\nhierarchy:\n  - name: c\n    path: common.yaml\n",
				"abs/common.yaml":  "a: absolute datadir\n",
				"data/common.yaml": "a: default datadir\n",
			},
			req:  hiera.Request{Key: "a"},
			want: `"absolute datadir"`,
		},
		"datadir-per-entry": {
			fs: files{
				"hiera.yaml":       "version: 5\nhierarchy:\n  - name: special\n    datadir: special\n    path: s.yaml\n  - name: c\n    path: common.yaml\n",
				"special/s.yaml":   "l: [special]\n",
				"data/common.yaml": "l: [common]\n",
				"data/s.yaml":      "l: [wrong dir]\n",
			},
			req:  hiera.Request{Key: "l", Function: hiera.FuncArray},
			want: `["special","common"]`,
		},
		"datadir-interpolated-from-fact": {
			fs: files{
				"hiera.yaml":            "version: 5\nhierarchy:\n  - name: env\n    datadir: \"envs/%{facts.env}\"\n    path: common.yaml\n",
				"envs/prod/common.yaml": "a: prod\n",
				"envs/dev/common.yaml":  "a: dev\n",
			},
			facts: map[string]any{"env": "prod"},
			req:   hiera.Request{Key: "a"},
			want:  `"prod"`,
		},
		"literal-absolute-path-outside-datadir": {
			fs: files{
				"hiera.yaml":            "version: 5\nhierarchy:\n  - name: abs\n    path: \"@ROOT@/elsewhere/shared.yaml\"\n",
				"elsewhere/shared.yaml": "a: absolute path\n",
			},
			req:  hiera.Request{Key: "a"},
			want: `"absolute path"`,
		},
		"literal-relative-path-leaving-datadir": {
			fs: files{
				"hiera.yaml":         "version: 5\nhierarchy:\n  - name: up\n    path: \"../shared/common.yaml\"\n",
				"shared/common.yaml": "a: parent directory\n",
			},
			req:  hiera.Request{Key: "a"},
			want: `"parent directory"`,
		},
		"fact-with-subdirectory-stays-inside": {
			fs: files{
				"hiera.yaml":             "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{facts.group}.yaml\"\n",
				"data/nodes/eu/web.yaml": "a: nested\n",
			},
			facts: map[string]any{"group": "eu/x/../web"},
			req:   hiera.Request{Key: "a"},
			want:  `"nested"`,
		},
		"missing-files-skipped": {
			fs: files{
				"hiera.yaml":       "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{facts.hostname}.yaml\"\n  - name: c\n    path: common.yaml\n",
				"data/common.yaml": "a: common\n",
			},
			facts: map[string]any{"hostname": "nobody"},
			req:   hiera.Request{Key: "a"},
			want:  `"common"`,
		},
		"missing-datadir-skipped": {
			fs: files{
				"hiera.yaml": "version: 5\nhierarchy:\n  - name: c\n    datadir: nowhere\n    path: common.yaml\n",
			},
			req: hiera.Request{Key: "a"},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, _ := newEngine(t, tt.fs)
			req := tt.req
			req.Scope = scopeOf(t, tt.facts, nil)
			res, err := lookup(t, e, req)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if res.Found {
					t.Fatalf("want not found, got %s", jsonOf(t, res.Value))
				}
				return
			}
			if !res.Found {
				t.Fatalf("not found")
			}
			if got := jsonOf(t, res.Value); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestLocationsMappedPathsError(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{"hiera.yaml": "version: 5\nhierarchy:\n  - name: m\n    mapped_paths: [facts.os.family.x, r, \"%{r}.yaml\"]\n"})
	he := mustFail(t, e, hiera.Request{Key: "a", Scope: scopeOf(t, map[string]any{"os": map[string]any{"family": "Debian"}}, nil)})
	wantContains(t, "message", he.Message, "Data Provider type mismatch: Got String")
	if he.Level != "m" || he.File != filepath.Join(dir, "hiera.yaml") || he.Key != "a" {
		t.Errorf("Level %q File %q Key %q", he.Level, he.File, he.Key)
	}
}

func TestLocationsURIRejected(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		entry   string
		message string
	}{
		"yaml-data": {
			entry:   "    uri: \"file:///@ROOT@/data/common.yaml\"\n",
			message: "'yaml_data' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function",
		},
		"json-data-uris": {
			entry:   "    data_hash: json_data\n    uris: [\"@ROOT@/data/common.json\"]\n",
			message: "'json_data' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this data_hash function",
		},
		"eyaml-lookup-key": {
			// the "uri" is a readable file path: it must not be opened
			entry:   "    lookup_key: eyaml_lookup_key\n    uri: \"@ROOT@/data/common.yaml\"\n",
			message: "'eyaml_lookup_key': one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this lookup_key function",
		},
		"eyaml-without-location": {
			entry:   "    lookup_key: eyaml_lookup_key\n",
			message: "'eyaml_lookup_key': one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in hiera.yaml when using this lookup_key function",
		},
		"bad-uri-before-function-check": {
			entry:   "    uri: \"dothis -f bar\"\n",
			message: `bad URI(is not URI?): "dothis -f bar"`,
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, dir := newEngine(t, files{
				"hiera.yaml":       "version: 5\nhierarchy:\n  - name: u\n" + tt.entry,
				"data/common.yaml": "a: 1\n",
				"data/common.json": `{"a": 1}`,
			})
			he := mustFail(t, e, hiera.Request{Key: "a"})
			if !strings.HasSuffix(he.Message, tt.message) {
				t.Errorf("message %q, want %q", he.Message, tt.message)
			}
			if he.Level != "u" || he.File != filepath.Join(dir, "hiera.yaml") {
				t.Errorf("Level %q File %q", he.Level, he.File)
			}
		})
	}
}

// TestLocationsConfinement checks that a variable interpolated into a path, datadir, glob or key
// path cannot make the engine read a file outside the directory the hiera.yaml names: each attempt
// is a clear *model.Error and the secret outside is never read.
func TestLocationsConfinement(t *testing.T) {
	t.Parallel()
	const secret = "TOPSECRET-CONTENT"
	tests := map[string]struct {
		entry string
		facts map[string]any
		vars  map[string]any
	}{
		"path-dotdot-fact": {
			entry: "    path: \"nodes/%{facts.hostname}.yaml\"\n",
			facts: map[string]any{"hostname": "../../secret"},
		},
		"path-top-scope-fact": {
			entry: "    path: \"nodes/%{::hostname}.yaml\"\n",
			facts: map[string]any{"hostname": "../../secret"},
		},
		"path-dotdot-trusted": {
			entry: "    path: \"nodes/%{trusted.certname}.yaml\"\n",
			vars:  map[string]any{"trusted": map[string]any{"certname": "../../secret"}},
		},
		"path-absolute-fact": {
			entry: "    path: \"%{facts.file}\"\n",
			facts: map[string]any{"file": "@ROOT@/secret.yaml"},
		},
		"path-absolute-etc-passwd": {
			entry: "    path: \"%{facts.file}\"\n",
			facts: map[string]any{"file": "/etc/passwd"},
		},
		"path-fact-is-whole-relative-name": {
			entry: "    path: \"%{facts.file}.yaml\"\n",
			facts: map[string]any{"file": "../secret"},
		},
		"paths-second-element": {
			entry: "    paths: [common.yaml, \"x/%{facts.f}\"]\n",
			facts: map[string]any{"f": "../../secret.yaml"},
		},
		"datadir-dotdot-fact": {
			entry: "    datadir: \"envs/%{facts.env}\"\n    path: secret.yaml\n",
			facts: map[string]any{"env": "../.."},
		},
		"datadir-absolute-fact": {
			entry: "    datadir: \"%{facts.env}\"\n    path: secret.yaml\n",
			facts: map[string]any{"env": "@ROOT@"},
		},
		"datadir-etc": {
			entry: "    datadir: \"%{facts.env}\"\n    path: passwd\n",
			facts: map[string]any{"env": "/etc"},
		},
		"glob-dotdot-fact": {
			entry: "    glob: \"%{facts.site}/*.yaml\"\n",
			facts: map[string]any{"site": "../.."},
		},
		"glob-plain-dotdot-fact": {
			entry: "    glob: \"nodes/%{facts.name}.yaml\"\n",
			facts: map[string]any{"name": "../../secret"},
		},
		"glob-brace-dotdot-fact": {
			entry: "    glob: \"nodes/%{facts.name}.yaml\"\n",
			facts: map[string]any{"name": "{x,y}/../../../../secret"},
		},
		"glob-absolute-fact": {
			entry: "    glob: \"%{facts.name}\"\n",
			facts: map[string]any{"name": "@ROOT@/*.yaml"},
		},
		"globs-second-pattern": {
			entry: "    globs: [\"*.yaml\", \"%{facts.name}/*.yaml\"]\n",
			facts: map[string]any{"name": "../"},
		},
		"mapped-paths-element": {
			entry: "    mapped_paths: [facts.roles, r, \"roles/%{r}.yaml\"]\n",
			facts: map[string]any{"roles": []any{"web", "../../secret"}},
		},
		"mapped-paths-hash-pair": {
			entry: "    mapped_paths: [facts.h, kv, \"p/%{kv.0}/%{kv.1}.yaml\"]\n",
			facts: map[string]any{"h": map[string]any{"..": "../secret"}},
		},
		"reinterpolated-fact": {
			// a fact whose value is itself interpolated
			entry: "    path: \"nodes/%{facts.a}.yaml\"\n",
			facts: map[string]any{"a": "%{facts.b}", "b": "../../secret"},
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := writeFiles(t, files{
				"conf/hiera.yaml":          "version: 5\nhierarchy:\n  - name: attack\n" + tt.entry,
				"conf/data/common.yaml":    "a: common\n",
				"conf/data/roles/web.yaml": "a: web\n",
				"secret.yaml":              "a: " + secret + "\n",
			})
			e := hiera.NewEngine(filepath.Join(dir, "conf", "hiera.yaml"))
			facts := map[string]any{}
			for k, v := range tt.facts {
				facts[k] = replaceRoot(v, dir)
			}
			res, err := lookup(t, e, hiera.Request{
				Key: "a", Scope: scopeOf(t, facts, tt.vars), Explain: true,
				Merge: &merge.Merge{Strategy: "unique"},
			})
			if err == nil {
				t.Fatalf("want a confinement error, got found=%v value=%s", res.Found, jsonOf(t, res.Value))
			}
			he := hieraError(t, err)
			if strings.Contains(he.Error(), secret) || strings.Contains(res.Explanation, secret) {
				t.Fatalf("the secret was read: %v", he)
			}
			if !strings.Contains(he.Message, "outside") && !strings.Contains(he.Message, "escapes the data directory") {
				t.Errorf("message %q does not explain the confinement", he.Message)
			}
			if he.Level != "attack" || he.File != filepath.Join(dir, "conf", "hiera.yaml") || he.Key != "a" {
				t.Errorf("Level %q, File %q, Key %q", he.Level, he.File, he.Key)
			}
		})
	}
}

func replaceRoot(v any, dir string) any {
	switch t := v.(type) {
	case string:
		return strings.ReplaceAll(t, "@ROOT@", dir)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = replaceRoot(e, dir)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			out[k] = replaceRoot(e, dir)
		}
		return out
	}
	return v
}

// TestLocationsConfinementKeyFiles covers the eyaml key options: an interpolated key path may not
// leave the hiera.yaml directory, a literal one may point anywhere.
func TestLocationsConfinementKeyFiles(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, files{
		"conf/hiera.yaml": "version: 5\nhierarchy:\n  - name: secrets\n    lookup_key: eyaml_lookup_key\n    path: common.eyaml\n" +
			"    options:\n      pkcs7_private_key: \"%{facts.keyname}\"\n",
		"conf/data/common.eyaml": "a: ENC[PKCS7,MIIBeQYJKoZIhvcNAQcDoIIBajCCAWYCAQAx]\n",
	})
	e := hiera.NewEngine(filepath.Join(dir, "conf", "hiera.yaml"))
	for _, name := range []string{"../outside.pem", "/etc/ssl/private/key.pem", "keys/../../outside.pem"} {
		he := mustFail(t, e, hiera.Request{Key: "a", Scope: scopeOf(t, map[string]any{"keyname": name}, nil)})
		wantContains(t, "error", he.Message, "outside")
		if he.Level != "secrets" {
			t.Errorf("Level %q", he.Level)
		}
	}
}

// TestLocationsSearched checks Result.Searched: the names of the levels consulted, in order, once.
func TestLocationsSearched(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t, files{
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: Per node\n    path: \"nodes/%{trusted.certname}.yaml\"\n" +
			"  - name: Roles\n    glob: \"roles/*.yaml\"\n  - name: Common\n    paths: [a.yaml, common.yaml]\n",
		"data/common.yaml": "lookup_options: {}\nb: 1\n",
	})
	res, err := lookup(t, e, hiera.Request{Key: "missing", Merge: &merge.Merge{Strategy: "deep"}})
	if err != nil || res.Found {
		t.Fatalf("found=%v err=%v", res.Found, err)
	}
	if diff := cmp.Diff([]string{"Per node", "Roles", "Common"}, res.Searched); diff != "" {
		t.Errorf("Searched (-want +got):\n%s", diff)
	}
}

// TestLocationsConfinementVersion3: a Hiera 3 hierarchy item built from a fact is confined too; an
// item that becomes absolute is skipped, as Hiera 3 does.
func TestLocationsConfinementVersion3(t *testing.T) {
	t.Parallel()
	const secret = "TOPSECRET-V3"
	dir := writeFiles(t, files{
		"conf/hiera.yaml":            ":backends: [yaml]\n:hierarchy: [\"nodes/%{::certname}\", common]\n:yaml:\n  :datadir: hieradata\n",
		"conf/hieradata/common.yaml": "a: common\n",
		"secret.yaml":                "a: " + secret + "\n",
	})
	e := hiera.NewEngine(filepath.Join(dir, "conf", "hiera.yaml"))
	tests := map[string]struct {
		certname string
		want     string // "" = a confinement error
	}{
		"dotdot":   {certname: "../../../secret"},
		"absolute": {certname: dir + "/secret", want: `"common"`},
		"plain":    {certname: "web01", want: `"common"`},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res, err := lookup(t, e, hiera.Request{Key: "a", Scope: scopeOf(t, map[string]any{"certname": tt.certname}, nil)})
			if tt.want == "" {
				if err == nil {
					t.Fatalf("want an error, got %s", jsonOf(t, res.Value))
				}
				he := hieraError(t, err)
				wantContains(t, "message", he.Message, "outside")
				if strings.Contains(he.Error(), secret) {
					t.Fatal("secret read")
				}
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

// TestPathErrorsShowNoVariable: a path or glob refused once a variable is interpolated is named by
// its template and the directory it may not leave, never the resolved path: the variable may be a
// sensitive Terraform value (Terraform passes no marks to providers).
func TestPathErrorsShowNoVariable(t *testing.T) {
	t.Parallel()
	const secret = "S3cr3t-t0ken"
	e, dir := newEngine(t, files{
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{facts.token}.yaml\"\n" +
			"  - name: globbed\n    glob: \"roles/%{facts.role}/*.yaml\"\n",
		"data/nodes/web.yaml": "a: web\n",
	})
	for name, tc := range map[string]struct {
		facts map[string]any
		want  string
	}{
		"path": {map[string]any{"token": "../../" + secret, "role": "web"},
			`hierarchy path "nodes/%{facts.token}.yaml" leads outside ` + filepath.Join(dir, "data", "nodes") + " once interpolated (the interpolated values are not shown)"},
		"glob": {map[string]any{"token": "web", "role": "../../../" + secret},
			`glob "roles/%{facts.role}/*.yaml" escapes the data directory "` + filepath.Join(dir, "data", "roles") + `" once interpolated (the interpolated values are not shown)`},
		"glob braces": {map[string]any{"token": "web", "role": secret + strings.Repeat("{a,b}", 12)},
			`glob "roles/%{facts.role}/*.yaml" expands to more than 1000 patterns through its {a,b} alternatives once interpolated`},
	} {
		he := mustFail(t, e, hiera.Request{Key: "a", Scope: scopeOf(t, tc.facts, nil)})
		if strings.Contains(he.Error(), secret) {
			t.Errorf("%s: the error shows the fact's value: %v", name, he)
		}
		wantContains(t, name+" error", he.Message, tc.want)
	}
}

// TestSymlinkConfinement: confinement resolves symbolic links. A directory link below the datadir
// may not lead a fact's path to files elsewhere; a link the hierarchy's author wrote at a literal
// path, or in the literal part of a template, stays allowed.
func TestSymlinkConfinement(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.yaml"), []byte("a: stolen\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, dir := newEngine(t, files{
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{facts.node}.yaml\"\n" +
			"  - name: shared\n    path: shared/secret.yaml\n",
		"data/nodes/web.yaml": "a: web\n",
	})
	for _, link := range []string{"data/nodes/evil", "data/shared"} {
		if err := os.Symlink(outside, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	he := mustFail(t, e, hiera.Request{Key: "a", Scope: scopeOf(t, map[string]any{"node": "evil/secret"}, nil)})
	wantContains(t, "error", he.Error(), `hierarchy path "nodes/%{facts.node}.yaml" leads through a symbolic link outside `+filepath.Join(dir, "data", "nodes")+" once interpolated", `hierarchy level "node"`)
	if res := mustFind(t, e, hiera.Request{Key: "a", Scope: scopeOf(t, map[string]any{"node": "web"}, nil)}); res.Value != "web" {
		t.Errorf("web: %v", res.Value)
	}
	// the author's literal link (level shared), and a template whose literal part is the link
	if res := mustFind(t, e, hiera.Request{Key: "a", Scope: scopeOf(t, map[string]any{"node": "none"}, nil)}); res.Value != "stolen" {
		t.Errorf("shared: %v", res.Value)
	}
	e2, dir2 := newEngine(t, files{"hiera.yaml": "version: 5\nhierarchy:\n  - name: linked\n    path: \"linked/%{facts.file}.yaml\"\n"})
	if err := os.MkdirAll(filepath.Join(dir2, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir2, "data/linked")); err != nil {
		t.Fatal(err)
	}
	if res := mustFind(t, e2, hiera.Request{Key: "a", Scope: scopeOf(t, map[string]any{"file": "secret"}, nil)}); res.Value != "stolen" {
		t.Errorf("linked: %v", res.Value)
	}
}
