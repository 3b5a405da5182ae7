package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

func TestNode(t *testing.T) {
	dir := siteDir(t)
	cfg, facts := filepath.Join(dir, "hiera.yaml"), filepath.Join(dir, "web01.json")
	rc, out, errOut := run(t, "node", "--config", cfg, "--facts", facts, "--render-as", "json")
	// most specific level first; the secret left out and named on stderr
	if want := `{"port":8080,"packages":["apt"],"greeting":"hello","list":["a","b"]}` + "\n"; rc != 0 || out != want {
		t.Errorf("rc %d, stdout %q, want %q (stderr %q)", rc, out, want, errOut)
	}
	if !strings.Contains(errOut, "secret keys left out: secret") || strings.Contains(out+errOut, "hunter2") {
		t.Errorf("stderr %q", errOut)
	}
	rc, out, _ = run(t, "node", "--config", cfg, "--facts", facts, "--keys", "port,nope", "--sources", "--render-as", "json")
	if !strings.Contains(out, `"port":{"value":8080,"sources":[{"layer":"global","module":"","level":"node","file":"`) || rc != 0 {
		t.Errorf("--sources: rc %d, %s", rc, out)
	}
	// --sources lists a secret key, redacted: the note says so, not that it is left out
	rc, out, errOut = run(t, "node", "--config", cfg, "--facts", facts, "--keys", "secret", "--sources", "--render-as", "json")
	if rc != 0 || !strings.Contains(out, `"secret":{"value":"Sensitive [value redacted]"`) ||
		!strings.Contains(errOut, `Note: secret keys, their values redacted ("Sensitive [value redacted]"): secret`) || strings.Contains(out+errOut, "hunter2") {
		t.Errorf("--sources with a secret: rc %d, %s, stderr %s", rc, out, errOut)
	}
	rc, _, errOut = run(t, "node", "--config", cfg, "--facts", filepath.Join(dir, "bad.yaml"))
	if rc != 1 || !strings.Contains(errOut, "bad.yaml, line 2") {
		t.Errorf("bad facts: rc %d, %q", rc, errOut)
	}
}

// As a new user would: a colleague changes a node's data in a branch; diff shows the change with
// the file on each side, and a broken data file on one side is an error naming file and line.
func TestDiffTwoCheckouts(t *testing.T) {
	main, branch := siteDir(t), siteDir(t)
	nodeFile := filepath.Join(branch, "data", "nodes", "web01.example.com.yaml")
	must(t, os.WriteFile(nodeFile, []byte("port: 8443\nextra: new\n"), 0o644))
	must(t, os.Remove(filepath.Join(branch, "data", "os", "Debian.yaml")))
	args := []string{"diff", "--config", filepath.Join(main, "hiera.yaml"), "--config", filepath.Join(branch, "hiera.yaml"),
		"--facts", filepath.Join(main, "web01.json")}
	rc, out, errOut := run(t, args...)
	if rc != 1 {
		t.Fatalf("rc %d (stderr %q), want 1: the checkouts differ", rc, errOut)
	}
	// files relative to each side's data, which the header names
	for _, w := range []string{"changed  port", "8080", "8443", "data/nodes/web01.example.com.yaml", "removed  packages", "added    extra", "3 keys differ"} {
		if !strings.Contains(out, w) {
			t.Errorf("the table does not show %q:\n%s", w, out)
		}
	}
	rc, out, _ = run(t, append(args, "--render-as", "json")...)
	if rc != 1 || !strings.Contains(out, `{"key":"port","change":"changed","left":{"value":8080,"file":"`) || !strings.Contains(out, nodeFile) {
		t.Errorf("json: rc %d, %s", rc, out)
	}
	if rc, out, _ := run(t, "diff", "--config", filepath.Join(main, "hiera.yaml"), "--config", filepath.Join(main, "hiera.yaml"),
		"--facts", filepath.Join(main, "web01.json")); rc != 0 || !strings.Contains(out, "no differences") {
		t.Errorf("the same checkout twice: rc %d, %s", rc, out)
	}
	must(t, os.WriteFile(filepath.Join(branch, "data", "common.yaml"), []byte("greeting: [unclosed\n"), 0o644))
	rc, _, errOut = run(t, args...)
	if rc != 2 || !strings.Contains(errOut, filepath.Join(branch, "data", "common.yaml")) || !strings.Contains(errOut, "line") {
		t.Errorf("a broken data file: rc %d, stderr %q, want 2 naming the file and line", rc, errOut)
	}
	if rc, _, errOut := run(t, "diff", "--config", filepath.Join(main, "hiera.yaml")); rc != 2 || !strings.Contains(errOut, "nothing to compare") {
		t.Errorf("one side only: rc %d, %q", rc, errOut)
	}
}

