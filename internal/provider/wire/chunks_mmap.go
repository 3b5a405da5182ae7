//go:build linux || darwin || freebsd

package wire

import "syscall"

// newChunk is an empty slice of capacity n, in memory of its own mapped from the system (a chunk
// of a size Go could not map takes heap memory instead).
func newChunk(n int) []byte {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]byte, 0, n)
	}
	return b[:0]
}

// freeChunk gives back a chunk of newChunk.
func freeChunk(b []byte) {
	if cap(b) > 0 {
		_ = syscall.Munmap(b[:cap(b)]) // heap memory (newChunk's fallback) fails, and is the collector's
	}
}
