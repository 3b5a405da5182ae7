package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// As a new user would: a control repository with a broken data file, a bad interpolation and
// lookup_options Puppet rejects; check finds each, with file, line (where the engine has one) and level.
func TestCheckFindsEachProblem(t *testing.T) {
	dir := siteDir(t)
	cfg := filepath.Join(dir, "hiera.yaml")
	facts := filepath.Join(dir, "facts")
	must(t, os.MkdirAll(facts, 0o755))
	must(t, os.WriteFile(filepath.Join(facts, "web01.json"), []byte(`{"clientcert": "web01.example.com", "os": {"family": "Debian"}}`), 0o644))
	must(t, os.WriteFile(filepath.Join(facts, "db01.yaml"), []byte("clientcert: db01.example.com\n"), 0o644))
	if rc, out, errOut := run(t, "check", "--config", cfg, "--facts", facts); rc != 0 || !strings.Contains(out, "no problems: 2 nodes") {
		t.Fatalf("a sound repository: rc %d, %q %q", rc, out, errOut)
	}
	nodeFile := filepath.Join(dir, "data", "nodes", "web01.example.com.yaml")
	common := filepath.Join(dir, "data", "common.yaml")
	must(t, os.WriteFile(nodeFile, []byte("port: 8080\nusers: [alice\n"), 0o644))
	must(t, os.WriteFile(common, []byte("greeting: \"%{unknown_fn('x')}\"\nport: 80\nlookup_options:\n  port:\n    merge: sideways\n"), 0o644))
	rc, out, errOut := run(t, "check", "--config", cfg, "--facts", facts)
	if rc != 1 {
		t.Fatalf("rc %d, want 1 (stdout %q, stderr %q)", rc, out, errOut)
	}
	for _, want := range []string{
		nodeFile + `:2: level "node": Unable to parse`,
		common + `: level "common": Unknown interpolation method 'unknown_fn' (key greeting)`,
		common + `: level "common": Unknown merge strategy: 'sideways' (key port)`,
		"3 problems",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check does not report %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "hunter2") {
		t.Errorf("a secret in the report:\n%s", out)
	}
	if rc, _, errOut := run(t, "check", "--config", cfg, "--facts", filepath.Join(dir, "bad.yaml")); rc != 2 || !strings.Contains(errOut, "bad.yaml, line 2") {
		t.Errorf("bad facts: rc %d, %q", rc, errOut)
	}
}
