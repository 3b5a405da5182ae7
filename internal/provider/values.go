package provider

// Values between Terraform and the engine, both directions: tftypes/attr values to engine values (from*)
// and engine values to dynamic Terraform values (toDynamic, toTF).

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

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// errUnknown reports a value that is not known yet (computed at apply time).
var errUnknown = errors.New("value is not known until apply")

// fromAttr converts a user's value (facts, scope, default_value) into plain Go data for the engine:
// objects and maps become map[string]any, lists, tuples and sets []any, numbers as
// model.FromBigFloat keeps them (exact). A null value is nil. It works on the Terraform
// value underneath, so every attr.Value kind (dynamic, object, map, ...) goes the same way.
func fromAttr(ctx context.Context, v attr.Value, at path.Path) (any, error) {
	tv, err := v.ToTerraformValue(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", at, err)
	}
	return fromTF(tv, at)
}

func fromTF(v tftypes.Value, at path.Path) (any, error) {
	g, err := fromTFValue(v)
	if err != nil {
		return nil, withPath(err, at)
	}
	return g, nil
}

// fromTFValue is fromTF with the path of a failing element built only on failure (see convError):
// building it at every level cost depth² on deep values.
func fromTFValue(v tftypes.Value) (any, error) {
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
		return model.FromBigFloat(&f), nil // exact, whatever its digits
	case typ.Is(tftypes.Object{}), typ.Is(tftypes.Map{}):
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			return nil, err
		}
		out := make(map[string]any, len(m))
		for k, e := range m {
			ge, err := fromTFValue(e)
			if err != nil {
				return nil, within(err, func(p path.Path) path.Path { return p.AtName(k) })
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
			ge, err := fromTFValue(e)
			if err != nil {
				return nil, within(err, func(p path.Path) path.Path { return p.AtListIndex(i) })
			}
			out[i] = ge
		}
		return out, nil
	}
	return nil, &convError{msg: fmt.Sprintf("unsupported Terraform type %s", typ)}
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
	case *model.Hash, map[string]any:
		return "an object"
	}
	return "a number"
}

// Schema pieces shared by the provider and all three data sources.

// toDynamic converts an engine value into a Terraform dynamic value with its real types: hashes
// become objects and arrays tuples, because Hiera data is heterogeneous and a dynamic value cannot
// be the element type of a map or list. at names the attribute, for error messages.
func toDynamic(v any, at path.Path) (types.Dynamic, error) {
	if v == nil {
		return types.DynamicNull(), nil
	}
	tv, err := toTF(v)
	if err != nil {
		return types.DynamicNull(), withPath(err, at)
	}
	return types.DynamicValue(tfValue{tv}), nil
}

// convError is a conversion failure with the path to the failing element. The path is built only
// when something fails: building it for every element was most of the conversion's cost.
type convError struct {
	msg   string
	steps []func(path.Path) path.Path // outermost first
}

func (e *convError) Error() string { return e.msg }

// withPath words a convError with the path of the failing element below at.
func withPath(err error, at path.Path) error {
	var ce *convError
	if !errors.As(err, &ce) {
		return err
	}
	for _, step := range ce.steps {
		at = step(at)
	}
	return fmt.Errorf("%s: %s", at, ce.msg)
}

// within records that err happened inside the element that step leads to.
func within(err error, step func(path.Path) path.Path) error {
	var ce *convError
	if errors.As(err, &ce) {
		ce.steps = append([]func(path.Path) path.Path{step}, ce.steps...)
		return ce
	}
	return err
}

