package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// .pre-commit-hooks.yaml, as a control repository uses it: pre-commit builds hieraform from this
// repository (language golang: go install) and runs its hooks on an r10k control repository.
// `pre-commit try-repo` runs hieraform-check, which fails the commit on a data file that does not
// parse, naming it; a .pre-commit-config.yaml as the command guide writes it runs both hooks with
// their args: check, and unused with a baseline (today's findings accepted, a new one failing).
// The Go modules come from this machine's module cache, else the module proxy.
func TestPreCommitHooks(t *testing.T) {
	if _, err := exec.LookPath("pre-commit"); err != nil {
		t.Skip("pre-commit is not installed (apt-get install -y pre-commit; scripts/test.sh installs it as root)")
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "ls-files", "--error-unmatch", ".pre-commit-hooks.yaml").CombinedOutput(); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml is not tracked by git, so pre-commit cannot see it: %v\n%s", err, out)
	}
	home := t.TempDir()
	repo := filepath.Join(t.TempDir(), "control-repo")
	files := map[string]string{
		"hiera.yaml":                        "version: 5\nhierarchy:\n  - name: nodes\n    path: \"nodes/%{trusted.certname}.yaml\"\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml":                  "ntp::servers: [0.pool.ntp.org]\n",
		"data/nodes/web01.example.com.yaml": "ntp::servers: [1.pool.ntp.org\n", // never closed
		"facts/web01.example.com.json":      `{"clientcert": "web01.example.com"}`,
	}
	for rel, text := range files {
		writeTestFile(t, filepath.Join(repo, rel), text)
	}
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PRE_COMMIT_HOME="+home, "GOMODCACHE="+strings.TrimSpace(string(modcache)), "GIT_AUTHOR_NAME=t",
		"GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	run := func(name string, args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = repo, env
		out, err := cmd.CombinedOutput()
		if exit, ok := err.(*exec.ExitError); ok {
			return string(out), exit.ExitCode()
		} else if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out), 0
	}
	commit := func() {
		t.Helper()
		for _, args := range [][]string{{"add", "-A"}, {"commit", "-q", "-m", "data"}} {
			if out, rc := run("git", args...); rc != 0 {
				t.Fatalf("git %s: %s", args[0], out)
			}
		}
	}
	if out, rc := run("git", "init", "-q", "-b", "production"); rc != 0 {
		t.Fatal(out)
	}
	commit()

	out, rc := run("pre-commit", "try-repo", root, "hieraform-check", "--all-files")
	broken := filepath.Join(repo, "data", "nodes", "web01.example.com.yaml") + ":2: level \"nodes\": Unable to parse"
	if rc != 1 || !strings.Contains(out, "hieraform check....") || !strings.Contains(out, "Failed") || !strings.Contains(out, broken) {
		t.Fatalf("try-repo hieraform-check on a broken data file: exit %d, want 1 naming %s:\n%s", rc, broken, out)
	}

	// the configuration the guide gives, with this repository's HEAD as the release
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(repo, "data", "nodes", "web01.example.com.yaml"), "ntp::servers: [1.pool.ntp.org]\n")
	writeTestFile(t, filepath.Join(repo, ".pre-commit-config.yaml"), "repos:\n  - repo: "+root+"\n    rev: "+strings.TrimSpace(string(head))+"\n    hooks:\n"+
		"      - id: hieraform-check\n        args: [--environment-dir, ., --environment, production, --facts, facts/]\n"+
		"      - id: hieraform-unused\n        args: [--environment-dir, ., --environment, production, --facts, facts/, --baseline, unused-baseline.json]\n")
	// today's finding (common.yaml's servers, always overridden), accepted
	writeTestFile(t, filepath.Join(repo, "unused-baseline.json"),
		`{"findings": [{"kind": "overridden_key", "file": "data/common.yaml", "line": 1, "key": "ntp::servers", "nodes": 1}]}`+"\n")
	commit()
	if out, rc := run("pre-commit", "run", "--all-files"); rc != 0 || strings.Count(out, "Passed") != 2 {
		t.Fatalf("both hooks on sound data with a baseline: exit %d, want 0 and both passed:\n%s", rc, out)
	}
	// a new finding: the file of a node that is gone
	writeTestFile(t, filepath.Join(repo, "data", "nodes", "web02.example.com.yaml"), "ntp::servers: [2.pool.ntp.org]\n")
	commit()
	out, rc = run("pre-commit", "run", "--all-files")
	if rc != 1 || !strings.Contains(out, "data/nodes/web02.example.com.yaml: unreached_file") {
		t.Fatalf("a new unused file: exit %d, want 1 naming data/nodes/web02.example.com.yaml:\n%s", rc, out)
	}
}

func writeTestFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
