package hocon

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
)

// The tokenizer follows the gem's Tokenizer (hocon 1.3.1, lib/hocon/impl/tokenizer.rb) rune by rune:
// which characters end unquoted text, how numbers are recognised (Ruby's Integer() and Float()),
// and when whitespace between two simple values is kept as unquoted text.

type tokenKind int

const (
	tokEOF tokenKind = iota
	tokComma
	tokEquals
	tokColon
	tokOpenCurly
	tokCloseCurly
	tokOpenSquare
	tokCloseSquare
	tokPlusEquals
	tokNewline
	tokIgnoredWhitespace
	tokUnquoted
	tokValue
	tokComment
	tokSubstitution
	tokProblem
)

type token struct {
	kind     tokenKind
	line     int
	text     string  // unquoted text, whitespace, comment text, problem message
	value    value   // tokValue
	orig     string  // tokValue: the text as written (a number's digits, a string with its quotes)
	optional bool    // tokSubstitution: ${?...}
	expr     []token // tokSubstitution: the path expression's tokens
}

// describe renders a token as the gem's messages do.
func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "end of file"
	case tokComma:
		return "','"
	case tokEquals:
		return "'='"
	case tokColon:
		return "':'"
	case tokOpenCurly:
		return "'{'"
	case tokCloseCurly:
		return "'}'"
	case tokOpenSquare:
		return "'['"
	case tokCloseSquare:
		return "']'"
	case tokPlusEquals:
		return "'+='"
	case tokNewline:
		return "'\\n'"
	case tokUnquoted:
		return "'" + t.text + "'"
	case tokValue:
		return "'" + t.orig + "'"
	case tokSubstitution:
		return "'${...}'"
	case tokComment:
		return "'#" + t.text + "' (COMMENT)"
	}
	return "'" + t.text + "'"
}

// notInUnquoted are the characters that end unquoted text.
const notInUnquoted = "$\"{}[]:=,+#`^?!@*&\\"

func isSpace(r rune) bool { return unicode.IsSpace(r) }

type tokenizer struct {
	src   []rune
	pos   int
	line  int
	limit int // at most this many tokens
	count int
}

// tokenStream hands the parser one token at a time, so that a file's tokens are never all in
// memory at once (a 4 MB array is four million of them). A problem (an unclosed string, a bad
// escape) ends the stream with a problem token, which the parser reports when it reaches it, as
// the gem does; the end of file is returned again for every read past it.
type tokenStream struct {
	tz      *tokenizer
	ws      whitespaceSaver
	pending [3]token // read but not yet handed out: saved whitespace comes before the token after it
	first   int      // pending[first:count] are still to hand out
	count   int
}

func newTokenizer(text string, limit int) *tokenStream {
	return &tokenStream{tz: &tokenizer{src: []rune(text), line: 1, limit: limit}}
}

func (s *tokenStream) next() (token, error) {
	if s.first == s.count {
		t, err := s.tz.next(&s.ws)
		if err != nil {
			return token{}, err
		}
		s.first, s.count = 0, 0
		if w, ok := s.ws.check(t, s.tz.line); ok {
			s.pending[s.count], s.count = w, s.count+1
		}
		s.pending[s.count], s.count = t, s.count+1
		if t.kind == tokProblem {
			s.pending[s.count], s.count = token{kind: tokEOF, line: s.tz.line}, s.count+1
		}
	}
	t := s.pending[s.first]
	if t.kind != tokEOF {
		s.first++
	}
	return t, nil
}

// whitespaceSaver keeps the whitespace between tokens: between two simple values it is unquoted
// text (so `a b` is "a b"), elsewhere it is ignored.
type whitespaceSaver struct {
	buf        strings.Builder
	lastSimple bool
}

func isSimpleValue(t token) bool {
	return t.kind == tokSubstitution || t.kind == tokUnquoted || t.kind == tokValue
}

func (w *whitespaceSaver) check(t token, line int) (token, bool) {
	if !isSimpleValue(t) {
		w.lastSimple = false
		return w.flush(line)
	}
	out, ok := w.flush(line)
	w.lastSimple = true
	return out, ok
}

func (w *whitespaceSaver) flush(line int) (token, bool) {
	if w.buf.Len() == 0 {
		return token{}, false
	}
	kind := tokIgnoredWhitespace
	if w.lastSimple {
		kind = tokUnquoted
	}
	t := token{kind: kind, line: line, text: w.buf.String()}
	w.buf.Reset()
	return t, true
}

