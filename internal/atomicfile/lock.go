package atomicfile

import (
	"fmt"
	"path/filepath"
	"sync"
)

// pathLocks holds one mutex per file path written in this process.
var pathLocks sync.Map // cleaned absolute path -> *sync.Mutex

// Lock takes the lock of the file at path for a read-modify-write and returns its release: a
// mutex per path in this process, and an advisory lock (flock) on the file's directory that other
// processes taking Lock wait for too. The directory is locked rather than a lock file beside the
// file, so that no file is left in the user's directory. The file itself need not exist. Writers
// of different files in one directory thus take turns too: a holder must not take a second Lock in
// the same directory (it would wait for itself).
func Lock(path string) (unlock func(), err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("cannot lock %s: %w", path, err)
	}
	m, _ := pathLocks.LoadOrStore(abs, new(sync.Mutex))
	mu, _ := m.(*sync.Mutex) // only mutexes are stored
	mu.Lock()
	release, err := lockDir(filepath.Dir(abs))
	if err != nil {
		mu.Unlock()
		return nil, fmt.Errorf("cannot lock %s: %w", path, err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			release()
			mu.Unlock()
		})
	}, nil
}
