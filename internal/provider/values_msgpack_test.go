package provider

import (
	"bytes"
	"math"
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/provider/wire"
)

// tfWriter writes what toTF and terraform-plugin-go's marshaling write, byte for byte, for every
// kind of engine value (null inside others: hiera_node's values is an object); and fails where
// toTF fails, with the same message.
func TestTFWriter_sameAsTFTypes(t *testing.T) {
	huge, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	exact, _, _ := big.ParseFloat("0.1000000000000000000001", 10, 200, big.ToNearestEven)
	hash := func(kv ...any) *model.Hash {
		h := model.NewHash(len(kv) / 2)
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	values := map[string]any{
		"true": true, "false": false, "string": "héllo", "long string": string(bytes.Repeat([]byte("x"), 70000)),
		"empty array": []any{}, "empty hash": hash(),
		"big int": huge, "big float": exact, "float": 1.5, "integral float": 2.0, "huge float": 1e300, "tiny float": 5e-324,
		"mixed": []any{nil, "a", int64(1), []any{true}, hash("k", nil)},
		"keys":  hash("zulu", int64(1), "alpha", int64(2), "<&>\"", "html", int64(7), "integer key", true, "bool key", 2.5, "float key"),
	}
	for _, n := range []int64{0, 1, 127, 128, 255, 256, 65535, 65536, 1 << 32, math.MaxInt64, -1, -32, -33, -128, -129, -32768, -32769, -1 << 31, (-1 << 31) - 1, math.MinInt64} {
		values["int "+big.NewInt(n).String()] = n
	}
	many, manyKeys := []any{}, model.NewHash(20) // past the fixed-size headers
	for i := range 20 {
		many = append(many, int64(i))
		manyKeys.Set(big.NewInt(int64(i)).String(), int64(i))
	}
	values["many"], values["many keys"] = many, manyKeys
	for name, v := range values {
		w := newTFWriter(false)
		if _, err := w.value(v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := append(wire.AppendBinary(wire.AppendArrayHeader(nil, 2), w.typ), w.val...)
		tv, err := toTF(v)
		if err != nil {
			t.Fatalf("%s: toTF: %v", name, err)
		}
		want, err := tfprotov6.NewDynamicValue(tftypes.DynamicPseudoType, tv)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got, want.MsgPack) {
			back, err := (&tfprotov6.DynamicValue{MsgPack: got}).Unmarshal(tftypes.DynamicPseudoType)
			t.Errorf("%s: bytes differ from terraform-plugin-go's; read back: %v (%v), want %v", name, back, err, tv)
		}
	}
	for name, v := range map[string]any{"NaN": []any{math.NaN()}, "twice the same key": hash(int64(1), "a", "1", "b")} {
		w := newTFWriter(false)
		_, err := w.value(v)
		_, want := toTF(v)
		if err == nil || want == nil || withPath(err, path.Root("values")).Error() != withPath(want, path.Root("values")).Error() {
			t.Errorf("%s: error %v, toTF's %v", name, err, want)
		}
	}
}
