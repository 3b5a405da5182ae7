package provider

import (
	"context"
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
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
	ev, err := model.FromGo(g)
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

func hash(kv ...any) *model.Hash {
	h := model.NewHash(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

func bigInt(t *testing.T, s string) *big.Int {
	t.Helper()
	i, ok := new(big.Int).SetString(s, 10)
	if !ok {
		t.Fatalf("bad big int %q", s)
	}
	return i
}

func TestToDynamic(t *testing.T) {
	t.Parallel()
	big20 := bigInt(t, "12345678901234567890")
	str := types.StringValue
	testCases := map[string]struct {
		in   any
		want types.Dynamic
	}{
		"null":   {nil, types.DynamicNull()},
		"bool":   {true, types.DynamicValue(types.BoolValue(true))},
		"string": {"x", types.DynamicValue(str("x"))},
		"int64":  {int64(-42), types.DynamicValue(types.NumberValue(big.NewFloat(-42)))},
		"float":  {1.5, types.DynamicValue(types.NumberValue(big.NewFloat(1.5)))},
		"tuple": {[]any{"a", int64(1), nil}, types.DynamicValue(types.TupleValueMust(
			[]attr.Type{types.StringType, types.NumberType, types.DynamicType},
			[]attr.Value{str("a"), types.NumberValue(big.NewFloat(1)), types.DynamicNull()}))},
		"non-string-keys": {hash(int64(1), "one", true, "t", nil, "n", 2.0, "f", big20, "b"), types.DynamicValue(types.ObjectValueMust(
			map[string]attr.Type{"1": types.StringType, "true": types.StringType, "": types.StringType, "2.0": types.StringType, "12345678901234567890": types.StringType},
			map[string]attr.Value{"1": str("one"), "true": str("t"), "": str("n"), "2.0": str("f"), "12345678901234567890": str("b")}))},
		"nested": {hash("o", hash("l", []any{}), "e", hash()), types.DynamicValue(types.ObjectValueMust(
			map[string]attr.Type{
				"o": types.ObjectType{AttrTypes: map[string]attr.Type{"l": types.TupleType{ElemTypes: []attr.Type{}}}},
				"e": types.ObjectType{AttrTypes: map[string]attr.Type{}},
			},
			map[string]attr.Value{
				"o": types.ObjectValueMust(map[string]attr.Type{"l": types.TupleType{ElemTypes: []attr.Type{}}},
					map[string]attr.Value{"l": types.TupleValueMust([]attr.Type{}, []attr.Value{})}),
				"e": types.ObjectValueMust(map[string]attr.Type{}, map[string]attr.Value{}),
			}))},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := toDynamic(tc.in, path.Root("value"))
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(tc.want) {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// Big integers must survive with every digit, beyond what a float64 holds.
func TestToDynamic_bigIntExact(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"12345678901234567890", "-98765432109876543210987654321098765432109876543210"} {
		got, err := toDynamic(bigInt(t, s), path.Root("value"))
		if err != nil {
			t.Fatal(err)
		}
		tv, err := got.ToTerraformValue(context.Background())
		var n big.Float
		if err != nil || tv.As(&n) != nil {
			t.Fatalf("got %s, want a number", got)
		}
		if txt := n.Text('f', 0); txt != s {
			t.Errorf("got %s, want %s", txt, s)
		}
	}
}

func TestToDynamic_errors(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		in   any
		want string
	}{
		"nan":           {[]any{math.NaN()}, "value[0]: NaN cannot be represented"},
		"inf":           {hash("a", math.Inf(1)), `value.a: +Inf cannot be represented`},
		"duplicate-key": {hash(int64(1), "x", "1", "y"), `two hash keys read as "1"`},
		"unsupported":   {hash("a", struct{}{}), "unsupported engine value of Go type struct {}"},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := toDynamic(tc.in, path.Root("value"))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestKeyString(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		in   any
		want string
	}{
		"string":               {"a.b", "a.b"},
		"nil":                  {nil, ""},
		"false":                {false, "false"},
		"int":                  {int64(-7), "-7"},
		"float":                {2.5, "2.5"},
		"float-whole":          {100.0, "100.0"},
		"float-big":            {1e20, "1.0e+20"},
		"float-small":          {0.00001, "1.0e-05"},
		"float-small-fraction": {1.5e-7, "1.5e-07"},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := keyString(tc.in); got != tc.want {
				t.Errorf("keyString(%v) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
