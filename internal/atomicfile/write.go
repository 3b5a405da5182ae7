package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces the regular file at path (or creates it, with mode perm) with data. It keeps
// the old file's permission bits, and its owner and group when run as root (as the hiera-eyaml
// gem does: otherwise a file edited by root would become root's). It refuses a symbolic link or
// anything that is not a regular file at path. On any failure the temporary file is removed and
// the file at path is as it was.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	mode, owner, err := target(path, perm)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil && owner != nil {
		err = owner.chown(f) // before Chmod: a chown clears the setuid and setgid bits
	}
	if err == nil {
		err = f.Chmod(mode) // CreateTemp makes it 0600; umask does not apply to Chmod
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w; the file is unchanged", path, err)
	}
	syncDir(dir)
	return nil
}

// target checks what is at path and returns the mode the new file gets, and the owner to give it
// (nil: whoever writes).
func target(path string, perm os.FileMode) (os.FileMode, *fileOwner, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return perm.Perm(), nil, nil
	case err != nil:
		return 0, nil, fmt.Errorf("cannot write %s: %w", path, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return 0, nil, fmt.Errorf("cannot write %s: it is a symbolic link; write the file it points to instead", path)
	case !fi.Mode().IsRegular():
		return 0, nil, fmt.Errorf("cannot write %s: it is not a regular file (%s)", path, kind(fi.Mode()))
	}
	return fi.Mode().Perm() | fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky), ownerToKeep(fi), nil
}

// kind names a file type for messages.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return m.Type().String()
}

// rename is os.Rename, replaced by tests to fail after the temporary file is written.
var rename = os.Rename
