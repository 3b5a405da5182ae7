package wire

// Data source configurations read from msgpack, and states written to it, for the hot calls.

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// terraform-plugin-go decodes a configuration item by item, with an attribute path built for each
// (for its error messages) and the JSON type of every dynamic value (facts, scope) parsed again:
// half the cost of a trivial data source's validation. UnmarshalConfig reads the top-level
// attributes itself, remembers the types, and leaves anything unusual to terraform-plugin-go. It
// returns them without the object value around them: building one checks every attribute's type
// again (a tenth of a trivial read), which only validators need (QuickValidator.Valid).

// UnmarshalConfig is the top-level attributes of dv.Unmarshal(typ), the same values, faster for
// the configurations Terraform sends. The attributes named in skip may read as null instead (the
// caller has them already).
func UnmarshalConfig(dv *tfprotov6.DynamicValue, typ tftypes.Object, skip ...string) (map[string]tftypes.Value, error) {
	if attrs, ok := QuickUnmarshal(dv.MsgPack, typ, skip...); ok {
		return attrs, nil
	}
	v, err := dv.Unmarshal(typ)
	var attrs map[string]tftypes.Value
	if err == nil {
		err = v.As(&attrs)
	}
	return attrs, err
}

// QuickUnmarshal reads b, a msgpack map with every attribute of typ, into the attributes' values,
// each of its type; ok is false otherwise. The attributes named in skip read as null.
func QuickUnmarshal(b []byte, typ tftypes.Object, skip ...string) (attrs map[string]tftypes.Value, ok bool) {
	n, at := mapHeader(b)
	if at == 0 || n != len(typ.AttributeTypes) || len(typ.OptionalAttributes) > 0 {
		return nil, false
	}
	attrs = make(map[string]tftypes.Value, n)
	for range n {
		name, keyLen := msgpackString(b[at:])
		at += keyLen
		valueLen := MsgpackLen(b[at:])
		t, known := typ.AttributeTypes[name]
		if keyLen == 0 || valueLen == 0 || !known {
			return nil, false
		}
		if slices.Contains(skip, name) {
			attrs[name] = tftypes.NewValue(t, nil)
		} else if attrs[name], ok = quickValue(b[at:at+valueLen], t); !ok {
			return nil, false
		}
		at += valueLen
	}
	return attrs, at == len(b) && len(attrs) == n
}

// AttributeBytes returns the msgpack encodings of the named top-level attributes of config, a
// msgpack map, in the order of names; ok is false when config is not such a map or lacks one.
func AttributeBytes(config []byte, names ...string) (values [][]byte, ok bool) {
	n, at := mapHeader(config)
	if at == 0 {
		return nil, false
	}
	values = make([][]byte, len(names))
	found := 0
	for range n {
		name, keyLen := msgpackText(config[at:])
		at += keyLen
		valueLen := MsgpackLen(config[at:])
		if keyLen == 0 || valueLen == 0 {
			return nil, false
		}
		if i := slices.IndexFunc(names, func(want string) bool { return string(name) == want }); i >= 0 {
			if values[i] != nil {
				return nil, false // twice: which one counts is the decoder's business
			}
			values[i] = config[at : at+valueLen]
			found++
		}
		at += valueLen
	}
	return values, found == len(names)
}

// quickValue reads b, one msgpack item, as a value of type t.
func quickValue(b []byte, t tftypes.Type) (tftypes.Value, bool) {
	switch c := b[0]; {
	case c >= 0xc7 && c <= 0xc9 || c >= 0xd4 && c <= 0xd8: // an extension: unknown, as in go-cty
		return tftypes.NewValue(t, tftypes.UnknownValue), true
	case c == 0xc0:
		return tftypes.NewValue(t, nil), true
	case t.Is(tftypes.DynamicPseudoType):
		// [type as JSON, value]
		typeLen := MsgpackLen(b[1:])
		if c != 0x92 || typeLen == 0 {
			break
		}
		concrete, ok := typeOfJSON(b[1 : 1+typeLen])
		if !ok {
			break
		}
		v, err := (&tfprotov6.DynamicValue{MsgPack: b[1+typeLen:]}).Unmarshal(concrete)
		return v, err == nil
	case t.Is(tftypes.String):
		if s, n := msgpackString(b); n == len(b) {
			return tftypes.NewValue(tftypes.String, s), true
		}
	case t.Is(tftypes.Bool):
		if c == 0xc2 || c == 0xc3 {
			return tftypes.NewValue(tftypes.Bool, c == 0xc3), true
		}
	default:
		v, err := (&tfprotov6.DynamicValue{MsgPack: b}).Unmarshal(t)
		return v, err == nil
	}
	return tftypes.Value{}, false
}

