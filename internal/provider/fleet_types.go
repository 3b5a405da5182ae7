package provider

// The types of hiera_nodes' values. Terraform reads the type of a dynamic value before the value,
// and a fleet's values typed node by node are as many types as nodes: most of a 4-key answer's
// bytes, all of which Terraform decodes, checks and stores. So the fleet's values are a map of node
// name to the node's values when every node's have one type (one type for Terraform to read), else
// an object as today. To let the most fleets share one type, a Hiera array in a fleet is a list
// and a hash a map wherever their elements share a type (a null, an empty array and an empty hash
// sharing any), a tuple and an object elsewhere: for_each, indexing and jsonencode give the same
// either way, and the msgpack of the value is the same bytes (a list is written as a tuple, a map
// as an object, a null as nil whatever its type), so only the type differs from hiera_node's.

import "slices"

// typeKind is the kind of a tfType; the kinds that hold others in the order unify relies on.
type typeKind uint8

const (
	kindDynamic typeKind = iota // a null's
	kindString
	kindNumber
	kindBool
	kindList
	kindMap
	kindTuple
	kindObject
)

// tfType is a Terraform type of a fleet's value.
type tfType struct {
	kind typeKind
	elem *tfType // a list's or map's elements'
	// a tuple's elements' types, an object's attributes' (in the order of names); of a list or map
	// when hasParts, the tuple or object that its values are too (unify falls back to it)
	elems    []*tfType
	names    []string // an object's attributes, sorted
	hasParts bool
}

// The types without parts, one of each: unify compares them by pointer.
var (
	dynamicType = &tfType{kind: kindDynamic}
	stringType  = &tfType{kind: kindString}
	numberType  = &tfType{kind: kindNumber}
	boolType    = &tfType{kind: kindBool}
)

// unifier unifies types, at most work times (a value nested deep in arrays could make it try
// exponentially many pairs): then it finds no shared type, which types a value as hiera_node does.
type unifier struct{ work int }

// unifyWork is a unifier's work for a node: about a hundred times what a whole node of the
// benchmarks' fleet takes (5,300).
const unifyWork = 1 << 19

// sequenceType is the type of an array whose elements' types are elems: a list when they share
// one, else a tuple.
func (un *unifier) sequenceType(elems []*tfType) *tfType {
	return un.collection(&tfType{kind: kindTuple, elems: elems})
}

// mappingType is the type of a hash whose keys are names (sorted) and its values' types elems: a
// map when they share one, else an object.
func (un *unifier) mappingType(names []string, elems []*tfType) *tfType {
	return un.collection(&tfType{kind: kindObject, names: names, elems: elems})
}

// collection is parts (a tuple or object) as a list or map when its elements share a type (that
// is not a null's), else parts.
func (un *unifier) collection(parts *tfType) *tfType {
	if u := un.sharedType(parts.elems); u != nil && u.kind != kindDynamic {
		return &tfType{kind: parts.kind - (kindTuple - kindList), elem: u, elems: parts.elems, names: parts.names, hasParts: true}
	}
	return parts
}

// sharedType is the type every type of the lists shares: nil if none, or if they hold no type.
func (un *unifier) sharedType(lists ...[]*tfType) (u *tfType) {
	for _, ts := range lists {
		for _, t := range ts {
			if u == nil {
				u = t
			} else if u = un.unify(u, t); u == nil {
				return nil
			}
		}
	}
	return u
}

// parts is t as a tuple or object: itself, or a list's or map's parts; nil if it has none.
func (t *tfType) parts() *tfType {
	switch {
	case t.kind == kindTuple || t.kind == kindObject:
		return t
	case t.hasParts:
		return &tfType{kind: t.kind + (kindTuple - kindList), elems: t.elems, names: t.names}
	}
	return nil
}

// elements is the types of t's elements: a list's or map's one, a tuple's or object's each.
func (t *tfType) elements() []*tfType {
	if t.kind == kindList || t.kind == kindMap {
		return []*tfType{t.elem}
	}
	return t.elems
}

// unify is a type that both a's and b's values are values of (their encodings, the same whatever
// the type), nil if none: a null's type takes the other's; two sequences (or mappings) whose
// elements share a type are a list (a map), else, when they have as many elements (the same
// keys), a tuple (an object) of their elements' types unified one by one.
func (un *unifier) unify(a, b *tfType) *tfType {
	un.work--
	switch {
	case un.work < 0:
		return nil
	case a == b:
		return a
	case a.kind == kindDynamic:
		return b
	case b.kind == kindDynamic:
		return a
	case a.kind <= kindBool || b.kind <= kindBool, (a.kind-kindList)%2 != (b.kind-kindList)%2:
		return nil // two primitives of different kinds (one of a kind is one pointer), or a sequence and a mapping
	}
	var parts *tfType
	if pa, pb := a.parts(), b.parts(); pa != nil && pb != nil {
		parts = un.unifyParts(pa, pb)
	}
	if u := un.sharedType(a.elements(), b.elements()); u != nil && u.kind != kindDynamic {
		c := &tfType{kind: kindList + (a.kind-kindList)%2, elem: u}
		if parts != nil {
			c.elems, c.names, c.hasParts = parts.elems, parts.names, true
		}
		return c
	}
	return parts
}

// unifyParts is the tuple (or object) of a's and b's elements unified one by one: nil unless they
// have as many elements (the same attributes) and each pair unifies.
func (un *unifier) unifyParts(a, b *tfType) *tfType {
	if len(a.elems) != len(b.elems) || (a.kind == kindObject && !slices.Equal(a.names, b.names)) {
		return nil
	}
	elems := make([]*tfType, len(a.elems))
	for i := range a.elems {
		if elems[i] = un.unify(a.elems[i], b.elems[i]); elems[i] == nil {
			return nil
		}
	}
	return &tfType{kind: a.kind, elems: elems, names: a.names}
}

// unifyNodes is the type two nodes' values share: objects of the same keys whose values' types
// unify key by key (a node's values stay an object, as hiera_node's), nil if none.
func (un *unifier) unifyNodes(a, b *tfType) *tfType {
	if a == nil || b == nil || a.kind != kindObject || b.kind != kindObject {
		return nil
	}
	return un.unifyParts(a, b)
}

// appendTypeJSON appends t as tftypes writes a type in JSON.
func appendTypeJSON(b []byte, t *tfType) []byte {
	switch t.kind {
	case kindDynamic:
		return append(b, `"dynamic"`...)
	case kindString:
		return append(b, `"string"`...)
	case kindNumber:
		return append(b, `"number"`...)
	case kindBool:
		return append(b, `"bool"`...)
	case kindList:
		return append(appendTypeJSON(append(b, `["list",`...), t.elem), ']')
	case kindMap:
		return append(appendTypeJSON(append(b, `["map",`...), t.elem), ']')
	case kindTuple:
		b = append(b, `["tuple",[`...)
		for i, e := range t.elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendTypeJSON(b, e)
		}
		return append(b, "]]"...)
	}
	b = append(b, `["object",{`...)
	for i, e := range t.elems {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendTypeJSON(append(appendJSONName(b, t.names[i]), ':'), e)
	}
	return append(b, "}]"...)
}

// String is t's JSON, for tests' messages.
func (t *tfType) String() string { return string(appendTypeJSON(nil, t)) }
