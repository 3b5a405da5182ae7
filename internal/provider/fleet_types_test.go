package provider

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/provider/wire"
)

// fleetHash is a Hiera hash of the pairs kv.
func fleetHash(kv ...any) *model.Hash {
	h := model.NewHash(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

// A fleet's value is typed with lists and maps where its elements share a type, and two nodes'
// values share the type that both their encodings are values of: each is written as hiera_node
// writes it (the same bytes), and Terraform reads both with the shared type.
func TestFleetTypes_shared(t *testing.T) {
	for _, tc := range []struct {
		name   string
		a, b   any
		shared string // "": none
	}{
		{"lists of lengths", []any{"a", "b"}, []any{"c"}, `["list","string"]`},
		{"an empty array", []any{}, []any{"c"}, `["list","string"]`},
		{"a null element", []any{nil, "a"}, []any{"b"}, `["list","string"]`},
		{"only nulls", []any{nil}, []any{"x"}, `["list","string"]`},
		{"nested", []any{[]any{int64(1)}, []any{int64(2), 3.5}}, []any{}, `["list",["list","number"]]`},
		{"hashes of keys", fleetHash("a", int64(1)), fleetHash("b", int64(2)), `["map","number"]`},
		{"an empty hash", fleetHash(), fleetHash("a", "x"), `["map","string"]`},
		{"objects alike", fleetHash("a", int64(1), "b", "x"), fleetHash("a", int64(2), "b", "y"), `["object",{"a":"number","b":"string"}]`},
		{"a null attribute", fleetHash("a", int64(1), "b", nil), fleetHash("a", int64(2), "b", "y"), `["object",{"a":"number","b":"string"}]`},
		{"objects of other keys", fleetHash("a", int64(1), "b", "x"), fleetHash("a", int64(2)), ""},
		{"tuples alike", []any{"a", true}, []any{"b", false}, `["tuple",["string","bool"]]`},
		{"tuples of lengths", []any{"a", true}, []any{"b"}, ""},
		{"users", fleetHash("alice", fleetHash("uid", int64(1), "shell", "/bin/sh")), fleetHash("bob", fleetHash("uid", int64(2), "shell", "/bin/zsh")),
			`["map",["object",{"shell":"string","uid":"number"}]]`},
		{"a null", nil, "x", `"string"`},
		{"both null", nil, nil, `"dynamic"`},
		{"kinds", "x", int64(1), ""},
		{"array and hash", []any{}, fleetHash(), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var typs []*tfType
			var vals [][]byte
			for _, v := range []any{tc.a, tc.b} {
				fleetW, nodeW := newTFWriter(true), newTFWriter(false)
				typ, err1 := fleetW.value(v)
				_, err2 := nodeW.value(v)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if !bytes.Equal(fleetW.val, nodeW.val) {
					t.Errorf("%v: the fleet's value is written %x, hiera_node's %x", v, fleetW.val, nodeW.val)
				}
				typs, vals = append(typs, typ), append(vals, bytes.Clone(fleetW.val))
				fleetW.release()
				nodeW.release()
			}
			shared := (&unifier{unifyWork}).unify(typs[0], typs[1])
			if (shared == nil) != (tc.shared == "") || (shared != nil && shared.String() != tc.shared) {
				t.Fatalf("%v and %v share %v, want %s", typs[0], typs[1], shared, tc.shared)
			}
			nodes := (&unifier{unifyWork}).unifyNodes(&tfType{kind: kindObject, names: []string{"k"}, elems: typs[:1]}, &tfType{kind: kindObject, names: []string{"k"}, elems: typs[1:]})
			if (nodes == nil) != (shared == nil) {
				t.Errorf("two nodes' values of these share %v", nodes)
			}
			for i, typ := range []*tfType{typs[0], typs[1], shared} {
				if typ == nil {
					continue
				}
				for _, val := range vals {
					dv := append(wire.AppendBinary(wire.AppendArrayHeader(nil, 2), appendTypeJSON(nil, typ)), val...)
					if _, err := (&tfprotov6.DynamicValue{MsgPack: dv}).Unmarshal(tftypes.DynamicPseudoType); err != nil && (i == 2 || bytes.Equal(val, vals[i])) {
						t.Errorf("%x is not a value of %v: %v", val, typ, err)
					}
				}
			}
		})
	}
}

// hiera_nodes' values are a map when the nodes' values share a type, else an object of each
// node's values' type.
func TestNodesDataSource_valuesMapWhenShared(t *testing.T) {
	t.Parallel()
	pd := &providerData{engines: newEngineCache(), factsFiles: newFactsFileCache(), config: "testdata/site/hiera.yaml"}
	for keys, want := range map[string]string{
		"greeting,packages": `["map",["object",{"greeting":"string","packages":["list","string"]}]]`,
		"":                  `["object",{"app01.example.com":["object",{`, // whole nodes: keys of their own
	} {
		m := nodesModel{lookupArgs: lookupArgs{Facts: types.DynamicNull(), Scope: types.DynamicNull(), FactsFile: types.StringNull()},
			FactsDir: types.StringValue("testdata/fleet"), Nodes: types.DynamicNull(), Keys: types.ListNull(types.StringType),
			Prefixes: types.ListNull(types.StringType), Select: types.ListNull(types.StringType)}
		if keys != "" {
			var list []attr.Value
			for _, k := range strings.Split(keys, ",") {
				list = append(list, types.StringValue(k))
			}
			m.Keys = types.ListValueMust(types.StringType, list)
		}
		out, diags := pd.readNodes(context.Background(), &m, nil)
		if diags.HasError() {
			t.Fatal(diags)
		}
		typ, _, ok := wire.SplitDynamic(wire.Join(out.attributes["values"]))
		if !ok || !strings.HasPrefix(string(typ), want) {
			t.Errorf("keys %q: values' type %.200s, want %s...", keys, typ, want)
		}
	}
}

// Arrays nested deep, each of two (their pairs to unify grow as 5 to the depth): the typing stops
// at its bound of work, and the type it gives is still one of the value.
func TestFleetTypes_boundedWork(t *testing.T) {
	var nested func(depth int) any
	leaves := 0
	nested = func(depth int) any {
		if depth == 0 {
			leaves++
			return []any{"x", int64(leaves)}
		}
		return []any{nested(depth - 1), nested(depth - 1)}
	}
	v := nested(12)
	w := newTFWriter(true)
	defer w.release()
	typ, err := w.value(v)
	if err != nil {
		t.Fatal(err)
	}
	if done := unifyWork - w.types.work; done > unifyWork+4*leaves {
		t.Errorf("%d unifications for %d leaves, bound %d", done, leaves, unifyWork)
	}
	dv := append(wire.AppendBinary(wire.AppendArrayHeader(nil, 2), appendTypeJSON(nil, typ)), w.val...)
	if _, err := (&tfprotov6.DynamicValue{MsgPack: dv}).Unmarshal(tftypes.DynamicPseudoType); err != nil {
		t.Errorf("the value is not one of its type %.100s: %v", typ, err)
	}
}