const eof = -1

func (tz *tokenizer) peek(off int) rune {
	if tz.pos+off >= len(tz.src) {
		return eof
	}
	return tz.src[tz.pos+off]
}

func (tz *tokenizer) read() rune {
	r := tz.peek(0)
	if r != eof {
		tz.pos++
	}
	return r
}

func (tz *tokenizer) problem(msg string) token {
	return token{kind: tokProblem, line: tz.line, text: msg}
}

// commentAhead tells whether a comment starts at the next unread character.
func (tz *tokenizer) commentAhead() bool {
	return tz.peek(0) == '#' || (tz.peek(0) == '/' && tz.peek(1) == '/')
}

// next reads one token, skipping (and saving) whitespace other than newlines.
func (tz *tokenizer) next(ws *whitespaceSaver) (token, error) {
	tz.count++
	if tz.count > tz.limit {
		return token{}, &Error{Line: tz.line, Msg: fmt.Sprintf("more than %d tokens", tz.limit)}
	}
	var r rune
	for {
		r = tz.read()
		if r == eof || r == '\n' || !isSpace(r) {
			break
		}
		ws.buf.WriteRune(r)
	}
	switch {
	case r == eof:
		return token{kind: tokEOF, line: tz.line}, nil
	case r == '\n':
		t := token{kind: tokNewline, line: tz.line}
		tz.line++
		return t, nil
	case r == '#' || (r == '/' && tz.peek(0) == '/'):
		return tz.comment(r), nil
	}
	line := tz.line
	switch r {
	case '"':
		return tz.quoted(), nil
	case '$':
		return tz.substitution()
	case ':':
		return token{kind: tokColon, line: line}, nil
	case ',':
		return token{kind: tokComma, line: line}, nil
	case '=':
		return token{kind: tokEquals, line: line}, nil
	case '{':
		return token{kind: tokOpenCurly, line: line}, nil
	case '}':
		return token{kind: tokCloseCurly, line: line}, nil
	case '[':
		return token{kind: tokOpenSquare, line: line}, nil
	case ']':
		return token{kind: tokCloseSquare, line: line}, nil
	case '+':
		if tz.peek(0) != '=' {
			return tz.problem(fmt.Sprintf("'+' not followed by =, '%s' not allowed after '+'", runeName(tz.peek(0)))), nil
		}
		tz.pos++
		return token{kind: tokPlusEquals, line: line}, nil
	}
	if strings.ContainsRune("0123456789-", r) {
		return tz.number(), nil
	}
	if strings.ContainsRune(notInUnquoted, r) {
		return tz.problem(fmt.Sprintf("Reserved character '%c' is not allowed outside quotes", r)), nil
	}
	tz.pos--
	return tz.unquoted(), nil
}

func runeName(r rune) string {
	switch r {
	case eof:
		return "end of file"
	case '\n':
		return "newline"
	case '\t':
		return "tab"
	}
	return string(r)
}

func (tz *tokenizer) comment(first rune) token {
	if first == '/' {
		tz.pos++
	}
	start := tz.pos
	for tz.pos < len(tz.src) && tz.src[tz.pos] != '\n' {
		tz.pos++
	}
	return token{kind: tokComment, line: tz.line, text: string(tz.src[start:tz.pos])}
}

// unquoted reads unquoted text; true, false and null at its start are those values whatever follows.
func (tz *tokenizer) unquoted() token {
	line := tz.line
	var sb strings.Builder
	n := 0
	for {
		r := tz.peek(0)
		if r == eof || strings.ContainsRune(notInUnquoted, r) || isSpace(r) || tz.commentAhead() {
			break
		}
		tz.pos++
		sb.WriteRune(r)
		n++
		switch {
		case n == 4 && sb.String() == "true":
			return token{kind: tokValue, line: line, value: &boolValue{true}, orig: "true"}
		case n == 4 && sb.String() == "null":
			return token{kind: tokValue, line: line, value: &nullValue{}, orig: "null"}
		case n == 5 && sb.String() == "false":
			return token{kind: tokValue, line: line, value: &boolValue{false}, orig: "false"}
		}
	}
	return token{kind: tokUnquoted, line: line, text: sb.String()}
}

