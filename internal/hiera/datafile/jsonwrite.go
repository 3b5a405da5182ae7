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
func MarshalJSON(v any) ([]byte, error) {
	w := &jsonWriter{}
	w.enc = json.NewEncoder(&w.b)
	w.enc.SetEscapeHTML(false)
	if err := w.Value(v); err != nil {
		return nil, err
	}
	return w.b.Bytes(), nil
}

// jsonWriter renders one value; its encoder quotes strings (one encoder for all of them).
type jsonWriter struct {
	b   bytes.Buffer
	enc *json.Encoder
}

func (w *jsonWriter) Value(v any) error {
	switch t := v.(type) {
	case nil:
		w.b.WriteString("null")
	case bool:
		w.b.WriteString(strconv.FormatBool(t))
	case int64:
		w.b.WriteString(strconv.FormatInt(t, 10))
	case *big.Int:
		w.b.WriteString(t.String())
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return fmt.Errorf("%s is not allowed in JSON", model.FloatToS(t))
		}
		w.b.WriteString(model.FloatToS(t))
	case *big.Float:
		w.b.WriteString(model.BigFloatToS(t))
	case string:
		w.str(t)
	case []any:
		w.b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				w.b.WriteByte(',')
			}
			if err := w.Value(e); err != nil {
				return err
			}
		}
		w.b.WriteByte(']')
	case *model.Hash:
		w.b.WriteByte('{')
		for i, k := range t.RawKeys() {
			if i > 0 {
				w.b.WriteByte(',')
			}
			w.str(model.ToS(k))
			w.b.WriteByte(':')
			if err := w.Value(t.Vals[i]); err != nil {
				return err
			}
		}
		w.b.WriteByte('}')
	default:
		return fmt.Errorf("cannot render a value of Go type %T as JSON", v)
	}
	return nil
}

// str quotes s without Go's HTML escaping of <, > and &.
func (w *jsonWriter) str(s string) {
	if plainJSON(s) { // most keys and values: no escape, no encoder
		w.b.WriteByte('"')
		w.b.WriteString(s)
		w.b.WriteByte('"')
		return
	}
	_ = w.enc.Encode(s)         // encoding a string cannot fail
	w.b.Truncate(w.b.Len() - 1) // Encode appends a newline
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
