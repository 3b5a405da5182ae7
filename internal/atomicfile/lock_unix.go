//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// lockDir takes an exclusive flock on dir, waiting for other holders. A directory that does not
// exist yet (the file's parent is created by the writer) is not locked.
func lockDir(dir string) (release func(), err error) {
	d, err := os.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		return nil, err
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
