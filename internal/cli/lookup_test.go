package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// siteDir writes a small hierarchy (a node level from $trusted.certname, then common) and facts files.
func siteDir(t *testing.T) string {
	dir := t.TempDir()
	files := map[string]string{
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n" +
			"  - name: os\n    path: \"os/%{facts.os.family}.yaml\"\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml":                  "greeting: hello\nport: 80\nlist: [a, b]\n" + "lookup_options:\n  secret:\n    convert_to: Sensitive\nsecret: hunter2\n",
		"data/os/Debian.yaml":               "packages: [apt]\n",
		"data/nodes/web01.example.com.yaml": "port: 8080\n",
		"web01.json":                        `{"os": {"family": "Debian"}, "clientcert": "web01.example.com"}`,
		"bad.yaml":                          "os:\n  family: [Debian\n",
	}
	for rel, text := range files {
		p := filepath.Join(dir, rel)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return dir
}

func run(t *testing.T, args ...string) (rc int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	rc = Run(args, Env{Stdout: &out, Stderr: &errOut, Version: "1.2.3"})
	return rc, out.String(), errOut.String()
}

func TestLookupAnswers(t *testing.T) {
	dir := siteDir(t)
	cfg, facts := filepath.Join(dir, "hiera.yaml"), filepath.Join(dir, "web01.json")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"the node's level, certname from the facts file", []string{"port", "--render-as", "json"}, "8080\n"},
		{"a hash fact reaches its level", []string{"packages", "--render-as", "yaml"}, "---\n- apt\n"},
		{"the first of several keys found", []string{"missing", "greeting", "--render-as", "s"}, "hello\n"},
		{"yaml by default", []string{"list"}, "---\n- a\n- b\n"},
		{"a default for a missing key", []string{"missing", "--default", "x", "--render-as", "json"}, "\"x\"\n"},
		{"a merge given as a flag", []string{"list", "--merge", "unique", "--render-as", "json"}, "[\"a\",\"b\"]\n"},
		{"a secret is redacted", []string{"secret", "--render-as", "json"}, "\"Sensitive [value redacted]\"\n"},
		{"--reveal prints it", []string{"secret", "--reveal", "--render-as", "s"}, "hunter2\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc, out, errOut := run(t, append([]string{"lookup", "--config", cfg, "--facts", facts}, tc.args...)...)
			if rc != 0 || out != tc.want {
				t.Errorf("rc %d, stdout %q (stderr %q), want 0 and %q", rc, out, errOut, tc.want)
			}
			if strings.Contains(out+errOut, "hunter2") && !strings.Contains(strings.Join(tc.args, " "), "--reveal") {
				t.Errorf("the secret was printed: %q %q", out, errOut)
			}
		})
	}
}

