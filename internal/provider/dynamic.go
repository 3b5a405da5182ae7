package provider

import (
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

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
