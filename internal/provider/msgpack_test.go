package provider

import (
	"bytes"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hieraform/terraform-provider-hiera/internal/provider/wire"
)

// wire.MsgpackLen measures every kind of item Terraform's msgpack holds, at every size class, and
// refuses truncated input.
func TestMsgpackLen(t *testing.T) {
	many := func(n int, v tftypes.Value) tftypes.Value {
		elems := make([]tftypes.Value, n)
		types := make([]tftypes.Type, n)
		for i := range elems {
			elems[i], types[i] = v, v.Type()
		}
		return tftypes.NewValue(tftypes.Tuple{ElementTypes: types}, elems)
	}
	wide := func(n int) tftypes.Value {
		attrs := map[string]tftypes.Value{}
		for i := range n {
			attrs[strings.Repeat("k", i+1)] = tftypes.NewValue(tftypes.Bool, i%2 == 0)
		}
		return object6(attrs)
	}
	huge, _ := new(big.Float).SetString("123456789012345678901234567890")
	for name, v := range map[string]tftypes.Value{
		"null":            tftypes.NewValue(tftypes.String, nil),
		"unknown":         tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"short string":    str6("abc"),
		"str8":            str6(strings.Repeat("x", 200)),
		"str16":           str6(strings.Repeat("x", 35000)),
		"str32":           str6(strings.Repeat("x", 70000)),
		"small int":       tftypes.NewValue(tftypes.Number, big.NewFloat(7)),
		"negative":        tftypes.NewValue(tftypes.Number, big.NewFloat(-7)),
		"int16":           tftypes.NewValue(tftypes.Number, big.NewFloat(-30000)),
		"int64":           tftypes.NewValue(tftypes.Number, big.NewFloat(1e15)),
		"float":           tftypes.NewValue(tftypes.Number, big.NewFloat(0.5)),
		"big number":      tftypes.NewValue(tftypes.Number, huge),
		"fixarray":        many(3, str6("a")),
		"array16":         many(40, tftypes.NewValue(tftypes.Number, big.NewFloat(300))),
		"fixmap":          wide(3),
		"map16":           wide(20),
		"nested":          object6(map[string]tftypes.Value{"a": wide(17), "b": many(2, wide(2))}),
		"dynamic unknown": tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue),
	} {
		for _, typ := range []tftypes.Type{v.Type(), tftypes.DynamicPseudoType} {
			dv, err := tfprotov6.NewDynamicValue(typ, v)
			b := dv.MsgPack
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got := wire.MsgpackLen(append(b, 0xc0)); got != len(b) {
				t.Errorf("%s as %s: length %d, want %d", name, typ, got, len(b))
			}
			if got := wire.MsgpackLen(b[:len(b)-1]); got != 0 {
				t.Errorf("%s as %s, truncated: length %d, want 0", name, typ, got)
			}
		}
	}
}

// A read's state keeps the configuration's bytes and replaces exactly the computed attributes.
func TestSpliceState(t *testing.T) {
	direct, _, _ := configuredPair(t)
	ds := direct.dataSources["hiera_lookup"]
	facts := object6(map[string]tftypes.Value{"role": str6("db"), "os": object6(map[string]tftypes.Value{"family": str6("RedHat")})})
	cfg := encodeConfig(t, ds.typ, map[string]tftypes.Value{"key": str6("k"), "facts": facts})
	found := tftypes.NewValue(tftypes.Bool, true)
	foundDV, _ := tfprotov6.NewDynamicValue(tftypes.Bool, found)
	state, ok := wire.SpliceState(cfg.MsgPack, len(ds.computed), func(nameText []byte, pieces []wire.Piece) ([]wire.Piece, bool) {
		name := string(nameText)
		if !ds.computed[name] {
			return nil, false
		}
		if name == "found" { // in pieces, as a fleet's attributes come
			var chunks wire.Chunks
			chunks.Write(foundDV.MsgPack)
			return append(pieces, wire.Piece{Chunks: &chunks}, wire.Piece{}), true
		}
		null, _ := tfprotov6.NewDynamicValue(ds.typ.AttributeTypes[name], tftypes.NewValue(ds.typ.AttributeTypes[name], nil))
		return append(pieces, wire.Piece{Bytes: null.MsgPack}), true
	})
	if !ok {
		t.Fatal("not spliced")
	}
	want := encodeConfig(t, ds.typ, map[string]tftypes.Value{"key": str6("k"), "facts": facts, "found": found})
	got, err := (&tfprotov6.DynamicValue{MsgPack: state}).Unmarshal(ds.typ)
	if err != nil {
		t.Fatal(err)
	}
	if wantV, _ := want.Unmarshal(ds.typ); !got.Equal(wantV) {
		t.Errorf("got %s, want %s", got, wantV)
	}
	if _, ok := wire.SpliceState(cfg.MsgPack, len(ds.computed)+1, func([]byte, []wire.Piece) ([]wire.Piece, bool) { return nil, false }); ok {
		t.Error("spliced without every wanted attribute")
	}
	if _, ok := wire.SpliceState(cfg.MsgPack[:len(cfg.MsgPack)-1], 0, func([]byte, []wire.Piece) ([]wire.Piece, bool) { return nil, false }); ok {
		t.Error("spliced a truncated configuration")
	}
}

