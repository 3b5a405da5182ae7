package yamledit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/atomicfile"
)

// Several writers of one file (hiera_data resources in one apply), each reading, editing one key
// and writing under atomicfile.Lock: every key is written and every byte of the others kept.
func TestLockedEditsOfOneFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "common.yaml")
	original := "# kept\r\nby_hand: 1 # kept too\r\n"
	if err := os.WriteFile(path, []byte(original), 0o640); err != nil {
		t.Fatal(err)
	}
	const writers = 16
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := atomicfile.Lock(path)
			if err != nil {
				t.Error(err)
				return
			}
			defer unlock()
			src, err := os.ReadFile(path)
			if err != nil {
				t.Error(err)
				return
			}
			f, err := Parse(path, src)
			if err == nil {
				err = f.Set(fmt.Sprintf("key%02d", i), []any{"value", int64(i)}, Options{})
			}
			if err == nil {
				err = atomicfile.WriteFile(path, f.Bytes(), 0o644)
			}
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	b, _ := os.ReadFile(path)
	f, err := Parse(path, b)
	if err != nil {
		t.Fatal(err)
	}
	if keys := f.Keys(); len(keys) != writers+1 || !strings.HasPrefix(string(b), original) {
		t.Errorf("keys %v in\n%s", keys, b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's 0640", fi.Mode().Perm())
	}
}
