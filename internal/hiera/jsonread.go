package hiera

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file reads JSON the way Puppet's json_data does (Ruby's JSON.parse, json 2.6): hash key order
// kept, duplicate keys last-wins, exact integers, /* */ and // comments allowed, at most 100 levels.

// JSONError is a JSON file that cannot be read. Line and Column are 1-based, 0 when unknown.
type JSONError struct {
	Line, Column int
	Msg          string
}

func (e *JSONError) Error() string { return dataErrorPosition(e.Line, e.Column) + e.Msg }

// jsonMaxNesting is Ruby's JSON.parse default max_nesting.
const jsonMaxNesting = 100

// parseJSON reads JSON text with key order kept, duplicate keys last-wins, integers exact (int64 or
// *big.Int), other numbers float64.
func parseJSON(data []byte) (v any, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, &JSONError{Msg: fmt.Sprintf("cannot read JSON: %v", r)}
		}
	}()
	if !utf8.Valid(data) {
		line, col := jsonPosition(data, int64(firstInvalidUTF8(data)))
		return nil, &JSONError{Line: line, Column: col, Msg: "invalid UTF-8 byte sequence: JSON data files must be UTF-8 text"}
	}
	text, err := stripJSONComments(data)
	if err != nil {
		return nil, err
	}
	r := &jsonReader{dec: json.NewDecoder(bytes.NewReader(text)), data: data}
	r.dec.UseNumber()
	v, err = r.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := r.dec.Token(); err != io.EOF {
		if err == nil {
			err = errors.New("unexpected content after the JSON value")
		}
		return nil, r.fail(err)
	}
	return v, nil
}

type jsonReader struct {
	dec  *json.Decoder
	data []byte
}

// value reads one JSON value; depth counts the arrays and objects around it.
func (r *jsonReader) value(depth int) (any, error) {
	start := r.dec.InputOffset()
	tok, err := r.dec.Token()
	if err == io.EOF {
		return nil, r.fail(io.ErrUnexpectedEOF)
	}
	if err != nil {
		return nil, r.fail(err)
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth+1 > jsonMaxNesting {
			line, col := jsonPosition(r.data, start)
			return nil, &JSONError{Line: line, Column: col, Msg: fmt.Sprintf("nesting of %d is too deep", depth+1)}
		}
		if t == '[' {
			list := []any{}
			for r.dec.More() {
				e, err := r.value(depth + 1)
				if err != nil {
					return nil, err
				}
				list = append(list, e)
			}
			return list, r.closing()
		}
		h := NewHash(0)
		for r.dec.More() {
			kt, err := r.dec.Token()
			if err != nil {
				return nil, r.fail(err)
			}
			k, _ := kt.(string) // the decoder only gives string tokens in key position
			e, err := r.value(depth + 1)
			if err != nil {
				return nil, err
			}
			h.Set(k, e)
		}
		return h, r.closing()
	case json.Number:
		return jsonNumber(string(t))
	}
	return tok, nil // string, bool or nil
}

// closing consumes the ']' or '}' that ends a collection.
func (r *jsonReader) closing() error {
	if _, err := r.dec.Token(); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return r.fail(err)
	}
	return nil
}

// fail turns a decoder error into a *JSONError placed where the decoder stopped.
func (r *jsonReader) fail(err error) *JSONError {
	off := r.dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	if err == io.ErrUnexpectedEOF {
		off = int64(len(r.data))
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if err == io.ErrUnexpectedEOF {
		msg = "unexpected end of JSON input"
	}
	line, col := jsonPosition(r.data, off)
	return &JSONError{Line: line, Column: col, Msg: msg}
}

// jsonNumber keeps integers exact; anything with a fraction or exponent is a Float, as in Ruby.
func jsonNumber(s string) (any, error) {
	if strings.ContainsAny(s, ".eE") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil && !isFloatRangeError(err) {
			return nil, &JSONError{Msg: fmt.Sprintf("invalid number %s", s)}
		}
		return f, nil // out of range is ±Inf (or 0), as Ruby's Float gives
	}
	i, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, &JSONError{Msg: fmt.Sprintf("invalid number %s", s)}
	}
	return normInt(i), nil
}

// jsonPosition is the 1-based line and column (in characters) of byte offset off.
func jsonPosition(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	before := data[:off]
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return 1 + bytes.Count(before, []byte("\n")), 1 + utf8.RuneCount(before[lineStart:])
}

func firstInvalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(data)
}

// stripJSONComments blanks out /* */ and // comments outside strings (Ruby's parser skips them),
// keeping every offset and line break so that error positions stay right.
func stripJSONComments(data []byte) ([]byte, error) {
	if !bytes.Contains(data, []byte("/")) {
		return data, nil
	}
	out := bytes.Clone(data)
	inString := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(out[i+2:], []byte("*/"))
			if end < 0 {
				line, col := jsonPosition(data, int64(i))
				return nil, &JSONError{Line: line, Column: col, Msg: "unterminated /* comment"}
			}
			jsonBlank(out[i : i+2+end+2])
			i += 2 + end + 1
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			end := bytes.IndexByte(out[i:], '\n')
			if end < 0 {
				end = len(out) - i
			}
			jsonBlank(out[i : i+end])
			i += end - 1
		}
	}
	return out, nil
}

// jsonBlank replaces every byte but line breaks with a space.
func jsonBlank(b []byte) {
	for i, c := range b {
		if c != '\n' && c != '\r' {
			b[i] = ' '
		}
	}
}