func TestLookupErrors(t *testing.T) {
	dir := siteDir(t)
	must(t, os.MkdirAll(filepath.Join(dir, "environments", "production"), 0o755))
	cfg, facts := filepath.Join(dir, "hiera.yaml"), filepath.Join(dir, "web01.json")
	for _, tc := range []struct {
		name   string
		args   []string
		stderr []string
	}{
		{"an unknown flag", []string{"lookup", "port", "--colour"}, []string{"flag provided but not defined: --colour", "Error: Could not run: flag provided but not defined: --colour (hieraform lookup --help lists them)\n"}},
		{"no key", []string{"lookup", "--config", cfg}, []string{"No keys were given to lookup."}},
		{"a missing facts file", []string{"lookup", "port", "--config", cfg, "--facts", filepath.Join(dir, "nope.json")},
			[]string{"facts file", "nope.json", "no such file or directory"}},
		{"facts that are not YAML", []string{"lookup", "port", "--config", cfg, "--facts", filepath.Join(dir, "bad.yaml")},
			[]string{"facts file", "bad.yaml, line 2", "did not find expected ',' or ']'"}},
		{"a key found nowhere", []string{"lookup", "nope", "--config", cfg, "--facts", facts},
			[]string{"did not find a value for the name 'nope'", "searched node, os, common"}},
		{"a value of the wrong type", []string{"lookup", "port", "--config", cfg, "--facts", facts, "--type", "String"},
			[]string{"expects a String value, got Integer"}},
		{"a type that does not parse", []string{"lookup", "port", "--config", cfg, "--type", "Array[", "--facts", facts}, []string{"Array["}},
		{"deep options without deep", []string{"lookup", "list", "--config", cfg, "--sort-merged-arrays"},
			[]string{"only available with '--merge deep'"}},
		{"an unknown strategy", []string{"lookup", "list", "--config", cfg, "--merge", "sideways"}, []string{"The --merge option only accepts"}},
		{"an unknown format", []string{"lookup", "list", "--config", cfg, "--render-as", "xml"}, []string{"Unknown rendering format 'xml'"}},
		{"no hiera.yaml named and none in the working directory", []string{"lookup", "list"}, []string{"hiera.yaml not found", "give --config"}},
		{"a missing environment", []string{"lookup", "list", "--environmentpath", dir, "--environment", "staging"},
			[]string{"Could not find a directory environment named 'staging'"}},
		{"a typo of an environment", []string{"lookup", "list", "--environmentpath", filepath.Join(dir, "environments"), "--environment", "prodution"},
			[]string{"Could not find a directory environment named 'prodution' anywhere in the path: " + filepath.Join(dir, "environments") +
				". Does the directory exist? Did you mean --environment production?"}},
		// Puppet takes word characters only: a path names no environment, whatever it reaches
		{"an environment name that is a path", []string{"lookup", "list", "--environmentpath", filepath.Join(dir, "x", "y"), "--environment", "../.."},
			[]string{"Could not find a directory environment named '../..'"}},
		{"a flag given twice", []string{"lookup", "list", "--config", cfg, "--config", cfg}, []string{"--config is given 2 times"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc, out, errOut := run(t, tc.args...)
			if rc != 1 || out != "" {
				t.Errorf("rc %d, stdout %q: want 1 and nothing, as puppet lookup", rc, out)
			}
			for _, w := range tc.stderr {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q does not say %q", errOut, w)
				}
			}
			if strings.Contains(errOut, "panic") || strings.Count(errOut, tc.stderr[0]) > 1 {
				t.Errorf("stderr says it twice or panics: %s", errOut)
			}
		})
	}
}

// A --config naming no file is read as puppet lookup --hiera_config reads it: Puppet's default
// configuration, one level reading data/common.yaml beside it, with a warning naming the path.
func TestLookupMissingConfigIsPuppetsDefault(t *testing.T) {
	dir := siteDir(t)
	missing := filepath.Join(dir, "none.yaml")
	rc, out, errOut := run(t, "lookup", "list", "--config", missing)
	if rc != 0 || out != "---\n- a\n- b\n" || !strings.Contains(errOut, "There is no hiera.yaml at "+missing) ||
		!strings.Contains(errOut, filepath.Join(dir, "data", "common.yaml")) {
		t.Errorf("rc %d, stdout %q, stderr %q: want data/common.yaml's value and a warning naming the missing file", rc, out, errOut)
	}
}

func TestCommandLine(t *testing.T) {
	if rc, out, _ := run(t, "--version"); rc != 0 || out != "hieraform 1.2.3\n" {
		t.Errorf("--version: %d %q", rc, out)
	}
	if rc, out, _ := run(t, "lookup", "--help"); rc != 0 || !strings.Contains(out, "Example:") || !strings.Contains(out, "--render-as") {
		t.Errorf("lookup --help: %d %q", rc, out)
	}
	if rc, _, errOut := run(t, "frobnicate"); rc != 2 || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Errorf("an unknown command: %d %q", rc, errOut)
	}
	if rc, _, _ := run(t); rc != 2 {
		t.Errorf("no command: %d", rc)
	}
}

