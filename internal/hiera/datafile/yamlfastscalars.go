package datafile

import (
	"bytes"
	"unicode/utf8"
)

// The fast reader's scalars and flow collections (see yamlfast.go): plain, quoted and block
// scalars, single-line [...] and {...}.

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
	if p.skipsScalar(key) && (plainReadsPlainly(b[0]) || simpleNumber(b)) {
		return skippedScalar(b) // read without an error, never a symbol
	}
	if !key && len(b) > fastYAMLInternValue {
		v, err := p.r.tokenize(&p.node, string(b))
		if err != nil {
			p.fail()
		}
		return v
	}
	if key && p.skim { // a root key, mostly one of another file's (a fleet's node files share theirs)
		if v, ok := p.r.share.Key(string(b)); ok {
			return v // no copy of the text made, none cached for this file, where it seldom repeats
		}
	} else if v, ok := p.r.plain[string(b)]; ok {
		return v
	}
	v, err := p.r.newPlainScalar(&p.node, string(b), key)
	if err != nil {
		p.fail()
	}
	return v
}

// skipsScalar reports whether the skim need not resolve a scalar that cannot fail: every value,
// and every key below the root mapping (only the root's keys are kept).
func (p *fastYAML) skipsScalar(key bool) bool { return p.skim && (!key || p.skimming()) }

// skippedScalar is what the skim gives for a scalar it does not resolve: nil, or "<<" for the
// text of a merge key, which the reader checks for.
func skippedScalar(text []byte) any {
	if string(text) == "<<" {
		return "<<"
	}
	return nil
}

// simpleNumber reports whether b is a number psychSimpleNumber reads.
func simpleNumber(b []byte) bool {
	_, ok := simpleNumberShape(b)
	return ok
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
	if p.skipsScalar(key) {
		return skippedScalar(text)
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
