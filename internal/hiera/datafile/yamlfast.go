package datafile

import (
	"sync"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"gopkg.in/yaml.v3"
)

// A fast reader for the plain block YAML that data files are almost always written in: block
// mappings and sequences, single-line plain and quoted scalars, single-line flow collections of
// those, literal and folded block scalars, comments and a leading "---". It resolves scalars with
// the yaml.v3 path's own code (yamlReader.tokenize) and records the same line for every hash.
//
// It gives up on anything else and on anything it is not sure of (anchors, aliases, merge keys,
// tags, multi-line plain or quoted scalars, odd indentation, several documents, any error), and
// ParseYAML then reads the whole file with yaml.v3: so errors and their positions are always
// yaml.v3's. FuzzFastYAML checks that whatever it accepts, it reads as yaml.v3 does.

// yamlFallback is the panic with which the fast reader gives up, at a line.
type yamlFallback struct{ line int }

// fastYAMLMaxDepth bounds nesting (yaml.v3 has its own limits, which deeper files are left to).
const fastYAMLMaxDepth = 64

// fastYAMLMaxKey is the longest key read: libyaml refuses a simple key of more than 1024 characters.
const fastYAMLMaxKey = 1000

type fastYAML struct {
	src   []byte
	pos   int  // start of the current line
	cur   int  // position in the current line
	line  int  // 1-based number of the current line
	begun bool // past the optional "---"
	depth int
	r     *yamlReader
	node  yaml.Node // what tokenize is given: its errors make us fall back, so it needs no position
	stack []any     // entries of the collections being read; each is copied out once complete
	buf   []byte    // scratch for escapes and block scalars
	// skim: read and check everything, but build no collection below the root mapping and
	// resolve no scalar value that cannot fail (plainReadsPlainly); the root mapping's values
	// are instead the indexes of where they start, in roots (see skimFastYAML).
	skim  bool
	roots []fastRoot
}

// tryFastYAML is fastYAMLParse where even an unexpected panic means using yaml.v3 instead.
func tryFastYAML(data []byte, setup yamlSetup) (v any, lines map[*model.Hash]int, ok bool) {
	defer func() {
		if recover() != nil {
			v, lines, ok = nil, nil, false
		}
	}()
	return fastYAMLParse(data, setup)
}

// fastYAMLParse reads data (already checked by checkYAMLText, and simple) as ParseYAML does, or
// returns ok false.
func fastYAMLParse(data []byte, setup yamlSetup) (v any, lines map[*model.Hash]int, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, fallback := r.(yamlFallback); !fallback {
				panic(r)
			}
			v, lines, ok = nil, nil, false
		}
	}()
	p := &fastYAML{src: data, line: 1, r: newYAMLReader(setup)}
	p.r.plain = plainCache(len(data))
	defer releasePlainCache(p.r.plain, len(data))
	v = p.document()
	v, err := p.r.fixSymbols(v)
	if err != nil {
		return nil, nil, false
	}
	return v, p.r.lines, true
}

// plainCaches holds the scalar caches of finished parses of small files (see MaxReusedFile) for
// the next ones: allocating one per file made a fifth of a fleet's parse allocations.
var plainCaches sync.Pool

// plainCache returns an empty scalar cache for a text of the given size.
func plainCache(size int) map[string]any {
	if size <= MaxReusedFile {
		if m, ok := plainCaches.Get().(map[string]any); ok {
			return m
		}
	}
	return make(map[string]any, min(size/64, 1<<14)) // sized from the text: growing it cost a fifth of a parse
}

// releasePlainCache empties the cache m of a text of the given size for plainCache.
func releasePlainCache(m map[string]any, size int) {
	if size <= MaxReusedFile {
		clear(m)
		plainCaches.Put(m)
	}
}

func (p *fastYAML) fail() { panic(yamlFallback{p.line}) }

// fastYAMLStop is the line where the fast reader gives up on data, 0 when it does not.
func fastYAMLStop(data []byte) (line int) {
	defer func() {
		if f, ok := recover().(yamlFallback); ok {
			line = f.line
		}
	}()
	p := &fastYAML{src: data, line: 1, r: newYAMLReader(yamlSetup{}), skim: true}
	p.document()
	return 0
}

