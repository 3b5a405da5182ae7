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

type token struct {
	kind       tokKind
	text       string
	literal    bool // a string without interpolation
	start, end int  // byte offsets in the source
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
}

var closer = map[byte]byte{'(': ')', '[': ']', '{': '}'}

// lex tokenizes src, or says where it cannot.
func lex(src string) ([]token, error) {
	l := &lexer{src: src, toks: make([]token, 0, len(src)/5)}
	if err := l.run(false); err != nil {
		return nil, err
	}
	if len(l.open) > 0 {
		at := l.open[len(l.open)-1]
		return nil, &syntaxError{at, fmt.Sprintf("'%c' is never closed", src[at])}
	}
	return l.toks, nil
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
			if err := l.singleQuoted(); err != nil {
				return err
			}
		case c == '"':
			if err := l.doubleQuoted(); err != nil {
				return err
			}
		case c == '@' && strings.HasPrefix(s[l.i:], "@("):
			if err := l.heredoc(); err != nil {
				return err
			}
		case c == '$' && l.i+1 < len(s) && (isWord(s[l.i+1]) || strings.HasPrefix(s[l.i+1:], "::")):
			l.i++
			l.name(false)
			l.toks = append(l.toks, token{kind: tVar, text: s[start+1 : l.i], start: start, end: l.i})
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

func (l *lexer) emit(kind tokKind, start int) {
	l.toks = append(l.toks, token{kind: kind, text: l.src[start:l.i], start: start, end: l.i})
}

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
	if len(l.toks) == 0 {
		return true
	}
	t := l.toks[len(l.toks)-1]
	switch t.kind {
	case tRef, tNumber, tString, tRegex, tVar, tHeredoc:
		return false
	case tName:
		return keywords[t.text] && t.text != "true" && t.text != "false"
	}
	return t.text != ")" && t.text != "]" && t.text != "|>" && t.text != "|>>"
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

func (l *lexer) singleQuoted() error {
	s, start := l.src, l.i
	var b strings.Builder
	for i := l.i + 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == '\'') {
				i++
			}
			b.WriteByte(s[i])
		case '\'':
			l.i = i + 1
			l.toks = append(l.toks, token{kind: tString, text: b.String(), literal: true, start: start, end: l.i})
			return nil
		default:
			b.WriteByte(s[i])
		}
	}
	return &syntaxError{start, "a string is never closed (its ' is never matched)"}
}

// doubleQuoted reads a "string": its value when it has no interpolation, escapes applied as
// Puppet applies them.
func (l *lexer) doubleQuoted() error {
	s, start := l.src, l.i
	var b strings.Builder
	literal := true
	for l.i++; l.i < len(s); {
		c := s[l.i]
		switch {
		case c == '"':
			l.i++
			l.toks = append(l.toks, token{kind: tString, text: b.String(), literal: literal, start: start, end: l.i})
			return nil
		case c == '\\' && l.i+1 < len(s):
			e := s[l.i+1]
			l.i += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 's':
				b.WriteByte(' ')
			case '"', '\\', '\'', '$':
				b.WriteByte(e)
			case '\n':
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		case c == '$' && strings.HasPrefix(s[l.i:], "${"):
			literal = false
			if len(l.open) >= maxDepth {
				return &syntaxError{l.i, fmt.Sprintf("brackets nested more than %d deep", maxDepth)}
			}
			l.i += 2
			keep := len(l.toks)
			l.open = append(l.open, l.i-1)
			err := l.run(true)
			l.open = l.open[:len(l.open)-1]
			l.toks = l.toks[:keep] // an interpolation is part of its string
			if se, ok := err.(*syntaxError); ok && se.offset == len(s) {
				return &syntaxError{start, `a string is never closed (its " is never matched)`}
			} else if err != nil {
				return err
			}
		case c == '$' && l.i+1 < len(s) && (isWord(s[l.i+1]) || s[l.i+1] == ':'):
			literal = false
			l.i++
		default:
			b.WriteByte(c)
			l.i++
		}
	}
	return &syntaxError{start, `a string is never closed (its " is never matched)`}
}

// heredocTag is Puppet's heredoc opening: @(END), @("END"), @(END:syntax/flags).
var heredocTag = regexp.MustCompile(`^@\(([^:/\r\n)]+)(?::[ \t]?[a-z][a-zA-Z0-9_+]+[ \t]?)?(?:/[\w$]*)?\)`)

// heredoc reads @(END) and skips its text, which starts on the next line (after the text of an
// earlier heredoc of the same line) and ends at the line that holds only the tag (with | and -
// margins).
func (l *lexer) heredoc() error {
	s, start := l.src, l.i
	m := heredocTag.FindStringSubmatch(s[l.i:])
	if m == nil {
		l.i++
		l.emit(tPunct, start)
		return nil
	}
	tag := strings.TrimSpace(m[1])
	tag = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(tag, `"`), `"`))
	l.i += len(m[0])
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
			l.toks = append(l.toks, token{kind: tHeredoc, text: tag, start: start, end: l.i})
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
