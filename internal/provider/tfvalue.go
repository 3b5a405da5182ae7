package provider

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
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
