package manifest

import (
	"fmt"
	"regexp"
	"strings"
)

// The tokenizer: Puppet's lexer as far as finding the end of every token needs it. Strings
// (interpolations skipped by their own brackets), heredocs, regexps told from division as Puppet's
// lexer tells them, both kinds of comment; brackets balanced and bounded in depth.

type tokKind uint8

const (
	tEOF     tokKind = iota
	tName            // a lower-case name or keyword: ntp, ntp::config, ::ntp, class
	tRef             // a capitalized name: a type (Stdlib::Port)
	tVar             // $name: text is the name without $
	tString          // a quoted string; literal says it holds no interpolation (text is then its value)
	tNumber          // 42, 0x1F, 1.5e3
	tRegex           // /.../
	tHeredoc         // @(END) ... END
	tPunct           // ( ) [ ] { } , = => : and every other operator, one character or =>, |>, |>>
)

// token is one token, 12 bytes: an 8 MB manifest of one-byte tokens ("," after ",") is 8 million
// of them. What it says (text) is read again from the source when the parser asks.
type token struct {
	start, end int32 // byte offsets in the source
	kind       tokKind
	literal    bool // a string without interpolation
}

// text is what the token says: its source; a variable's name without '$'; a string's value
// (escapes applied, interpolations left out); a heredoc's tag.
func (t token) text(src string) string {
	switch t.kind {
	case tVar:
		return src[t.start+1 : t.end]
	case tString:
		l := &lexer{src: src[:t.end], i: int(t.start), values: true}
		var value string
		if src[t.start] == '\'' {
			value, _ = l.singleQuoted()
		} else {
			value, _ = l.doubleQuoted()
		}
		return value
	case tHeredoc:
		tag, _ := heredocTagAt(src[t.start:])
		return tag
	}
	return src[t.start:t.end]
}

// maxDepth bounds the nesting of brackets (and interpolations) in a manifest: real code nests
// a few dozen levels at most.
const maxDepth = 200

// syntaxError is a place in a manifest the reader cannot read past.
type syntaxError struct {
	offset int
	msg    string
}

func (e *syntaxError) Error() string { return e.msg }

type lexer struct {
	src    string
	i      int
	toks   []token
	open   []int // offsets of the open brackets
	resume int   // where lexing continues at the next newline, past the bodies of heredocs on this line (0: none)

	counting bool  // a first pass: count the tokens (n, most) and keep only the last
	n, most  int   // the tokens so far, and the most there were (an interpolation's are dropped)
	last     token // the latest token
	values   bool  // build strings' values (only when a token's text is asked for)
}

var closer = map[byte]byte{'(': ')', '[': ']', '{': '}'}

// maxSource is the largest source lex takes: tokens hold 32-bit offsets.
const maxSource = 1<<31 - 1

// lex tokenizes src, or says where it cannot. It lexes twice: first counting the tokens, then
// keeping them in a slice of exactly that size (a growing slice allocates about five times its
// final size on the way).
func lex(src string) ([]token, error) {
	if len(src) > maxSource {
		return nil, &syntaxError{0, fmt.Sprintf("a manifest over %d bytes", maxSource)}
	}
	count := &lexer{src: src, counting: true}
	if err := count.run(false); err != nil {
		return nil, err
	}
	if len(count.open) > 0 {
		at := count.open[len(count.open)-1]
		return nil, &syntaxError{at, fmt.Sprintf("'%c' is never closed", src[at])}
	}
	l := &lexer{src: src, toks: make([]token, 0, count.most)}
	if err := l.run(false); err != nil {
		return nil, err
	}
	return l.toks, nil
}

// add appends a token (in the counting pass, counts it).
func (l *lexer) add(kind tokKind, literal bool, start, end int) {
	l.last = token{start: int32(start), end: int32(end), kind: kind, literal: literal} //nolint:gosec // G115: lex refuses sources past 32 bits
	l.n++
	l.most = max(l.most, l.n)
	if !l.counting {
		l.toks = append(l.toks, l.last)
	}
}