// A changed hash shows the subkeys that differ, dotted as lookup takes them, however long the
// whole value; the sides name their checkouts' environment directories.
func TestDiffShowsChangedSubkeys(t *testing.T) {
	main, branch := siteDir(t), siteDir(t)
	long := strings.Repeat("x", 80)
	settings := "ntp:\n  servers: [a, b]\n  long: %s\n  'a.b': %d\n  options: {minpoll: %d, maxpoll: 10}\n"
	must(t, os.WriteFile(filepath.Join(main, "data", "common.yaml"), []byte(fmt.Sprintf(settings, long, 1, 4)), 0o644))
	must(t, os.WriteFile(filepath.Join(branch, "data", "common.yaml"), []byte(fmt.Sprintf(settings, long, 2, 6)+"  added: yes\n"), 0o644))
	rc, out, errOut := run(t, "diff", "--config", filepath.Join(main, "hiera.yaml"), "--config", filepath.Join(branch, "hiera.yaml"),
		"--facts", filepath.Join(main, "web01.json"))
	if rc != 1 {
		t.Fatalf("rc %d (stderr %q), want 1", rc, errOut)
	}
	for _, re := range []string{`changed\s+ntp\.'a\.b'\s+1\s+\S+common.yaml\s+2`, `changed\s+ntp\.options\.minpoll\s+4\s+\S+\s+6\s`,
		`added\s+ntp\.added\s+-\s+\S+\s+true\s`, `1 keys differ`} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("the table does not match %s:\n%s", re, out)
		}
	}
	if strings.Contains(out, "servers") || strings.Contains(out, "maxpoll") {
		t.Errorf("the table shows subkeys that did not change:\n%s", out)
	}
}

func TestDiffTwoNodes(t *testing.T) {
	dir := siteDir(t)
	db := filepath.Join(dir, "db01.json")
	must(t, os.WriteFile(db, []byte(`{"os": {"family": "RedHat"}, "clientcert": "db01.example.com"}`), 0o644))
	rc, out, errOut := run(t, "diff", "--config", filepath.Join(dir, "hiera.yaml"), "--facts", filepath.Join(dir, "web01.json"),
		"--facts", db, "--render-as", "json")
	if rc != 1 || !strings.Contains(out, `"key":"port","change":"changed"`) || !strings.Contains(out, `"key":"packages","change":"removed"`) {
		t.Errorf("rc %d, %s (stderr %q)", rc, out, errOut)
	}
}

// A hash whose every subkey changed gives at most maxSubkeyRows rows, then one that counts the rest.
func TestDiffSubkeyRowsBounded(t *testing.T) {
	left, right := model.NewHash(0), model.NewHash(0)
	for i := range maxSubkeyRows + 5 {
		left.Set(fmt.Sprint("k", i), int64(i))
		right.Set(fmt.Sprint("k", i), int64(i+1))
	}
	rows := tableRows(keyChange{key: "h", change: "changed", left: &hiera.Result{Value: left}, right: &hiera.Result{Value: right}})
	if len(rows) != maxSubkeyRows+1 || !strings.HasPrefix(rows[maxSubkeyRows].left, "5 more subkeys differ") {
		t.Errorf("%d rows, last %+v", len(rows), rows[len(rows)-1])
	}
}

// Many failing keys: the first maxReportedKeys named, the count of all of them right. As a whole
// node, the read goes on (exit 0): the other keys printed, the failing ones named on stderr (as
// hiera_node's failed_keys); asked for by name, they fail the read (exit 1).
func TestNodeManyFailingKeys(t *testing.T) {
	dir := siteDir(t)
	var data strings.Builder
	var bad []string
	for i := range maxReportedKeys + 5 {
		fmt.Fprintf(&data, "bad%02d: \"%%{bogus('x')}\"\n", i)
		bad = append(bad, fmt.Sprintf("bad%02d", i))
	}
	data.WriteString("fine: 1\n")
	must(t, os.WriteFile(filepath.Join(dir, "data", "common.yaml"), []byte(data.String()), 0o644))
	args := []string{"node", "--config", filepath.Join(dir, "hiera.yaml"), "--facts", filepath.Join(dir, "web01.json"), "--render-as", "json"}

	rc, out, errOut := run(t, args...)
	if want := fmt.Sprintf("Warning: %d keys left out", maxReportedKeys+5); rc != exitOK || !strings.Contains(errOut, want) ||
		!strings.Contains(errOut, "\n  bad00: Unknown interpolation method 'bogus'") || !strings.Contains(errOut, "... and 5 more") {
		t.Errorf("whole node: rc %d, stderr %q: want exit 0 and %q, each key named, the rest counted", rc, errOut, want)
	}
	if !strings.Contains(out, `"fine":1`) || strings.Contains(out, "bad00") {
		t.Errorf("whole node: stdout %q: want fine, without the failing keys", out)
	}

	rc, _, errOut = run(t, append(args, "--keys", "fine,"+strings.Join(bad, ","))...)
	if want := fmt.Sprintf("the lookups of %d keys of", maxReportedKeys+5); rc != exitAnswer || !strings.Contains(errOut, want) ||
		!strings.Contains(errOut, "... and 5 more") {
		t.Errorf("--keys: rc %d, stderr %q: want exit 1 and %q, the rest counted", rc, errOut, want)
	}
}