// toTF converts one engine value into a Terraform value, building each element's type once,
// bottom-up, and sharing it with the parent's: the framework's object and tuple values rebuild the
// types of their whole subtree at every level (ObjectValue.ToTerraformValue), which made a value
// nested 1,000 levels deep (the data files' limit) cost seconds.
func toTF(v any) (tftypes.Value, error) {
	switch t := v.(type) {
	case nil:
		return tftypes.NewValue(tftypes.DynamicPseudoType, nil), nil
	case bool:
		return tftypes.NewValue(tftypes.Bool, t), nil
	case string:
		return tftypes.NewValue(tftypes.String, t), nil
	case int64:
		return tftypes.NewValue(tftypes.Number, new(big.Float).SetInt64(t)), nil
	case *big.Int:
		return tftypes.NewValue(tftypes.Number, new(big.Float).SetInt(t)), nil
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return tftypes.Value{}, &convError{msg: fmt.Sprintf("%v cannot be represented as a Terraform number", t)}
		}
		return tftypes.NewValue(tftypes.Number, big.NewFloat(t)), nil
	case *big.Float:
		return tftypes.NewValue(tftypes.Number, t), nil
	case []any:
		elems := make([]tftypes.Value, len(t))
		elemTypes := make([]tftypes.Type, len(t))
		for i, e := range t {
			ev, err := toTF(e)
			if err != nil {
				return tftypes.Value{}, within(err, func(p path.Path) path.Path { return p.AtListIndex(i) })
			}
			elems[i], elemTypes[i] = ev, ev.Type()
		}
		return tftypes.NewValue(tftypes.Tuple{ElementTypes: elemTypes}, elems), nil
	case *model.Hash:
		attrs := make(map[string]tftypes.Value, t.Len())
		attrTypes := make(map[string]tftypes.Type, t.Len())
		var err error
		t.Each(func(k, e any) bool {
			name := keyString(k)
			if _, dup := attrs[name]; dup {
				err = &convError{msg: fmt.Sprintf("two hash keys read as %q once made strings", name)}
				return false
			}
			ev, cerr := toTF(e)
			if cerr != nil {
				err = within(cerr, func(p path.Path) path.Path { return p.AtName(name) })
				return false
			}
			attrs[name], attrTypes[name] = ev, ev.Type()
			return true
		})
		if err != nil {
			return tftypes.Value{}, err
		}
		return tftypes.NewValue(tftypes.Object{AttributeTypes: attrTypes}, attrs), nil
	}
	return tftypes.Value{}, &convError{msg: fmt.Sprintf("unsupported engine value of Go type %T", v)}
}

// tfValue is a Terraform value that toTF built, as the value inside a types.Dynamic: the framework
// only asks it for its Terraform value, which is returned as it is.
type tfValue struct{ v tftypes.Value }

func (t tfValue) Type(context.Context) attr.Type { return tfValueType{t.v.Type()} }

func (t tfValue) ToTerraformValue(context.Context) (tftypes.Value, error) { return t.v, nil }

func (t tfValue) Equal(o attr.Value) bool {
	if o == nil {
		return false
	}
	ov, err := o.ToTerraformValue(context.Background())
	return err == nil && t.v.Equal(ov)
}

func (t tfValue) IsNull() bool { return t.v.IsNull() }

func (t tfValue) IsUnknown() bool { return !t.v.IsKnown() }

func (t tfValue) String() string { return t.v.String() }

// tfValueType is the type of a tfValue.
type tfValueType struct{ t tftypes.Type }

func (t tfValueType) TerraformType(context.Context) tftypes.Type { return t.t }

func (t tfValueType) ValueFromTerraform(_ context.Context, v tftypes.Value) (attr.Value, error) {
	return tfValue{v}, nil
}

func (t tfValueType) ValueType(context.Context) attr.Value {
	return tfValue{tftypes.NewValue(t.t, nil)}
}

func (t tfValueType) Equal(o attr.Type) bool {
	ot, ok := o.(tfValueType)
	return ok && t.t.Equal(ot.t)
}

func (t tfValueType) String() string { return t.t.String() }

func (t tfValueType) ApplyTerraform5AttributePathStep(step tftypes.AttributePathStep) (any, error) {
	return nil, fmt.Errorf("cannot apply path step %v to a Terraform value of type %s", step, t.t)
}

func keyString(k any) string {
	switch t := k.(type) {
	case string:
		return t
	case nil:
		return ""
	}
	if b, err := datafile.MarshalJSON(k); err == nil {
		return string(b)
	}
	return fmt.Sprint(k)
}