// jsonTypes remembers the types of dynamic values by their msgpack-encoded JSON: a plan's data
// sources mostly pass facts of one shape.
var jsonTypes struct {
	sync.RWMutex
	m map[string]tftypes.Type
}

const maxJSONTypes = 1 << 10

// typeOfJSON reads a dynamic value's type, b its msgpack-encoded JSON.
func typeOfJSON(b []byte) (tftypes.Type, bool) {
	jsonTypes.RLock()
	t, ok := jsonTypes.m[string(b)]
	jsonTypes.RUnlock()
	if ok {
		return t, true
	}
	// The type of a null dynamic value of that type, as terraform-plugin-go reads it.
	v, err := (&tfprotov6.DynamicValue{MsgPack: append(append([]byte{0x92}, b...), 0xc0)}).Unmarshal(tftypes.DynamicPseudoType)
	if err != nil {
		return nil, false
	}
	jsonTypes.Lock()
	defer jsonTypes.Unlock()
	if jsonTypes.m == nil || len(jsonTypes.m) >= maxJSONTypes {
		jsonTypes.m = map[string]tftypes.Type{} // simple bound: start over
	}
	jsonTypes.m[string(b)] = v.Type()
	return v.Type(), true
}

// A data source's state is its configuration with the read-only attributes (value, json, found,
// explanation) filled in. Encoding the whole state again cost as much as the lookup when the
// configuration carries facts (a dynamic value is written with its type as JSON); splicing keeps
// the configuration's own bytes for every other attribute.

// ComputedAttributes are the top-level attributes a read fills in. A block's computed attribute
// would need more than state writes: the direct path refuses it.
func ComputedAttributes(s schema.Schema) (map[string]bool, error) {
	computed := map[string]bool{}
	for name, a := range s.Attributes {
		if a.IsComputed() {
			computed[name] = true
		}
	}
	for name, b := range s.Blocks {
		single, ok := b.(schema.SingleNestedBlock)
		if !ok {
			return nil, fmt.Errorf("block %s: only single nested blocks are read directly", name)
		}
		for attrName, a := range single.Attributes {
			if a.IsComputed() {
				return nil, fmt.Errorf("block %s: computed attribute %s", name, attrName)
			}
		}
	}
	return computed, nil
}

// SpliceState returns config, a msgpack map of attribute names to values, with the values of the
// attributes replace gives new encodings for (replace sees each name's text in config, not a copy,
// and appends the encoding to pieces: one slice, or the chunks of one too large to join first).
// ok is false when config is not such a map or lacks one of the wanted attributes: the caller then
// encodes the state in full.
func SpliceState(config []byte, wanted int, replace func(name []byte, pieces []Piece) ([]Piece, bool)) (state []byte, ok bool) {
	n, at := mapHeader(config)
	if at == 0 {
		return nil, false
	}
	// The pieces of the state in order, then one buffer of their size: a fleet's state is hundreds
	// of megabytes, which appending would copy and double.
	pieces := make([]Piece, 0, 2*n+1)
	pieces = append(pieces, Piece{Bytes: config[:at]})
	replaced := 0
	for range n {
		name, keyLen := msgpackText(config[at:])
		if keyLen == 0 {
			return nil, false
		}
		valueLen := MsgpackLen(config[at+keyLen:])
		if valueLen == 0 {
			return nil, false
		}
		pieces = append(pieces, Piece{Bytes: config[at : at+keyLen]})
		if with, ok := replace(name, pieces); ok {
			pieces = with
			replaced++
		} else {
			pieces = append(pieces, Piece{Bytes: config[at+keyLen : at+keyLen+valueLen]})
		}
		at += keyLen + valueLen
	}
	if at != len(config) || replaced != wanted {
		return nil, false
	}
	return Join(pieces), true
}

// mapHeader reads a msgpack map header: its number of pairs and length (0: not a map).
func mapHeader(b []byte) (pairs, length int) {
	switch {
	case len(b) >= 1 && b[0]&0xf0 == 0x80:
		return int(b[0] & 0x0f), 1
	case len(b) >= 3 && b[0] == 0xde:
		return int(binary.BigEndian.Uint16(b[1:])), 3
	case len(b) >= 5 && b[0] == 0xdf:
		return int(binary.BigEndian.Uint32(b[1:])), 5
	}
	return 0, 0
}

