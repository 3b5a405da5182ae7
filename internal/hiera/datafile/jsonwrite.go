package datafile

// JSON output that keeps hash key order and exact big integers.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// MarshalJSON renders a value as JSON keeping hash key order. Non-string keys become their Ruby to_s
// text (as Ruby's JSON does), big integers stay exact, floats use Ruby's notation so that integral
// floats stay floats (1.0); NaN and infinities have no JSON form and are an error.
func MarshalJSON(v any) ([]byte, error) { return AppendJSON(nil, v) }

// AppendJSON appends MarshalJSON's text of v to b: a caller that knows about how long it will be
// gives room for it.
func AppendJSON(b []byte, v any) ([]byte, error) {
	w := &jsonWriter{b: b}
	if err := w.Value(v); err != nil {
		return nil, err
	}
	return w.b, nil
}

// jsonWriter renders one value; its encoder quotes the strings that need escapes (one encoder for
// all of them, made for the first).
type jsonWriter struct {
	b       []byte
	escaped bytes.Buffer
	enc     *json.Encoder
}

func (w *jsonWriter) Value(v any) error {
	switch t := v.(type) {
	case nil:
		w.b = append(w.b, "null"...)
	case bool:
		w.b = strconv.AppendBool(w.b, t)
	case int64:
		w.b = strconv.AppendInt(w.b, t, 10)
	case *big.Int:
		w.b = t.Append(w.b, 10)
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return fmt.Errorf("%s is not allowed in JSON", model.FloatToS(t))
		}
		w.b = append(w.b, model.FloatToS(t)...)
	case *big.Float:
		w.b = append(w.b, model.BigFloatToS(t)...)
	case string:
		w.str(t)
	case []any:
		w.b = append(w.b, '[')
		for i, e := range t {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			if err := w.Value(e); err != nil {
				return err
			}
		}
		w.b = append(w.b, ']')
	case *model.Hash:
		w.b = append(w.b, '{')
		for i, k := range t.RawKeys() {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.str(model.ToS(k))
			w.b = append(w.b, ':')
			if err := w.Value(t.Vals[i]); err != nil {
				return err
			}
		}
		w.b = append(w.b, '}')
	default:
		return fmt.Errorf("cannot render a value of Go type %T as JSON", v)
	}
	return nil
}

// str quotes s without Go's HTML escaping of <, > and &.
func (w *jsonWriter) str(s string) {
	if plainJSON(s) { // most keys and values: no escape, no encoder
		w.b = append(append(append(w.b, '"'), s...), '"')
		return
	}
	if w.enc == nil {
		w.enc = json.NewEncoder(&w.escaped)
		w.enc.SetEscapeHTML(false)
	}
	w.escaped.Reset()
	_ = w.enc.Encode(s)                                         // encoding a string cannot fail
	w.b = append(w.b, w.escaped.Bytes()[:w.escaped.Len()-1]...) // Encode appends a newline
}

// plainJSON tells whether s is printable ASCII that JSON quotes as it is (no '"' or '\\').
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
