package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// libScript runs script after sourcing scripts/lib.sh, reporting every second, with the tool
// cache in a new directory; it returns the combined output and the exit status.
func libScript(t *testing.T, script string) (string, int) {
	t.Helper()
	cmd := exec.Command("bash", "-c", "source scripts/lib.sh; bin=/nonexistent; "+script)
	cmd.Env = append(os.Environ(), "HIERAFORM_PROGRESS_SECONDS=1", "HIERAFORM_TOOLS="+t.TempDir())
	out, err := cmd.CombinedOutput()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// A long step is never silent: heartbeat passes the output on and says the step is still running
// when it prints nothing for a while, and keeps its exit status.
func TestHeartbeat(t *testing.T) {
	t.Parallel()
	out, code := libScript(t, `heartbeat "the step" bash -c 'echo first; sleep 2.5; printf last; exit 3'`)
	if code != 3 {
		t.Errorf("exit status %d, want the command's 3", code)
	}
	if !regexp.MustCompile(`(?s)^first\n.*\.\.\. the step: still running, \d+:\d\d\n.*last\n$`).MatchString(out) {
		t.Errorf("output:\n%s", out)
	}
}

// A tool build says what it builds and how long that usually takes, then how many packages it has
// compiled, then how long it took; a failed build shows the end of its output.
func TestProgress(t *testing.T) {
	t.Parallel()
	build := `bash -c 'for p in a b c; do echo example.com/$p >&2; sleep 0.7; done; echo "go: downloading x v1" >&2'`
	out, code := libScript(t, `progress golangci-lint "building it" `+build)
	for _, want := range []string{
		"building it: once per machine; a cold build takes about 1.5 minutes on two cores (1000 packages)",
		"... golangci-lint: ", "packages compiled, ",
		"... golangci-lint built in 0:0", "(3 packages compiled)",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit status %d, output without %q:\n%s", code, want, out)
		}
	}
	out, code = libScript(t, `progress goreleaser "building it" bash -c 'echo "undefined: x" >&2; exit 2'`)
	if code != 2 || !strings.Contains(out, "undefined: x") {
		t.Errorf("exit status %d, want 2 and the build's output:\n%s", code, out)
	}
}

// Tools are looked up in the clone's .tfbin, then in the tool cache every clone shares.
func TestCachedTool(t *testing.T) {
	t.Parallel()
	cache := t.TempDir()
	tool := filepath.Join(cache, "tfplugindocs@v0.25.0", "tfplugindocs")
	if err := os.MkdirAll(filepath.Dir(tool), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tool, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", `source scripts/lib.sh; bin=/nonexistent; go_tool tfplugindocs example.com/nothing v0.25.0`)
	cmd.Env = append(os.Environ(), "HIERAFORM_TOOLS="+cache)
	out, err := cmd.Output()
	if err != nil || strings.TrimSpace(string(out)) != tool {
		t.Errorf("go_tool: %q, %v; want the cached %s, nothing built", out, err, tool)
	}
}

// scripts/puppetdb.sh with nothing listening on its port: status and load say PuppetDB is not
// running and fail, and an unknown subcommand shows the usage, all without touching PostgreSQL.
func TestPuppetDBScriptNotRunning(t *testing.T) {
	t.Parallel()
	for args, want := range map[string]string{
		"status":    "puppetdb.sh: not running at http://127.0.0.1:1\n",
		"load /tmp": "puppetdb.sh: PuppetDB is not running at http://127.0.0.1:1: scripts/puppetdb.sh up\n",
		"restart":   "puppetdb.sh: usage: scripts/puppetdb.sh up|down|status|env|load DIR\n",
	} {
		cmd := exec.Command("bash", append([]string{"scripts/puppetdb.sh"}, strings.Fields(args)...)...)
		cmd.Env = append(os.Environ(), "HIERAFORM_PUPPETDB_PORT=1", "HIERAFORM_PUPPETDB_DIR="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 || string(out) != want {
			t.Errorf("puppetdb.sh %s: %v, output %q, want exit status 1 and %q", args, err, out, want)
		}
	}
}
