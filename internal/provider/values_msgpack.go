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

// tfWriter writes values: their msgpack encoding into val, and their Terraform types, either as
// JSON (as tftypes' MarshalJSON writes them) into typ, or, with shapes, as the tfType each value
// returns, lists and maps where a fleet's values would be (fleet_types.go).
type tfWriter struct {
	val, typ []byte
	shapes   bool
	types    unifier       // with shapes
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

// newTFWriter returns an empty writer, with the buffers of an earlier one; shapes as tfWriter says.
func newTFWriter(shapes bool) *tfWriter {
	if w, ok := writers.Get().(*tfWriter); ok {
		w.val, w.typ, w.depth, w.shapes, w.types = w.val[:0], w.typ[:0], 0, shapes, unifier{unifyWork}
		return w
	}
	return &tfWriter{shapes: shapes, types: unifier{unifyWork}}
}

// release gives the writer's buffers to the next one; nothing it wrote may be used after.
func (w *tfWriter) release() {
	for _, e := range w.entries {
		clear(e[:cap(e)]) // no values kept alive
	}
	writers.Put(w)
}

// value writes v, and returns its type with shapes (else nil). Its errors are toTF's (convError:
// a number Terraform cannot hold, two hash keys that read the same as strings).
func (w *tfWriter) value(v any) (*tfType, error) {
	switch t := v.(type) {
	case nil:
		w.val = wire.AppendNil(w.val)
		return w.leaf(`"dynamic"`, dynamicType), nil
	case bool:
		w.val = wire.AppendBool(w.val, t)
		return w.leaf(`"bool"`, boolType), nil
	case string:
		w.val = wire.AppendString(w.val, t)
		return w.leaf(`"string"`, stringType), nil
	case int64:
		w.val = wire.AppendInt(w.val, t)
		return w.leaf(`"number"`, numberType), nil
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, &convError{msg: fmt.Sprintf("%v cannot be represented as a Terraform number", t)}
		}
		return w.number(big.NewFloat(t)), nil
	case *big.Int:
		return w.number(new(big.Float).SetInt(t)), nil
	case *big.Float:
		return w.number(t), nil
	case []any:
		return w.array(t)
	case *model.Hash:
		return w.hash(t)
	}
	return nil, &convError{msg: fmt.Sprintf("unsupported engine value of Go type %T", v)}
}

// leaf writes the type of a value without parts: its JSON, or with shapes returns t.
func (w *tfWriter) leaf(json string, t *tfType) *tfType {
	if w.shapes {
		return t
	}
	w.typ = append(w.typ, json...)
	return nil
}

// number writes a number as terraform-plugin-go does: an integer when it is one that fits in 64
// bits, else a float64 when that is exact, else its decimal text.
func (w *tfWriter) number(n *big.Float) *tfType {
	if i, acc := n.Int64(); acc == big.Exact {
		w.val = wire.AppendInt(w.val, i)
	} else if f, acc := n.Float64(); acc == big.Exact && !n.IsInt() {
		w.val = wire.AppendFloat(w.val, f)
	} else {
		w.val = wire.AppendString(w.val, n.Text('f', -1))
	}
	return w.leaf(`"number"`, numberType)
}

// array writes an array as a tuple (with shapes, a list where its elements share a type).
func (w *tfWriter) array(a []any) (*tfType, error) {
	w.val = wire.AppendArrayHeader(w.val, len(a))
	var elems []*tfType
	if w.shapes {
		elems = make([]*tfType, len(a))
	} else {
		w.typ = append(w.typ, `["tuple",[`...)
	}
	for i, e := range a {
		if i > 0 && !w.shapes {
			w.typ = append(w.typ, ',')
		}
		t, err := w.value(e)
		if err != nil {
			return nil, within(err, func(p path.Path) path.Path { return p.AtListIndex(i) })
		}
		if w.shapes {
			elems[i] = t
		}
	}
	if w.shapes {
		return w.types.sequenceType(elems), nil
	}
	w.typ = append(w.typ, "]]"...)
	return nil, nil
}

// hash writes a hash as an object (with shapes, a map where its values share a type): its keys
// made strings (keyString), in sorted order.
func (w *tfWriter) hash(h *model.Hash) (*tfType, error) {
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
	var names []string
	var elems []*tfType
	if w.shapes {
		names, elems = make([]string, len(entries)), make([]*tfType, len(entries))
	} else {
		w.typ = append(w.typ, `["object",{`...)
	}
	for i, e := range entries {
		if i > 0 && entries[i-1].name == e.name {
			return nil, &convError{msg: fmt.Sprintf("two hash keys read as %q once made strings", e.name)}
		}
		w.val = wire.AppendString(w.val, e.name)
		if !w.shapes {
			if i > 0 {
				w.typ = append(w.typ, ',')
			}
			w.typ = append(appendJSONName(w.typ, e.name), ':')
		}
		t, err := w.value(e.value)
		if err != nil {
			return nil, within(err, func(p path.Path) path.Path { return p.AtName(e.name) })
		}
		if w.shapes {
			names[i], elems[i] = e.name, t
		}
	}
	if w.shapes {
		return w.types.mappingType(names, elems), nil
	}
	w.typ = append(w.typ, "}]"...)
	return nil, nil
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
