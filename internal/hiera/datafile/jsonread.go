package datafile

import (
	"bytes"
	"fmt"
	"math/big"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// This file reads JSON the way Puppet's json_data does (Ruby's JSON.parse, json 2.6): object key order
// kept, duplicate keys last-wins, exact integers, any value at the top, /* */ and // comments allowed,
// at most 100 levels of nesting. A small parser of its own gives exact error positions.

// JSONError is a JSON file that cannot be read. Line and Column are 1-based, 0 when unknown.
type JSONError struct {
	Line, Column int
	Msg          string
}

func (e *JSONError) Error() string { return dataErrorPosition(e.Line, e.Column) + e.Msg }

// jsonMaxNesting is Ruby's JSON.parse default max_nesting.
const jsonMaxNesting = 100

// ParseJSON reads JSON text with key order kept, duplicate keys last-wins, integers exact (int64 or
// *big.Int), other numbers float64.
func ParseJSON(data []byte) (v any, err error) {
	defer func() {
		if r := recover(); r != nil { // never expected; a data file must not crash the provider
			v, err = nil, &JSONError{Msg: fmt.Sprintf("cannot read JSON: %v", r)}
		}
	}()
	p := &jsonParser{data: data}
	if !utf8.Valid(data) {
		for p.pos < len(data) {
			r, size := utf8.DecodeRune(data[p.pos:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			p.pos += size
		}
		return nil, p.errorf("invalid UTF-8 byte sequence: JSON data files must be UTF-8 text")
	}
	if err := p.skip(); err != nil {
		return nil, err
	}
	if v, err = p.Value(0); err != nil {
		return nil, err
	}
	if err := p.skip(); err != nil {
		return nil, err
	}
	if p.pos < len(data) {
		return nil, p.errorf("unexpected %s after the JSON value", p.describe())
	}
	return v, nil
}

type jsonParser struct {
	data []byte
	pos  int
}

// errorf makes an error placed at the current position.
func (p *jsonParser) errorf(format string, args ...any) *JSONError {
	line, col := textPosition(p.data, min(p.pos, len(p.data)))
	return &JSONError{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// describe names what is at the current position, for messages.
func (p *jsonParser) describe() string {
	if p.pos >= len(p.data) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.data[p.pos:])
	return "character " + strconv.QuoteRune(r)
}

// skip passes whitespace and comments.
func (p *jsonParser) skip() error {
	for p.pos < len(p.data) {
		switch c := p.data[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '/' && p.pos+1 < len(p.data) && p.data[p.pos+1] == '*':
			end := bytes.Index(p.data[p.pos+2:], []byte("*/"))
			if end < 0 {
				return p.errorf("unterminated /* comment")
			}
			p.pos += 2 + end + 2
		case c == '/' && p.pos+1 < len(p.data) && p.data[p.pos+1] == '/':
			end := bytes.IndexByte(p.data[p.pos:], '\n')
			if end < 0 { // Ruby's parser wants the line break
				return p.errorf("unterminated // comment")
			}
			p.pos += end + 1
		default:
			return nil
		}
	}
	return nil
}

// Value reads the value at the current position; depth counts the arrays and objects around it.
func (p *jsonParser) Value(depth int) (any, error) {
	if p.pos >= len(p.data) {
		return nil, p.errorf("unexpected end of input, expecting a value")
	}
	switch c := p.data[p.pos]; {
	case c == '{' || c == '[':
		if depth+1 > jsonMaxNesting {
			return nil, p.errorf("nesting of %d is too deep", depth+1)
		}
		if c == '{' {
			return p.object(depth + 1)
		}
		return p.array(depth + 1)
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, lit := range []struct {
		text string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if bytes.HasPrefix(p.data[p.pos:], []byte(lit.text)) {
			p.pos += len(lit.text)
			return lit.v, nil
		}
	}
	return nil, p.errorf("unexpected %s, expecting a value", p.describe())
}

func (p *jsonParser) object(depth int) (any, error) {
	h := model.NewHash(0)
	p.pos++ // '{'
	if err := p.skip(); err != nil {
		return nil, err
	}
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return h, nil
	}
	for {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.errorf("unexpected %s, expecting a string key", p.describe())
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.errorf("unexpected %s, expecting ':' after an object key", p.describe())
		}
		p.pos++
		if err := p.skip(); err != nil {
			return nil, err
		}
		v, err := p.Value(depth)
		if err != nil {
			return nil, err
		}
		h.Set(k, v)
		if done, err := p.next('}'); done || err != nil {
			return h, err
		}
	}
}

func (p *jsonParser) array(depth int) (any, error) {
	list := []any{}
	p.pos++ // '['
	if err := p.skip(); err != nil {
		return nil, err
	}
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return list, nil
	}
	for {
		v, err := p.Value(depth)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
		if done, err := p.next(']'); done || err != nil {
			return list, err
		}
	}
}

// next passes the ',' between members (false) or the closing bracket (true).
func (p *jsonParser) next(closing byte) (bool, error) {
	if err := p.skip(); err != nil {
		return false, err
	}
	if p.pos < len(p.data) {
		switch p.data[p.pos] {
		case closing:
			p.pos++
			return true, nil
		case ',':
			p.pos++
			return false, p.skip()
		}
	}
	return false, p.errorf("unexpected %s, expecting ',' or '%c'", p.describe(), closing)
}

// str reads a string literal. Like Ruby's parser it takes an unknown escape such as \q as the
// character itself.
func (p *jsonParser) str() (string, error) {
	p.pos++ // opening quote
	start := p.pos
	var b []byte // the decoded text, once an escape has been seen
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			if b == nil {
				return string(p.data[start : p.pos-1]), nil
			}
			return string(b), nil
		case c < 0x20:
			return "", p.errorf("invalid control character %q in a string", c)
		case c == '\\':
			if b == nil {
				b = append([]byte{}, p.data[start:p.pos]...)
			}
			if p.pos+1 >= len(p.data) {
				p.pos++
				return "", p.errorf("unexpected end of input in a string")
			}
			e := p.data[p.pos+1]
			if e == 'u' {
				r, err := p.unicodeEscape()
				if err != nil {
					return "", err
				}
				b = utf8.AppendRune(b, r)
				continue
			}
			if e < 0x20 {
				p.pos++
				return "", p.errorf("invalid control character %q in a string", e)
			}
			if t, ok := jsonEscapes[e]; ok {
				e = t
			}
			b = append(b, e)
			p.pos += 2
		default:
			if b != nil {
				b = append(b, c)
			}
			p.pos++
		}
	}
	return "", p.errorf("unexpected end of input in a string")
}

