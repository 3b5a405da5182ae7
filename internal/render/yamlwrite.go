package render

import (
	"fmt"
	"unicode/utf8"
)

// This file is libyaml's emitter.c, the parts that analyze and write scalars, in Go.

// analysis is yaml_emitter_analyze_scalar's verdict on a scalar's text.
type analysis struct {
	multiline             bool
	flowPlain, blockPlain bool
	singleQuoted, block   bool
}

func analyze(s string) analysis {
	if s == "" {
		return analysis{blockPlain: true, singleQuoted: true}
	}
	var blockIndicators, flowIndicators, lineBreaks, special bool
	var leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	var previousSpace, previousBreak bool
	if len(s) >= 3 && (s[:3] == "---" || s[:3] == "...") {
		blockIndicators, flowIndicators = true, true
	}
	precededByWhitespace := true
	_, w := utf8.DecodeRuneInString(s)
	followedByWhitespace := isBlankZ(s, w)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		c := s[i]
		if i == 0 {
			switch c {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				flowIndicators, blockIndicators = true, true
			case '?', ':':
				flowIndicators = true
				if followedByWhitespace {
					blockIndicators = true
				}
			case '-':
				if followedByWhitespace {
					flowIndicators, blockIndicators = true, true
				}
			}
		} else {
			switch c {
			case ',', '?', '[', ']', '{', '}':
				flowIndicators = true
			case ':':
				flowIndicators = true
				if followedByWhitespace {
					blockIndicators = true
				}
			case '#':
				if precededByWhitespace {
					flowIndicators, blockIndicators = true, true
				}
			}
		}
		if !isPrintable(s, i) {
			special = true
		}
		if isBreak(s, i) {
			lineBreaks = true
		}
		switch {
		case c == ' ':
			leadingSpace = leadingSpace || i == 0
			trailingSpace = trailingSpace || i+size == len(s)
			breakSpace = breakSpace || previousBreak
			previousSpace, previousBreak = true, false
		case isBreak(s, i):
			leadingBreak = leadingBreak || i == 0
			trailingBreak = trailingBreak || i+size == len(s)
			spaceBreak = spaceBreak || previousSpace
			previousSpace, previousBreak = false, true
		default:
			previousSpace, previousBreak = false, false
		}
		_ = r
		precededByWhitespace = isBlankZ(s, i)
		i += size
		if i < len(s) {
			_, next := utf8.DecodeRuneInString(s[i:])
			followedByWhitespace = isBlankZ(s, i+next)
		}
	}
	a := analysis{multiline: lineBreaks, flowPlain: true, blockPlain: true, singleQuoted: true, block: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak {
		a.flowPlain, a.blockPlain = false, false
	}
	if trailingSpace {
		a.block = false
	}
	if breakSpace {
		a.flowPlain, a.blockPlain, a.singleQuoted = false, false, false
	}
	if spaceBreak || special {
		a.flowPlain, a.blockPlain, a.singleQuoted, a.block = false, false, false, false
	}
	if lineBreaks {
		a.flowPlain, a.blockPlain = false, false
	}
	if flowIndicators {
		a.flowPlain = false
	}
	if blockIndicators {
		a.blockPlain = false
	}
	return a
}

// The character classes of libyaml's yaml_private.h, on the UTF-8 bytes at s[i] (i may be len(s)).
func isBreak(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	switch s[i] {
	case '\r', '\n':
		return true
	case 0xC2:
		return i+1 < len(s) && s[i+1] == 0x85
	case 0xE2:
		return i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9)
	}
	return false
}

func isBlankZ(s string, i int) bool {
	return i >= len(s) || s[i] == ' ' || s[i] == '\t' || s[i] == 0 || isBreak(s, i)
}

