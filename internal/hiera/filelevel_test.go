package hiera_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// LevelsReading: a file that may not exist yet is read by the first level whose paths name it, their
// variables (in paths and datadirs) read as any text, globs as Ruby's Dir.glob, in every layer.
func TestLevelsReading(t *testing.T) {
	dir := writeFiles(t, files{
		"hiera.yaml": "version: 5\ndefaults:\n  datadir: gdata\n  data_hash: yaml_data\nhierarchy:\n  - name: site\n    path: site.yaml\n" +
			"  - name: roles\n    glob: \"roles/**/*.{yaml,yml}\"\n  - name: http\n    uri: \"http://example.com/%{x}\"\n    data_hash: yaml_data\n",
		"env/hiera.yaml": "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n" +
			"  - name: dc\n    datadir: \"dc/%{facts.dc}\"\n    path: dc.yaml\n  - name: groups\n    mapped_paths: [groups, g, \"groups/%{g}.yaml\"]\n",
		"env/modules/ntp/hiera.yaml": "version: 5\nhierarchy:\n  - name: module os\n    path: \"os/%{facts.os.family}.yaml\"\n",
	})
	e := hiera.NewLayeredEngine(filepath.Join(dir, "hiera.yaml"), hiera.Layers{Environment: filepath.Join(dir, "env")})
	for rel, want := range map[string]string{
		"gdata/site.yaml":                       "global site",
		"gdata/roles/web.yml":                   "global roles",
		"gdata/roles/a/b/web.yaml":              "global roles",
		"env/data/nodes/web01.example.com.yaml": "environment node",
		"env/dc/east/dc.yaml":                   "environment dc",
		"env/data/groups/web.yaml":              "environment groups",
		"env/modules/ntp/data/os/Debian.yaml":   "module ntp module os",
		"gdata/roles/web.json":                  "",
		"env/data/nodes/web01.example.com.yml":  "",
		"env/data/common.yaml":                  "",
		"elsewhere/site.yaml":                   "",
	} {
		levels, err := e.LevelsReading(context.Background(), filepath.Join(dir, rel))
		got := ""
		if len(levels) > 0 {
			src := levels[0]
			got = src.Layer + " " + src.Module + " " + src.Level
			if src.Module == "" {
				got = src.Layer + " " + src.Level
			}
		}
		if err != nil || got != want {
			t.Errorf("%s: read by %q (%v), want %q", rel, got, err, want)
		}
	}
}
