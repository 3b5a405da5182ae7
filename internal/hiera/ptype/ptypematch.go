package ptype

import (
	"math"
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// SensitiveValue marks a value Puppet holds as Sensitive (convert_to: Sensitive) for a type check.
type SensitiveValue struct{ Value any }

// inferType is Puppet's TypeCalculator#infer_set: the most specific type of a value (Integer[5, 5],
// Tuple[String, Integer[1, 1]], Struct[{'a' => ...}] for non-empty string keys, else Hash[K, V, n, n]).
func inferType(v any) *Type {
	switch x := model.NearFloat(v).(type) {
	case nil:
		return ptypeUndef
	case bool:
		return &Type{kind: ptBoolean, boolean: &x}
	case int64:
		b := big.NewInt(x)
		return intRange(b, b)
	case *big.Int:
		return intRange(x, x)
	case float64:
		return floatRange(x, x)
	case string:
		return &Type{kind: ptString, str: &x}
	case []any:
		if len(x) == 0 {
			return &Type{kind: ptArray, elem: ptypeUnit, size: sizeRange(0, 0)}
		}
		t := &Type{kind: ptTuple, types: make([]*Type, len(x))}
		for i, e := range x {
			t.types[i] = inferType(e)
		}
		return t
	case *model.Hash:
		n := int64(x.Len())
		if n == 0 {
			return &Type{kind: ptHash, key: ptypeUnit, elem: ptypeUnit, size: sizeRange(0, 0)}
		}
		if nonEmptyStringKeys(x) {
			t := &Type{kind: ptStruct}
			x.Each(func(k, val any) bool {
				name, _ := k.(string) // nonEmptyStringKeys checked every key
				t.elements = append(t.elements, structElement{name: name, value: inferType(val)})
				return true
			})
			return t
		}
		var keys, vals []*Type
		x.Each(func(k, val any) bool {
			keys, vals = append(keys, inferType(k)), append(vals, inferType(val))
			return true
		})
		return &Type{kind: ptHash, key: maybeVariant(keys), elem: maybeVariant(vals), size: sizeRange(n, n)}
	case SensitiveValue:
		// Puppet's infer_Sensitive: the contents' common type, generalized (Hash[String, String]):
		// no value, no hash key, no size of the secret. The check looks at the value itself.
		return &Type{kind: ptSensitive, elem: generalize(inferCommon(x.Value)), sensitive: &x}
	}
	return &Type{kind: ptOpaque, name: "Runtime", short: "Runtime"}
}

// inferCommon is Puppet's TypeCalculator#infer, which types a collection by the common type of its
// elements (Hash[String, Integer]) where infer_set gives each its own (Struct[{'a' => ...}]).
func inferCommon(v any) *Type {
	switch x := model.NearFloat(v).(type) {
	case []any:
		elems := make([]*Type, len(x))
		for i, e := range x {
			elems[i] = inferCommon(e)
		}
		return &Type{kind: ptArray, elem: commonOf(elems)}
	case *model.Hash:
		var keys, vals []*Type
		x.Each(func(k, val any) bool {
			keys, vals = append(keys, inferCommon(k)), append(vals, inferCommon(val))
			return true
		})
		return &Type{kind: ptHash, key: commonOf(keys), elem: commonOf(vals)}
	}
	return inferType(v)
}

// commonOf is the type Puppet's common_type folds types to (Unit for none): the same type, Numeric
// for numbers, ScalarData for scalars, arrays and hashes by their contents, else Any.
func commonOf(types []*Type) *Type {
	if len(types) == 0 {
		return ptypeUnit
	}
	c := generalize(types[0])
	for _, t := range types[1:] {
		c = commonType(c, generalize(t))
	}
	return c
}

func commonType(a, b *Type) *Type {
	numeric := func(t *Type) bool { return t.kind == ptInteger || t.kind == ptFloat || t.kind == ptNumeric }
	scalar := func(t *Type) bool {
		return numeric(t) || t.kind == ptString || t.kind == ptBoolean || t.kind == ptScalarData
	}
	switch {
	case a.ident() == b.ident():
		return a
	case a.kind == ptArray && b.kind == ptArray:
		return &Type{kind: ptArray, elem: commonType(orAny(a.elem), orAny(b.elem))}
	case a.kind == ptHash && b.kind == ptHash:
		return &Type{kind: ptHash, key: commonType(orAny(a.key), orAny(b.key)), elem: commonType(orAny(a.elem), orAny(b.elem))}
	case numeric(a) && numeric(b):
		return &Type{kind: ptNumeric}
	case scalar(a) && scalar(b):
		return ptypeScalarData
	}
	return ptypeAny
}

func nonEmptyStringKeys(h *model.Hash) bool {
	ok := true
	h.Each(func(k, _ any) bool {
		s, isStr := k.(string)
		ok = isStr && s != ""
		return ok
	})
	return ok
}

// IsInstance is Puppet's Type#instance?(value).
func IsInstance(t *Type, v any) bool { return new(checker).assignable(t, inferType(v)) }

// ident identifies a type for Puppet's equality (string values included).
func (t *Type) ident() string {
	var b strings.Builder
	t.identTo(&b)
	return b.String()
}

func (t *Type) identTo(b *strings.Builder) {
	switch {
	case t.kind == ptString && t.str != nil:
		b.WriteString("String" + puppetQuote(*t.str))
	case t.kind == ptTuple || t.kind == ptVariant:
		b.WriteString(t.kind.name() + "[")
		for _, e := range t.types {
			e.identTo(b)
			b.WriteString(",")
		}
		b.WriteString(t.size.String() + "]")
	case t.kind == ptStruct:
		b.WriteString("Struct[")
		for _, e := range t.elements {
			b.WriteString(puppetQuote(e.name) + "/" + e.keyString() + "=>")
			e.value.identTo(b)
			b.WriteString(",")
		}
		b.WriteString("]")
	case t.kind == ptArray || t.kind == ptHash || t.kind == ptOptional || t.kind == ptNotUndef || t.kind == ptSensitive || t.kind == ptIterable:
		b.WriteString(t.kind.name() + "[")
		for _, e := range []*Type{t.key, t.elem, t.size} {
			if e != nil {
				e.identTo(b)
			}
			b.WriteString(",")
		}
		b.WriteString("]")
	default:
		b.WriteString(t.String())
	}
}

func (k ptypeKind) name() string {
	return [...]string{ptArray: "Array", ptHash: "Hash", ptOptional: "Optional", ptNotUndef: "NotUndef", ptSensitive: "Sensitive", ptIterable: "Iterable", ptTuple: "Tuple", ptVariant: "Variant", ptOpaque: ""}[k]
}

// sizeOf is a collection type's size range, [0, unbounded] unless given (a Tuple: its length).
func sizeOf(t *Type) *Type {
	if t.size != nil {
		return t.size
	}
	if t.kind == ptTuple {
		n := int64(len(t.types))
		return sizeRange(n, n)
	}
	if t.kind == ptStruct {
		req := int64(0)
		for _, e := range t.elements {
			if !e.optional {
				req++
			}
		}
		return sizeRange(req, int64(len(t.elements)))
	}
	return sizeRange(0, -1)
}

// rangeWithin reports whether the Integer range inner lies within outer (nil bounds: unbounded).
func rangeWithin(outer, inner *Type) bool {
	if outer.from != nil && (inner.from == nil || inner.from.Cmp(outer.from) < 0) {
		return false
	}
	return outer.to == nil || (inner.to != nil && inner.to.Cmp(outer.to) <= 0)
}

// assignable is Puppet's Type#assignable?(other) for the types values are inferred as (and their
// generalizations): every instance of a is an instance of e.
func (c *checker) assignable(e, a *Type) bool {
	if c.steps++; c.steps > maxCheckSteps {
		return false
	}
	if a.kind == ptAlias || e.kind == ptAlias {
		return c.assignableAlias(e, a)
	}
	if a.kind == ptVariant {
		if e.kind == ptVariant && len(e.types) == 0 {
			return false
		}
		for _, m := range a.types {
			if !c.assignable(e, m) {
				return false
			}
		}
		return len(a.types) > 0
	}
	if a.kind == ptUnit {
		return true
	}
	switch e.kind {
	case ptAny:
		return true
	case ptUndef, ptDefault:
		return a.kind == e.kind
	case ptBoolean:
		return a.kind == ptBoolean && (e.boolean == nil || (a.boolean != nil && *a.boolean == *e.boolean))
	case ptInteger:
		return a.kind == ptInteger && rangeWithin(e, a)
	case ptFloat:
		return a.kind == ptFloat && a.ffrom >= e.ffrom && a.fto <= e.fto
	case ptNumeric:
		return a.kind == ptInteger || a.kind == ptFloat || a.kind == ptNumeric
	case ptString:
		return c.assignableString(e, a)
	case ptEnum:
		return c.assignableEnum(e, a)
	case ptPattern:
		return c.assignablePattern(e, a)
	case ptScalar, ptScalarData:
		switch a.kind {
		case ptBoolean, ptInteger, ptFloat, ptNumeric, ptString, ptEnum, ptPattern, ptScalarData:
			return true
		case ptScalar:
			return e.kind == ptScalar
		}
		return false
	case ptCollection:
		switch a.kind {
		case ptArray, ptTuple, ptHash, ptStruct, ptCollection:
			return rangeWithin(sizeOf(e), sizeOf(a))
		}
		return false
	case ptArray:
		return c.assignableArray(e, a)
	case ptHash:
		return c.assignableHash(e, a)
	case ptTuple:
		return c.assignableTuple(e, a)
	case ptStruct:
		return c.assignableStruct(e, a)
	case ptOptional:
		return a.kind == ptUndef || c.assignable(orAny(e.elem), a)
	case ptNotUndef:
		return a.kind != ptUndef && a.kind != ptOptional && c.assignable(orAny(e.elem), a)
	case ptVariant:
		for _, m := range e.types {
			if c.assignable(m, a) {
				return true
			}
		}
		return false
	case ptSensitive:
		if a.kind != ptSensitive {
			return false
		}
		if a.sensitive != nil { // a value: Puppet's PSensitiveType#instance? checks it against the contents
			return c.assignable(orAny(e.elem), inferType(a.sensitive.Value))
		}
		return c.assignable(orAny(e.elem), orAny(a.elem))
	case ptIterable:
		return c.assignableIterable(e, a)
	case ptOpaque:
		return a.kind == ptOpaque && a.name == e.name
	}
	return false // references, units
}

func (c *checker) assignableString(e, a *Type) bool {
	if a.kind != ptString {
		return false
	}
	if e.str != nil {
		return a.str != nil && *a.str == *e.str
	}
	if e.size == nil {
		return true
	}
	if a.str != nil {
		n := big.NewInt(int64(utf8.RuneCountInString(*a.str)))
		return rangeWithin(e.size, intRange(n, n))
	}
	return rangeWithin(e.size, sizeOf(a))
}

func (c *checker) assignableEnum(e, a *Type) bool {
	if len(e.values) == 0 {
		return a.kind == ptString || a.kind == ptEnum || a.kind == ptPattern
	}
	return everyKnownString(a, func(v string) bool {
		for _, w := range e.values {
			if v == w || (e.ci && strings.EqualFold(v, w)) {
				return true
			}
		}
		return false
	})
}

func (c *checker) assignablePattern(e, a *Type) bool {
	if len(e.rx) == 0 {
		return a.kind == ptString || a.kind == ptEnum || a.kind == ptPattern
	}
	return everyKnownString(a, func(v string) bool {
		for _, r := range e.rx {
			if r.re.MatchString(v) {
				return true
			}
		}
		return false
	})
}

// everyKnownString reports whether a is a String or Enum type with known values, all of which pass ok.
func everyKnownString(a *Type, ok func(string) bool) bool {
	var values []string
	switch {
	case a.kind == ptString && a.str != nil:
		values = []string{*a.str}
	case a.kind == ptEnum && len(a.values) > 0:
		values = a.values
	default:
		return false
	}
	for _, v := range values {
		if !ok(v) {
			return false
		}
	}
	return true
}

func (c *checker) assignableArray(e, a *Type) bool {
	elem := orAny(e.elem)
	switch a.kind {
	case ptArray:
		return rangeWithin(sizeOf(e), sizeOf(a)) && c.assignable(elem, orAny(a.elem))
	case ptTuple:
		if !rangeWithin(sizeOf(e), sizeOf(a)) {
			return false
		}
		for _, t := range a.types {
			if !c.assignable(elem, t) {
				return false
			}
		}
		return true
	}
	return false
}

func (c *checker) assignableHash(e, a *Type) bool {
	key, value := orAny(e.key), orAny(e.elem)
	switch a.kind {
	case ptHash:
		return rangeWithin(sizeOf(e), sizeOf(a)) && c.assignable(key, orAny(a.key)) && c.assignable(value, orAny(a.elem))
	case ptStruct:
		if !rangeWithin(sizeOf(e), sizeOf(a)) {
			return false
		}
		for _, el := range a.elements {
			name := el.name
			if !c.assignable(key, &Type{kind: ptString, str: &name}) || !c.assignable(value, el.value) {
				return false
			}
		}
		return true
	}
	return false
}

func (c *checker) assignableTuple(e, a *Type) bool {
	switch a.kind {
	case ptTuple:
		if !rangeWithin(sizeOf(e), sizeOf(a)) {
			return false
		}
		if len(e.types) == 0 {
			return true
		}
		for i, t := range a.types {
			if !c.assignable(e.types[min(i, len(e.types)-1)], t) {
				return false
			}
		}
		return true
	case ptArray:
		if len(e.types) == 0 {
			return rangeWithin(sizeOf(e), sizeOf(a))
		}
		if !rangeWithin(sizeOf(e), sizeOf(a)) {
			return false
		}
		for _, t := range e.types {
			if !c.assignable(t, orAny(a.elem)) {
				return false
			}
		}
		return true
	}
	return false
}

func (c *checker) assignableStruct(e, a *Type) bool {
	switch a.kind {
	case ptStruct:
		actual := map[string]*Type{}
		for _, el := range a.elements {
			actual[el.name] = el.value
		}
		for _, el := range e.elements {
			v, present := actual[el.name]
			if !present {
				if !el.optional {
					return false
				}
				continue
			}
			delete(actual, el.name)
			if !c.assignable(el.value, v) {
				return false
			}
		}
		return len(actual) == 0
	case ptHash:
		return rangeWithin(sizeOf(e), sizeOf(a)) && sizeOf(a).to != nil && sizeOf(a).to.Sign() == 0
	}
	return false
}

// assignableIterable: strings iterate their characters, integers count up, arrays their elements and
// hashes their [key, value] pairs.
func (c *checker) assignableIterable(e, a *Type) bool {
	elem := orAny(e.elem)
	switch a.kind {
	case ptString, ptEnum, ptPattern:
		return c.assignable(elem, ptypeString)
	case ptInteger:
		return a.from != nil && a.to != nil && c.assignable(elem, &Type{kind: ptInteger})
	case ptArray:
		return c.assignable(elem, orAny(a.elem))
	case ptTuple:
		for _, t := range a.types {
			if !c.assignable(elem, t) {
				return false
			}
		}
		return true
	case ptHash:
		return c.assignable(elem, &Type{kind: ptTuple, types: []*Type{orAny(a.key), orAny(a.elem)}})
	case ptStruct:
		for _, el := range a.elements {
			name := el.name
			if !c.assignable(elem, &Type{kind: ptTuple, types: []*Type{{kind: ptString, str: &name}, el.value}}) {
				return false
			}
		}
		return true
	}
	return false
}

// generalize is Puppet's Type#generalize: values and sizes dropped (Integer[5, 5] -> Integer).
func generalize(t *Type) *Type {
	switch t.kind {
	case ptBoolean:
		return &Type{kind: ptBoolean}
	case ptInteger:
		return &Type{kind: ptInteger}
	case ptFloat:
		return floatRange(math.Inf(-1), math.Inf(1))
	case ptString:
		return ptypeString
	case ptEnum: // Puppet: a String as long as the values are
		if len(t.values) == 0 {
			return ptypeString
		}
		lo, hi := int64(math.MaxInt64), int64(0)
		for _, v := range t.values {
			n := int64(utf8.RuneCountInString(v))
			lo, hi = min(lo, n), max(hi, n)
		}
		return &Type{kind: ptString, size: sizeRange(lo, hi)}
	case ptArray:
		return &Type{kind: ptArray, elem: generalizeOrNil(t.elem)}
	case ptHash:
		return &Type{kind: ptHash, key: generalizeOrNil(t.key), elem: generalizeOrNil(t.elem)}
	case ptTuple:
		c := &Type{kind: ptTuple, size: t.size, types: make([]*Type, len(t.types))}
		for i, e := range t.types {
			c.types[i] = generalize(e)
		}
		return c
	case ptStruct:
		c := &Type{kind: ptStruct, elements: make([]structElement, len(t.elements))}
		for i, e := range t.elements {
			e.value = generalize(e.value)
			c.elements[i] = e
		}
		return c
	case ptVariant:
		types := make([]*Type, len(t.types))
		for i, e := range t.types {
			types[i] = generalize(e)
		}
		return maybeVariant(types)
	case ptSensitive, ptOptional, ptNotUndef, ptIterable:
		return &Type{kind: t.kind, elem: generalizeOrNil(t.elem)}
	}
	return t // Pattern, Any, aliases, ...: nothing to generalize
}

func generalizeOrNil(t *Type) *Type {
	if t == nil {
		return nil
	}
	return generalize(t)
}

// acceptsUndef reports whether undef is an instance of t.
func (t *Type) acceptsUndef() bool { return new(checker).assignable(t, ptypeUndef) }
