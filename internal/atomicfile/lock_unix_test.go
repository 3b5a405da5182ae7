//go:build unix

package atomicfile

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A file whose directory is a named pipe (a data directory linking to one) is refused by Lock:
// opening the pipe to lock it waited for a writer, for ever.
func TestLock_directoryNamedPipe(t *testing.T) {
	pipe := filepath.Join(t.TempDir(), "data")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		unlock, err := Lock(filepath.Join(pipe, "common.yaml"))
		if err == nil {
			unlock()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if want := "cannot lock " + filepath.Join(pipe, "common.yaml") + ": " + pipe + " is not a directory"; err == nil || err.Error() != want {
			t.Errorf("err = %v, want %s", err, want)
		}
	case <-time.After(2 * time.Minute): // a guard against the hang, far above a busy machine
		t.Fatal("Lock did not return: a hang")
	}
}
