package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// The keys a change reaches, and every change after which only comparing every key is right.
func TestChangedKeys(t *testing.T) {
	base := map[string]string{
		"hiera.yaml":            "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml":      "a: 1\nb: [x]\nc: {d: 1}\nlookup_options:\n  b: {merge: unique}\n",
		"data/nodes/web01.yaml": "a: 2\nmotd: \"hello %{facts.fqdn}\"\nuses_c: \"%{lookup('c')}\"\n",
		"data/role.json":        `{"j": 1}`,
		"data/dotted.yaml":      "c.d: 5\n\"c.e\": 6\nunrelated.x: 1\n",
		"README.md":             "read me\n",
	}
	for _, c := range []struct {
		name  string
		edit  map[string]string // path -> new text ("" removes the file)
		want  []string          // nil with every: comparing every key
		every string            // why every key is compared
	}{
		{"nothing", nil, nil, ""},
		{"a comment", map[string]string{"data/common.yaml": "# c\n" + base["data/common.yaml"]}, nil, ""},
		{"a value", map[string]string{"data/common.yaml": "a: 1\nb: [x, y]\nc: {d: 1}\nlookup_options:\n  b: {merge: unique}\n"},
			[]string{"b", "motd", "uses_c"}, ""},
		{"a subkey, read by interpolation and by dotted root keys", map[string]string{"data/common.yaml": "a: 1\nb: [x]\nc: {d: 2}\nlookup_options:\n  b: {merge: unique}\n"},
			[]string{"c", "c.d", "c.e", "motd", "uses_c"}, ""},
		{"a file removed (renamed out)", map[string]string{"data/role.json": ""}, []string{"j", "motd", "uses_c"}, ""},
		{"a file added", map[string]string{"data/os/Debian.yaml": "k: 1\n"}, []string{"k", "motd", "uses_c"}, ""},
		{"JSON", map[string]string{"data/role.json": `{"j": 2, "k": 1}`}, []string{"j", "k", "motd", "uses_c"}, ""},
		{"Puppet code and docs", map[string]string{"README.md": "x", "manifests/site.pp": "node default {}\n"}, nil, ""},
		{"hiera.yaml", map[string]string{"hiera.yaml": base["hiera.yaml"] + "# comment\n"}, nil, "hiera.yaml differs"},
		{"environment.conf", map[string]string{"environment.conf": "modulepath = site\n"}, nil, "environment.conf differs"},
		{"lookup_options", map[string]string{"data/common.yaml": "a: 1\nb: [x]\nc: {d: 1}\nlookup_options:\n  b: {merge: first}\n"}, nil, "lookup_options differ"},
		{"a file that is not data", map[string]string{"data/common.conf": "a = 1\n"}, nil, "common.conf differs, and is not a data file"},
		{"a data file that does not parse", map[string]string{"data/common.yaml": "a: [1\n"}, nil, "common.yaml does not read as a data file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dirs := [2]string{t.TempDir(), t.TempDir()}
			for i, dir := range dirs {
				for rel, text := range base {
					if edited, ok := c.edit[rel]; i == 1 && ok && edited == "" {
						continue
					}
					writeFile(t, filepath.Join(dir, rel), text)
				}
			}
			for rel, text := range c.edit {
				if text != "" {
					writeFile(t, filepath.Join(dirs[1], rel), text)
				}
			}
			var sides [2]setup
			for i, dir := range dirs {
				sides[i] = setup{config: filepath.Join(dir, "hiera.yaml")}
			}
			keys, err := changedKeys(sides)
			var every errEveryKey
			switch {
			case c.every != "" && (!errors.As(err, &every) || !strings.Contains(every.why, c.every)):
				t.Errorf("err %v, want every key compared because %q", err, c.every)
			case c.every == "" && err != nil:
				t.Errorf("err %v", err)
			case c.every == "" && !reflect.DeepEqual(keys, c.want):
				t.Errorf("keys %q, want %q", keys, c.want)
			}
		})
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, []byte(text), 0o644))
}

// A datadir outside the directory compared (hiera.yaml in hiera/, its data in ../data): the
// change is still found, every key being compared.
func TestFleetDiffDataOutsideRoots(t *testing.T) {
	dir := t.TempDir()
	for _, side := range []string{"a", "b"} {
		writeFile(t, filepath.Join(dir, side, "hiera", "hiera.yaml"), "version: 5\ndefaults: {datadir: ../data, data_hash: yaml_data}\nhierarchy:\n  - name: common\n    path: common.yaml\n")
	}
	writeFile(t, filepath.Join(dir, "a", "data", "common.yaml"), "k: 1\n")
	writeFile(t, filepath.Join(dir, "b", "data", "common.yaml"), "k: 2\n")
	writeFile(t, filepath.Join(dir, "facts", "n1.json"), `{"clientcert": "n1"}`)
	rc, out, errOut := run(t, "diff", "--config", filepath.Join(dir, "a", "hiera", "hiera.yaml"), "--config", filepath.Join(dir, "b", "hiera", "hiera.yaml"),
		"--facts", filepath.Join(dir, "facts"))
	if rc != 1 || !strings.Contains(out, "k\n  1 -> 2\n") {
		t.Errorf("rc %d, %s%s", rc, out, errOut)
	}
}

// The data files lie within the roots given relative to the working directory, as a CI job gives
// them (the engine names data files absolute); a datadir beside them does not.
func TestDataWithinRoots(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "in", "hiera.yaml"), "version: 5\ndefaults: {datadir: data, data_hash: yaml_data}\nhierarchy:\n  - name: common\n    path: common.yaml\n")
	writeFile(t, filepath.Join(dir, "in", "data", "common.yaml"), "k: 1\n")
	writeFile(t, filepath.Join(dir, "out", "hiera.yaml"), "version: 5\ndefaults: {datadir: ../data, data_hash: yaml_data}\nhierarchy:\n  - name: common\n    path: common.yaml\n")
	writeFile(t, filepath.Join(dir, "data", "common.yaml"), "k: 1\n")
	t.Chdir(dir)
	for config, want := range map[string]bool{"in/hiera.yaml": true, "out/hiera.yaml": false} {
		var sides [2]setup
		var engines [2]*hiera.Engine
		for i := range sides {
			sides[i] = setup{config: config}
			e, err := sides[i].engine()
			must(t, err)
			engines[i] = e
		}
		if got := dataWithinRoots(context.Background(), engines, sides, nil); got != want {
			t.Errorf("%s: %v, want %v", config, got, want)
		}
	}
}
