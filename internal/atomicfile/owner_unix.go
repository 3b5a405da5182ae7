//go:build unix

package atomicfile

import (
	"io/fs"
	"os"
	"syscall"
)

// fileOwner is the owner and group a replaced file keeps.
type fileOwner struct{ uid, gid int }

// ownerToKeep is the old file's owner and group when they can be given (only root may give a file
// away) and differ from whoever runs; nil otherwise.
func ownerToKeep(fi fs.FileInfo) *fileOwner {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || os.Geteuid() != 0 {
		return nil
	}
	uid, gid := int(st.Uid), int(st.Gid)
	if uid == os.Geteuid() && gid == os.Getegid() {
		return nil
	}
	return &fileOwner{uid: uid, gid: gid}
}

func (o *fileOwner) chown(f *os.File) error { return f.Chown(o.uid, o.gid) }

// syncDir makes the rename durable; a failure loses nothing the rename did not already do.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
}
