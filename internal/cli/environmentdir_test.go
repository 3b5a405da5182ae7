package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// An r10k control repository is the environment itself: --environment-dir names its directory (as
// the provider's environment argument does) and --environment only its name, %{environment},
// which defaults to the directory's name; every command takes it.
func TestEnvironmentDir(t *testing.T) {
	repo := filepath.Join(t.TempDir(), "control-repo")
	writeFile(t, filepath.Join(repo, "hiera.yaml"), "version: 5\nhierarchy:\n  - name: env\n    path: \"%{environment}.yaml\"\n  - name: common\n    path: common.yaml\n")
	writeFile(t, filepath.Join(repo, "data", "common.yaml"), "env: \"%{environment}\"\nport: 80\n")
	writeFile(t, filepath.Join(repo, "data", "production.yaml"), "port: 443\n")
	facts := filepath.Join(repo, "facts", "web01.json")
	writeFile(t, facts, `{"clientcert": "web01.example.com"}`)
	for _, tc := range []struct {
		args []string
		rc   int
		want string
	}{
		{[]string{"lookup", "env", "--environment-dir", repo, "--environment", "production", "--facts", facts}, 0, "--- production\n"},
		{[]string{"lookup", "port", "--environment-dir", repo, "--environment", "production"}, 0, "--- 443\n"},
		{[]string{"lookup", "env", "--environment-dir", repo}, 0, "--- control-repo\n"},
		{[]string{"node", "--environment-dir", repo, "--environment", "production", "--facts", facts, "--render-as", "json"}, 0, `{"port":443,"env":"production"}`},
		{[]string{"check", "--environment-dir", repo, "--environment", "production", "--facts", facts}, 0, "no problems: 2 data files and 1 node checked against environment production (" + repo + ")"},
		{[]string{"diff", "--environment-dir", repo, "--environment", "production", "--environment", "staging", "--facts", facts}, 1, "port"},
	} {
		rc, out, errOut := run(t, tc.args...)
		if rc != tc.rc || !strings.Contains(out, tc.want) {
			t.Errorf("%s: rc %d, stdout %q (stderr %q), want %d and %q", strings.Join(tc.args, " "), rc, out, errOut, tc.rc, tc.want)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"lookup", "env", "--environment-dir", repo, "--environmentpath", filepath.Dir(repo)}, "--environment-dir names the environment's directory itself: give it or --environmentpath, not both"},
		{[]string{"lookup", "env", "--environment-dir", filepath.Join(repo, "nope")}, "--environment-dir " + filepath.Join(repo, "nope") + " is not a directory"},
		{[]string{"lookup", "env", "--environment-dir", repo, "--environment", "../x"}, `--environment "../x" is not a Puppet environment name`},
	} {
		if rc, _, errOut := run(t, tc.args...); rc != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: rc %d, stderr %q, want %q", strings.Join(tc.args, " "), rc, errOut, tc.want)
		}
	}
}