// StringValue reads b, one msgpack item, as a string; ok is false for anything else (null, unknown).
func StringValue(b []byte) (s string, ok bool) {
	s, n := msgpackString(b)
	return s, n > 0 && n == len(b)
}

// msgpackString reads a msgpack string: its text and encoded length (0: not a string).
func msgpackString(b []byte) (string, int) {
	text, n := msgpackText(b)
	return string(text), n
}

// msgpackText is msgpackString's text without a copy, for names that are only compared: a string
// made of each attribute name cost an allocation per attribute of every read.
func msgpackText(b []byte) ([]byte, int) {
	n := MsgpackLen(b)
	if n == 0 {
		return nil, 0
	}
	switch c := b[0]; {
	case c&0xe0 == 0xa0:
		return b[1:n], n
	case c == 0xd9:
		return b[2:n], n
	case c == 0xda:
		return b[3:n], n
	case c == 0xdb:
		return b[5:n], n
	}
	return nil, 0
}

// MsgpackLen is the encoded length of the msgpack item b starts with (0: truncated or not
// msgpack).
func MsgpackLen(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	c := b[0]
	// head is the length of the item's header, size that of its payload; items counts the
	// items that follow (an array's elements, a map's keys and values).
	head, size, items := 1, 0, 0
	be := func(n int) int { // a big-endian length of n bytes after the type byte
		if len(b) < 1+n {
			return -1
		}
		switch n {
		case 1:
			return int(b[1])
		case 2:
			return int(binary.BigEndian.Uint16(b[1:]))
		default:
			return int(binary.BigEndian.Uint32(b[1:]))
		}
	}
	switch {
	case c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3: // fixint, nil, bool
	case c&0xf0 == 0x80: // fixmap
		items = 2 * int(c&0x0f)
	case c&0xf0 == 0x90: // fixarray
		items = int(c & 0x0f)
	case c&0xe0 == 0xa0: // fixstr
		size = int(c & 0x1f)
	case c == 0xc4 || c == 0xd9: // bin8, str8
		head, size = 2, be(1)
	case c == 0xc5 || c == 0xda: // bin16, str16
		head, size = 3, be(2)
	case c == 0xc6 || c == 0xdb: // bin32, str32
		head, size = 5, be(4)
	case c == 0xc7: // ext8
		head, size = 3, be(1)
	case c == 0xc8: // ext16
		head, size = 4, be(2)
	case c == 0xc9: // ext32
		head, size = 6, be(4)
	case c == 0xca || c == 0xce || c == 0xd2: // float32, uint32, int32
		size = 4
	case c == 0xcb || c == 0xcf || c == 0xd3: // float64, uint64, int64
		size = 8
	case c == 0xcc || c == 0xd0: // uint8, int8
		size = 1
	case c == 0xcd || c == 0xd1: // uint16, int16
		size = 2
	case c >= 0xd4 && c <= 0xd8: // fixext 1, 2, 4, 8, 16
		size = 1 + 1<<(c-0xd4)
	case c == 0xdc: // array16
		head, items = 3, be(2)
	case c == 0xdd: // array32
		head, items = 5, be(4)
	case c == 0xde: // map16
		head, items = 3, 2*be(2)
	case c == 0xdf: // map32
		head, items = 5, 2*be(4)
	default: // 0xc1: never used
		return 0
	}
	if size < 0 || items < 0 || head+size > len(b) {
		return 0
	}
	at := head + size
	for range items {
		n := MsgpackLen(b[at:])
		if n == 0 {
			return 0
		}
		at += n
	}
	return at
}

// SplitDynamic reads a dynamic value as the state holds it, [its type as JSON, the value]: the
// type's JSON text and the value's msgpack, each without a copy.
func SplitDynamic(b []byte) (typeJSON, value []byte, ok bool) {
	if len(b) < 2 || b[0] != 0x92 {
		return nil, nil, false
	}
	n := MsgpackLen(b[1:])
	head := 0
	switch b[1] {
	case 0xc4:
		head = 2
	case 0xc5:
		head = 3
	case 0xc6:
		head = 5
	}
	if n == 0 || head == 0 || MsgpackLen(b[1+n:]) != len(b)-1-n {
		return nil, nil, false
	}
	return b[1+head : 1+n], b[1+n:], true
}
