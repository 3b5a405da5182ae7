//go:build unix

package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The comparison reads the sides' files as the engine reads data files: a link out of the tree (to
// /dev/zero, to a file outside the repository), a named pipe and a file past the engine's bound
// are not read (no hang, no memory, no outside key name); every key is compared instead.
func TestChangedKeysReadsBounded(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "registry.yaml")
	writeFile(t, outside, "outside_key_name: 1\n")
	for _, c := range []struct {
		name  string
		make  func(path string) error
		every string
	}{
		{"a link to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }, "is a symbolic link leading out of"},
		{"a link out of the repository", func(p string) error { return os.Symlink(outside, p) }, "is a symbolic link leading out of"},
		{"a named pipe", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "is a named pipe, not a regular file"},
		{"a sparse file past the bound", func(p string) error { return os.Truncate(p, maxDataFileSize+1) }, "more than the limit of"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var sides [2]setup
			for i := range sides {
				dir := t.TempDir()
				writeFile(t, filepath.Join(dir, "hiera.yaml"), "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n")
				writeFile(t, filepath.Join(dir, "data", "common.yaml"), "k: 1\n")
				sides[i] = setup{config: filepath.Join(dir, "hiera.yaml")}
			}
			added := filepath.Join(filepath.Dir(sides[1].config), "data", "added.yaml")
			if strings.Contains(c.name, "sparse") {
				writeFile(t, added, "")
			}
			must(t, c.make(added))
			type result struct {
				keys []string
				err  error
			}
			done := make(chan result, 1)
			go func() { keys, err := changedKeys(sides); done <- result{keys, err} }()
			select {
			case r := <-done:
				var every errEveryKey
				if !errors.As(r.err, &every) || !strings.Contains(every.why, c.every) {
					t.Errorf("keys %q, err %v; want every key compared because %q", r.keys, r.err, c.every)
				}
			case <-time.After(5 * time.Minute): // a guard against a hang (a pipe opened for reading blocks), far above a busy machine
				t.Fatal("changedKeys did not return: a hang")
			}
		})
	}
}

// A committed link to a file outside the repository where an interpolated hierarchy path names it:
// the pull-request comment names none of that file's keys (the engine does not follow the link out
// of the datadir, and the comparison does not read it to choose the keys looked up).
func TestFleetDiffLinkOutOfTree(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "outside", "registry.yaml"), "outside_key_name: 1\n")
	must(t, os.MkdirAll(filepath.Join(dir, "b", "data", "nodes"), 0o755))
	for _, side := range []string{"a", "b"} {
		writeFile(t, filepath.Join(dir, side, "hiera.yaml"), "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n  - name: common\n    path: common.yaml\n")
		writeFile(t, filepath.Join(dir, side, "data", "common.yaml"), "k: 1\n")
	}
	must(t, os.Symlink(filepath.Join(dir, "outside", "registry.yaml"), filepath.Join(dir, "b", "data", "nodes", "n1.yaml")))
	writeFile(t, filepath.Join(dir, "facts", "n1.json"), `{"clientcert": "n1"}`)
	for _, format := range []string{"table", "json", "markdown"} {
		rc, out, errOut := run(t, "diff", "--config", filepath.Join(dir, "a", "hiera.yaml"), "--config", filepath.Join(dir, "b", "hiera.yaml"),
			"--facts", filepath.Join(dir, "facts"), "--render-as", format)
		if strings.Contains(out+errOut, "outside_key_name") {
			t.Errorf("%s: rc %d, the outside file's key is shown:\n%s%s", format, rc, out, errOut)
		}
	}
}