var jsonEscapes = map[byte]byte{'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// unicodeEscape reads \uXXXX at the current position, and the low half of a surrogate pair after it.
func (p *jsonParser) unicodeEscape() (rune, error) {
	hex4 := func(at int) (rune, bool) {
		if at+6 > len(p.data) || p.data[at] != '\\' || p.data[at+1] != 'u' || !isHex4(p.data[at+2:at+6]) {
			return 0, false
		}
		v, _ := strconv.ParseUint(string(p.data[at+2:at+6]), 16, 32)
		return rune(v), true
	}
	r, ok := hex4(p.pos)
	if !ok {
		return 0, p.errorf(`invalid \u escape in a string`)
	}
	p.pos += 6
	if utf16.IsSurrogate(r) && r < 0xDC00 {
		low, ok := hex4(p.pos)
		if !ok {
			return 0, p.errorf("incomplete surrogate pair in a string")
		}
		p.pos += 6
		return utf16.DecodeRune(r, low), nil
	}
	if utf16.IsSurrogate(r) {
		return utf8.RuneError, nil
	}
	return r, nil
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?: integers stay exact, anything with a
// fraction or exponent is a Float (out of range gives ±Inf, as Ruby's Float does).
func (p *jsonParser) number() (any, error) {
	start := p.pos
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.data[p.pos] == '-' {
		p.pos++
	}
	intStart := p.pos
	if n := digits(); n == 0 || n > 1 && p.data[intStart] == '0' {
		p.pos = intStart
		return nil, p.errorf("invalid number")
	}
	isFloat := false
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.errorf("invalid number: expecting a digit after '.'")
		}
		isFloat = true
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.errorf("invalid number: expecting a digit in the exponent")
		}
		isFloat = true
	}
	text := string(p.data[start:p.pos])
	if isFloat {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && !isFloatRangeError(err) {
			return nil, p.errorf("invalid number %s", text)
		}
		return f, nil
	}
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		return i, nil // most integers: no big.Int needed
	}
	i, _ := new(big.Int).SetString(text, 10)
	return model.NormInt(i), nil
}
