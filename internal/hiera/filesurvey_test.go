package hiera_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// controlRepo is an environment with a module, a level whose datadir depends on a fact, and a
// module whose hiera.yaml does not validate.
func controlRepo(t *testing.T) (dir string, e *hiera.Engine) {
	t.Helper()
	dir = writeFiles(t, files{
		"hiera.yaml":                         "version: 5\ndefaults:\n  datadir: gdata\n  data_hash: yaml_data\nhierarchy:\n  - name: site\n    path: site.yaml\n",
		"gdata/site.yaml":                    "site::dns: [10.0.0.1]\n",
		"env/hiera.yaml":                     "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n  - name: os\n    path: \"os/%{facts.os.family}.yaml\"\n  - name: dc\n    datadir: \"dc/%{facts.dc}\"\n    path: dc.yaml\n  - name: common\n    path: common.yaml\n",
		"env/data/common.yaml":               "greeting: hello\n",
		"env/data/nodes/web01.yaml":          "port: 8080\n",
		"env/data/os/Debian.yaml":            "packages: [apt]\n",
		"env/data/README.md":                 "not data\n",
		"env/data/extra.yml":                 "extra: 1\n",
		"env/data/.git/config.yaml":          "not: data\n",
		"env/dc/east/dc.yaml":                "ntp::servers: [east]\n",
		"env/modules/ntp/hiera.yaml":         "version: 5\ndefault_hierarchy:\n  - name: defaults\n    path: defaults.yaml\n",
		"env/modules/ntp/data/defaults.yaml": "ntp::servers: [pool]\n",
		"env/modules/broken/hiera.yaml":      "version: 5\nhierarchy: 3\n",
	})
	return dir, hiera.NewLayeredEngine(filepath.Join(dir, "hiera.yaml"), hiera.Layers{Environment: filepath.Join(dir, "env")})
}

// listed is a listing as "layer module level relative-path" lines.
func listed(dir string, list hiera.DataFileList) []string {
	var out []string
	for _, f := range list.Files {
		rel, _ := filepath.Rel(dir, f.File)
		out = append(out, strings.TrimSpace(fmt.Sprintf("%s %s %s %s", f.Layer, f.Module, f.Level, filepath.ToSlash(rel))))
	}
	return out
}

