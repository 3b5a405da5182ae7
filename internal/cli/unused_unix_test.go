//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// --baseline is read bounded: a committed link to /dev/zero, a sparse file past the bound and a
// named pipe are refused with why (no memory, no hang).
func TestUnusedBaselineBounded(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "hiera.yaml"), "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n")
	writeFile(t, filepath.Join(dir, "data", "common.yaml"), "a: 1\n")
	writeFile(t, filepath.Join(dir, "facts", "web01.json"), `{"clientcert": "web01"}`)
	zero, pipe, sparse := filepath.Join(dir, "zero.json"), filepath.Join(dir, "pipe.json"), filepath.Join(dir, "sparse.json")
	must(t, os.Symlink("/dev/zero", zero))
	must(t, syscall.Mkfifo(pipe, 0o644))
	writeFile(t, sparse, "")
	must(t, os.Truncate(sparse, maxDataFileSize+1))
	for baseline, want := range map[string]string{zero: "is a device, not a regular file", pipe: "is a named pipe, not a regular file",
		sparse: "more than the limit of"} {
		type result struct {
			rc     int
			errOut string
		}
		done := make(chan result, 1)
		go func() {
			rc, _, errOut := run(t, "unused", "--config", filepath.Join(dir, "hiera.yaml"), "--facts", filepath.Join(dir, "facts"), "--baseline", baseline)
			done <- result{rc, errOut}
		}()
		select {
		case r := <-done:
			if r.rc != 2 || !strings.Contains(r.errOut, "--baseline: "+baseline) || !strings.Contains(r.errOut, want) {
				t.Errorf("%s: rc %d, stderr %q; want 2 and %q", filepath.Base(baseline), r.rc, r.errOut, want)
			}
		case <-time.After(5 * time.Minute): // a guard against a hang (a pipe opened for reading blocks), far above a busy machine
			t.Fatalf("%s: unused did not return: a hang", filepath.Base(baseline))
		}
	}
}