// wire.Chunks holds what was written, over many chunks, and Join moves it out whole.
func TestChunks(t *testing.T) {
	var want []byte
	var c wire.Chunks
	for i := 0; len(want) < 3<<20; i++ {
		p := bytes.Repeat([]byte{byte(i)}, (i*7919)%70000) // from none to larger than a first chunk
		c.Write(p)
		want = append(want, p...)
	}
	if c.Len() != len(want) {
		t.Fatalf("Len %d, want %d", c.Len(), len(want))
	}
	got := wire.Join([]wire.Piece{{Bytes: []byte("head")}, {Chunks: &c}, {Bytes: []byte("tail")}})
	if !bytes.Equal(got, slices.Concat([]byte("head"), want, []byte("tail"))) {
		t.Error("Join is not what was written")
	}
	if c.Len() != 0 || len(wire.Join([]wire.Piece{{Chunks: &c}})) != 0 {
		t.Errorf("%d bytes left after Join moved them", c.Len())
	}
	c.Write([]byte("again"))
	c.Free()
	if c.Len() != 0 {
		t.Errorf("%d bytes left after Free", c.Len())
	}
}

// wire.UnmarshalConfig reads every configuration of the comparison with the framework, and facts of
// every kind, as terraform-plugin-go does, without falling back to it.
func TestQuickUnmarshal(t *testing.T) {
	direct, _, _ := configuredPair(t)
	ds := direct.dataSources["hiera_lookup"]
	configs := dataConfigs(ds.typ)
	for name, facts := range map[string]tftypes.Value{
		"unknown facts":       tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue),
		"unknown inside":      object6(map[string]tftypes.Value{"a": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}),
		"list":                tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{str6("a"), str6("b")}),
		"map":                 tftypes.NewValue(tftypes.Map{ElementType: tftypes.Bool}, map[string]tftypes.Value{"x": tftypes.NewValue(tftypes.Bool, false)}),
		"number":              tftypes.NewValue(tftypes.Number, big.NewFloat(-1.5)),
		"nested with a tuple": object6(map[string]tftypes.Value{"t": tftypes.NewValue(tftypes.Tuple{ElementTypes: []tftypes.Type{tftypes.String, tftypes.Bool}}, []tftypes.Value{str6("x"), tftypes.NewValue(tftypes.Bool, true)})}),
	} {
		configs["facts: "+name] = map[string]tftypes.Value{"key": str6("k"), "facts": facts, "scope": facts}
	}
	for name, attrs := range configs {
		cfg := encodeConfig(t, ds.typ, attrs)
		want, err := cfg.Unmarshal(ds.typ)
		if err != nil {
			t.Fatal(err)
		}
		for round := range 2 { // the second time with the types remembered
			attrs, ok := wire.QuickUnmarshal(cfg.MsgPack, ds.typ)
			if !ok {
				t.Errorf("%s: not read", name)
			} else if got := tftypes.NewValue(ds.typ, attrs); !got.Equal(want) {
				t.Errorf("%s (round %d): got %s, want %s", name, round, got, want)
			}
		}
	}
	if _, ok := wire.QuickUnmarshal([]byte{0x81, 0xa1, 'x', 0xc0}, ds.typ); ok {
		t.Error("read a configuration with an attribute the type does not have")
	}
}
