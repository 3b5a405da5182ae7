package ptype

import (
	"math"
	"math/big"
	"regexp"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Puppet's type system, as far as a lookup's value_type and convert_to need it: the types a Puppet
// type expression names (ptypeparse.go), the type Puppet infers for a value, assignability between
// the two (ptypematch.go) and the TypeMismatchDescriber's messages (ptypedescribe.go). One struct
// holds every kind of type; the fields a kind does not use stay zero.

type ptypeKind uint8

const (
	ptAny ptypeKind = iota
	ptUndef
	ptDefault
	ptUnit // the element type of an inferred empty array or hash
	ptBoolean
	ptInteger
	ptFloat
	ptNumeric
	ptString
	ptEnum
	ptPattern
	ptScalar
	ptScalarData
	ptCollection
	ptArray
	ptHash
	ptTuple
	ptStruct
	ptOptional
	ptNotUndef
	ptVariant
	ptSensitive
	ptIterable
	ptAlias     // Data, RichData, RichDataKey: name and resolved type
	ptReference // an unknown type name: every check reports it unresolved
	ptOpaque    // a type no Hiera value is an instance of (Timestamp, Type, Regexp, a resource type, ...)
)

type Type struct {
	kind ptypeKind

	from, to *big.Int // Integer bounds, nil: unbounded
	ffrom    float64  // Float bounds, ±Inf: unbounded
	fto      float64

	size  *Type   // size range (an Integer type) of String, Collection, Array, Hash, Tuple; nil: default
	elem  *Type   // Array element, Hash value, Optional/NotUndef/Sensitive/Iterable contents (nil: none given)
	key   *Type   // Hash key
	types []*Type // Variant members, Tuple elements

	elements []structElement // Struct

	values []string     // Enum (sorted, unique)
	ci     bool         // Enum case-insensitive
	rx     []ptypeRegex // Pattern

	str     *string // a String's value (an inferred string, or a literal in Optional['x'], Struct keys)
	boolean *bool   // Boolean[true] / Boolean[false]

	name     string // Alias, Reference (as written), Opaque (its formatted form); short names of opaques
	short    string // Opaque: the name the describer prints when not detailed (File -> Resource)
	resolved *Type  // Alias
	defined  bool   // Alias: a code base's (Aliases), not one of Puppet's own: messages expand it

	// sensitive is the value an inferred Sensitive type stands for, checked as Puppet's instance?
	// does; never printed (the type shows only its contents' generalized type).
	sensitive *SensitiveValue
}

type structElement struct {
	name     string
	optional bool // the key may be absent (Optional[key], or a value type accepting undef)
	notUndef bool // written NotUndef[key]
	value    *Type
}

type ptypeRegex struct {
	source string
	re     *regexp.Regexp
	insts  int // the size of its program: matching a string costs up to this much per byte
}

var (
	ptypeAny        = &Type{kind: ptAny}
	ptypeUndef      = &Type{kind: ptUndef}
	ptypeDefaultT   = &Type{kind: ptDefault}
	ptypeUnit       = &Type{kind: ptUnit}
	ptypeString     = &Type{kind: ptString}
	ptypeScalarData = &Type{kind: ptScalarData}
)

func intRange(from, to *big.Int) *Type { return &Type{kind: ptInteger, from: from, to: to} }

func sizeRange(from, to int64) *Type {
	t := &Type{kind: ptInteger, from: big.NewInt(from)}
	if to >= 0 {
		t.to = big.NewInt(to)
	}
	return t
}

func floatRange(from, to float64) *Type { return &Type{kind: ptFloat, ffrom: from, fto: to} }

// The aliases Puppet's static loader defines, recursive as in Puppet.
var ptypeAliases = func() map[string]*Type {
	data := &Type{kind: ptAlias, name: "Data"}
	richKey := &Type{kind: ptAlias, name: "RichDataKey"}
	rich := &Type{kind: ptAlias, name: "RichData"}
	data.resolved = &Type{kind: ptVariant, types: []*Type{
		ptypeScalarData, ptypeUndef, {kind: ptHash, key: ptypeString, elem: data}, {kind: ptArray, elem: data},
	}}
	richKey.resolved = &Type{kind: ptVariant, types: []*Type{ptypeString, {kind: ptNumeric}}}
	opaque := func(name string) *Type { return &Type{kind: ptOpaque, name: name, short: name} }
	rich.resolved = &Type{kind: ptVariant, types: []*Type{
		{kind: ptScalar}, opaque("SemVerRange"), opaque("Binary"), {kind: ptSensitive}, opaque("Type"),
		opaque("TypeSet"), opaque("URI"), opaque("Object"), ptypeUndef, ptypeDefaultT,
		{kind: ptHash, key: richKey, elem: rich}, {kind: ptArray, elem: rich},
	}}
	return map[string]*Type{"data": data, "richdatakey": richKey, "richdata": rich,
		"puppet::lookupkey": richKey, "puppet::lookupvalue": rich}
}()

// unbounded reports whether an Integer or Float type has no bounds.
func (t *Type) unbounded() bool {
	if t.kind == ptFloat {
		return math.IsInf(t.ffrom, -1) && math.IsInf(t.fto, 1)
	}
	return t.from == nil && t.to == nil
}

// String is Puppet's TypeFormatter#string (aliases by name).
func (t *Type) String() string { return t.formatted(nil) }

// expandedString is Puppet's alias_expanded_string, as mismatch messages show an expected type:
// an alias a code base defines as "Name = its type", except inside its own expansion (a
// recursive alias); Puppet's own aliases (Data) by name.
func (t *Type) expandedString() string {
	return t.formatted(&expansion{open: map[*Type]bool{}, left: maxAliasExpansions})
}

// maxAliasExpansions bounds the aliases one expandedString expands: aliases whose Variants lead
// to the same aliases, level after level, expand to 2^levels of text (Puppet prints it all). Past
// it, aliases are shown by name; a real type expands a few.
const maxAliasExpansions = 64

// expansion is the state of an expandedString: the aliases being expanded (a recursive alias is
// not expanded inside itself) and how many more may be.
type expansion struct {
	open map[*Type]bool
	left int
}

// formatted formats t; expanding (nil: no expansion) holds the aliases being expanded.
func (t *Type) formatted(expanding *expansion) string {
	if t == nil {
		return ""
	}
	var b strings.Builder
	t.format(&b, expanding)
	return b.String()
}

func (t *Type) format(b *strings.Builder, expanding *expansion) {
	list := func(name string, parts ...string) {
		b.WriteString(name)
		if len(parts) > 0 {
			b.WriteString("[" + strings.Join(parts, ", ") + "]")
		}
	}
	switch t.kind {
	case ptAny:
		b.WriteString("Any")
	case ptUndef:
		b.WriteString("Undef")
	case ptDefault:
		b.WriteString("Default")
	case ptUnit:
		b.WriteString("Unit")
	case ptBoolean:
		if t.boolean == nil {
			list("Boolean")
		} else if *t.boolean {
			list("Boolean", "true")
		} else {
			list("Boolean", "false")
		}
	case ptInteger, ptFloat:
		name := "Integer"
		if t.kind == ptFloat {
			name = "Float"
		}
		list(name, t.rangeParts()...)
	case ptNumeric:
		b.WriteString("Numeric")
	case ptString:
		list("String", t.size.rangeParts()...)
	case ptEnum:
		parts := make([]string, 0, len(t.values)+1)
		for _, v := range t.values {
			parts = append(parts, puppetQuote(v))
		}
		if t.ci {
			parts = append(parts, "true")
		}
		list("Enum", parts...)
	case ptPattern:
		parts := make([]string, len(t.rx))
		for i, r := range t.rx {
			parts[i] = "/" + r.source + "/"
		}
		list("Pattern", parts...)
	case ptScalar:
		b.WriteString("Scalar")
	case ptScalarData:
		b.WriteString("ScalarData")
	case ptCollection:
		list("Collection", t.size.rangeParts()...)
	case ptArray, ptHash:
		t.formatContainer(b, expanding)
	case ptTuple:
		parts := typeStrings(t.types, expanding)
		list("Tuple", append(parts, t.size.rangeParts()...)...)
	case ptStruct:
		parts := make([]string, len(t.elements))
		for i, e := range t.elements {
			parts[i] = e.keyString() + " => " + e.value.formatted(expanding)
		}
		if len(parts) == 0 {
			b.WriteString("Struct")
			return
		}
		b.WriteString("Struct[{" + strings.Join(parts, ", ") + "}]")
	case ptOptional, ptNotUndef:
		name := "Optional"
		if t.kind == ptNotUndef {
			name = "NotUndef"
		}
		switch {
		case t.elem != nil && t.elem.kind == ptString && t.elem.str != nil:
			list(name, puppetQuote(*t.elem.str))
		case t.elem == nil || (t.kind == ptNotUndef && t.elem.kind == ptAny):
			b.WriteString(name)
		default:
			list(name, t.elem.formatted(expanding))
		}
	case ptVariant:
		list("Variant", typeStrings(t.types, expanding)...)
	case ptSensitive, ptIterable:
		name := "Sensitive"
		if t.kind == ptIterable {
			name = "Iterable"
		}
		if t.elem == nil || (t.kind == ptSensitive && t.elem.kind == ptAny) {
			b.WriteString(name)
		} else {
			list(name, t.elem.formatted(expanding))
		}
	case ptAlias:
		b.WriteString(t.name)
		if expanding != nil && t.defined && !expanding.open[t] && expanding.left > 0 {
			expanding.left--
			expanding.open[t] = true
			b.WriteString(" = ")
			t.resolved.format(b, expanding)
			delete(expanding.open, t)
		}
	default: // reference, opaque
		b.WriteString(t.name)
	}
}

func (t *Type) formatContainer(b *strings.Builder, expanding *expansion) {
	name := "Array"
	var parts []string
	if t.kind == ptHash {
		name = "Hash"
	}
	if t.size != nil && t.size.to != nil && t.size.to.Sign() == 0 && t.size.from != nil && t.size.from.Sign() == 0 {
		b.WriteString(name + "[0, 0]")
		return
	}
	if t.kind == ptHash {
		if t.key != nil || t.elem != nil {
			parts = append(parts, orAny(t.key).formatted(expanding), orAny(t.elem).formatted(expanding))
		}
	} else if t.elem != nil && (t.elem.kind != ptAny || t.size != nil) {
		parts = append(parts, t.elem.formatted(expanding))
	}
	parts = append(parts, t.size.rangeParts()...)
	b.WriteString(name)
	if len(parts) > 0 {
		b.WriteString("[" + strings.Join(parts, ", ") + "]")
	}
}

func orAny(t *Type) *Type {
	if t == nil {
		return ptypeAny
	}
	return t
}

// keyString is how a Struct prints a key: 'k', Optional['k'] (optional key, required value) or
// NotUndef['k'] (required key whose value may be undef).
func (e structElement) keyString() string {
	valueOptional := e.value.acceptsUndef()
	switch {
	case e.optional && !e.notUndef && !valueOptional:
		return "Optional[" + puppetQuote(e.name) + "]"
	case !e.optional && valueOptional:
		return "NotUndef[" + puppetQuote(e.name) + "]"
	}
	return puppetQuote(e.name)
}

// rangeParts are the parameters of an Integer or Float range: none when unbounded, [from] when open
// above, [from|default, to] otherwise.
func (t *Type) rangeParts() []string {
	if t == nil || t.unbounded() {
		return nil
	}
	if t.kind == ptFloat {
		from := "default"
		if !math.IsInf(t.ffrom, -1) {
			from = model.FloatToS(t.ffrom)
		}
		if math.IsInf(t.fto, 1) {
			return []string{from}
		}
		return []string{from, model.FloatToS(t.fto)}
	}
	from := "default"
	if t.from != nil {
		from = t.from.String()
	}
	if t.to == nil {
		return []string{from}
	}
	return []string{from, t.to.String()}
}

func typeStrings(ts []*Type, expanding *expansion) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.formatted(expanding)
	}
	return out
}

// puppetQuote is how Puppet's formatter prints a string: single quotes, with \ and ' escaped.
func puppetQuote(s string) string { return "'" + quoteEscapes.Replace(s) + "'" }

var quoteEscapes = strings.NewReplacer(`\`, `\\`, `'`, `\'`)

// shortName is the describer's short_name: the type's name without parameters, except that
// Optional, NotUndef and Sensitive keep their contained type's name.
func (t *Type) shortName() string {
	switch t.kind {
	case ptOptional, ptNotUndef, ptSensitive, ptIterable:
		name := map[ptypeKind]string{ptOptional: "Optional", ptNotUndef: "NotUndef", ptSensitive: "Sensitive", ptIterable: "Iterable"}[t.kind]
		if t.elem != nil && t.elem.kind != ptAny {
			return name + "[" + t.elem.shortName() + "]"
		}
		return name
	case ptAlias, ptReference:
		return t.name
	case ptOpaque:
		return t.short
	}
	s := t.String()
	if i := strings.IndexByte(s, '['); i > 0 {
		return s[:i]
	}
	return s
}
