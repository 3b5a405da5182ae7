package provider

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

func tfNum(f float64) types.Number { return types.NumberValue(big.NewFloat(f)) }

func TestFromAttr(t *testing.T) {
	t.Parallel()
	big20, _ := new(big.Float).SetPrec(512).SetString("12345678901234567890")
	testCases := map[string]struct {
		in   attr.Value
		want any
	}{
		"null":        {types.DynamicNull(), nil},
		"null-inside": {types.DynamicValue(types.StringNull()), nil},
		"string":      {types.DynamicValue(types.StringValue("x")), "x"},
		"bool":        {types.BoolValue(false), false},
		"integer":     {tfNum(42), int64(42)},
		"negative":    {tfNum(-3), int64(-3)},
		"float":       {tfNum(0.25), 0.25},
		"big-integer": {types.NumberValue(big20), func() any { i, _ := new(big.Int).SetString("12345678901234567890", 10); return i }()},
		"object": {types.DynamicValue(types.ObjectValueMust(
			map[string]attr.Type{"os": types.ObjectType{AttrTypes: map[string]attr.Type{"family": types.StringType}}, "n": types.NumberType},
			map[string]attr.Value{"os": types.ObjectValueMust(map[string]attr.Type{"family": types.StringType},
				map[string]attr.Value{"family": types.StringValue("Debian")}), "n": tfNum(1)})),
			map[string]any{"os": map[string]any{"family": "Debian"}, "n": int64(1)}},
		"map":   {types.MapValueMust(types.StringType, map[string]attr.Value{"a": types.StringValue("b")}), map[string]any{"a": "b"}},
		"list":  {types.ListValueMust(types.NumberType, []attr.Value{tfNum(1), tfNum(2.5)}), []any{int64(1), 2.5}},
		"set":   {types.SetValueMust(types.StringType, []attr.Value{types.StringValue("s")}), []any{"s"}},
		"tuple": {types.TupleValueMust([]attr.Type{types.StringType, types.BoolType}, []attr.Value{types.StringValue("a"), types.BoolValue(true)}), []any{"a", true}},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := fromAttr(context.Background(), tc.in, path.Root("facts"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got, cmp.Comparer(func(a, b *big.Int) bool { return a.Cmp(b) == 0 })); diff != "" {
				t.Errorf("-wanted, +got:\n%s", diff)
			}
		})
	}
}

func TestFromAttr_unknown(t *testing.T) {
	t.Parallel()
	for name, v := range map[string]attr.Value{
		"top":    types.DynamicUnknown(),
		"nested": types.ListValueMust(types.StringType, []attr.Value{types.StringUnknown()}),
	} {
		if _, err := fromAttr(context.Background(), v, path.Root("facts")); !errors.Is(err, errUnknown) {
			t.Errorf("%s: got %v, want errUnknown", name, err)
		}
	}
}

func TestObjectArg(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	if m, err := objectArg(ctx, types.DynamicNull(), path.Root("facts")); m != nil || err != nil {
		t.Errorf("null: got %v, %v", m, err)
	}
	if _, err := objectArg(ctx, types.DynamicUnknown(), path.Root("facts")); !errors.Is(err, errUnknown) {
		t.Errorf("unknown: got %v", err)
	}
	_, err := objectArg(ctx, types.DynamicValue(types.StringValue("web01")), path.Root("facts"))
	if err == nil || err.Error() != `facts must be an object such as { role = "web" }, got a string` {
		t.Errorf("string: got %v", err)
	}
}

// A value written in Terraform and sent through the engine comes back as the same Terraform value.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	in := types.DynamicValue(types.ObjectValueMust(
		map[string]attr.Type{"l": types.TupleType{ElemTypes: []attr.Type{types.NumberType, types.BoolType}}, "s": types.StringType},
		map[string]attr.Value{"l": types.TupleValueMust([]attr.Type{types.NumberType, types.BoolType}, []attr.Value{tfNum(1.5), types.BoolValue(true)}),
			"s": types.StringValue("x")}))
	g, err := fromAttr(context.Background(), in, path.Root("default_value"))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := hiera.FromGo(g)
	if err != nil {
		t.Fatal(err)
	}
	out, err := toDynamic(ev, path.Root("value"))
	if err != nil {
		t.Fatal(err)
	}
	if !out.Equal(in) {
		t.Errorf("got %s, want %s", out, in)
	}
}

func TestMergeOver(t *testing.T) {
	t.Parallel()
	got := mergeOver(map[string]any{"role": "db", "os": map[string]any{"family": "RedHat"}}, map[string]any{"role": "web"})
	want := map[string]any{"role": "web", "os": map[string]any{"family": "RedHat"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-wanted, +got:\n%s", diff)
	}
}
