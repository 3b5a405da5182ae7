//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

func TestWriteFile_newFileGetsPerm(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.yaml")
	if err := WriteFile(path, []byte("a: 1\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %04o, want 0640", fi.Mode().Perm())
	}
	assertContent(t, path, "a: 1\n")
	assertOnlyFiles(t, filepath.Dir(path), "new.yaml")
}

func TestWriteFile_keepsModeOfExistingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.yaml")
	if err := os.WriteFile(path, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o604); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o604 {
		t.Errorf("mode %04o, want the old file's 0604", fi.Mode().Perm())
	}
	assertContent(t, path, "new\n")
}

func TestWriteFile_refusesSymlinkAndNonRegular(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.yaml")
	if err := os.WriteFile(target, []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(link, []byte("b: 2\n"), 0o644)
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("symlink: %v, want a refusal naming a symbolic link", err)
	}
	assertContent(t, target, "a: 1\n")
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(sub, nil, 0o644); err == nil || !strings.Contains(err.Error(), "not a regular file (a directory)") {
		t.Errorf("directory: %v", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(fifo, nil, 0o644); err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("fifo: %v", err)
	}
	assertOnlyFiles(t, dir, "fifo", "link.yaml", "sub", "target.yaml")
}

func TestWriteFile_failureLeavesFileAndNoTemporary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.yaml")
	if err := os.WriteFile(path, []byte("kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rename = func(string, string) error { return errors.New("disk on fire") }
	defer func() { rename = os.Rename }()
	err := WriteFile(path, []byte("lost\n"), 0o644)
	if err == nil || !strings.Contains(err.Error(), "disk on fire") || !strings.Contains(err.Error(), "unchanged") {
		t.Errorf("error %v", err)
	}
	assertContent(t, path, "kept\n")
	assertOnlyFiles(t, filepath.Dir(path), "data.yaml")
}

// As root, a replaced file keeps its owner and group (hieraform eyaml edit run by root on a file
// owned by puppet must not hand it to root).
func TestWriteFile_rootKeepsOwnerAndGroup(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file away")
	}
	path := filepath.Join(t.TempDir(), "owned.yaml")
	if err := os.WriteFile(path, []byte("a\n"), 0o2640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, 4321, 8765); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o640|os.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		t.Fatalf("no owner in %T", fi.Sys())
	}
	if st.Uid != 4321 || st.Gid != 8765 {
		t.Errorf("owner %d:%d, want 4321:8765", st.Uid, st.Gid)
	}
	if fi.Mode()&(os.ModePerm|os.ModeSetgid) != 0o640|os.ModeSetgid {
		t.Errorf("mode %v, want the setgid bit and 0640 kept", fi.Mode())
	}
}

// Writers that read, change and write one file under Lock lose no update.
func TestLock_serializesReadModifyWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "counter")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	const writers = 20
	var wg sync.WaitGroup
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := Lock(path)
			if err != nil {
				t.Error(err)
				return
			}
			defer unlock()
			b, _ := os.ReadFile(path)
			if err := WriteFile(path, append(b, 'x'), 0o644); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	assertContent(t, path, strings.Repeat("x", writers))
}

func assertContent(t *testing.T, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != want {
		t.Errorf("%s holds %q, want %q", path, b, want)
	}
}

func assertOnlyFiles(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("%s holds %v, want %v", dir, names, want)
	}
}

// Lock holds an flock on the file's directory, which another process's Lock waits for.
func TestLock_flockOnDirectory(t *testing.T) {
	dir := t.TempDir()
	unlock, err := Lock(filepath.Join(dir, "data.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	other, err := os.Open(dir) // another open file description: as another process's
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = other.Close() }()
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
		t.Errorf("while locked: flock %v, want EWOULDBLOCK", err)
	}
	unlock()
	unlock() // a second call does nothing
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Errorf("once unlocked: flock %v", err)
	}
}
