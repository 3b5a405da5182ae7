package hiera_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

const hoconConfig = `version: 5
defaults:
  datadir: data
  data_hash: hocon_data
hierarchy:
  - name: node
    path: node.yaml
    data_hash: yaml_data
  - name: common
    path: common.conf
`

func TestHOCONLevel(t *testing.T) {
	e, _ := newEngine(t, files{
		"hiera.yaml":     hoconConfig,
		"data/node.yaml": "motd: from-yaml\npackages: [htop]\n",
		"data/common.conf": "lookup_options { packages { merge = unique } }\npackages = [vim, htop]\n" +
			"settings { a = 1, b = 2 }\nsettings { c = 3, a = 10 }\nport = 010\nratio = 1.0\nurl = \"http://\"${settings.c}\n",
	})
	for key, want := range map[string]string{
		"motd":     `"from-yaml"`,
		"packages": `["htop","vim"]`,
		"settings": `{"c":3,"a":10,"b":2}`,
		"port":     `8`,
		"ratio":    `1`,
		"url":      `"http://3"`,
	} {
		if got := jsonOf(t, mustFind(t, e, hiera.Request{Key: key}).Value); got != want {
			t.Errorf("%s = %s, want %s", key, got, want)
		}
	}
}

func TestHOCONErrors(t *testing.T) {
	e, dir := newEngine(t, files{
		"hiera.yaml":       hoconConfig,
		"data/node.yaml":   "motd: from-yaml\n",
		"data/common.conf": "a = 1\nurl = http://example.com\n",
	})
	// Puppet looks up lookup_options in every level first, so a broken file fails every lookup
	err := mustFail(t, e, hiera.Request{Key: "motd"})
	path := filepath.Join(dir, "data", "common.conf")
	if err.File != path || err.Line != 2 {
		t.Errorf("error names %s line %d, want %s line 2", err.File, err.Line, path)
	}
	wantContains(t, "error", err.Error(), "Unable to parse ("+path+")", "Expecting close brace } or a comma, got ':'")

	e, dir = newEngine(t, files{
		"hiera.yaml":       hoconConfig,
		"data/common.conf": "a = 1\ninclude file(\"/etc/hostname\")\n",
	})
	err = mustFail(t, e, hiera.Request{Key: "a"})
	wantContains(t, "error", err.Error(), "/etc/hostname", "outside "+filepath.Join(dir, "data"))
	if err.Line != 2 {
		t.Errorf("include error on line %d, want 2", err.Line)
	}

	e, _ = newEngine(t, files{
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: c\n    path: common.conf\n    data_hash: hocon_data\n    options:\n      x: 1\n",
		"data/common.conf": "a = 1\n",
	})
	wantContains(t, "error", mustFail(t, e, hiera.Request{Key: "a"}).Error(), "'hocon_data' one of 'path'")
}

// A change to an included file is seen, as a change to the data file is.
func TestHOCONIncludeCache(t *testing.T) {
	e, dir := newEngine(t, files{
		"hiera.yaml":       hoconConfig,
		"data/common.conf": "include file(\"@ROOT@/shared/base.conf\")\nown = mine\n",
		"shared/base.conf": "from_base = one\n",
	})
	clock := withClock(e)
	wantValue(t, e, "from_base", `"one"`)
	base := filepath.Join(dir, "shared", "base.conf")
	rewrite(t, base, "from_base = two\n", mtimeOf(t, base).Add(time.Second))
	clock.advance(hiera.StampCheckInterval) // the engine looks at files again after this long
	wantValue(t, e, "from_base", `"two"`)
	wantValue(t, e, "own", `"mine"`)
}