// A whole node with a value JSON cannot hold (.inf): that key fails, the others are printed; YAML
// holds it.
func TestNodeUnrenderableValue(t *testing.T) {
	dir := siteDir(t)
	must(t, os.WriteFile(filepath.Join(dir, "data", "common.yaml"), []byte("inf: .inf\nfine: 1\n"), 0o644))
	args := []string{"node", "--config", filepath.Join(dir, "hiera.yaml"), "--facts", filepath.Join(dir, "web01.json")}
	rc, out, errOut := run(t, append(args, "--render-as", "json")...)
	if rc != exitOK || !strings.Contains(out, `"fine":1`) || strings.Contains(out, `"inf"`) || !strings.Contains(errOut, "\n  inf: ") {
		t.Errorf("json: rc %d, stdout %q, stderr %q: want inf named on stderr, fine printed", rc, out, errOut)
	}
	rc, out, errOut = run(t, append(args, "--render-as", "yaml")...)
	if rc != exitOK || !strings.Contains(out, "inf: .inf") || errOut != "" {
		t.Errorf("yaml: rc %d, stdout %q, stderr %q: want inf printed", rc, out, errOut)
	}
}

// Every subkey row names a key that lookup reads back as that subkey: quoted where a plain segment
// would read otherwise (a quote, digits, spaces, a dot).
func TestDiffSubkeysLookUpBack(t *testing.T) {
	dir := siteDir(t)
	keys := []string{"plain", "it's", `say "hi"`, "0", " sp", "a.b", "x:y"}
	left, right := model.NewHash(0), model.NewHash(0)
	var data strings.Builder
	data.WriteString("h:\n")
	for _, k := range keys {
		left.Set(k, int64(1))
		right.Set(k, int64(2))
		fmt.Fprintf(&data, "  %q: 2\n", k)
	}
	must(t, os.WriteFile(filepath.Join(dir, "data", "common.yaml"), []byte(data.String()), 0o644))
	rows := tableRows(keyChange{key: "h", change: "changed", left: &hiera.Result{Value: left}, right: &hiera.Result{Value: right}})
	if len(rows) != len(keys) {
		t.Fatalf("%d rows for %d changed subkeys: %+v", len(rows), len(keys), rows)
	}
	for _, r := range rows {
		rc, out, errOut := run(t, "lookup", "--config", filepath.Join(dir, "hiera.yaml"), "--render-as", "json", r.key)
		if rc != 0 || out != "2\n" {
			t.Errorf("lookup %s: rc %d, %q %q", r.key, rc, out, errOut)
		}
	}
	// a key no dotted key can name: its hash is shown whole
	for _, odd := range []string{"", `a.'b"`} {
		l, r := model.NewHash(1), model.NewHash(1)
		l.Set(odd, int64(1))
		r.Set(odd, int64(2))
		if rows := tableRows(keyChange{key: "h", change: "changed", left: &hiera.Result{Value: l}, right: &hiera.Result{Value: r}}); len(rows) != 1 || rows[0].key != "h" {
			t.Errorf("key %q: rows %+v, want one row for h", odd, rows)
		}
	}
}

// A changed subkey of a merged hash names the file that gives that subkey (location/ams.yaml), not
// the most specific file of the hash (the node's); long values are cut so that a row fits.
func TestDiffSubkeyFromItsFile(t *testing.T) {
	checkout := func(rack string) string {
		dir := t.TempDir()
		for rel, text := range map[string]string{
			"hiera.yaml": "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n" +
				"  - name: location\n    path: \"location/%{facts.location}.yaml\"\n  - name: common\n    path: common.yaml\n",
			"data/nodes/web01.example.com.yaml": "profile::site:\n  owner: web team\n",
			"data/location/ams.yaml":            "profile::site:\n  rack: " + rack + "\n",
			"data/common.yaml":                  "lookup_options:\n  profile::site:\n    merge: deep\nmotd: \"" + strings.Repeat(rack, 30) + "\"\n",
			"web01.json":                        `{"clientcert": "web01.example.com", "location": "ams"}`,
		} {
			p := filepath.Join(dir, rel)
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			must(t, os.WriteFile(p, []byte(text), 0o644))
		}
		return dir
	}
	left, right := checkout("r1"), checkout("r2")
	rc, out, errOut := run(t, "diff", "--config", filepath.Join(left, "hiera.yaml"), "--config", filepath.Join(right, "hiera.yaml"),
		"--facts", filepath.Join(left, "web01.json"))
	if rc != 1 || !strings.Contains(out, "changed  profile::site.rack  r1") ||
		!regexp.MustCompile(`profile::site\.rack +r1 +data/location/ams\.yaml \(\+1 more\) +r2 +data/location/ams\.yaml \(\+1 more\)`).MatchString(out) {
		t.Errorf("rc %d, stderr %s, stdout:\n%s", rc, errOut, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if len(line) > 160 {
			t.Errorf("a row of %d columns: %s", len(line), line)
		}
	}
}