// drop forgets the tokens after the first n (an interpolation's), last becoming the nth.
func (l *lexer) drop(n int, last token) {
	l.n, l.last = n, last
	if !l.counting {
		l.toks = l.toks[:n]
	}
}

// run lexes until the end of the source, or, inside an interpolation (inner), until the '}' that
// closes it.
func (l *lexer) run(inner bool) error {
	base := len(l.open)
	s := l.src
	for l.i < len(s) {
		c := s[l.i]
		start := l.i
		switch {
		case c == '\n':
			l.i++
			if l.resume > 0 {
				l.i, l.resume = l.resume, 0
			}
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.i++
		case c == '#':
			l.skipTo("\n", false)
		case c == '/' && strings.HasPrefix(s[l.i:], "/*"):
			if end := strings.Index(s[l.i+2:], "*/"); end >= 0 {
				l.i += end + 4
			} else {
				return &syntaxError{start, "a /* comment is never closed"}
			}
		case c == '/' && l.regexAcceptable():
			if n := regexLength(s[l.i:]); n > 0 {
				l.i += n
				l.emit(tRegex, start)
			} else {
				l.i++
				l.emit(tPunct, start)
			}
		case c == '\'':
			if _, err := l.singleQuoted(); err != nil {
				return err
			}
		case c == '"':
			if _, err := l.doubleQuoted(); err != nil {
				return err
			}
		case c == '@' && strings.HasPrefix(s[l.i:], "@("):
			if err := l.heredoc(); err != nil {
				return err
			}
		case c == '$' && l.i+1 < len(s) && (isWord(s[l.i+1]) || strings.HasPrefix(s[l.i+1:], "::")):
			l.i++
			l.name(false)
			l.add(tVar, false, start, l.i)
		case isLower(c) || c == '_' || (c == ':' && strings.HasPrefix(s[l.i:], "::") && l.i+2 < len(s) && isWord(s[l.i+2])):
			l.name(true)
			kind := tName
			if first := strings.TrimPrefix(s[start:l.i], "::"); first != "" && first[0] >= 'A' && first[0] <= 'Z' {
				kind = tRef
			}
			l.emit(kind, start)
		case c >= 'A' && c <= 'Z':
			l.name(false)
			l.emit(tRef, start)
		case c >= '0' && c <= '9':
			l.number()
			l.emit(tNumber, start)
		case c == '(' || c == '[' || c == '{':
			if len(l.open) >= maxDepth {
				return &syntaxError{start, fmt.Sprintf("brackets nested more than %d deep", maxDepth)}
			}
			l.open = append(l.open, start)
			l.i++
			l.emit(tPunct, start)
		case c == ')' || c == ']' || c == '}':
			if len(l.open) == base {
				if inner && c == '}' {
					l.i++
					return nil
				}
				return &syntaxError{start, fmt.Sprintf("Syntax error at '%c': nothing to close", c)}
			}
			opened := l.open[len(l.open)-1]
			if closer[s[opened]] != c {
				return &syntaxError{start, fmt.Sprintf("Syntax error at '%c': expected '%c' to close the '%c' of line %d",
					c, closer[s[opened]], s[opened], lineOf(s, opened))}
			}
			l.open = l.open[:len(l.open)-1]
			l.i++
			l.emit(tPunct, start)
		default:
			l.punct()
		}
	}
	if inner {
		return &syntaxError{len(s), "an interpolation ${...} is never closed"}
	}
	return nil
}

func (l *lexer) emit(kind tokKind, start int) { l.add(kind, false, start, l.i) }