func TestDataFilesListsEveryLevel(t *testing.T) {
	dir, e := controlRepo(t)
	list, err := e.DataFiles(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"global  site gdata/site.yaml",
		"environment  common env/data/common.yaml",
		"environment  node env/data/extra.yml", // no path names it: the first level reading .yml
		"environment  node env/data/nodes/web01.yaml",
		"environment  os env/data/os/Debian.yaml",
		"module ntp defaults env/modules/ntp/data/defaults.yaml",
	}
	if got := listed(dir, list); !slices.Equal(got, want) {
		t.Errorf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(list.Warnings) != 1 || !strings.Contains(list.Warnings[0], `level "dc": the datadir "dc/%{facts.dc}" depends on the node`) {
		t.Errorf("warnings %q, want the datadir that depends on a fact", list.Warnings)
	}
	if len(list.Problems) != 1 || !strings.Contains(list.Problems[0].Error(), "modules/broken/hiera.yaml") {
		t.Errorf("problems %v, want the broken module's hiera.yaml", list.Problems)
	}

	// with nodes, the datadir is resolved for each: east's files are listed, with no warning
	list, err = e.DataFiles(context.Background(), []hiera.Scope{scopeOf(t, map[string]any{"dc": "east"}, nil), scopeOf(t, nil, nil)})
	if err != nil {
		t.Fatal(err)
	}
	if got := listed(dir, list); !slices.Contains(got, "environment  dc env/dc/east/dc.yaml") || len(got) != len(want)+1 {
		t.Errorf("with a node in dc east:\n%s", strings.Join(got, "\n"))
	}
	if len(list.Warnings) != 0 {
		t.Errorf("warnings %q", list.Warnings)
	}
}

func TestDataFilesUnreadable(t *testing.T) {
	dir := writeFiles(t, files{
		"hiera.yaml":        "version: 5\nhierarchy:\n  - name: a\n    datadir: afile\n    path: x.yaml\n  - name: b\n    datadir: loop\n    path: x.yaml\n  - name: c\n    path: x.yaml\n",
		"afile":             "a file, not a directory\n",
		"outside/x.yaml":    "a: 1\n",
		"data/x.yaml":       "a: 1\n",
		"data/sub/own.yaml": "b: 1\n",
	})
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Symlink("loop", filepath.Join(dir, "loop")))
	must(os.Symlink(filepath.Join(dir, "outside", "x.yaml"), filepath.Join(dir, "data", "out.yaml")))
	must(os.Symlink("own.yaml", filepath.Join(dir, "data", "sub", "in.yaml")))
	must(os.Symlink("sub", filepath.Join(dir, "data", "dirlink")))
	list, err := hiera.NewEngine(filepath.Join(dir, "hiera.yaml")).DataFiles(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := listed(dir, list), []string{"global  c data/sub/in.yaml", "global  c data/sub/own.yaml", "global  c data/x.yaml"}; !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	var problems []string
	for _, p := range list.Problems {
		var he *model.Error
		if !errors.As(p, &he) || he.File != filepath.Join(dir, "hiera.yaml") || he.Line == 0 || he.Level == "" {
			t.Errorf("a problem not placed in hiera.yaml: %#v", p)
		}
		problems = append(problems, p.Error())
	}
	if len(problems) != 2 || !strings.Contains(problems[0], "afile: the datadir is not a directory") ||
		!strings.Contains(problems[1], "loop: the datadir cannot be read (too many levels of symbolic links)") {
		t.Errorf("problems:\n%s", strings.Join(problems, "\n"))
	}
	if w := strings.Join(list.Warnings, "\n"); !strings.Contains(w, "out.yaml: a symbolic link leading out of the datadir") ||
		!strings.Contains(w, "dirlink: a symbolic link to a directory") {
		t.Errorf("warnings:\n%s", w)
	}
}

func TestDataFilesBounded(t *testing.T) {
	fs := files{"hiera.yaml": "version: 5\nhierarchy:\n  - name: all\n    glob: \"*.yaml\"\n"}
	for i := range 5 {
		fs[fmt.Sprintf("data/%d.yaml", i)] = "a: 1\n"
		fs[fmt.Sprintf("data/%d.txt", i)] = "not data\n"
	}
	e, _ := newEngine(t, fs)
	restore := hiera.SetListBounds(4, 100)
	_, err := e.DataFiles(context.Background(), nil)
	restore()
	if err == nil || !strings.Contains(err.Error(), "more than 4 data files") {
		t.Errorf("more files than the bound: %v", err)
	}
	restore = hiera.SetListBounds(100, 8) // the directory, 5 data files, 5 others
	_, err = e.DataFiles(context.Background(), nil)
	restore()
	if err == nil || !strings.Contains(err.Error(), "more than 8 files and directories") {
		t.Errorf("more entries than the bound: %v", err)
	}
	if list, err := e.DataFiles(context.Background(), nil); err != nil || len(list.Files) != 5 {
		t.Errorf("within the bounds: %d files, %v", len(list.Files), err)
	}
}

// checkAll lists and checks every data file, the problems as "rel-file:line level: message".
func checkAll(t *testing.T, dir string, e *hiera.Engine) (problems, warnings []string) {
	t.Helper()
	list, err := e.DataFiles(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	check, err := e.NewFileCheck(context.Background(), list.Files)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range list.Files {
		ps, ws := check.Check(f)
		warnings = append(warnings, ws...)
		for _, p := range ps {
			he := hieraError(t, p)
			rel, _ := filepath.Rel(dir, he.File)
			problems = append(problems, fmt.Sprintf("%s:%d %s: %s", filepath.ToSlash(rel), he.Line, he.Level, he.Message))
		}
	}
	return problems, warnings
}

func TestFileCheck(t *testing.T) {
	dir := writeFiles(t, files{
		"hiera.yaml":             "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n  - name: common\n    path: common.yaml\n",
		"data/nodes/broken.yaml": "a: 1\nb: [unclosed\n",
		"data/nodes/fine.yaml": "# facts are not known: no problem\nhost: \"%{facts.networking.fqdn}\"\n" +
			"nested: \"%{lookup('whatever')}\"\nliteral: \"%{literal('%')}{x}\"\n",
		"data/common.yaml": "greeting: hello\n" +
			"profile::web:\n  vhosts:\n    - name: a\n    - name: \"%{unknown_fn('x')}\"\n" +
			"glued: \"x-%{alias('greeting')}\"\n" +
			"badkey: \"%{lookup('a..b')}\"\n" +
			"token: \"%{foo(bar)}\"\n" +
			"lookup_options:\n  port:\n    merge: sideways\n  \"^profile::[\": {merge: deep}\n  users: first\n  ok:\n    merge: {strategy: deep, knockout_prefix: 5}\n" +
			"  db_password:\n    convert_to: Sensitive\n" +
			"db_password: \"hunter2-%{bad_fn('hunter2')}\"\n",
	})
	problems, warnings := checkAll(t, dir, hiera.NewEngine(filepath.Join(dir, "hiera.yaml")))
	for _, want := range []string{
		"data/nodes/broken.yaml:2 node: Unable to parse",
		"data/common.yaml:5 common: Unknown interpolation method 'unknown_fn'",
		"data/common.yaml:6 common: 'alias' interpolation is only permitted if the expression is equal to the entire string",
		"data/common.yaml:7 common: Syntax error in key: 'a..b'",
		"data/common.yaml:10 common: Unknown merge strategy: 'sideways'",
		"data/common.yaml:12 common: premature end of char-class: /^profile::[/",
		"data/common.yaml:14 common: The merge options has wrong type, entry 'knockout_prefix' expects a value of type Undef or String, got Integer",
		"data/common.yaml:18 common: Lookup of key 'db_password' failed on a value derived from a secret",
	} {
		if !slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, want) }) {
			t.Errorf("no problem %q in:\n%s", want, strings.Join(problems, "\n"))
		}
	}
	if len(problems) != 8 {
		t.Errorf("%d problems, want 8 (users: first is a string Puppet takes; token is a scope variable):\n%s", len(problems), strings.Join(problems, "\n"))
	}
	if all := strings.Join(problems, "\n"); strings.Contains(all, "fine.yaml") || strings.Contains(all, "hunter2") {
		t.Errorf("a fact, a nested lookup or a literal is a problem, or a secret shown:\n%s", all)
	}
	if len(warnings) != 0 {
		t.Errorf("warnings %q", warnings)
	}
}

