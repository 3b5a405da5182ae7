//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// lockDir takes an exclusive flock on dir, waiting for other holders. A directory that does not
// exist yet (the file's parent is created by the writer) is not locked. dir is opened without
// blocking and must be a directory: opening a named pipe in its place would wait for a writer.
func lockDir(dir string) (release func(), err error) {
	d, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		return nil, err
	}
	if fi, err := d.Stat(); err != nil || !fi.IsDir() {
		_ = d.Close()
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	for {
		err = syscall.Flock(int(d.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		_ = d.Close()
		return nil, err
	}
	return func() { _ = d.Close() }, nil // closing the descriptor releases the flock
}
