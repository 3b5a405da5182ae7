package provider

// Engine values written as Terraform values in msgpack directly, for hiera_node's thousands of keys:
// what toTF and terraform-plugin-go's marshaling produce (hashes as objects, arrays as tuples,
// numbers as terraform-plugin-go encodes them), without building a tftypes.Value first.

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/provider/wire"
)

// tfWriter writes values: their msgpack encoding into val, their Terraform types as JSON (as
// tftypes' MarshalJSON writes them) into typ.
type tfWriter struct {
	val, typ []byte
	entries  [][]hashEntry // a hash's entries being sorted, per nesting depth: reused
	depth    int
}

// hashEntry is a hash's entry, its key made a string.
type hashEntry struct {
	name  string
	value any
}

// writers holds tfWriters whose buffers a node's read has copied out, for the next read: growing
// them anew each time was a third of the conversion.
var writers sync.Pool // *tfWriter

// newTFWriter returns an empty writer, with the buffers of an earlier one.
func newTFWriter() *tfWriter {
	if w, ok := writers.Get().(*tfWriter); ok {
		w.val, w.typ, w.depth = w.val[:0], w.typ[:0], 0
		return w
	}
	return &tfWriter{}
}

// release gives the writer's buffers to the next one; nothing it wrote may be used after.
func (w *tfWriter) release() {
	for _, e := range w.entries {
		clear(e[:cap(e)]) // no values kept alive
	}
	writers.Put(w)
}

// value writes v. Its errors are toTF's (convError: a number Terraform cannot hold, two hash keys
// that read the same as strings).
func (w *tfWriter) value(v any) error {
	switch t := v.(type) {
	case nil:
		w.val, w.typ = wire.AppendNil(w.val), append(w.typ, `"dynamic"`...)
	case bool:
		w.val, w.typ = wire.AppendBool(w.val, t), append(w.typ, `"bool"`...)
	case string:
		w.val, w.typ = wire.AppendString(w.val, t), append(w.typ, `"string"`...)
	case int64:
		w.val, w.typ = wire.AppendInt(w.val, t), append(w.typ, `"number"`...)
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return &convError{msg: fmt.Sprintf("%v cannot be represented as a Terraform number", t)}
		}
		w.number(big.NewFloat(t))
	case *big.Int:
		w.number(new(big.Float).SetInt(t))
	case *big.Float:
		w.number(t)
	case []any:
		w.val = wire.AppendArrayHeader(w.val, len(t))
		w.typ = append(w.typ, `["tuple",[`...)
		for i, e := range t {
			if i > 0 {
				w.typ = append(w.typ, ',')
			}
			if err := w.value(e); err != nil {
				return within(err, func(p path.Path) path.Path { return p.AtListIndex(i) })
			}
		}
		w.typ = append(w.typ, "]]"...)
	case *model.Hash:
		return w.hash(t)
	default:
		return &convError{msg: fmt.Sprintf("unsupported engine value of Go type %T", v)}
	}
	return nil
}

// number writes a number as terraform-plugin-go does: an integer when it is one that fits in 64
// bits, else a float64 when that is exact, else its decimal text.
func (w *tfWriter) number(n *big.Float) {
	w.typ = append(w.typ, `"number"`...)
	if i, acc := n.Int64(); acc == big.Exact {
		w.val = wire.AppendInt(w.val, i)
	} else if f, acc := n.Float64(); acc == big.Exact && !n.IsInt() {
		w.val = wire.AppendFloat(w.val, f)
	} else {
		w.val = wire.AppendString(w.val, n.Text('f', -1))
	}
}

// hash writes a hash as an object: its keys made strings (keyString), in sorted order.
func (w *tfWriter) hash(h *model.Hash) error {
	if w.depth == len(w.entries) {
		w.entries = append(w.entries, nil)
	}
	entries := w.entries[w.depth][:0]
	h.Each(func(k, v any) bool {
		entries = append(entries, hashEntry{keyString(k), v})
		return true
	})
	w.entries[w.depth] = entries
	w.depth++
	defer func() { w.depth-- }()
	slices.SortFunc(entries, func(a, b hashEntry) int { return strings.Compare(a.name, b.name) })
	w.val = wire.AppendMapHeader(w.val, len(entries))
	w.typ = append(w.typ, `["object",{`...)
	for i, e := range entries {
		if i > 0 {
			if entries[i-1].name == e.name {
				return &convError{msg: fmt.Sprintf("two hash keys read as %q once made strings", e.name)}
			}
			w.typ = append(w.typ, ',')
		}
		w.val = wire.AppendString(w.val, e.name)
		w.typ = appendJSONName(w.typ, e.name)
		w.typ = append(w.typ, ':')
		if err := w.value(e.value); err != nil {
			return within(err, func(p path.Path) path.Path { return p.AtName(e.name) })
		}
	}
	w.typ = append(w.typ, "}]"...)
	return nil
}

// appendJSONName writes an object attribute's name in a type's JSON, as tftypes does (json.Marshal,
// which escapes <, > and & too).
func appendJSONName(b []byte, name string) []byte {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c > 0x7e || strings.IndexByte(`"\<>&`, c) >= 0 {
			js, _ := json.Marshal(name) // a string: never fails
			return append(b, js...)
		}
	}
	return append(append(append(b, '"'), name...), '"')
}