// number reads the characters JSON allows in a number and converts them with Ruby's Integer() (so a
// leading 0 is octal: 010 is 8) or, with a '.' or an exponent, Float(); a whole float becomes an
// integer (1.0 is 1, 1e3 is 1000). Text Ruby cannot convert is unquoted text (08, 1.2.3).
func (tz *tokenizer) number() token {
	line := tz.line
	start := tz.pos - 1 // its first character was read
	isFloat := false
	for {
		r := tz.peek(0)
		if r == eof || !strings.ContainsRune("0123456789eE+-.", r) {
			break
		}
		tz.pos++
		if r == '.' || r == 'e' || r == 'E' {
			isFloat = true
		}
	}
	s := string(tz.src[start:tz.pos])
	var num value
	if isFloat {
		if f, ok := rubyFloat(s); ok {
			if math.IsInf(f, 0) { // Ruby's Float#to_i fails inside the gem
				return tz.problem(fmt.Sprintf("number %s is out of range", s))
			}
			num = newNumberFromFloat(f, s)
		}
	} else if i, ok := rubyInteger(s); ok {
		num = i
	}
	if num != nil {
		return token{kind: tokValue, line: line, value: num, orig: s}
	}
	for _, r := range s {
		if strings.ContainsRune(notInUnquoted, r) {
			return tz.problem(fmt.Sprintf("Reserved character '%c'is not allowed outside quotes", r))
		}
	}
	return token{kind: tokUnquoted, line: line, text: s}
}

// rubyInteger is Ruby's Integer(s) for the characters a number token can hold: an optional sign,
// then decimal digits, or octal digits after a leading 0. The value's text is s.
func rubyInteger(s string) (value, bool) {
	body := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if strings.HasPrefix(s, "-") && strings.HasPrefix(s[1:], "+") || body == "" {
		return nil, false
	}
	base := 10
	if len(body) > 1 && body[0] == '0' {
		base = 8
		body = body[1:]
	}
	for _, r := range body {
		if r < '0' || r > rune('0'+base-1) {
			return nil, false
		}
	}
	if n, err := strconv.ParseInt(body, base, 64); err == nil { // most numbers: no big.Int parse
		if strings.HasPrefix(s, "-") {
			n = -n
		}
		return &numberValue{n: n, text: s}, true
	}
	i, ok := new(big.Int).SetString(body, base)
	if !ok {
		return nil, false
	}
	if strings.HasPrefix(s, "-") {
		i.Neg(i)
	}
	return newNumberFromInt(i, s), true
}

// rubyFloat is Ruby's Float(s) for a number token's characters: digits on both sides of a '.', an
// optional exponent with digits.
func rubyFloat(s string) (float64, bool) {
	body := strings.TrimPrefix(s, "-")
	mant, exp, hasExp := strings.Cut(strings.ToLower(body), "e")
	if hasExp {
		exp = strings.TrimPrefix(strings.TrimPrefix(exp, "+"), "-")
		if !allDigits(exp) {
			return 0, false
		}
	}
	intPart, frac, hasDot := strings.Cut(mant, ".")
	if !allDigits(intPart) || (hasDot && !allDigits(frac)) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return 0, false
	}
	return f, true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// quoted reads a "..." string (the opening quote is consumed), or a """...""" one.