// Modules: lookup_options for keys not the module's own, and a module's unqualified keys (a warning).
func TestFileCheckModule(t *testing.T) {
	dir := writeFiles(t, files{
		"env/hiera.yaml":             "version: 5\nhierarchy: []\n",
		"env/modules/ntp/hiera.yaml": "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
		"env/modules/ntp/data/common.yaml": "ntp::servers: [a]\nlookup_options:\n  ntp::servers:\n    merge: unique\n" +
			"  apache::vhosts:\n    merge: deep\n",
		"env/modules/apache/hiera.yaml":       "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
		"env/modules/apache/data/common.yaml": "apache::port: 80\nport: 80\nlookup_options: [a]\n",
	})
	e := hiera.NewLayeredEngine("", hiera.Layers{Environment: filepath.Join(dir, "env")})
	problems, warnings := checkAll(t, dir, e)
	want := []string{
		"env/modules/apache/data/common.yaml:3 common: value of lookup_options must be a hash",
		"env/modules/ntp/data/common.yaml:5 common: all lookup_options keys must start with module name 'ntp'",
	}
	if !slices.Equal(problems, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(want, "\n"))
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "Module 'apache': Value returned from data_hash function 'yaml_data'") {
		t.Errorf("warnings %q", warnings)
	}
}

// A lookup's errors in a data value carry the line of the value, its lookup_options' errors the line
// of the entry: the messages are Puppet's, unchanged.
func TestLookupErrorLines(t *testing.T) {
	e, dir := newEngine(t, files{
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml": "a: 1\nweb:\n  vhosts:\n    - plain\n    - \"%{unknown_fn('x')}\"\n" +
			"outer: \"%{lookup('web')}\"\n" +
			"lookup_options:\n  port:\n    merge: sideways\n" +
			"port: 1\n",
	})
	file := filepath.Join(dir, "data", "common.yaml")
	for _, tc := range []struct {
		key, message string
		line         int
	}{
		{"web", "Unknown interpolation method 'unknown_fn'", 5},
		{"outer", "Unknown interpolation method 'unknown_fn'", 5}, // the nested lookup's value
		{"port", "Unknown merge strategy: 'sideways'", 8},
	} {
		he := mustFail(t, e, hiera.Request{Key: tc.key})
		if he.Message != tc.message || he.File != file || he.Line != tc.line || he.Level != "common" {
			t.Errorf("%s: %q at %s:%d level %q, want %q at line %d", tc.key, he.Message, he.File, he.Line, he.Level, tc.message, tc.line)
		}
	}
}
