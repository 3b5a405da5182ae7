//go:build !unix

package atomicfile

import (
	"io/fs"
	"os"
)

// fileOwner is the owner a replaced file keeps: nothing to keep where files have no uid.
type fileOwner struct{}

func ownerToKeep(fs.FileInfo) *fileOwner { return nil }

func (o *fileOwner) chown(*os.File) error { return nil }

func syncDir(string) {}
