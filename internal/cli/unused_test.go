package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// As a CI lint over the control repository: the files no node reaches, the key every node finds
// elsewhere first, the values equal to what they override, each with file and line; exit 1. A
// baseline of these accepts them (exit 0) and a new finding still fails.
func TestUnusedControlRepo(t *testing.T) {
	r := newControlRepo(t)
	env := filepath.Join(r.envpath, "production")
	t.Chdir(env) // findings name files relative to the working directory
	args := []string{"unused", "--environmentpath", r.envpath, "--environment", "production", "--facts", r.facts}
	rc, out, errOut := run(t, args...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if rc != 1 || len(lines) == 0 {
		t.Fatalf("rc %d, want 1; stderr %q\n%s", rc, errOut, out)
	}
	if got := lines[:len(lines)-1]; !reflect.DeepEqual(got, controlRepoUnused) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(controlRepoUnused, "\n"))
	}
	if want := "5 findings (2 unreached files, 1 overridden keys, 2 redundant values) in 10 data files over 6 nodes"; lines[len(lines)-1] != want {
		t.Errorf("summary %q, want %q", lines[len(lines)-1], want)
	}
	for _, secret := range controlRepoSecrets {
		if strings.Contains(out+errOut, secret) {
			t.Errorf("a secret shown: %q", secret)
		}
	}

	rc, js, _ := run(t, append(args, "--render-as", "json")...)
	var doc struct {
		Findings []map[string]any `json:"findings"`
	}
	must(t, json.Unmarshal([]byte(js), &doc))
	if rc != 1 || len(doc.Findings) != 5 || !reflect.DeepEqual(doc.Findings[4], map[string]any{"kind": "overridden_key",
		"file": "modules/ntp/data/common.yaml", "line": 2.0, "key": "ntp::driftfile", "nodes": 6.0}) ||
		!reflect.DeepEqual(doc.Findings[0], map[string]any{"kind": "unreached_file", "file": "data/attic/legacy.yaml", "nodes": 0.0}) {
		t.Errorf("json: rc %d\n%s", rc, js)
	}

	baseline := filepath.Join(t.TempDir(), "baseline.json")
	must(t, os.WriteFile(baseline, []byte(js), 0o644))
	rc, out, errOut = run(t, append(args, "--baseline", baseline)...)
	if rc != 0 || !strings.HasPrefix(out, "nothing unused") || !strings.Contains(errOut, "the baseline accepts 5 findings; 0 findings in it no longer found") {
		t.Errorf("with the baseline: rc %d, %s%s", rc, out, errOut)
	}
	writeFile(t, filepath.Join(env, "data", "nodes", "web03.example.com.yaml"), "profile::web::port: 443\nprofile::base::timezone: Europe/Berlin\nprofile::web::tls: true\n")
	must(t, os.Remove(filepath.Join(env, "data", "attic", "legacy.yaml")))
	rc, out, errOut = run(t, append(args, "--baseline", baseline)...)
	if rc != 1 || !strings.Contains(out, "web03.example.com.yaml:3: redundant: profile::web::tls") || !strings.Contains(out, "\n1 finding (0 unreached files, 0 overridden keys, 1 redundant values)") ||
		!strings.Contains(errOut, "the baseline accepts 4 findings; 1 finding in it no longer found") {
		t.Errorf("a new finding past the baseline: rc %d, %s%s", rc, out, errOut)
	}

	brokenFacts := t.TempDir()
	writeFile(t, filepath.Join(brokenFacts, "broken.json"), `{"os": `)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no fleet", []string{"unused", "--environmentpath", r.envpath, "--environment", "production"}, "give --facts DIR"},
		{"a bad baseline", append(args, "--baseline", filepath.Join(env, "hiera.yaml")), "is not what hieraform unused --render-as json writes"},
		{"no baseline", append(args, "--baseline", filepath.Join(env, "nope.json")), "--baseline: stat"},
		{"a broken facts file", []string{"unused", "--environmentpath", r.envpath, "--environment", "production", "--facts", brokenFacts}, "broken.json"},
	} {
		if rc, _, errOut := run(t, c.args...); rc != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: rc %d, stderr %q, want 2 and %q", c.name, rc, errOut, c.want)
		}
	}
}

