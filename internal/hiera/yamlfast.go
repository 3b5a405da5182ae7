package hiera

import (
	"bytes"
	"sync"
	"unicode/utf8"

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
// parseYAML then reads the whole file with yaml.v3: so errors and their positions are always
// yaml.v3's. FuzzFastYAML checks that whatever it accepts, it reads as yaml.v3 does.

// yamlFallback is the panic with which the fast reader gives up.
type yamlFallback struct{}

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

// fastYAMLParse reads data (already checked by checkYAMLText, and simple) as parseYAML does, or
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

// plainCaches holds the scalar caches of finished parses of small files (see maxReusedFile) for
// the next ones: allocating one per file made a fifth of a fleet's parse allocations.
var plainCaches sync.Pool

// plainCache returns an empty scalar cache for a text of the given size.
func plainCache(size int) map[string]any {
	if size <= maxReusedFile {
		if m, ok := plainCaches.Get().(map[string]any); ok {
			return m
		}
	}
	return make(map[string]any, min(size/64, 1<<14)) // sized from the text: growing it cost a fifth of a parse
}

// releasePlainCache empties the cache m of a text of the given size for plainCache.
func releasePlainCache(m map[string]any, size int) {
	if size <= maxReusedFile {
		clear(m)
		plainCaches.Put(m)
	}
}

func (p *fastYAML) fail() { panic(yamlFallback{}) }

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
		i := p.pos
		for i < len(p.src) && p.src[i] == ' ' {
			i++
		}
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
			p.mappingValue(ind)
			v = len(p.roots) - 1
		} else {
			v = p.mappingValue(ind)
		}
		p.stack = append(p.stack, k, v)
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

// plainStart reports whether a plain scalar may start at i (libyaml's test; in flow context,
// more cautious).
func (p *fastYAML) plainStart(i int, flow bool) bool {
	switch p.src[i] {
	case ' ', '\n', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case '-':
		if flow {
			return i+1 < len(p.src) && flowPlainByte(p.src[i+1])
		}
		return !p.blankz(i + 1)
	case '?', ':':
		return !flow && !p.blankz(i+1)
	}
	return true
}

// flowPlainByte reports whether c may continue a plain scalar in a flow collection, as read here.
func flowPlainByte(c byte) bool {
	switch c {
	case ' ', '\n', ',', '[', ']', '{', '}', ':', '?', '#':
		return false
	}
	return true
}

// inline reads a value that starts on the current line at p.cur, in a block collection at column
// parent, and ends the line.
func (p *fastYAML) inline(parent int) any {
	var v any
	switch p.src[p.cur] {
	case '"', '\'':
		end := p.scanQuoted(p.cur)
		if end < 0 {
			p.fail()
		}
		v = p.quoted(end, false)
		p.cur = end
	case '[', '{':
		v = p.flow()
	case '|', '>':
		return p.blockScalar(parent)
	default:
		if !p.plainStart(p.cur, false) {
			p.fail()
		}
		start, end := p.cur, p.cur
	scan:
		for j := start; j < len(p.src); j++ {
			switch p.src[j] {
			case '\n':
				break scan
			case ':':
				if p.blankz(j + 1) {
					p.fail() // "a: b: c"
				}
			case '#':
				if p.src[j-1] == ' ' {
					break scan
				}
			case ' ':
				continue
			}
			end = j + 1
		}
		v = p.plain(p.src[start:end], false)
		p.cur = end
	}
	p.endLine()
	return v
}

// fastYAMLInternValue is the longest value (not key) kept in the yamlReader's cache: longer ones
// seldom repeat, and caching them costs more time than it saves memory.
const fastYAMLInternValue = 16

// plain resolves a plain scalar (a key if key is set) as the yaml.v3 path does.
func (p *fastYAML) plain(b []byte, key bool) any {
	if p.skim && !key && plainReadsPlainly(b[0]) {
		return nil // a value the skim does not keep, read without an error
	}
	if !key && len(b) > fastYAMLInternValue {
		v, err := p.r.tokenize(&p.node, string(b))
		if err != nil {
			p.fail()
		}
		return v
	}
	if v, ok := p.r.plain[string(b)]; ok {
		return v
	}
	v, err := p.r.newPlainScalar(&p.node, string(b), key)
	if err != nil {
		p.fail()
	}
	return v
}