// A node's trusted data stored as its "trusted" fact (PuppetDB stores it so, and its exports hold
// it) is its $trusted when it has authenticated, certname and extensions, and $facts keeps it;
// otherwise $trusted is puppet lookup's local one. The answers are real Puppet 7.23's:
// `puppet lookup --hiera_config hiera.yaml --node web01.example.com --facts FILE KEY`.
func TestLookupTrustedFact(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"hiera.yaml": `version: 5
defaults: {datadir: data, data_hash: yaml_data}
hierarchy:
  - {name: role, path: "role/%{trusted.extensions.pp_role}.yaml"}
  - {name: auth, path: "auth/%{trusted.authenticated}.yaml"}
  - {name: fact, path: "fact/%{facts.trusted.authenticated}.yaml"}
  - {name: common, path: common.yaml}
`,
		"data/role/web.yaml":    "k: from-role-web\n",
		"data/auth/remote.yaml": "a: auth-remote\n",
		"data/auth/local.yaml":  "a: auth-local\n",
		"data/fact/remote.yaml": "f: facts-trusted-remote\n",
		"data/common.yaml":      "k: common\na: common\nf: common\n",
		"stored.json":           `{"role":"x","trusted":{"certname":"web01.example.com","authenticated":"remote","extensions":{"pp_role":"web"}}}`,
		"incomplete.json":       `{"role":"x","trusted":{"authenticated":"remote","extensions":{"pp_role":"web"}}}`,
	}
	for rel, text := range files {
		p := filepath.Join(dir, rel)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
	for file, want := range map[string]string{
		"stored.json":     "from-role-web auth-remote facts-trusted-remote",
		"incomplete.json": "common auth-local facts-trusted-remote",
	} {
		var got []string
		for _, key := range []string{"k", "a", "f"} {
			rc, out, errOut := run(t, "lookup", key, "--config", filepath.Join(dir, "hiera.yaml"), "--node", "web01.example.com",
				"--facts", filepath.Join(dir, file), "--render-as", "s")
			if rc != 0 {
				t.Fatalf("%s %s: rc %d, %s", file, key, rc, errOut)
			}
			got = append(got, strings.TrimSpace(out))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s: %s, want Puppet's %s", file, strings.Join(got, " "), want)
		}
	}
}

// A key not found with a typo names the nearest keys the node's data has, as the provider does.
func TestLookupDidYouMean(t *testing.T) {
	dir := siteDir(t)
	rc, out, errOut := run(t, "lookup", "greetin", "--config", filepath.Join(dir, "hiera.yaml"), "--facts", filepath.Join(dir, "web01.json"))
	if rc != 1 || out != "" || !strings.Contains(errOut, "did not find a value for the name 'greetin'") || !strings.HasSuffix(errOut, "\nDid you mean 'greeting'?\n") {
		t.Errorf("rc %d, stdout %q, stderr %q", rc, out, errOut)
	}
	if _, _, errOut := run(t, "lookup", "zzzzzzzz", "--config", filepath.Join(dir, "hiera.yaml")); strings.Contains(errOut, "Did you mean") {
		t.Errorf("nothing near: %q", errOut)
	}
}

// Every command's help names its flags as Puppet users type them: --flag (a one-letter flag of
// the eyaml gem's, -s), never Go's -flag; so do the errors of a bad flag.
func TestHelpFlagsAsTyped(t *testing.T) {
	goStyle := regexp.MustCompile(`(?m)^  -[A-Za-z0-9][-A-Za-z0-9_]+`)
	for _, args := range [][]string{{"lookup"}, {"node"}, {"diff"}, {"check"}, {"unused"},
		{"eyaml", "encrypt"}, {"eyaml", "decrypt"}, {"eyaml", "edit"}, {"eyaml", "recrypt"}, {"eyaml", "createkeys"}} {
		rc, out, _ := run(t, append(args, "--help")...)
		if rc != 0 || !strings.Contains(out, "\n  --") || goStyle.MatchString(out) {
			t.Errorf("%s --help: rc %d, flags not as --flag:\n%s", strings.Join(args, " "), rc, out)
		}
	}
	if _, out, _ := run(t, "eyaml", "encrypt", "--help"); !strings.Contains(out, "\n  -s text\n") {
		t.Errorf("eyaml encrypt --help does not list the gem's -s:\n%s", out)
	}
	if rc, _, errOut := run(t, "diff", "--reveal=x"); rc != exitFailure || !strings.Contains(errOut, `invalid boolean value "x" for --reveal`) {
		t.Errorf("diff --reveal=x: rc %d, %q", rc, errOut)
	}
}
