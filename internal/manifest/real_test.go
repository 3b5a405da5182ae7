package manifest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRealModules reads every .pp file of a directory of real modules (one module per
// subdirectory, as a modulepath holds them): none may be skipped.
func TestRealModules(t *testing.T) {
	dir := os.Getenv("HIERAFORM_PUPPET_MODULES")
	if dir == "" {
		t.Skip("set HIERAFORM_PUPPET_MODULES to a directory of Puppet modules (Forge checkouts) to read all their manifests")
	}
	mods, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, classes, aliases, lookups, clean := 0, 0, 0, 0, 0
	for _, m := range mods {
		if !m.IsDir() {
			continue
		}
		code := Read(filepath.Join(dir, m.Name()))
		for _, p := range code.Problems {
			t.Errorf("%s", p)
		}
		if len(code.Problems) == 0 {
			clean++
		}
		files += len(code.Files)
		for _, f := range code.Files {
			classes += len(f.Classes)
			aliases += len(f.Aliases)
			lookups += len(f.Lookups)
		}
	}
	t.Logf("%d modules (%d without a problem): %d manifests read, %d classes, %d type aliases, %d literal lookups",
		len(mods), clean, files, classes, aliases, lookups)
}

// BenchmarkReadModules reads the manifests and types of every module under
// HIERAFORM_PUPPET_MODULES, as check reads a modulepath.
func BenchmarkReadModules(b *testing.B) {
	dir := os.Getenv("HIERAFORM_PUPPET_MODULES")
	if dir == "" {
		b.Skip("set HIERAFORM_PUPPET_MODULES to a directory of Puppet modules to measure reading them")
	}
	mods, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	var dirs []string
	for _, m := range mods {
		dirs = append(dirs, filepath.Join(dir, m.Name(), "manifests"), filepath.Join(dir, m.Name(), "types"))
	}
	for b.Loop() {
		if code := Read(dirs...); len(code.Problems) > 0 {
			b.Fatal(code.Problems[0])
		}
	}
}
