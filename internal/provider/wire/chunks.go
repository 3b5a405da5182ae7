package wire

import "runtime"

// Chunks is a byte string written in chunks: a fleet's attribute, hundreds of megabytes written
// node by node, which appending to one slice would copy at every growth (and hold twice while it
// does). Where the system allows (chunks_mmap.go) the chunks are outside Go's heap: the garbage
// collector lets its heap grow to twice what it holds live before it collects, which would double
// a fleet's answers in memory; outside, they take what they hold, and each is given back as soon
// as it is copied into the state (a Piece of SpliceState) or Free is called. A Chunks no longer
// used gives its chunks back when the garbage collector finds it (Free makes it at once).
type Chunks struct {
	mem  *chunkList
	size int
}

type chunkList struct{ chunks [][]byte }

// The first chunk is small (most attributes of most fleets are), the next ones twice as large as
// the last, up to maxChunk: a chunk is what a state being spliced holds besides itself.
const (
	firstChunk = 4 << 10
	maxChunk   = 1 << 20
)

// Write appends p.
func (c *Chunks) Write(p []byte) {
	if c.mem == nil {
		c.mem = &chunkList{}
		runtime.AddCleanup(c, (*chunkList).free, c.mem)
	}
	c.size += len(p)
	m := c.mem
	for len(p) > 0 {
		last := len(m.chunks) - 1
		if last < 0 || len(m.chunks[last]) == cap(m.chunks[last]) {
			next := firstChunk
			if last >= 0 {
				next = min(2*cap(m.chunks[last]), maxChunk)
			}
			m.chunks = append(m.chunks, newChunk(next))
			last++
		}
		n := copy(m.chunks[last][len(m.chunks[last]):cap(m.chunks[last])], p)
		m.chunks[last] = m.chunks[last][:len(m.chunks[last])+n]
		p = p[n:]
	}
	runtime.KeepAlive(c) // c's cleanup unmaps the chunks: not before the copies into them are done
}

// Len is the number of bytes written.
func (c *Chunks) Len() int { return c.size }

// moveTo appends the bytes written to dst, giving each chunk back once copied; c is then empty.
func (c *Chunks) moveTo(dst []byte) []byte {
	if c.mem == nil {
		return dst
	}
	for i, chunk := range c.mem.chunks {
		dst = append(dst, chunk...)
		freeChunk(chunk)
		c.mem.chunks[i] = nil
	}
	c.mem.chunks, c.size = nil, 0
	return dst
}

// Free gives the chunks back; c is then empty.
func (c *Chunks) Free() {
	if c.mem != nil {
		c.mem.free()
	}
	c.size = 0
}

func (m *chunkList) free() {
	for _, chunk := range m.chunks {
		freeChunk(chunk)
	}
	m.chunks = nil
}

// A Piece is part of an attribute's encoding as SpliceState takes it: Bytes, or Chunks (moved into
// the state: empty afterwards).
type Piece struct {
	Bytes  []byte
	Chunks *Chunks
}

// Len is the number of bytes of p.
func (p Piece) Len() int {
	if p.Chunks != nil {
		return p.Chunks.Len()
	}
	return len(p.Bytes)
}

func (p Piece) moveTo(dst []byte) []byte {
	if p.Chunks != nil {
		return p.Chunks.moveTo(dst)
	}
	return append(dst, p.Bytes...)
}

// Join is pieces in one slice (chunks moved into it).
func Join(pieces []Piece) []byte {
	size := 0
	for _, p := range pieces {
		size += p.Len()
	}
	out := make([]byte, 0, size)
	for _, p := range pieces {
		out = p.moveTo(out)
	}
	return out
}