// skipTo moves past the next occurrence of end (past it when past is set, else to it), or to
// the end of the source.
func (l *lexer) skipTo(end string, past bool) {
	n := strings.Index(l.src[l.i:], end)
	switch {
	case n < 0:
		l.i = len(l.src)
	case past:
		l.i += n + len(end)
	default:
		l.i += n
	}
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isWord(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// name moves past a name and its ::segments; a bare word (bare) may hold '-' inside (foo-bar),
// a variable not ($x-1 subtracts).
func (l *lexer) name(bare bool) {
	s := l.src
	for {
		if strings.HasPrefix(s[l.i:], "::") {
			l.i += 2
		}
		for l.i < len(s) && (isWord(s[l.i]) || (bare && s[l.i] == '-' && l.i+1 < len(s) && isWord(s[l.i+1]))) {
			l.i++
		}
		if !strings.HasPrefix(s[l.i:], "::") || l.i+2 >= len(s) || !isWord(s[l.i+2]) {
			return
		}
	}
}

func (l *lexer) number() {
	s := l.src
	if strings.HasPrefix(s[l.i:], "0x") || strings.HasPrefix(s[l.i:], "0X") {
		l.i += 2
	}
	for l.i < len(s) && (isWord(s[l.i]) || (s[l.i] == '.' && l.i+1 < len(s) && s[l.i+1] >= '0' && s[l.i+1] <= '9') ||
		((s[l.i] == '-' || s[l.i] == '+') && (s[l.i-1] == 'e' || s[l.i-1] == 'E'))) {
		l.i++
	}
}

var operators = []string{"|>>", "=>", "|>"}

func (l *lexer) punct() {
	start := l.i
	for _, op := range operators {
		if strings.HasPrefix(l.src[l.i:], op) {
			l.i += len(op)
			l.emit(tPunct, start)
			return
		}
	}
	l.i++
	l.emit(tPunct, start)
}

// regexAcceptable is Puppet's lexer's rule: a '/' after an operand or a closing ) or ] divides;
// elsewhere (after '}' too, for case) it starts a regexp.
func (l *lexer) regexAcceptable() bool {
	if l.n == 0 {
		return true
	}
	t := l.last
	switch t.kind {
	case tRef, tNumber, tString, tRegex, tVar, tHeredoc:
		return false
	}
	text := t.text(l.src) // a name's or an operator's: its source
	if t.kind == tName {
		return keywords[text] && text != "true" && text != "false"
	}
	return text != ")" && text != "]" && text != "|>" && text != "|>>"
}

var keywords = map[string]bool{
	"and": true, "application": true, "attr": true, "case": true, "class": true, "consumes": true,
	"default": true, "define": true, "else": true, "elsif": true, "false": true, "function": true,
	"if": true, "import": true, "in": true, "inherits": true, "node": true, "or": true, "plan": true,
	"private": true, "produces": true, "site": true, "true": true, "type": true, "undef": true, "unless": true,
}

// regexLength is the length of the regexp at the start of s (/.../ on one line, an escaped / inside),
// 0 when there is none.
func regexLength(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\n':
			return 0
		case '/':
			return i + 1
		}
	}
	return 0
}

// singleQuoted reads a 'string' and, when l.values is set, returns its value.
func (l *lexer) singleQuoted() (string, error) {
	s, start := l.src, l.i
	var b valueBuilder
	b.on = l.values
	for i := l.i + 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == '\'') {
				i++
			}
			b.add(s[i])
		case '\'':
			l.i = i + 1
			l.add(tString, true, start, l.i)
			return b.String(), nil
		default:
			b.add(s[i])
		}
	}
	return "", &syntaxError{start, "a string is never closed (its ' is never matched)"}
}

// valueBuilder builds a string's value only when on: the lexer needs none of them, the parser a few.
type valueBuilder struct {
	on bool
	b  strings.Builder
}

func (v *valueBuilder) add(c byte) {
	if v.on {
		v.b.WriteByte(c)
	}
}

func (v *valueBuilder) String() string { return v.b.String() }

