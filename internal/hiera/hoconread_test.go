package hiera_test

import (
	"os"
	"path/filepath"
	"strings"
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
	wantContains(t, "error", err.Error(), "/etc/hostname", "outside "+dir+", where an include in this layer may read")
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

// hoconLevel is a one-level hiera.yaml over data/common.conf.
const hoconLevel = "version: 5\nhierarchy:\n  - name: common\n    path: common.conf\n    data_hash: hocon_data\n"

// TestHOCONIncludeConfinedToLayer: an include reads below the directory of its layer's hiera.yaml
// (or the data file's), symbolic links resolved as for data files. A third-party module cannot read
// Terraform's variables beside the configuration, nor a credentials file through a link; the
// environment's data may include files below the environment, outside the global hiera.yaml's
// directory (Puppet reads them).
func TestHOCONIncludeConfinedToLayer(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, files{
		"terraform.tfvars.json":                   `{"db_password": "hunter2"}`,
		"credentials.conf":                        "password = hunter2\n",
		"global/hiera.yaml":                       hoconLevel,
		"global/data/common.conf":                 "include file(\"@ROOT@/global/shared.conf\")\n",
		"global/shared.conf":                      "from_global = yes\n",
		"env/hiera.yaml":                          hoconLevel,
		"env/data/common.conf":                    "include file(\"@ROOT@/env/site/base.conf\")\n",
		"env/site/base.conf":                      "from_env = yes\n",
		"env/modules/evil/hiera.yaml":             hoconLevel,
		"env/modules/evil/data/common.conf":       "include file(\"@ROOT@/env/modules/evil/own.conf\")\n",
		"env/modules/evil/own.conf":               "\"evil::own\" = yes\n",
		"env/modules/tfvars/hiera.yaml":           hoconLevel,
		"env/modules/tfvars/data/common.conf":     "include file(\"@ROOT@/terraform.tfvars.json\")\n",
		"env/modules/link/hiera.yaml":             hoconLevel,
		"env/modules/link/data/common.conf":       "include file(\"@ROOT@/env/modules/link/data/creds.conf\")\n",
		"env/modules/neighbour/hiera.yaml":        hoconLevel,
		"env/modules/neighbour/data/common.conf":  "include file(\"@ROOT@/env/modules/evil/own.conf\")\n",
		"global/linked/hiera.yaml":                hoconLevel,
		"env/modules/globalfile/hiera.yaml":       hoconLevel,
		"env/modules/globalfile/data/common.conf": "include file(\"@ROOT@/global/shared.conf\")\n",
	})
	if err := os.Symlink(filepath.Join(dir, "credentials.conf"), filepath.Join(dir, "env/modules/link/data/creds.conf")); err != nil {
		t.Fatal(err)
	}
	e := hiera.NewLayeredEngine(filepath.Join(dir, "global", "hiera.yaml"), hiera.Layers{Environment: filepath.Join(dir, "env")})
	wantValue(t, e, "from_global", `"yes"`)
	wantValue(t, e, "from_env", `"yes"`)
	wantValue(t, e, "evil::own", `"yes"`)
	for module, want := range map[string]string{
		"tfvars":     "outside " + filepath.Join(dir, "env/modules/tfvars") + ", where an include in this layer may read",
		"link":       "leads through a symbolic link to " + filepath.Join(dir, "credentials.conf"),
		"neighbour":  "outside " + filepath.Join(dir, "env/modules/neighbour") + ",",
		"globalfile": "outside " + filepath.Join(dir, "env/modules/globalfile") + ",",
	} {
		res, err := lookup(t, e, hiera.Request{Key: module + "::password"})
		if err == nil {
			t.Errorf("module %s: no error, found=%v %s", module, res.Found, jsonOf(t, res.Value))
			continue
		}
		he := hieraError(t, err)
		wantContains(t, "module "+module+" error", he.Error(), want, filepath.Join(dir, "env/modules", module, "data/common.conf"))
		if strings.Contains(he.Error(), "hunter2") {
			t.Errorf("module %s: the error shows the file's text: %v", module, he)
		}
	}
	// the environment's data is confined to the environment
	addFiles(t, dir, files{"env/data/common.conf": "include file(\"@ROOT@/global/shared.conf\")\n"})
	e = hiera.NewLayeredEngine(filepath.Join(dir, "global", "hiera.yaml"), hiera.Layers{Environment: filepath.Join(dir, "env")})
	wantContains(t, "error", mustFail(t, e, hiera.Request{Key: "from_env"}).Error(), "outside "+filepath.Join(dir, "env")+",")
}

// TestHOCONIncludesCountTogether: a file that includes one large file many times is refused once
// the bytes read together pass the data-file size limit (each include alone is under it).
func TestHOCONIncludesCountTogether(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{
		"hiera.yaml":       hoconConfig,
		"data/common.conf": strings.Repeat("include file(\"@ROOT@/data/big.conf\")\n", 100) + "a = 1\n",
		"data/big.conf":    "b = 2\n#" + strings.Repeat("x", 25<<20) + "\n",
	})
	he := mustFail(t, e, hiera.Request{Key: "a"})
	wantContains(t, "error", he.Error(), "the data file and the files it includes hold more than 67108864 bytes together", filepath.Join(dir, "data", "common.conf"), "line: 3")
}
