package hieraconfig

import (
	"errors"
	"slices"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// TestParse checks what the core reads from a Config: each version's levels as version 5 entries,
// with their data function, datadir, locations and options as written.
func TestParse(t *testing.T) {
	t.Run("version 5", func(t *testing.T) {
		c, err := Parse("/etc/h/hiera.yaml", []byte(`version: 5
defaults: {datadir: hieradata, data_hash: yaml_data}
hierarchy:
  - name: Nodes
    path: "nodes/%{trusted.certname}.yaml"
  - name: Secrets
    lookup_key: eyaml_lookup_key
    globs: [secrets/*.eyaml, more/*.eyaml]
    options: {pkcs7_private_key: keys/private.pem}
`), Global)
		if err != nil {
			t.Fatal(err)
		}
		if c.Version != 5 || c.Dir != "/etc/h" || c.Place != Global || c.V3 != nil || len(c.Entries) != 2 {
			t.Fatalf("config: version %d, dir %q, place %v, v3 %v, %d entries", c.Version, c.Dir, c.Place, c.V3, len(c.Entries))
		}
		nodes, secrets := c.Entries[0], c.Entries[1]
		if nodes.Name != "Nodes" || nodes.Line != 4 || nodes.Function.Name != "yaml_data" || nodes.Datadir != "hieradata" ||
			nodes.LocKind != "path" || !slices.Equal(nodes.Locs, []string{"nodes/%{trusted.certname}.yaml"}) {
			t.Errorf("first entry: %+v", *nodes)
		}
		if secrets.Function.Name != "eyaml_lookup_key" || !secrets.Function.Encrypted || secrets.LocKind != "globs" ||
			len(secrets.Locs) != 2 || optionOf(secrets, "pkcs7_private_key") != "keys/private.pem" {
			t.Errorf("second entry: %+v", *secrets)
		}
	})
	t.Run("version 3: one entry per backend over the whole hierarchy", func(t *testing.T) {
		c, err := Parse("/h/hiera.yaml", []byte(":backends: [yaml, json]\n:yaml:\n  :datadir: d\n:json:\n  :datadir: j\n:hierarchy: [\"%{::role}\", common]\n:merge_behavior: deeper\n"), Global)
		if err != nil {
			t.Fatal(err)
		}
		if c.V3 == nil || c.V3.MergeBehavior != "deeper" || len(c.Entries) != 2 {
			t.Fatalf("v3 %+v, %d entries", c.V3, len(c.Entries))
		}
		if e := c.Entries[1]; e.Name != "json" || e.Function.Name != "json_data" || e.Datadir != "j" ||
			!slices.Equal(e.Locs, []string{"%{::role}.json", "common.json"}) {
			t.Errorf("json entry: %+v", *e)
		}
	})
	t.Run("version 3 outside the global layer is ignored with Puppet's warning", func(t *testing.T) {
		c, err := Parse("/m/hiera.yaml", []byte(":backends: [yaml]\n"), Module)
		if err != nil || c.Ignored != "/m/hiera.yaml: hiera.yaml version 3 found at module root was ignored" || len(c.Entries) != 0 {
			t.Fatalf("got %+v, %v", c, err)
		}
	})
	t.Run("a function of no row is custom", func(t *testing.T) {
		// Puppet loads a level's function when a lookup reaches the level: hiera.yaml is valid
		c, err := Parse("/h/hiera.yaml", []byte("version: 5\nhierarchy:\n  - {name: a, lookup_key: wmflib::regex_data, path: regex.yaml, options: {node: x}}\n  - {name: b, data_hash: toml_data}\n"), Global)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []Function{{Name: "wmflib::regex_data", Kind: "lookup_key", Custom: true}, {Name: "toml_data", Kind: "data_hash", Custom: true}} {
			if e := c.Entries[i]; *e.Function != want || c.CheckLocations(e) != nil {
				t.Errorf("entry %s: function %+v (locations: %v), want %+v", e.Name, *e.Function, c.CheckLocations(e), want)
			}
		}
	})
	t.Run("version 4 in an environment", func(t *testing.T) {
		c, err := Parse("/env/hiera.yaml", []byte("version: 4\nhierarchy:\n  - name: common\n    backend: json\n"), Environment)
		if err != nil {
			t.Fatal(err)
		}
		if e := c.Entries[0]; e.Function.Name != "json_data" || e.Datadir != "data" || !slices.Equal(e.Locs, []string{"common.json"}) {
			t.Errorf("entry: %+v", *e)
		}
	})
}

// TestParseErrors checks that a bad hiera.yaml is a *model.Error naming the file, and the line and
// level where Puppet's rules place the problem.
func TestParseErrors(t *testing.T) {
	tests := map[string]struct {
		text, message string
		place         Place
		line          int
		level         string
	}{
		"unparsable": {text: "version: 5\nhierarchy: [\n", message: "Unable to parse hiera.yaml: ", line: 3},
		"duplicate level": {
			text:    "version: 5\nhierarchy:\n  - {name: a, path: a.yaml}\n  - {name: a, path: b.yaml}\n",
			message: "Hierarchy name 'a' defined more than once. First defined at (line: 3)", line: 4,
		},
		"reserved option": {
			text:    "version: 5\nhierarchy:\n  - name: a\n    path: a.yaml\n    options: {path: x}\n",
			message: "Option key 'path' used in hierarchy 'a' is reserved by Puppet", level: "a",
		},
		"default_hierarchy outside a module": {
			text: "version: 5\ndefault_hierarchy: []\n", message: "'default_hierarchy' is only allowed in the module layer", line: 2,
		},
		"a function of another kind": {
			text:    "version: 5\nhierarchy:\n  - {name: a, lookup_key: yaml_data, path: a.yaml}\n",
			message: "Unable to find 'lookup_key' function named 'yaml_data'", level: "a",
		},
		"version 4 globally": {text: "version: 4\n", message: "hiera.yaml version 4 cannot be used in the global layer"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("/h/hiera.yaml", []byte(tt.text), tt.place)
			var me *model.Error
			if !errors.As(err, &me) {
				t.Fatalf("error %v (%T), want a *model.Error", err, err)
			}
			if len(me.Message) < len(tt.message) || me.Message[:len(tt.message)] != tt.message {
				t.Errorf("message %q, want it to start with %q", me.Message, tt.message)
			}
			if me.File != "/h/hiera.yaml" || me.Line != tt.line || me.Level != tt.level {
				t.Errorf("file %q line %d level %q, want /h/hiera.yaml line %d level %q", me.File, me.Line, me.Level, tt.line, tt.level)
			}
		})
	}
}

func optionOf(e *Entry, name string) string {
	v, _ := e.Options.Get(name)
	return model.ToS(v)
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"version: 5\n", "version: 5\nhierarchy:\n  - name: a\n    path: a.yaml\n",
		"version: 5\nhierarchy:\n  - name: a\n    mapped_paths: [facts.x, y, \"%{y}.yaml\"]\n",
		":backends: [yaml, json]\n:yaml:\n  :datadir: data\n:hierarchy: [common]\n", "version: 6\n", "- 1\n",
		"version: 5\ndefaults: {datadir: x}\nhierarchy: [{name: a, glob: '**/*.yaml'}]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, p := range []Place{Global, Environment, Module} {
			_, _ = Parse("/fuzz/hiera.yaml", data, p)
		}
	})
}
