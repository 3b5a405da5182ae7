//go:build unix

package boundedfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	exact := filepath.Join(dir, "exact")
	over := filepath.Join(dir, "over")
	pipe := filepath.Join(dir, "pipe")
	if err := os.WriteFile(exact, []byte("12345678"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(over, []byte("123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := Read(exact, 8); err != nil || string(b) != "12345678" {
		t.Errorf("Read(exact) = %q, %v", b, err)
	}
	tests := map[string]struct{ path, want string }{
		"over the limit": {over, "is 9 bytes, more than the limit of 8"},
		"named pipe":     {pipe, "is a named pipe, not a regular file"},
		"directory":      {dir, "is a directory, not a regular file"},
		"device":         {"/dev/zero", "is a device, not a regular file"},
		"missing":        {filepath.Join(dir, "none"), "no such file"},
	}
	for name, tt := range tests {
		done := make(chan error, 1)
		go func() { _, err := Read(tt.path, 8); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s: err = %v, want %q", name, err, tt.want)
			}
		case <-time.After(5 * time.Minute): // a guard against a hang (a pipe opened for reading blocks), far above a busy machine
			t.Fatalf("%s: Read did not return: a hang", name)
		}
	}
}
