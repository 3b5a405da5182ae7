package hiera

import "sync"

// The data files the engine keeps parsed are bounded by their bytes. A fleet's read (hiera_nodes,
// hieraform diff --facts) meets each node's own data file once: keeping every file parsed held
// every node's file until the process exited (10,000 nodes of the benchmarks' fleet, 4 keys a
// node: 305 MB of YAML text, some 570 MB of memory). The cache is a segmented LRU: a file
// parsed enters on probation, and stays while it is among the last maxProbationBytes parsed; read
// again by another lookup (another invocation: one invocation reads each file once), it moves to
// the protected segment, kept up to maxProtectedBytes, the least recently read leaving first (back
// to probation). The files every node reads (common.yaml, a role's) are kept and parsed once; a
// node's own file leaves soon after its node was read, and is parsed again only if it is read again
// after that.
//
// A file of more than a quarter of maxProbationBytes enters protected at once: on probation it
// would be let go before a second lookup reads it, whatever the others, and such a file is one
// that many nodes read (common.yaml) far more often than one node's own.
//
// A file's bytes are its size (the text it was parsed from: its memory is a small multiple of it),
// at least minFileBytes. A file let go keeps its slot in Engine.files (what its last stat saw);
// only its parse goes.
var (
	maxProbationBytes int64 = 4 << 20   // a variable for its test
	maxProtectedBytes int64 = 256 << 20 // far above a control repository's data: a plan's files stay parsed
)

// minFileBytes is the least a file counts for: its slot and parse, however small the file.
const minFileBytes = 1 << 10

// fileCache is the two segments, each a list of slots, most recently read first.
type fileCache struct {
	mu                   sync.Mutex
	probation, protected fileList
	peak                 int64 // the most bytes kept at once, for tests
}

// fileList is a doubly linked list of slots through their prev and next, with their bytes.
type fileList struct {
	head  fileSlot // a sentinel: head.next is the most recent, head.prev the least
	bytes int64
}

// cacheLinks are a slot's place in the cache, guarded by fileCache.mu.
type cacheLinks struct {
	prev, next *fileSlot
	list       *fileList // nil when the slot holds no parse
	bytes      int64
}

// store makes df the slot's parse, most recent on probation (or where the slot is already), and
// lets go of the least recent files past the bounds.
func (c *fileCache) store(slot *fileSlot, df *dataFile) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.setup()
	slot.current.Store(df)
	bytes := max(df.stamp.size, minFileBytes)
	if df.err != nil {
		bytes = minFileBytes // the file is not held, only the error
	}
	list := slot.links.list
	switch {
	case list != nil: // parsed again (the file changed): where it was
	case bytes > maxProbationBytes/4:
		list = &c.protected
	default:
		list = &c.probation
	}
	c.unlink(slot)
	slot.links.bytes = bytes
	c.pushFront(list, slot)
	c.trim()
}

// read notes that another lookup read the slot's parse: to the front of the protected segment.
func (c *fileCache) read(slot *fileSlot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if slot.links.list == nil {
		return // let go meanwhile: the caller's parse is still good to use
	}
	c.unlink(slot)
	c.pushFront(&c.protected, slot)
	c.trim()
}

// bytes is the bytes of the files kept, on probation and protected, and the most kept at once.
func (c *fileCache) bytes() (probation, protected, peak int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.probation.bytes, c.protected.bytes, c.peak
}

// setup links the sentinels at first use (the zero fileCache is ready to use).
func (c *fileCache) setup() {
	if c.probation.head.links.next == nil {
		for _, l := range []*fileList{&c.probation, &c.protected} {
			l.head.links.prev, l.head.links.next = &l.head, &l.head
		}
	}
}

func (c *fileCache) pushFront(l *fileList, slot *fileSlot) {
	first := l.head.links.next
	slot.links.prev, slot.links.next, slot.links.list = &l.head, first, l
	first.links.prev, l.head.links.next = slot, slot
	l.bytes += slot.links.bytes
}

func (c *fileCache) unlink(slot *fileSlot) {
	l := slot.links.list
	if l == nil {
		return
	}
	slot.links.prev.links.next, slot.links.next.links.prev = slot.links.next, slot.links.prev
	slot.links.prev, slot.links.next, slot.links.list = nil, nil, nil
	l.bytes -= slot.links.bytes
}

// trim moves the least recently read protected files to probation while the protected segment
// is over its bound, then lets go of the least recent files on probation while it is over its.
func (c *fileCache) trim() {
	for c.protected.bytes > maxProtectedBytes {
		last := c.protected.head.links.prev
		c.unlink(last)
		c.pushFront(&c.probation, last)
	}
	for c.probation.bytes > maxProbationBytes {
		last := c.probation.head.links.prev
		c.unlink(last)
		last.current.Store(nil)
	}
	c.peak = max(c.peak, c.probation.bytes+c.protected.bytes)
}
