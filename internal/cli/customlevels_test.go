package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// customSite writes a hierarchy as Wikimedia's (issue 43): the node's file, then a level served by
// the site's own function (wmflib::regex_data), then a YAML level.
func customSite(t *testing.T) string {
	dir := t.TempDir()
	for rel, text := range map[string]string{
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: node\n    path: \"hosts/%{facts.hostname}.yaml\"\n" +
			"  - name: Regex lookup\n    lookup_key: wmflib::regex_data\n    path: regex.yaml\n" +
			"  - name: role\n    path: role.yaml\n",
		"data/hosts/db1.yaml": "profile::mariadb::mysql_role: master\n",
		"data/regex.yaml":     "dbs:\n  __regex: !ruby/regexp /^db/\n  profile::x: 1\n",
		"data/role.yaml":      "profile::role_key: r\nprofile::other: o\n",
		"db1.json":            `{"hostname": "db1", "fqdn": "db1.eqiad.wmnet"}`,
	} {
		p := filepath.Join(dir, rel)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return dir
}

// TestCustomLevels: the command answers a key found before a custom level, fails one that reaches
// it naming the function and the level; node answers the node with those keys grouped in one
// line; --ignore-function reads the level as holding no data, with a warning naming it.
func TestCustomLevels(t *testing.T) {
	dir := customSite(t)
	src := []string{"--config", filepath.Join(dir, "hiera.yaml"), "--facts", filepath.Join(dir, "db1.json")}
	rc, out, errOut := run(t, append([]string{"lookup", "profile::mariadb::mysql_role", "--render-as", "s"}, src...)...)
	if rc != exitOK || out != "master\n" || !strings.Contains(errOut, `Warning: `+filepath.Join(dir, "hiera.yaml")+`: hierarchy levels served by custom functions`) {
		t.Errorf("the node's key: rc %d, stdout %q, stderr %q", rc, out, errOut)
	}
	rc, _, errOut = run(t, append([]string{"lookup", "profile::role_key"}, src...)...)
	if rc == exitOK || !strings.Contains(errOut, "lookup_key function 'wmflib::regex_data'") || !strings.Contains(errOut, `hierarchy level "Regex lookup"`) {
		t.Errorf("a key past the level: rc %d, stderr %q", rc, errOut)
	}
	rc, out, errOut = run(t, append([]string{"node", "--render-as", "json"}, src...)...)
	if rc != exitOK || out != `{"profile::mariadb::mysql_role":"master"}`+"\n" ||
		!strings.Contains(errOut, "Warning: 2 keys left out") || !strings.Contains(errOut, "\n  profile::role_key, profile::other: lookup_key function 'wmflib::regex_data'") {
		t.Errorf("node: rc %d, stdout %q, stderr %q", rc, out, errOut)
	}
	rc, out, errOut = run(t, append([]string{"lookup", "profile::role_key", "--render-as", "s", "--ignore-function", "wmflib::regex_data"}, src...)...)
	if rc != exitOK || out != "r\n" || !strings.Contains(errOut, `hierarchy levels read as holding no data, as ignore_functions asks: "Regex lookup" (lookup_key wmflib::regex_data)`) {
		t.Errorf("--ignore-function: rc %d, stdout %q, stderr %q", rc, out, errOut)
	}
	// check: the level's file is the function's to read (regex.yaml holds a Ruby regexp), the level named once
	rc, out, errOut = run(t, append([]string{"check"}, src...)...)
	if rc != exitOK || strings.Count(errOut, "Regex lookup") != 1 {
		t.Errorf("check: rc %d, stdout %q, stderr %q", rc, out, errOut)
	}
}