// scanQuoted returns the end (after the closing quote) of the quoted scalar at i, or -1 when it does
// not end on this line.
func (p *fastYAML) scanQuoted(i int) int {
	q := p.src[i]
	for j := i + 1; j < len(p.src); j++ {
		switch c := p.src[j]; {
		case c == '\n':
			return -1
		case c == '\\' && q == '"':
			j++ // the escaped character; an escaped line break continues the scalar
			if j < len(p.src) && p.src[j] == '\n' {
				return -1
			}
		case c == q:
			if q == '\'' && p.at(j+1, '\'') {
				j++
				continue
			}
			return j + 1
		}
	}
	return -1
}

// quoted returns the value of the quoted scalar (a key if key is set) from p.cur to end, as yaml.v3
// reads it.
func (p *fastYAML) quoted(end int, key bool) any {
	text := p.src[p.cur+1 : end-1]
	if bytes.IndexByte(text, '\\') >= 0 && p.src[p.cur] == '"' {
		text = p.unescape(text) // checked in a skim too: a bad escape is an error
	} else if p.src[p.cur] == '\'' && bytes.Contains(text, []byte("''")) {
		text = bytes.ReplaceAll(text, []byte("''"), []byte("'"))
	}
	if p.skim && !key {
		return nil // a value the skim does not keep
	}
	if v, ok := p.r.quoted[string(text)]; ok {
		return v
	}
	return p.r.quotedScalar(string(text))
}

// unescape decodes the escapes of a double-quoted scalar as libyaml does.
func (p *fastYAML) unescape(text []byte) []byte {
	out := p.buf[:0]
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		if i++; i == len(text) {
			p.fail()
		}
		size := 0
		switch text[i] {
		case '0':
			out = append(out, 0)
		case 'a':
			out = append(out, '\a')
		case 'b':
			out = append(out, '\b')
		case 't':
			out = append(out, '\t')
		case 'n':
			out = append(out, '\n')
		case 'v':
			out = append(out, '\v')
		case 'f':
			out = append(out, '\f')
		case 'r':
			out = append(out, '\r')
		case 'e':
			out = append(out, 0x1B)
		case ' ', '"', '\'', '\\':
			out = append(out, text[i])
		case 'N':
			out = utf8.AppendRune(out, 0x85)
		case '_':
			out = utf8.AppendRune(out, 0xA0)
		case 'L':
			out = utf8.AppendRune(out, 0x2028)
		case 'P':
			out = utf8.AppendRune(out, 0x2029)
		case 'x':
			size = 2
		case 'u':
			size = 4
		case 'U':
			size = 8
		default:
			p.fail() // an error
		}
		if size > 0 {
			if i+size >= len(text) {
				p.fail()
			}
			r := 0 // an int, as in libyaml: \UFFFFFFFF is too large, not negative
			for _, h := range text[i+1 : i+1+size] {
				switch {
				case h >= '0' && h <= '9':
					r = r<<4 | int(h-'0')
				case h >= 'a' && h <= 'f':
					r = r<<4 | int(h-'a'+10)
				case h >= 'A' && h <= 'F':
					r = r<<4 | int(h-'A'+10)
				default:
					p.fail()
				}
			}
			if r >= 0xD800 && r <= 0xDFFF || r > 0x10FFFF {
				p.fail()
			}
			out = utf8.AppendRune(out, rune(r))
			i += size
		}
	}
	p.buf = out
	return out
}

// flow reads a flow sequence or mapping that ends on the current line.
func (p *fastYAML) flow() any {
	p.enter()
	open := p.src[p.cur]
	closer := byte(']')
	if open == '{' {
		closer = '}'
	}
	line, base := p.line, len(p.stack)
	p.cur++
	p.spaces()
	if p.at(p.cur, closer) {
		p.cur++
	} else {
		for {
			if open == '{' {
				start := p.cur
				if p.at(p.cur, '[') || p.at(p.cur, '{') {
					p.fail() // a collection as a key
				}
				k := p.flowItem(true)
				p.spaces()
				if !p.at(p.cur, ':') || !p.blankz(p.cur+1) || p.cur-start > fastYAMLMaxKey {
					p.fail()
				}
				p.cur++
				p.spaces()
				if k == "<<" {
					p.fail()
				}
				p.stack = append(p.stack, k)
			}
			p.stack = append(p.stack, p.flowItem(false))
			p.spaces()
			if p.at(p.cur, ',') {
				p.cur++
				p.spaces()
				if p.at(p.cur, closer) {
					p.fail() // a trailing comma
				}
				continue
			}
			if !p.at(p.cur, closer) {
				p.fail()
			}
			p.cur++
			break
		}
	}
	var v any
	switch {
	case p.skimming():
	case open == '{':
		v = p.hash(p.stack[base:], line)
	default:
		list := make([]any, len(p.stack)-base)
		copy(list, p.stack[base:])
		v = list
	}
	p.stack = p.stack[:base]
	p.depth--
	return v
}