// document reads the one document, whose top must be a block mapping or sequence.
func (p *fastYAML) document() any {
	if ind, ok := p.peek(); ok && ind == 0 && p.marker('-') {
		p.cur += 3
		p.endLine()
	}
	p.begun = true // from here on, document markers and directives make us fall back
	ind, ok := p.peek()
	if !ok {
		p.fail() // no content: yaml.v3 tells what that is
	}
	v := p.block(ind)
	if _, more := p.peek(); more {
		p.fail()
	}
	return v
}

// at reports whether the byte at i is c.
func (p *fastYAML) at(i int, c byte) bool { return i < len(p.src) && p.src[i] == c }

// blankz reports whether i is at a space, a line break or the end: what ends "-", ":" and "---".
func (p *fastYAML) blankz(i int) bool {
	return i >= len(p.src) || p.src[i] == ' ' || p.src[i] == '\n'
}

// marker reports whether the current line starts with "---" (c '-') or "..." (c '.').
func (p *fastYAML) marker(c byte) bool {
	i := p.pos
	return p.cur == i && p.at(i, c) && p.at(i+1, c) && p.at(i+2, c) && p.blankz(i+3)
}

// peek skips blank and comment lines and returns the indentation of the next line with content,
// leaving p.pos at its start and p.cur at its first character; false at the end.
func (p *fastYAML) peek() (int, bool) {
	for p.pos < len(p.src) {
		i := p.pos + countSpaces(p.src, p.pos)
		if i == len(p.src) {
			break
		}
		switch p.src[i] {
		case '\n':
			p.pos = i + 1
			p.line++
			continue
		case '#':
			p.cur = i
			p.endLine()
			continue
		}
		p.cur = i
		if p.begun && i == p.pos && (p.marker('-') || p.marker('.') || p.src[i] == '%') {
			p.fail() // another document, a document end or a directive
		}
		return i - p.pos, true
	}
	p.pos, p.cur = len(p.src), len(p.src)
	return 0, false
}

// spaces skips spaces on the current line.
func (p *fastYAML) spaces() {
	for p.at(p.cur, ' ') {
		p.cur++
	}
}

// eol reports whether only a comment, if anything, is left on the line (after spaces()).
func (p *fastYAML) eol() bool {
	return p.cur >= len(p.src) || p.src[p.cur] == '\n' || p.src[p.cur] == '#' && p.src[p.cur-1] == ' '
}

// endLine moves to the next line, after spaces and a comment; anything else fails.
func (p *fastYAML) endLine() {
	p.spaces()
	i := p.cur
	if p.at(i, '#') {
		if i > 0 && p.src[i-1] != ' ' && p.src[i-1] != '\n' {
			p.fail() // "#" right after a quote or bracket
		}
		for i < len(p.src) && p.src[i] != '\n' {
			i++
		}
	}
	if i < len(p.src) {
		if p.src[i] != '\n' {
			p.fail()
		}
		i++
		p.line++
	}
	p.pos, p.cur = i, i
}

// seqEntry reports whether a block sequence entry ("-" and a space or line break) is at p.cur.
func (p *fastYAML) seqEntry() bool { return p.at(p.cur, '-') && p.blankz(p.cur+1) }

func (p *fastYAML) enter() {
	if p.depth++; p.depth > fastYAMLMaxDepth {
		p.fail()
	}
}

// block reads the block mapping or sequence whose first line has indentation ind.
func (p *fastYAML) block(ind int) any {
	if p.seqEntry() {
		return p.sequence(ind, false)
	}
	return p.mapping(ind)
}

// mapping reads a block mapping whose keys are at column ind, the first one at p.cur.
func (p *fastYAML) mapping(ind int) *model.Hash {
	p.enter()
	line := p.line
	base := len(p.stack)
	for {
		if p.skimming() && p.skimKey() { // an entry of a collection not built
			if !p.skimPlainLine() {
				p.mappingValue(ind)
			}
		} else {
			k, ok := p.key()
			if !ok {
				p.fail()
			}
			if k == "<<" {
				p.fail() // a merge key
			}
			var v any
			if p.skim && p.depth == 1 {
				p.roots = append(p.roots, fastRoot{pos: p.pos, cur: p.cur, line: p.line, ind: ind})
				if !p.skimPlainLine() {
					p.mappingValue(ind)
				}
				v = len(p.roots) - 1
			} else {
				v = p.mappingValue(ind)
			}
			p.stack = append(p.stack, k, v)
		}
		n, ok := p.peek()
		if !ok || n < ind {
			break
		}
		if n > ind || p.seqEntry() {
			p.fail()
		}
	}
	var h *model.Hash
	if !p.skimming() {
		h = p.hash(p.stack[base:], line)
	}
	p.stack = p.stack[:base]
	p.depth--
	return h
}

