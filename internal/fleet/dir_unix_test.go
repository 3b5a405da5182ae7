//go:build unix

package fleet

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A facts directory that is a named pipe (or a link to one) is refused before it is opened: opening
// a pipe for reading waits for a writer, and hung the plan or the command.
func TestDirNamedPipe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pipe := filepath.Join(dir, "facts")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Collect(context.Background(), Dir(pipe)); done <- err }()
	select {
	case err := <-done:
		wantError(t, err, pipe, "not a directory")
	case <-time.After(2 * time.Minute): // a guard against the hang, far above a busy machine
		t.Fatal("Collect did not return: a hang")
	}
}
