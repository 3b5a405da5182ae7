package render

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// golden.json holds, for every value of values.yaml, what Puppet's renderers print for it
// (testdata/gen.rb, run with the Ruby 3.1 that Puppet 7 runs on; spot-checked against
// `puppet lookup --render-as json|yaml|s` itself).
func TestRenderMatchesPuppet(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := datafile.ParseYAML(text)
	if err != nil {
		t.Fatal(err)
	}
	values, _ := v.(*model.Hash)
	var golden map[string]map[string]string
	raw, err := os.ReadFile(filepath.Join("testdata", "golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &golden); err != nil {
		t.Fatal(err)
	}
	if values == nil || values.Len() != len(golden) {
		t.Fatalf("values.yaml and golden.json disagree: regenerate golden.json with gen.rb")
	}
	values.Each(func(k, val any) bool {
		name, _ := k.(string)
		for _, format := range Formats {
			got, err := Render(val, format)
			if err != nil {
				t.Errorf("%s as %s: %v", name, format, err)
				continue
			}
			if want := golden[name][format]; string(got) != want {
				t.Errorf("%s as %s:\n got %q\nwant %q", name, format, got, want)
			}
		}
		return true
	})
}

func TestRenderRefusesWhatPuppetCannotPrint(t *testing.T) {
	for _, tc := range []struct {
		v      any
		format string
	}{{1.0, "xml"}} {
		if _, err := Render(tc.v, tc.format); err == nil {
			t.Errorf("%v as %s: no error", tc.v, tc.format)
		}
	}
}
