package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTerminalEscapes: text from data printed to a terminal by any command has its control
// characters escaped: a key "k\r\x1b[2Kall good" erased its own problem line in check's output.
// Through a pipe, output stays as written (lookup --render-as s byte for byte).
func TestTerminalEscapes(t *testing.T) {
	dir := t.TempDir()
	const key = "k\r\x1b[2Kall good"
	for rel, text := range map[string]string{
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml": "\"k\\r\\e[2Kall good\": \"%{lookup('a..b')}\"\nv: \"x\\ry\\e[31m\"\n",
	} {
		p := filepath.Join(dir, rel)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
	cfg := filepath.Join(dir, "hiera.yaml")
	for _, args := range [][]string{
		{"check", "--config", cfg},
		{"node", "--config", cfg},
		{"lookup", key, "--config", cfg},
		{"lookup", "v", "--config", cfg, "--render-as", "s"},
		{"diff", "--config", cfg, "--config", filepath.Join(dir, "hiera.yaml")},
	} {
		var out, errOut bytes.Buffer
		Run(args, Env{Stdout: &out, Stderr: &errOut, Terminal: true, ErrTerminal: true})
		all := out.String() + errOut.String()
		if strings.ContainsAny(all, "\r\x1b") {
			t.Errorf("%s: a control character reached the terminal:\n%q", args[0], all)
		}
	}
	var out bytes.Buffer
	Run([]string{"lookup", "v", "--config", cfg, "--render-as", "s"}, Env{Stdout: &out, Stderr: &out})
	if out.String() != "x\ry\x1b[31m\n" {
		t.Errorf("through a pipe: %q", out.String())
	}
}