func at(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

func isPrintable(s string, i int) bool {
	c, c1, c2 := s[i], at(s, i+1), at(s, i+2)
	return c == 0x0A || (c >= 0x20 && c <= 0x7E) || (c == 0xC2 && c1 >= 0xA0) || (c > 0xC2 && c < 0xED) ||
		(c == 0xED && c1 < 0xA0) || c == 0xEE ||
		(c == 0xEF && (c1 != 0xBB || c2 != 0xBF) && (c1 != 0xBF || (c2 != 0xBE && c2 != 0xBF)))
}

func (e *emitter) put(c byte) {
	e.b.WriteByte(c)
	e.column++
}

// write copies the character at s[i] and returns its width in bytes.
func (e *emitter) write(s string, i int) int {
	_, size := utf8.DecodeRuneInString(s[i:])
	e.b.WriteString(s[i : i+size])
	e.column++
	return size
}

func (e *emitter) putBreak() {
	e.b.WriteByte('\n')
	e.column = 0
}

// writeBreak copies the line break at s[i] (a line feed is written as the emitter's own break).
func (e *emitter) writeBreak(s string, i int) int {
	if s[i] == '\n' {
		e.putBreak()
		return 1
	}
	size := e.write(s, i)
	e.column = 0
	return size
}

func (e *emitter) writeIndicator(indicator string, needWhitespace, isWhitespace, isIndention bool) {
	if needWhitespace && !e.whitespace {
		e.put(' ')
	}
	e.b.WriteString(indicator)
	e.column += utf8.RuneCountInString(indicator)
	e.whitespace = isWhitespace
	e.indention = e.indention && isIndention
}

func (e *emitter) writeIndent() {
	indent := max(e.indent, 0)
	if !e.indention || e.column > indent || (e.column == indent && !e.whitespace) {
		e.putBreak()
	}
	for e.column < indent {
		e.put(' ')
	}
	e.whitespace, e.indention = true, true
}

func (e *emitter) writeTag(tag string) {
	if !e.whitespace {
		e.put(' ')
	}
	e.b.WriteString(tag)
	e.column += len(tag)
	e.whitespace, e.indention = false, false
}

func (e *emitter) writePlain(s string, allowBreaks bool) {
	if !e.whitespace && (len(s) > 0 || e.flowLevel > 0) {
		e.put(' ')
	}
	e.writeFoldable(s, allowBreaks, false)
	e.whitespace, e.indention = false, false
}

func (e *emitter) writeSingleQuoted(s string, allowBreaks bool) {
	e.writeIndicator("'", true, false, false)
	if e.writeFoldable(s, allowBreaks, true) {
		e.writeIndent()
	}
	e.writeIndicator("'", false, false, false)
	e.whitespace, e.indention = false, false
}

// writeFoldable is the text of a plain or single-quoted scalar, which libyaml writes alike: a
// space past the line width becomes a line break (in quotes never the first or last character),
// line breaks are doubled, quotes doubled in quotes. It reports whether the text ended in breaks.
func (e *emitter) writeFoldable(s string, allowBreaks, quoted bool) (breaks bool) {
	spaces := false
	for i := 0; i < len(s); {
		switch {
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && (!quoted || (i != 0 && i != len(s)-1)) && at(s, i+1) != ' ' {
				e.writeIndent()
				i++
			} else {
				i += e.write(s, i)
			}
			spaces = true
		case isBreak(s, i):
			if !breaks && s[i] == '\n' {
				e.putBreak()
			}
			i += e.writeBreak(s, i)
			e.indention, breaks = true, true
		default:
			if breaks {
				e.writeIndent()
			}
			if quoted && s[i] == '\'' {
				e.put('\'')
			}
			i += e.write(s, i)
			e.indention, spaces, breaks = false, false, false
		}
	}
	return breaks
}

// doubleQuotedEscapes are libyaml's short escapes.
var doubleQuotedEscapes = map[rune]byte{
	0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0A: 'n', 0x0B: 'v', 0x0C: 'f', 0x0D: 'r', 0x1B: 'e',
	'"': '"', '\\': '\\', 0x85: 'N', 0xA0: '_', 0x2028: 'L', 0x2029: 'P',
}

func (e *emitter) writeDoubleQuoted(s string, allowBreaks bool) {
	e.writeIndicator(`"`, true, false, false)
	spaces := false
	for i := 0; i < len(s); {
		isBOM := s[i] == 0xEF && at(s, i+1) == 0xBB && at(s, i+2) == 0xBF
		switch {
		case !isPrintable(s, i) || isBOM || isBreak(s, i) || s[i] == '"' || s[i] == '\\':
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size <= 1 {
				r = rune(s[i])
			}
			i += size
			e.put('\\')
			if c, ok := doubleQuotedEscapes[r]; ok {
				e.put(c)
			} else {
				var hex string
				switch {
				case r <= 0xFF:
					hex = fmt.Sprintf("x%02X", r)
				case r <= 0xFFFF:
					hex = fmt.Sprintf("u%04X", r)
				default:
					hex = fmt.Sprintf("U%08X", r)
				}
				e.b.WriteString(hex)
				e.column += len(hex)
			}
			spaces = false
		case s[i] == ' ':
			if allowBreaks && !spaces && e.column > bestWidth && i != 0 && i != len(s)-1 {
				e.writeIndent()
				if at(s, i+1) == ' ' {
					e.put('\\')
				}
				i++
			} else {
				i += e.write(s, i)
			}
			spaces = true
		default:
			i += e.write(s, i)
			spaces = false
		}
	}
	e.writeIndicator(`"`, false, false, false)
	e.whitespace, e.indention = false, false
}

func (e *emitter) writeLiteral(s string) {
	e.writeIndicator("|", true, false, false)
	e.writeBlockHints(s)
	e.putBreak()
	e.indention, e.whitespace = true, true
	breaks := true
	for i := 0; i < len(s); {
		if isBreak(s, i) {
			i += e.writeBreak(s, i)
			e.indention, breaks = true, true
			continue
		}
		if breaks {
			e.writeIndent()
		}
		i += e.write(s, i)
		e.indention, breaks = false, false
	}
}

// writeBlockHints writes the indentation and chomping indicators a block scalar needs.
func (e *emitter) writeBlockHints(s string) {
	if s != "" && (s[0] == ' ' || isBreak(s, 0)) {
		e.writeIndicator(string(rune('0'+bestIndent)), false, false, false)
	}
	e.openEnded = false
	chomp := ""
	last := lastRuneStart(s, len(s))
	switch {
	case s == "" || !isBreak(s, last):
		chomp = "-"
	case last == 0:
		chomp, e.openEnded = "+", true
	case isBreak(s, lastRuneStart(s, last)):
		chomp, e.openEnded = "+", true
	}
	if chomp != "" {
		e.writeIndicator(chomp, false, false, false)
	}
}

// lastRuneStart is the index of the character that ends before end.
func lastRuneStart(s string, end int) int {
	i := end - 1
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return max(i, 0)
}