func (tz *tokenizer) quoted() token {
	line := tz.line
	var sb strings.Builder
	orig := []rune{'"'}
	for {
		r := tz.read()
		switch {
		case r == eof:
			return tz.problem("End of input but string quote was still open")
		case r == '\\':
			esc := tz.read()
			if esc == eof {
				return tz.problem("End of input but backslash in string had nothing after it")
			}
			orig = append(orig, '\\', esc)
			switch esc {
			case '"', '\\', '/':
				sb.WriteRune(esc)
			case 'b':
				sb.WriteByte('\b')
			case 'f':
				sb.WriteByte('\f')
			case 'n':
				sb.WriteByte('\n')
			case 'r':
				sb.WriteByte('\r')
			case 't':
				sb.WriteByte('\t')
			case 'u':
				if tz.pos+4 > len(tz.src) {
					return tz.problem("End of input but expecting 4 hex digits for \\uXXXX escape")
				}
				hex := string(tz.src[tz.pos : tz.pos+4])
				tz.pos += 4
				orig = append(orig, []rune(hex)...)
				r, ok := rubyHexRune(hex)
				if !ok {
					return tz.problem(fmt.Sprintf("\\u%s is not a Unicode character", hex))
				}
				if r == '_' { // the gem's check for a failed pack("U") rejects a real underscore
					return tz.problem(fmt.Sprintf("Malformed hex digits after \\u escape in string: '%s'", hex))
				}
				sb.WriteRune(r)
			default:
				return tz.problem(fmt.Sprintf("backslash followed by '%s', this is not a valid escape sequence (quoted strings use JSON escaping, so use double-backslash \\\\ for literal backslash)", runeName(esc)))
			}
			continue
		case r == '"':
			orig = append(orig, r)
		case unicode.IsControl(r):
			return tz.problem(fmt.Sprintf("JSON does not allow unescaped %s in quoted strings, use a backslash escape", runeName(r)))
		default:
			sb.WriteRune(r)
			orig = append(orig, r)
			continue
		}
		break
	}
	if sb.Len() == 0 && tz.peek(0) == '"' {
		tz.pos++
		return tz.tripleQuoted(line)
	}
	return token{kind: tokValue, line: line, value: &stringValue{s: sb.String(), quoted: true}, orig: string(orig)}
}

// rubyHexRune is [hex.hex].pack("U"): String#hex reads an optional sign and 0x, then hex digits with
// single underscores between them, and ignores the rest. A negative number or a surrogate, which
// Ruby cannot turn into a valid string, is refused.
func rubyHexRune(s string) (rune, bool) {
	s = strings.TrimLeftFunc(s, isSpace)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if len(s) > 2 && strings.EqualFold(s[:2], "0x") && isHexDigit(rune(s[2])) {
		s = s[2:]
	}
	var n rune
	for i, r := range s {
		if r == '_' && i > 0 && i+1 < len(s) && isHexDigit(rune(s[i-1])) && isHexDigit(rune(s[i+1])) {
			continue
		}
		if !isHexDigit(r) {
			break
		}
		d, _ := strconv.ParseInt(string(r), 16, 32)
		n = n*16 + rune(d)
	}
	if neg && n != 0 || (n >= 0xD800 && n <= 0xDFFF) {
		return 0, false
	}
	return n, true
}

func isHexDigit(r rune) bool {
	return (r >= '0' && r <= '9') || (r >= 'a' && r <= 'f') || (r >= 'A' && r <= 'F')
}

// tripleQuoted reads after `"""` up to the last of three or more closing quotes; nothing is escaped.
func (tz *tokenizer) tripleQuoted(line int) token {
	var sb []rune
	quotes := 0
	for {
		r := tz.read()
		if r == '"' {
			quotes++
		} else if quotes >= 3 {
			sb = sb[:len(sb)-3]
			if r != eof {
				tz.pos--
			}
			break
		} else {
			quotes = 0
			if r == eof {
				return tz.problem("End of input but triple-quoted string was still open")
			}
			if r == '\n' {
				tz.line++
			}
		}
		sb = append(sb, r)
	}
	s := string(sb)
	return token{kind: tokValue, line: line, value: &stringValue{s: s, quoted: true}, orig: `"""` + s + `"""`}
}

// substitution reads ${path} or ${?path} (the '$' is consumed).
func (tz *tokenizer) substitution() (token, error) {
	line := tz.line
	if tz.peek(0) != '{' {
		return tz.problem(fmt.Sprintf("'$' not followed by {, '%s' not allowed after '$'", runeName(tz.peek(0)))), nil
	}
	tz.pos++
	optional := false
	if tz.peek(0) == '?' {
		optional = true
		tz.pos++
	}
	ws := &whitespaceSaver{}
	var expr []token
	for {
		t, err := tz.next(ws)
		if err != nil {
			return token{}, err
		}
		switch t.kind {
		case tokCloseCurly:
			return token{kind: tokSubstitution, line: line, optional: optional, expr: expr}, nil
		case tokEOF:
			return tz.problem("Substitution ${ was not closed with a }"), nil
		case tokProblem:
			return t, nil
		}
		if w, ok := ws.check(t, tz.line); ok {
			expr = append(expr, w)
		}
		expr = append(expr, t)
	}
}
