// Package atomicfile writes a user's file so that a reader sees the old content or the new one,
// never half of one, and nothing else about the file changes: the new content goes to a temporary
// file in the same directory, is synced, gets the old file's mode (and, as root, its owner and
// group, as the hiera-eyaml gem keeps them), and is renamed over the old file. Lock serializes
// the read-modify-write of several writers of one file (several hiera_data resources on one data
// file in one apply).
//
// Files: write.go (WriteFile; owner_unix.go and owner_other.go: the owner kept), lock.go (Lock;
// lock_unix.go and lock_other.go: the flock on the file's directory).
package atomicfile
