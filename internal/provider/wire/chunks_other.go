//go:build !(linux || darwin || freebsd)

package wire

// newChunk is an empty slice of capacity n (heap memory: on this system chunks are the garbage
// collector's, as any slice).
func newChunk(n int) []byte { return make([]byte, 0, n) }

// freeChunk lets the collector have b.
func freeChunk([]byte) {}
