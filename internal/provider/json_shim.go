package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// marshalJSON writes an engine value as JSON with hash keys in Hiera's order.
// TEMPORARY: replace with hiera.MarshalJSON once internal/hiera/inspect.go lands.
func marshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	err := writeJSON(&b, v)
	return b.Bytes(), err
}

func writeJSON(b *bytes.Buffer, v any) error {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case int64:
		b.WriteString(strconv.FormatInt(t, 10))
	case *big.Int:
		b.WriteString(t.String())
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return fmt.Errorf("%v has no JSON form", t)
		}
		b.WriteString(strconv.FormatFloat(t, 'g', -1, 64))
	case string:
		s, _ := json.Marshal(t)
		b.Write(s)
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeJSON(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case *hiera.Hash:
		b.WriteByte('{')
		var err error
		i := 0
		t.Each(func(k, e any) bool {
			if i > 0 {
				b.WriteByte(',')
			}
			i++
			s, _ := json.Marshal(keyString(k))
			b.Write(s)
			b.WriteByte(':')
			err = writeJSON(b, e)
			return err == nil
		})
		b.WriteByte('}')
		return err
	default:
		return fmt.Errorf("unsupported engine value of Go type %T", v)
	}
	return nil
}
