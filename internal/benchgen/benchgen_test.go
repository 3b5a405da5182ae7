package benchgen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/hieraform/terraform-provider-hiera/internal/benchgen"
)

// readTree returns every file under dir by its slash-separated relative path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestGenerate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	opts := benchgen.Options{}
	if err := benchgen.Generate(dir, opts); err != nil {
		t.Fatal(err)
	}
	files := readTree(t, dir)

	// 12 nodes + 8 roles + 3 environments + 6 locations + 3 OS families + common + hiera.yaml.
	if got, want := len(files), 34+1; got != want { // +1: manifest.json
		t.Errorf("got %d files, want %d", got, want)
	}
	var total int
	for name, content := range files {
		if !strings.HasSuffix(name, ".yaml") {
			continue
		}
		total += len(content)
		var doc map[string]any
		if err := yaml.Unmarshal(content, &doc); err != nil {
			t.Fatalf("%s does not parse: %v", name, err)
		}
		if name == "hiera.yaml" {
			continue
		}
		keys := len(doc)
		if name == "data/common.yaml" {
			keys-- // lookup_options
			options, _ := doc["lookup_options"].(map[string]any)
			if _, ok := options["^bench::deep::"]; !ok {
				t.Errorf("common.yaml: lookup_options lack the regexp pattern")
			}
		}
		if keys != 500 {
			t.Errorf("%s has %d keys, want 500", name, keys)
		}
		if len(content) < 50_000 || len(content) > 300_000 {
			t.Errorf("%s is %d bytes, want 50-300 KB", name, len(content))
		}
	}
	if total < 2e6 || total > 10e6 {
		t.Errorf("hierarchy is %d bytes, want 2-10 MB", total)
	}

	// Every node's six files exist, and the merge keys are on all six levels.
	for _, n := range benchgen.Nodes(opts) {
		for _, f := range n.DataFiles() {
			var doc map[string]any
			if err := yaml.Unmarshal(files[f], &doc); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{benchgen.DeepKey(0), benchgen.UniqueKey(0), benchgen.FirstKey(0)} {
				if _, ok := doc[k]; !ok {
					t.Errorf("%s lacks %s", f, k)
				}
			}
		}
	}

	// Deterministic: a second run writes the same bytes.
	again := t.TempDir()
	if err := benchgen.Generate(again, opts); err != nil {
		t.Fatal(err)
	}
	for name, content := range readTree(t, again) {
		if !bytes.Equal(content, files[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
}

func TestGenerateLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 50 MB")
	}
	t.Parallel()
	dir := t.TempDir()
	if err := benchgen.Generate(dir, benchgen.Options{Large: true}); err != nil {
		t.Fatal(err)
	}
	var total int64
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".yaml") {
			info, _ := d.Info()
			total += info.Size()
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if total < 45e6 || total > 60e6 {
		t.Errorf("large hierarchy is %.1f MB, want about 50", float64(total)/1e6)
	}
	b, err := os.ReadFile(filepath.Join(dir, "data/common.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("common.yaml does not parse: %v", err)
	}
	if len(doc) != 3600+1 {
		t.Errorf("common.yaml has %d keys, want 3600 + lookup_options", len(doc))
	}
}

func TestGenerateFloor(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := benchgen.Generate(dir, benchgen.Options{Floor: true}); err != nil {
		t.Fatal(err)
	}
	files := readTree(t, dir)
	if len(files) != 3 {
		t.Errorf("got files %v, want hiera.yaml, data/common.yaml, manifest.json", len(files))
	}
	var doc map[string]any
	if err := yaml.Unmarshal(files["data/common.yaml"], &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc) != benchgen.FloorKeys || doc[benchgen.FloorKey(7)] != "value0007" {
		t.Errorf("floor data has %d keys, %s = %v", len(doc), benchgen.FloorKey(7), doc[benchgen.FloorKey(7)])
	}
}