// A node whose data cannot be read is named, and nothing it might use is reported; a key whose
// lookup fails hides only its own use; a hiera.yaml that does not validate stops the lint.
func TestUnusedFailures(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "hiera.yaml"), "version: 5\nhierarchy:\n  - name: nodes\n    path: \"nodes/%{trusted.certname}.yaml\"\n"+
		"  - name: roles\n    path: \"roles/%{facts.role}.yaml\"\n  - name: common\n    path: common.yaml\n")
	writeFile(t, filepath.Join(dir, "data", "common.yaml"), "a: 1\nb: 2\n")
	writeFile(t, filepath.Join(dir, "data", "roles", "web.yaml"), "a: 3\n")
	writeFile(t, filepath.Join(dir, "data", "roles", "db.yaml"), "a: [unclosed\n")
	writeFile(t, filepath.Join(dir, "data", "nodes", "web01.yaml"), "b: \"%{nope('x')}\"\n")
	writeFile(t, filepath.Join(dir, "facts", "web01.json"), `{"clientcert": "web01", "role": "web"}`)
	writeFile(t, filepath.Join(dir, "facts", "db01.json"), `{"clientcert": "db01", "role": "db"}`)
	args := []string{"unused", "--config", filepath.Join(dir, "hiera.yaml"), "--facts", filepath.Join(dir, "facts"), "--render-as", "json"}
	rc, out, errOut := run(t, args...)
	// common's a: overridden for web01 (its role), db01 could not be read: not reported; b: web01's
	// lookup fails, db01 unread: not reported either. Nothing is found.
	if rc != 0 || out != `{"findings":[]}`+"\n" ||
		!strings.Contains(errOut, "Warning: node db01 could not be read, what its files hold is not reported: Unable to parse") ||
		!strings.Contains(errOut, "Warning: node web01: 1 key lookup failed") {
		t.Errorf("rc %d, stdout %q, stderr %q", rc, out, errOut)
	}
	writeFile(t, filepath.Join(dir, "hiera.yaml"), "version: 5\nhierarchy: {}\n")
	if rc, _, errOut := run(t, args...); rc != 2 || !strings.Contains(errOut, "the data cannot be read (hieraform check lists every problem)") {
		t.Errorf("a hiera.yaml that does not validate: rc %d, %q", rc, errOut)
	}
	if rc, _, errOut := run(t, append(args, "--render-as", "yaml")...); rc != 2 || !strings.Contains(errOut, "table or json") {
		t.Errorf("--render-as yaml: rc %d, %q", rc, errOut)
	}
}

// unused reads every node as hieraform node does, with the eyaml keys the command is given
// (flags or HIERA_EYAML_*, in place of the server's paths hiera.yaml names): a key whose lookup
// fails there fails in node too, and the warning names each key with its error.
func TestUnusedFailedKeysAsNode(t *testing.T) {
	config, keys := serverKeysRepo(t)
	factsDir := t.TempDir()
	writeFile(t, filepath.Join(factsDir, "db01.json"), `{"clientcert": "db01.example.com"}`)
	env := map[string]string{"HIERA_EYAML_PRIVATE_KEY_PATH": filepath.Join(keys, "private_key.pkcs7.pem")}
	_, _, nodeErr := runEnv(env, "node", "--config", config, "--facts", filepath.Join(factsDir, "db01.json"))
	_, _, errOut := runEnv(env, "unused", "--config", config, "--facts", factsDir)
	if strings.Contains(errOut, "eyaml private key") || strings.Contains(errOut, "hieraform node names them") {
		t.Errorf("unused fails where node does not:\nnode: %s\nunused: %s", nodeErr, errOut)
	}
	// the fixture's key that fails in Puppet too (and unused looks up: others, held by one file,
	// it need not): named with its error, as node names it
	for _, key := range []string{"pins"} {
		if !strings.Contains(nodeErr, "\n  "+key+": Lookup of key") || !strings.Contains(errOut, "1 key lookup failed, where their values come from is not reported:\n  "+key+": Lookup of key") {
			t.Errorf("%s: not named by both:\nnode: %s\nunused: %s", key, nodeErr, errOut)
		}
	}
}
