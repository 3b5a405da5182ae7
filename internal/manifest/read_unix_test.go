//go:build unix

package manifest

import (
	"strings"
	"syscall"
	"testing"
)

// TestReadBounds: a file over MaxFileSize and a file that is not a regular file are problems
// that name the file, and nothing blocks.
func TestReadBounds(t *testing.T) {
	dir := t.TempDir()
	write(t, dir+"/huge.pp", "# "+strings.Repeat("x", MaxFileSize)+"\n")
	if err := syscall.Mkfifo(dir+"/pipe.pp", 0o644); err != nil {
		t.Fatal(err)
	}
	code := Read(dir)
	if len(code.Problems) != 2 {
		t.Fatalf("problems: got %v", code.Problems)
	}
	for i, want := range []string{
		dir + "/huge.pp: cannot be read: is 8388611 bytes, more than the limit of 8388608",
		dir + "/pipe.pp: cannot be read: ",
	} {
		if got := code.Problems[i].Error(); !strings.HasPrefix(got, want) {
			t.Errorf("got  %s\nwant %s...", got, want)
		}
	}
}
