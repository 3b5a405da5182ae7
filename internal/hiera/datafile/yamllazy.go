package datafile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// A data file is mostly read for a few of its root keys (a fleet's node files: 4 of 100), and
// building the values of all of them was most of the provider's CPU in a fleet's plan. So a file
// that the fast reader takes, whose top is a mapping, is read whole at load (skimmed: every check
// that decides between the fast reader and yaml.v3 is made, so a syntax error anywhere still fails
// every lookup in it), but the value of a root key is built only when a lookup first asks for it,
// by reading again from where the skim found it starts.

// fastRoot is where the value of a root key starts: the fast reader's state after the key's ":",
// and the root mapping's indentation.
type fastRoot struct{ pos, cur, line, ind int }

// LazyYAML is a data file's root mapping whose values are built on first use. It is safe for
// concurrent use.
type LazyYAML struct {
	Keys  *model.Hash // the root keys as a full read makes them, each to its index in roots
	Text  []byte      // the file's text, kept for building values
	setup yamlSetup
	roots []lazyRoot
	mu    sync.Mutex  // held while building a value
	r     *yamlReader // of all builds: their scalar caches are shared, as in a full read
}

type lazyRoot struct {
	at    fastRoot
	built atomic.Bool // v, bad and err are set
	v     any
	bad   string // the type Puppet names when v is not RichData
	err   error
}

// skimFastYAML reads data (already checked by checkYAMLText, and simple) as fastYAMLParse does,
// without building the values of root keys. fast is false when fastYAMLParse would give up; lz is
// nil when the text is not to be read lazily (its top is not a mapping, or it has Ruby symbols,
// which are converted over the whole document): then fastYAMLParse is to read it.
func skimFastYAML(data []byte, setup yamlSetup) (lz *LazyYAML, fast bool) {
	defer func() {
		if recover() != nil { // a yamlFallback, or a bug: the caller reads it as fastYAMLParse would
			lz, fast = nil, false
		}
	}()
	p := &fastYAML{src: data, line: 1, r: newYAMLReader(setup), skim: true}
	p.r.plain = plainCache(len(data))
	defer releasePlainCache(p.r.plain, len(data))
	top, isHash := p.document().(*model.Hash)
	if !isHash || p.r.symbols {
		return nil, true
	}
	lz = &LazyYAML{Keys: top, Text: data, setup: setup, roots: make([]lazyRoot, len(p.roots))}
	for i, at := range p.roots {
		lz.roots[i].at = at
	}
	return lz, true
}

// The skim's fast paths. Most lines of a data file are "key: value" or "- value" with a plain
// value that cannot fail; below the root (where nothing is built) such a key, and such a value
// anywhere, is checked in one pass, as key, mappingValue and inline would check it. Anything else
// (a quoted or flow value, a key with a space, a value with ": "...) is left to those, from where
// the fast path started.

// skimPlainFirst holds the bytes that may start a plain scalar (plainStart, whatever follows) that
// tokenize reads without its patterns (plainReadsPlainly): a word, never an error or a symbol.
var skimPlainFirst = func() (first [256]bool) {
	for c := byte(0x21); c <= 0x7E; c++ {
		first[c] = !strings.ContainsRune(",[]{}#&*!|>'\"%@`-?:", rune(c)) && plainReadsPlainly(c)
	}
	return first
}()

// skimKey reads, at p.cur, a key of a mapping the skim does not build that is a word without
// spaces (not "<<"), and its ":"; false when the key is another, and p.cur is left where it was.
func (p *fastYAML) skimKey() bool {
	src, i := p.src, p.cur
	if !skimPlainFirst[src[i]] {
		return false
	}
	for j := i + 1; ; j++ {
		j = indexAny3(src, j, ':', ' ', '\n')
		switch {
		case j-i > fastYAMLMaxKey || j == len(src) || src[j] != ':':
			return false
		case p.blankz(j+1) && string(src[i:j]) != "<<": // a merge key: the reader falls back
			p.cur = j + 1
			return true
		}
	}
}