// doubleQuoted reads a "string" and, when l.values is set, returns its value: escapes applied as
// Puppet applies them, interpolations left out (its token says whether it had none).
func (l *lexer) doubleQuoted() (string, error) {
	s, start := l.src, l.i
	var b valueBuilder
	b.on = l.values
	literal := true
	for l.i++; l.i < len(s); {
		c := s[l.i]
		switch {
		case c == '"':
			l.i++
			l.add(tString, literal, start, l.i)
			return b.String(), nil
		case c == '\\' && l.i+1 < len(s):
			e := s[l.i+1]
			l.i += 2
			switch e {
			case 'n':
				b.add('\n')
			case 't':
				b.add('\t')
			case 'r':
				b.add('\r')
			case 's':
				b.add(' ')
			case '"', '\\', '\'', '$':
				b.add(e)
			case '\n':
			default:
				b.add('\\')
				b.add(e)
			}
		case c == '$' && strings.HasPrefix(s[l.i:], "${"):
			literal = false
			if len(l.open) >= maxDepth {
				return "", &syntaxError{l.i, fmt.Sprintf("brackets nested more than %d deep", maxDepth)}
			}
			l.i += 2
			keep, last := l.n, l.last
			l.open = append(l.open, l.i-1)
			err := l.run(true)
			l.open = l.open[:len(l.open)-1]
			l.drop(keep, last) // an interpolation is part of its string
			if se, ok := err.(*syntaxError); ok && se.offset == len(s) {
				return "", &syntaxError{start, `a string is never closed (its " is never matched)`}
			} else if err != nil {
				return "", err
			}
		case c == '$' && l.i+1 < len(s) && (isWord(s[l.i+1]) || s[l.i+1] == ':'):
			literal = false
			l.i++
		default:
			b.add(c)
			l.i++
		}
	}
	return "", &syntaxError{start, `a string is never closed (its " is never matched)`}
}

// heredocTag is Puppet's heredoc opening: @(END), @("END"), @(END:syntax/flags).
var heredocTag = regexp.MustCompile(`^@\(([^:/\r\n)]+)(?::[ \t]?[a-z][a-zA-Z0-9_+]+[ \t]?)?(?:/[\w$]*)?\)`)

// heredocTagAt is the tag of the heredoc opening s starts with and the opening's length, 0 when
// s starts with none.
func heredocTagAt(s string) (tag string, n int) {
	m := heredocTag.FindStringSubmatch(s)
	if m == nil {
		return "", 0
	}
	tag = strings.TrimSpace(m[1])
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(tag, `"`), `"`)), len(m[0])
}

// heredoc reads @(END) and skips its text, which starts on the next line (after the text of an
// earlier heredoc of the same line) and ends at the line that holds only the tag (with | and -
// margins).
func (l *lexer) heredoc() error {
	s, start := l.src, l.i
	tag, n := heredocTagAt(s[l.i:])
	if n == 0 {
		l.i++
		l.emit(tPunct, start)
		return nil
	}
	l.i += n
	body := l.resume
	if body == 0 {
		nl := strings.IndexByte(s[l.i:], '\n')
		if nl < 0 {
			return &syntaxError{start, fmt.Sprintf("heredoc @(%s) has no text: the file ends on its line", tag)}
		}
		body = l.i + nl + 1
	}
	for at := body; at < len(s); {
		end := strings.IndexByte(s[at:], '\n')
		line := s[at:]
		next := len(s)
		if end >= 0 {
			line, next = s[at:at+end], at+end+1
		}
		if heredocEnd(line, tag) {
			l.resume = next
			if next == len(s) {
				l.resume = len(s)
			}
			l.add(tHeredoc, false, start, l.i)
			return nil
		}
		at = next
	}
	return &syntaxError{start, fmt.Sprintf("heredoc @(%s) never ends (no line holding only %s)", tag, tag)}
}

// heredocEnd says whether line ends a heredoc: optional blanks, an optional '|', optional blanks,
// an optional '-', optional blanks, the tag, optional blanks.
func heredocEnd(line, tag string) bool {
	t := strings.TrimLeft(line, " \t")
	t = strings.TrimLeft(strings.TrimPrefix(t, "|"), " \t")
	t = strings.TrimLeft(strings.TrimPrefix(t, "-"), " \t")
	return strings.TrimRight(t, " \t\r") == tag
}

// lineOf is the 1-based line of offset in s.
func lineOf(s string, offset int) int { return 1 + strings.Count(s[:min(offset, len(s))], "\n") }
