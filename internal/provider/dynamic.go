package provider

import (
	"context"
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
	av, err := toAttr(v, at)
	if err != nil {
		return types.DynamicNull(), err
	}
	return types.DynamicValue(av), nil
}

func toAttr(v any, at path.Path) (attr.Value, error) {
	switch t := v.(type) {
	case nil:
		return types.DynamicNull(), nil
	case bool:
		return types.BoolValue(t), nil
	case string:
		return types.StringValue(t), nil
	case int64:
		return types.NumberValue(new(big.Float).SetInt64(t)), nil
	case *big.Int:
		// SetInt on a zero-precision Float takes max(64, BitLen) bits: every digit is kept.
		return types.NumberValue(new(big.Float).SetInt(t)), nil
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, fmt.Errorf("%s: %v cannot be represented as a Terraform number", at, t)
		}
		return types.NumberValue(big.NewFloat(t)), nil
	case []any:
		elems := make([]attr.Value, len(t))
		elemTypes := make([]attr.Type, len(t))
		for i, e := range t {
			ev, err := toAttr(e, at.AtListIndex(i))
			if err != nil {
				return nil, err
			}
			elems[i], elemTypes[i] = ev, ev.Type(context.Background())
		}
		return types.TupleValueMust(elemTypes, elems), nil
	case *hiera.Hash:
		attrs := make(map[string]attr.Value, t.Len())
		attrTypes := make(map[string]attr.Type, t.Len())
		var err error
		t.Each(func(k, e any) bool {
			name := keyString(k)
			if _, dup := attrs[name]; dup {
				err = fmt.Errorf("%s: two hash keys read as %q once made strings", at, name)
				return false
			}
			var ev attr.Value
			if ev, err = toAttr(e, at.AtName(name)); err != nil {
				return false
			}
			attrs[name], attrTypes[name] = ev, ev.Type(context.Background())
			return true
		})
		if err != nil {
			return nil, err
		}
		return types.ObjectValueMust(attrTypes, attrs), nil
	}
	return nil, fmt.Errorf("%s: unsupported engine value of Go type %T", at, v)
}

// keyString writes a hash key as Ruby's to_s does, since Terraform object keys are strings. For
// numbers and booleans that is their JSON text, which the engine writes in Ruby's notation.
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
