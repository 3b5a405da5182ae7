package provider

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

func hash(kv ...any) *hiera.Hash {
	h := hiera.NewHash(len(kv) / 2)
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
		n, ok := got.UnderlyingValue().(types.Number)
		if !ok {
			t.Fatalf("got %s, want a number", got)
		}
		if txt := n.ValueBigFloat().Text('f', 0); txt != s {
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