// skimming reports whether the collection being read is below the root and is not to be built.
func (p *fastYAML) skimming() bool { return p.skim && p.depth > 1 }

// mappingValue reads what follows the ":" of a key of a block mapping at column ind.
func (p *fastYAML) mappingValue(ind int) any {
	p.spaces()
	if !p.eol() {
		return p.inline(ind)
	}
	p.endLine()
	n, ok := p.peek()
	switch {
	case ok && n > ind:
		return p.block(n)
	case ok && n == ind && p.seqEntry():
		return p.sequence(ind, true) // a sequence may sit at its key's column
	}
	return nil
}

// sequence reads a block sequence whose "-" are at column ind, the first one at p.cur. An
// indentless sequence (the value of a mapping key at the same column) ends at the next key.
func (p *fastYAML) sequence(ind int, indentless bool) []any {
	p.enter()
	base := len(p.stack)
	for {
		p.cur++ // the "-"
		p.spaces()
		var item any
		switch col := p.cur - p.pos; {
		case p.skim && p.skimPlainLine(): // an item the skim does not keep
		case p.eol():
			p.endLine()
			if n, ok := p.peek(); ok && n > ind {
				item = p.block(n)
			}
		case p.seqEntry():
			item = p.sequence(col, false) // "- - a"
		case p.isKey():
			item = p.mapping(col) // "- a: 1"
		default:
			item = p.inline(ind)
		}
		p.stack = append(p.stack, item)
		n, ok := p.peek()
		if !ok || n < ind {
			break
		}
		if n > ind {
			p.fail()
		}
		if !p.seqEntry() {
			if indentless {
				break
			}
			p.fail()
		}
	}
	var list []any
	if !p.skimming() {
		list = make([]any, len(p.stack)-base)
		copy(list, p.stack[base:])
	}
	p.stack = p.stack[:base]
	p.depth--
	return list
}

// hash makes the hash of alternating keys and values, as yamlReader.mapping does.
func (p *fastYAML) hash(kv []any, line int) *model.Hash {
	for i := 0; i < len(kv); i += 2 {
		kv[i] = yamlHashKey(kv[i])
	}
	h := p.r.share.HashOf(kv)
	p.r.setLine(h, line)
	return h
}

// isKey reports whether a block mapping key (a scalar and ":") starts at p.cur.
func (p *fastYAML) isKey() bool {
	_, _, ok := p.scanKey()
	return ok
}

// key reads a block mapping key and its ":".
func (p *fastYAML) key() (any, bool) {
	end, after, ok := p.scanKey()
	if !ok {
		return nil, false
	}
	var k any
	if c := p.src[p.cur]; c == '"' || c == '\'' {
		k = p.quoted(end, true)
	} else {
		k = p.plain(p.src[p.cur:end], true)
	}
	p.cur = after
	return k, true
}

// scanKey finds the block mapping key at p.cur: where its scalar ends and where its ":" ends.
func (p *fastYAML) scanKey() (end, after int, ok bool) {
	i := p.cur
	if c := p.src[i]; c == '"' || c == '\'' {
		if end = p.scanQuoted(i); end < 0 {
			return 0, 0, false
		}
		j := end
		for p.at(j, ' ') {
			j++
		}
		ok = p.at(j, ':') && p.blankz(j+1) && j-i <= fastYAMLMaxKey
		return end, j + 1, ok
	}
	if !p.plainStart(i, false) {
		return 0, 0, false
	}
	for j := i; j < len(p.src) && j-i <= fastYAMLMaxKey; j++ {
		switch p.src[j] {
		case '\n':
			return 0, 0, false
		case '#':
			if p.src[j-1] == ' ' {
				return 0, 0, false // a comment
			}
		case ':':
			if p.blankz(j + 1) {
				end = j
				for p.src[end-1] == ' ' {
					end--
				}
				return end, j + 1, true
			}
		}
	}
	return 0, 0, false
}

// MaxReusedFile is the largest file whose scratch (text buffer, scalar cache) is reused. A pool
// keeps what concurrent parses put back until collections drop it: for larger files that raised
// the peak RSS more than reuse saved, and their parse amortizes the allocations anyway.
const MaxReusedFile = 256 << 10
