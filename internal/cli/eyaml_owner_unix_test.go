//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Run as root (Puppet servers' data is often owned by puppet), recrypt keeps each file's owner
// and group, as the gem does, instead of handing the file to root.
func TestEyamlRecryptAsRootKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file away")
	}
	dir := eyamlDir(t)
	_, token, _ := eyamlRun(t, dir, "", "encrypt", "-o", "string", "-s", "owned")
	path := filepath.Join(dir, "data", "owned.eyaml")
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, []byte("a: "+token), 0o640))
	must(t, os.Chown(path, 4321, 8765))
	rc, _, errOut := eyamlRun(t, dir, "", "recrypt", "--to-public-key", "other/public.pem", "data/owned.eyaml")
	after, _ := os.ReadFile(path)
	if rc != 0 || string(after) == "a: "+token {
		t.Fatalf("recrypt: exit %d, %q; re-keyed: %v", rc, errOut, string(after) != "a: "+token)
	}
	fi, err := os.Stat(path)
	must(t, err)
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		t.Fatalf("no owner in %T", fi.Sys())
	}
	if uid, gid := st.Uid, st.Gid; uid != 4321 || gid != 8765 || fi.Mode().Perm() != 0o640 {
		t.Errorf("owner %d:%d mode %v, want 4321:8765 and 0640 kept", uid, gid, fi.Mode().Perm())
	}
}
