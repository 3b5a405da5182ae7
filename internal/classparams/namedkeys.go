package classparams

// Keys read by their literal name outside manifests: a key read so names no class parameter and is
// still no mistake.

import (
	"context"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/manifest"
)

// namedInText finds a key named by a literal: lookup('k'), hiera_hash('k') in an EPP template;
// scope.call_function('lookup', ['k']) and scope.function_hiera(['k']) in an ERB template;
// %{lookup('k')}, %{hiera('k')}, %{alias('k')} in data.
var namedInText = []*regexp.Regexp{
	regexp.MustCompile(`\b(?:lookup|hiera|hiera_hash|hiera_array|alias)\(\s*\[?\s*['"]([^'"$%{}\s]+)['"]`),
	regexp.MustCompile(`call_function\(\s*['"](?:lookup|hiera\w*)['"]\s*,\s*\[?\s*['"]([^'"$%{}\s]+)['"]`),
	regexp.MustCompile(`function_(?:lookup|hiera\w*)\(\s*\[\s*['"]([^'"$%{}\s]+)['"]`),
}

// maxNamingFileSize bounds a template or data file scanned for the keys it names.
const maxNamingFileSize = 64 << 20

// readNamedKeys adds the keys the modules' templates and every data file (datadirs that depend on
// a node left out) name by a literal.
func (c *Code) readNamedKeys(engine *hiera.Engine, mods []hiera.Module) {
	var files []string
	for _, m := range mods {
		_ = filepath.WalkDir(filepath.Join(m.Dir, "templates"), func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".epp") || strings.HasSuffix(path, ".erb")) && len(files) < manifest.MaxFiles {
				files = append(files, path)
			}
			return nil // a template that cannot be listed names nothing
		})
	}
	if list, err := engine.DataFiles(context.Background(), nil); err == nil {
		for _, f := range list.Files {
			files = append(files, f.File)
		}
	}
	for _, path := range files {
		text, err := boundedfile.Read(path, maxNamingFileSize)
		if err != nil {
			continue // the data's check reports a data file that cannot be read
		}
		for _, re := range namedInText {
			for _, m := range re.FindAllSubmatch(text, -1) {
				c.lookedUp[string(m[1])] = true
			}
		}
	}
}