// skimPlainLine reads, from p.cur, the rest of the line when it is a plain scalar that cannot fail
// (a word, or a number psychSimpleNumber reads), maybe after spaces and before a comment, and ends
// the line; false when it is anything else, and p.cur is left where it was.
func (p *fastYAML) skimPlainLine() bool {
	src := p.src
	i := p.cur + countSpaces(src, p.cur)
	if i == len(src) {
		return false
	}
	start, number := i, src[i] >= '0' && src[i] <= '9'
	if !skimPlainFirst[src[i]] && !number {
		return false
	}
	var end int // where the scalar's text ends, spaces after it included
	for i++; ; i++ {
		i = indexAny3(src, i, '\n', ':', '#')
		if i == len(src) || src[i] == '\n' {
			end = i
			break
		}
		if src[i] == ':' && p.blankz(i+1) {
			return false // "a: b: c", or a mapping in a sequence
		}
		if src[i] == '#' && src[i-1] == ' ' { // a comment
			end = i
			if n := bytes.IndexByte(src[i:], '\n'); n >= 0 {
				i += n
			} else {
				i = len(src)
			}
			break
		}
	}
	if number && !simpleNumber(bytes.TrimRight(src[start:end], " ")) {
		return false
	}
	if i < len(src) {
		i++ // the line break
		p.line++
	}
	p.pos, p.cur = i, i
	return true
}

// Word-at-a-time scanning for the skim: 8 bytes per step where a data file's lines mostly are
// indentation and plain text.
const (
	eachByte01 = 0x0101010101010101
	eachByte80 = 0x8080808080808080
)

// countSpaces returns how many spaces start at i.
func countSpaces(src []byte, i int) int {
	n := i
	for ; n+8 <= len(src); n += 8 {
		if x := binary.LittleEndian.Uint64(src[n:]) ^ ' '*eachByte01; x != 0 {
			return n + bits.TrailingZeros64(x)/8 - i
		}
	}
	for n < len(src) && src[n] == ' ' {
		n++
	}
	return n - i
}

// indexAny3 returns the index of the first a, b or c at or after i, len(src) for none.
func indexAny3(src []byte, i int, a, b, c byte) int {
	for ; i+8 <= len(src); i += 8 {
		w := binary.LittleEndian.Uint64(src[i:])
		// The lowest byte flagged is the first match: a false flag only ever sits above a true one.
		if m := zeroByte(w^uint64(a)*eachByte01) | zeroByte(w^uint64(b)*eachByte01) | zeroByte(w^uint64(c)*eachByte01); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(src); i++ {
		if x := src[i]; x == a || x == b || x == c {
			return i
		}
	}
	return len(src)
}

// zeroByte flags (high bit) the bytes of x that are 0; the lowest flag is exact, those above it
// may be false.
func zeroByte(x uint64) uint64 { return (x - eachByte01) &^ x & eachByte80 }

// Roots is the number of root keys the skim found, a key given twice counted twice (Keys holds
// it once).
func (lz *LazyYAML) Roots() int { return len(lz.roots) }

// RootLine is the 1-based line of the root key with index i (Keys' value for it): where an
// editor finds the key without reading the file again (internal/yamledit).
func (lz *LazyYAML) RootLine(i int) int { return lz.roots[i].at.line }

// Value returns the value of the root key root, and the type Puppet names for it when it is not
// RichData ("" when it is).
func (lz *LazyYAML) Value(root string) (v any, found bool, badType string, err error) {
	i, ok := lz.Keys.Get(root)
	if !ok {
		return nil, false, "", nil
	}
	idx, _ := i.(int) // lz.keys only holds indexes
	v, badType, err = lz.valueAt(idx)
	return v, true, badType, err
}

// valueAt returns the value of the root key with index i, built once.
func (lz *LazyYAML) valueAt(i int) (v any, badType string, err error) {
	r := &lz.roots[i]
	if !r.built.Load() {
		lz.buildRoot(r)
	}
	return r.v, r.bad, r.err
}

// buildRoot builds r's value, unless another lookup just did.
func (lz *LazyYAML) buildRoot(r *lazyRoot) {
	lz.mu.Lock()
	defer lz.mu.Unlock()
	if r.built.Load() {
		return
	}
	r.v, r.err = lz.build(r.at)
	if r.err == nil && !isRichData(r.v) {
		r.bad = lookupValueType(r.v)
	}
	r.built.Store(true)
}

// build reads the value that starts at at, as the skim read it.
func (lz *LazyYAML) build(at fastRoot) (v any, err error) {
	defer func() {
		// The skim read the same text the same way: a bug. What it panicked with is left out, as it
		// might quote the text (an eyaml file's, say).
		if recover() != nil {
			v, err = nil, fmt.Errorf("internal error reading the value at line %d", at.line)
		}
	}()
	if lz.r == nil {
		lz.r = newYAMLReader(lz.setup)
	}
	p := &fastYAML{src: lz.Text, pos: at.pos, cur: at.cur, line: at.line, begun: true, depth: 1, r: lz.r}
	return p.mappingValue(at.ind), nil
}
