// Values between Terraform and the engine, both directions: tftypes/attr values to engine values (from*)
// and engine values to dynamic Terraform values (toDynamic, toAttr).
package provider

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// errUnknown reports a value that is not known yet (computed at apply time).
var errUnknown = errors.New("value is not known until apply")

// fromAttr converts a user's value (facts, scope, default_value) into plain Go data for the engine:
// objects and maps become map[string]any, lists, tuples and sets []any, numbers int64 or *big.Int
// when they are integers and float64 otherwise. A null value is nil. It works on the Terraform
// value underneath, so every attr.Value kind (dynamic, object, map, ...) goes the same way.
func fromAttr(ctx context.Context, v attr.Value, at path.Path) (any, error) {
	tv, err := v.ToTerraformValue(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", at, err)
	}
	return fromTF(tv, at)
}

func fromTF(v tftypes.Value, at path.Path) (any, error) {
	if !v.IsKnown() {
		return nil, errUnknown
	}
	if v.IsNull() {
		return nil, nil
	}
	typ := v.Type()
	switch {
	case typ.Is(tftypes.String):
		var s string
		err := v.As(&s)
		return s, err
	case typ.Is(tftypes.Bool):
		var b bool
		err := v.As(&b)
		return b, err
	case typ.Is(tftypes.Number):
		var f big.Float
		if err := v.As(&f); err != nil {
			return nil, err
		}
		return fromNumber(&f), nil
	case typ.Is(tftypes.Object{}), typ.Is(tftypes.Map{}):
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			return nil, err
		}
		out := make(map[string]any, len(m))
		for k, e := range m {
			ge, err := fromTF(e, at.AtName(k))
			if err != nil {
				return nil, err
			}
			out[k] = ge
		}
		return out, nil
	case typ.Is(tftypes.List{}), typ.Is(tftypes.Tuple{}), typ.Is(tftypes.Set{}):
		var l []tftypes.Value
		if err := v.As(&l); err != nil {
			return nil, err
		}
		out := make([]any, len(l))
		for i, e := range l {
			ge, err := fromTF(e, at.AtListIndex(i))
			if err != nil {
				return nil, err
			}
			out[i] = ge
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s: unsupported Terraform type %s", at, typ)
}

// fromNumber keeps integers exact (int64, else *big.Int) and turns the rest into float64, as YAML
// data would give them to Hiera.
func fromNumber(f *big.Float) any {
	if f.IsInt() {
		i, _ := f.Int(nil)
		if i.IsInt64() {
			return i.Int64()
		}
		return i
	}
	x, _ := f.Float64()
	return x
}

// objectArg reads facts or scope: an object (or map) of any shape, or null.
func objectArg(ctx context.Context, v attr.Value, at path.Path) (map[string]any, error) {
	if v.IsNull() {
		return nil, nil
	}
	if v.IsUnknown() {
		return nil, errUnknown
	}
	g, err := fromAttr(ctx, v, at)
	if err != nil {
		return nil, err
	}
	if g == nil {
		return nil, nil
	}
	m, ok := g.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s must be an object such as { role = \"web\" }, got %s", at, tfKind(g))
	}
	return m, nil
}

// tfKind names the kind of a value (engine or plain Go) for messages, in Terraform's words: a
// Hiera array is a list, a hash an object.
func tfKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a bool"
	case string:
		return "a string"
	case []any:
		return "a list"
	case *hiera.Hash, map[string]any:
		return "an object"
	}
	return "a number"
}

// mergeOver returns base with the top-level keys of over replacing its own.
func mergeOver(base, over map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}

// Schema pieces shared by the provider and all three data sources.

// toDynamic converts an engine value into a Terraform dynamic value with its real types: hashes
// become objects and arrays tuples, because Hiera data is heterogeneous and a dynamic value cannot
// be the element type of a map or list. at names the attribute, for error messages.
func toDynamic(v any, at path.Path) (types.Dynamic, error) {
	if v == nil {
		return types.DynamicNull(), nil
	}
	av, _, err := toAttr(v)
	if err != nil {
		var ce *convError
		if errors.As(err, &ce) {
			for _, step := range ce.steps {
				at = step(at)
			}
			return types.DynamicNull(), fmt.Errorf("%s: %s", at, ce.msg)
		}
		return types.DynamicNull(), err
	}
	return types.DynamicValue(av), nil
}

// convError is a conversion failure with the path to the failing element. The path is built only
// when something fails: building it for every element was most of the conversion's cost.
type convError struct {
	msg   string
	steps []func(path.Path) path.Path // outermost first
}

func (e *convError) Error() string { return e.msg }

// within records that err happened inside the element that step leads to.
func within(err error, step func(path.Path) path.Path) error {
	var ce *convError
	if errors.As(err, &ce) {
		ce.steps = append([]func(path.Path) path.Path{step}, ce.steps...)
		return ce
	}
	return err
}

// toAttr converts one engine value, returning its Terraform type too, so that parents need not ask
// every child for its type again (Type() walks the whole subtree).
func toAttr(v any) (attr.Value, attr.Type, error) {
	switch t := v.(type) {
	case nil:
		return types.DynamicNull(), types.DynamicType, nil
	case bool:
		return types.BoolValue(t), types.BoolType, nil
	case string:
		return types.StringValue(t), types.StringType, nil
	case int64:
		return types.NumberValue(new(big.Float).SetInt64(t)), types.NumberType, nil
	case *big.Int:
		return types.NumberValue(new(big.Float).SetInt(t)), types.NumberType, nil
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, nil, &convError{msg: fmt.Sprintf("%v cannot be represented as a Terraform number", t)}
		}
		return types.NumberValue(big.NewFloat(t)), types.NumberType, nil
	case []any:
		elems := make([]attr.Value, len(t))
		elemTypes := make([]attr.Type, len(t))
		for i, e := range t {
			ev, et, err := toAttr(e)
			if err != nil {
				return nil, nil, within(err, func(p path.Path) path.Path { return p.AtListIndex(i) })
			}
			elems[i], elemTypes[i] = ev, et
		}
		return types.TupleValueMust(elemTypes, elems), types.TupleType{ElemTypes: elemTypes}, nil
	case *hiera.Hash:
		attrs := make(map[string]attr.Value, t.Len())
		attrTypes := make(map[string]attr.Type, t.Len())
		var err error
		t.Each(func(k, e any) bool {
			name := keyString(k)
			if _, dup := attrs[name]; dup {
				err = &convError{msg: fmt.Sprintf("two hash keys read as %q once made strings", name)}
				return false
			}
			ev, et, cerr := toAttr(e)
			if cerr != nil {
				err = within(cerr, func(p path.Path) path.Path { return p.AtName(name) })
				return false
			}
			attrs[name], attrTypes[name] = ev, et
			return true
		})
		if err != nil {
			return nil, nil, err
		}
		return types.ObjectValueMust(attrTypes, attrs), types.ObjectType{AttrTypes: attrTypes}, nil
	}
	return nil, nil, &convError{msg: fmt.Sprintf("unsupported engine value of Go type %T", v)}
}

func keyString(k any) string {
	switch t := k.(type) {
	case string:
		return t
	case nil:
		return ""
	}
	if b, err := hiera.MarshalJSON(k); err == nil {
		return string(b)
	}
	return fmt.Sprint(k)
}