// flowItem reads a scalar or collection inside a flow collection; a key ends at ": ".
func (p *fastYAML) flowItem(key bool) any {
	if p.cur >= len(p.src) {
		p.fail()
	}
	switch p.src[p.cur] {
	case '[', '{':
		return p.flow()
	case '"', '\'':
		end := p.scanQuoted(p.cur)
		if end < 0 {
			p.fail()
		}
		v := p.quoted(end, key)
		p.cur = end
		return v
	}
	if !p.plainStart(p.cur, true) {
		p.fail()
	}
	start, end := p.cur, p.cur
	for j := start; j < len(p.src); j++ {
		c := p.src[j]
		if c == ' ' {
			continue
		}
		if !flowPlainByte(c) {
			if key && c == ':' && p.blankz(j+1) {
				break
			}
			if c == ':' || c == '?' || c == '#' {
				p.fail() // maybe a key, or a comment
			}
			break
		}
		end = j + 1
	}
	p.cur = end
	return p.plain(p.src[start:end], key)
}

// blockScalar reads a literal (|) or folded (>) block scalar in a block collection at column parent,
// as libyaml's yaml_parser_scan_block_scalar does; it falls back on explicit indentation, on an empty
// scalar, and on folded lines that are more indented.
func (p *fastYAML) blockScalar(parent int) any {
	literal := p.src[p.cur] == '|'
	p.cur++
	chomp := 0 // clip
	if p.at(p.cur, '-') {
		chomp, p.cur = -1, p.cur+1
	} else if p.at(p.cur, '+') {
		chomp, p.cur = 1, p.cur+1
	}
	if !p.blankz(p.cur) {
		p.fail()
	}
	p.endLine()

	// Leading empty lines, and the indentation of the first line of content.
	pos, breaks, maxBlank := p.pos, 0, 0
	ind := 0
	for {
		i := pos
		for i < len(p.src) && p.src[i] == ' ' {
			i++
		}
		if i == len(p.src) {
			p.fail()
		}
		if p.src[i] != '\n' {
			ind = i - pos
			break
		}
		maxBlank = max(maxBlank, i-pos)
		breaks++
		pos = i + 1
	}
	if ind <= parent || ind < 1 || maxBlank > ind {
		p.fail()
	}
	p.line += breaks

	out := p.buf[:0]
	leadingBreak := false // the line break after the previous line of content
	for {
		start := pos + ind
		if !literal && p.src[start] == ' ' {
			p.fail()
		}
		switch {
		case !literal && leadingBreak:
			if breaks == 0 {
				out = append(out, ' ')
			}
		case leadingBreak:
			out = append(out, '\n')
		}
		for ; breaks > 0; breaks-- {
			out = append(out, '\n')
		}
		end := bytes.IndexByte(p.src[start:], '\n')
		if end < 0 {
			out = append(out, p.src[start:]...)
			leadingBreak, pos = false, len(p.src)
			break
		}
		out = append(out, p.src[start:start+end]...)
		leadingBreak, pos = true, start+end+1
		p.line++
		// Empty lines; then another line of content, or the end.
		i := pos
		for {
			i = pos
			for i < len(p.src) && i-pos < ind && p.src[i] == ' ' {
				i++
			}
			if i < len(p.src) && p.src[i] == '\n' {
				breaks++
				pos = i + 1
				p.line++
				continue
			}
			break
		}
		if i-pos < ind || i == len(p.src) {
			break
		}
	}
	if chomp != -1 && leadingBreak {
		out = append(out, '\n')
	}
	if chomp == 1 {
		for ; breaks > 0; breaks-- {
			out = append(out, '\n')
		}
	}
	p.buf = out
	p.pos, p.cur = pos, pos
	if p.skim {
		return nil // a value the skim does not keep
	}
	return p.r.quotedScalar(string(out))
}
