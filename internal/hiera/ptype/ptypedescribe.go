package ptype

import (
	"math"
	"strconv"
	"strings"
)

// Check is Puppet's TypeAsserter.assert_instance_of as lookup() calls it: nil when v is an
// instance of t, else the TypeMismatchDescriber's message, e.g. "Found value has wrong type, index 1
// expects an Integer value, got String". subject is "Found value" or "Default value".
func Check(subject string, t *Type, v any) string {
	if matchWorkExceeded(t, v) {
		return matchWorkMessage(subject)
	}
	c := new(checker)
	actual := inferType(v)
	if c.assignable(t, actual) {
		return ""
	}
	errs := c.describeMismatch(t, actual, []pathElem{{kind: peSubject, text: subject + " has wrong type,"}})
	if c.exceeded() {
		return checkWorkMessage(subject, t)
	}
	switch len(errs) {
	case 0:
		// Puppet answers with an empty message here (its describer finds nothing to say)
		return subject + " has wrong type, expects a " + t.String() + " value, got " + inferType(v).shortName()
	case 1:
		return strings.TrimSpace(errs[0].format())
	}
	parts := make([]string, len(errs))
	for i, e := range errs {
		parts[i] = e.format()
	}
	return strings.Join(parts, "\n ")
}

// CheckParameter is Puppet's validate_parameters for one class parameter bound to a value: ""
// when v is an instance of t, else the message Puppet raises when it compiles the class, e.g.
// "Class[Ntp]: parameter 'servers' expects an Array value, got String" (several findings: the
// subject, then one line each).
func CheckParameter(subject, param string, t *Type, v any) string {
	if matchWorkExceeded(t, v) {
		return matchWorkMessage(subject + ": parameter '" + param + "'")
	}
	c := new(checker)
	actual := inferType(v)
	if c.assignable(t, actual) {
		return ""
	}
	errs := c.describeMismatch(t, actual, []pathElem{{kind: peSubject, text: "parameter '" + param + "'"}})
	if c.exceeded() {
		return checkWorkMessage(subject+": parameter '"+param+"'", t)
	}
	switch len(errs) {
	case 0:
		return subject + ": parameter '" + param + "' expects " + aAn(t.expandedString()) + " value, got " + inferType(v).shortName()
	case 1:
		return subject + ":" + errs[0].format()
	}
	parts := make([]string, len(errs))
	for i, e := range errs {
		parts[i] = e.format()
	}
	return subject + ":\n " + strings.Join(parts, "\n ")
}

type peKind uint8

const (
	peSubject  peKind = iota
	peEntry           // entry 'k'
	peEntryKey        // key of entry 'k'
	peIndex           // index n
	peVariant         // variant n
)

type pathElem struct {
	kind peKind
	text string
}

func (p pathElem) String() string {
	switch p.kind {
	case peEntry:
		return "entry '" + p.text + "'"
	case peEntryKey:
		return "key of entry '" + p.text + "'"
	case peIndex:
		return "index " + p.text
	case peVariant:
		return "variant " + p.text
	}
	return p.text
}

func with(path []pathElem, kind peKind, text string) []pathElem {
	out := make([]pathElem, len(path), len(path)+1)
	copy(out, path)
	return append(out, pathElem{kind: kind, text: text})
}

type misKind uint8

const (
	misType misKind = iota
	misPattern
	misSize
	misMissingKey
	misExtraKey
	misUnresolved
)

// mismatch is one finding of the describer. For type and pattern mismatches expected and actual are
// normalized as Puppet's ExpectedActualMismatch does; for size mismatches they are Integer ranges.
type mismatch struct {
	kind             misKind
	path             []pathElem
	expected, actual *Type
	key              string // missing/extraneous key, unresolved type name
}

func newMismatch(kind misKind, path []pathElem, expected, actual *Type) mismatch {
	if kind == misType || kind == misPattern {
		expected, actual = normalize(expected), normalize(actual)
	}
	return mismatch{kind: kind, path: path, expected: expected, actual: actual}
}

func (m mismatch) canonicalPath() string {
	var parts []string
	for _, p := range m.path {
		if p.kind != peVariant {
			parts = append(parts, p.String())
		}
	}
	return strings.Join(parts, "\x00")
}

// identity is what Puppet's Mismatch#== compares.
func (m mismatch) identity() string {
	id := strconv.Itoa(int(m.kind)) + "\x01" + m.canonicalPath() + "\x01" + m.key
	if m.expected != nil {
		id += "\x01" + m.expected.ident() + "\x01" + m.actual.ident()
	}
	return id
}

func (m mismatch) format() string {
	position := ""
	if len(m.path) > 0 {
		parts := make([]string, len(m.path))
		for i, p := range m.path {
			parts[i] = p.String()
		}
		position = " " + strings.Join(parts, " ")
	}
	switch m.kind {
	case misMissingKey:
		return position + " expects a value for key '" + m.key + "'"
	case misExtraKey:
		return position + " unrecognized key '" + m.key + "'"
	case misUnresolved:
		return position + " references an unresolved type '" + m.key + "'"
	case misSize:
		return position + " expects size to be " + rangeText(m.expected) + ", got " + rangeText(m.actual)
	case misPattern:
		return position + m.patternMessage()
	}
	return position + m.typeMessage()
}

func rangeText(r *Type) string {
	lo, hi := "0", ""
	if r.from != nil {
		lo = r.from.String()
	}
	if r.to != nil {
		hi = r.to.String()
	}
	switch {
	case lo == hi:
		return lo
	case lo == "0" && hi == "":
		return "unlimited"
	case lo == "0":
		return "at most " + hi
	case hi == "":
		return "at least " + lo
	}
	return "between " + lo + " and " + hi
}

func (m mismatch) patternMessage() string {
	e, prefix := m.expected, ""
	if e.kind == ptOptional {
		e, prefix = orAny(e.elem), "an undef value or "
	}
	got := m.actual.shortName()
	if m.actual.kind == ptString && m.actual.str != nil {
		got = "'" + *m.actual.str + "'"
	}
	return " expects " + prefix + "a match for " + e.expandedString() + ", got " + got
}

func (m mismatch) typeMessage() string {
	e, a := m.expected, m.actual
	optional := false
	if e.kind == ptOptional {
		e, optional = orAny(e.elem), true
	}
	expected := []*Type{e}
	if e.kind == ptVariant {
		expected = e.types
	}
	var names []string
	var got string
	if reportDetailed(expected, a) {
		got = detailedActual(expected, a)
		for _, t := range expected {
			names = append(names, t.expandedString())
		}
	} else {
		seen := map[string]bool{}
		for _, t := range expected {
			if n := t.shortName(); !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
		got = a.shortName()
	}
	if optional {
		names = append([]string{"Undef"}, names...)
	}
	switch len(names) {
	case 1:
		return " expects " + aAn(names[0]) + " value, got " + got
	case 2:
		return " expects a value of type " + names[0] + " or " + names[1] + ", got " + got
	}
	return " expects a value of type " + strings.Join(names[:len(names)-1], ", ") + ", or " + names[len(names)-1] + ", got " + got
}

func aAn(word string) string {
	if word != "" && strings.ContainsRune("AEIOUaeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

func alwaysFullyDetailed(es []*Type, a *Type) bool {
	for _, e := range es {
		if e.kind == a.kind || e.kind == ptAlias || a.kind == ptAlias ||
			(e.kind == ptStruct && a.kind == ptHash) || (e.kind == ptTuple && a.kind == ptArray) {
			return true
		}
	}
	return false
}

func reportDetailed(es []*Type, a *Type) bool {
	c := new(checker)
	if alwaysFullyDetailed(es, a) {
		return true
	}
	for _, e := range es {
		for e.kind == ptAlias {
			e = e.resolved
		}
		if c.assignable(defaultOf(e), a) {
			return true
		}
	}
	return false
}

// detailedActual is the describer's detailed_actual_to_s: the full actual type, or its bare name when
// even its generalization does not fit.
func detailedActual(es []*Type, a *Type) string {
	c := new(checker)
	resolved := make([]*Type, len(es))
	for i, e := range es {
		for e.kind == ptAlias {
			e = e.resolved
		}
		resolved[i] = e
	}
	if alwaysFullyDetailed(resolved, a) {
		return a.String()
	}
	g := generalize(a)
	for _, e := range resolved {
		if c.assignable(e, g) {
			return a.String()
		}
	}
	return a.shortName()
}

// defaultOf is the unparameterized type of e's class (Integer for Integer[0, 10], Struct for any Struct).
func defaultOf(e *Type) *Type {
	switch e.kind {
	case ptStruct:
		return &Type{kind: ptHash, key: ptypeString} // a Struct's default accepts every string-keyed hash
	case ptFloat:
		return floatRange(math.Inf(-1), math.Inf(1))
	case ptOpaque:
		return e
	}
	return &Type{kind: e.kind}
}

// describeMismatch is TypeMismatchDescriber#describe. The first call looks for an unresolved
// reference in the whole type: the types the later calls describe are parts of it.
func (c *checker) describeMismatch(expected, actual *Type, path []pathElem) []mismatch {
	if !c.referencesChecked {
		c.referencesChecked = true
		if ref := findReference(expected, 0, nil); ref != "" {
			return []mismatch{{kind: misUnresolved, path: path, key: ref}}
		}
	}
	return c.internalDescribe(normalize(expected), expected, actual, path)
}

// Unresolved is the first type name in t that names no type Puppet has built in (a typo, or a
// module's type alias such as Stdlib::Port, which the engine does not read), "" for none.
func Unresolved(t *Type) string { return findReference(t, 0, nil) }

// findReference returns the first unresolved type name in t. Puppet's own aliases contain none;
// a code base's are entered once each (seen), as they may refer to themselves.
func findReference(t *Type, depth int, seen map[*Type]bool) string {
	if t == nil || depth > ptypeMaxDepth {
		return ""
	}
	switch {
	case t.kind == ptReference:
		return t.name
	case t.kind == ptAlias && (!t.defined || seen[t]):
		return ""
	case t.kind == ptAlias:
		if seen == nil {
			seen = map[*Type]bool{}
		}
		seen[t] = true
		return findReference(t.resolved, depth+1, seen)
	}
	children := append([]*Type{t.key, t.elem, t.size}, t.types...)
	for _, e := range t.elements {
		children = append(children, e.value)
	}
	for _, c := range children {
		if r := findReference(c, depth+1, seen); r != "" {
			return r
		}
	}
	return ""
}

func (c *checker) internalDescribe(expected, original, actual *Type, path []pathElem) []mismatch {
	if c.describedSteps++; c.exceeded() {
		return nil
	}
	switch expected.kind {
	case ptVariant:
		return c.describeVariant(expected, original, actual, path)
	case ptStruct:
		return c.describeStruct(expected, original, actual, path)
	case ptHash:
		return c.describeHash(expected, original, actual, path)
	case ptTuple:
		return c.describeTuple(expected, original, actual, path)
	case ptArray:
		return c.describeArray(expected, original, actual, path)
	case ptOptional:
		if actual.kind == ptUndef || expected.elem == nil {
			return nil
		}
		if original.kind != ptAlias {
			original = expected
		}
		return c.internalDescribe(expected.elem, original, actual, path)
	case ptPattern, ptEnum:
		return []mismatch{newMismatch(misPattern, path, original, actual)}
	case ptAlias:
		return c.internalDescribe(normalize(expected.resolved), expected, actual, path)
	}
	if c.assignable(expected, actual) {
		return nil
	}
	return []mismatch{newMismatch(misType, path, original, actual)}
}

func (c *checker) describeVariant(expected, original, actual *Type, path []pathElem) []mismatch {
	types := expected.types
	if original.kind == ptOptional {
		types = append([]*Type{ptypeUndef}, types...)
	}
	var variants [][]mismatch
	for i, t := range types {
		d := c.describeMismatch(t, actual, with(path, peVariant, strconv.Itoa(i)))
		if len(d) == 0 {
			return nil
		}
		variants = append(variants, d)
	}
	descriptions := mergeDescriptions(len(path), variants)
	if original.kind == ptAlias && len(descriptions) == 1 {
		return []mismatch{newMismatch(misType, path, original, actual)}
	}
	return descriptions
}

// mergeDescriptions joins the findings for each variant into one when every variant failed the same
// way at the same place (a size, or a type: the expected types are then listed together).
func mergeDescriptions(varyingPosition int, variants [][]mismatch) []mismatch {
	var all []mismatch
	for _, v := range variants {
		all = append(all, v...)
	}
	for _, kinds := range [][]misKind{{misSize}, {misType, misPattern}} {
		var same []mismatch
		for _, m := range all {
			if m.kind == kinds[0] || (len(kinds) > 1 && m.kind == kinds[1]) {
				same = append(same, m)
			}
		}
		if len(same) == 0 || len(same) != len(variants) {
			continue
		}
		merged, ok := same[0], true
		for _, m := range same[1:] {
			if m.canonicalPath() != merged.canonicalPath() {
				ok = false
				break
			}
			merged = mergeMismatch(merged, m)
		}
		if ok {
			all = []mismatch{merged}
			break
		}
	}
	var unique []mismatch
	seen := map[string]bool{}
	for _, m := range all {
		if id := m.identity(); !seen[id] {
			seen[id] = true
			unique = append(unique, m)
		}
	}
	if len(unique) == 1 && varyingPosition < len(unique[0].path) {
		m := unique[0]
		m.path = append(append([]pathElem{}, m.path[:varyingPosition]...), m.path[varyingPosition+1:]...)
		return []mismatch{m}
	}
	return unique
}

// mergeMismatch is Mismatch#merge: the least restrictive size range, or both expected types.
func mergeMismatch(a, b mismatch) mismatch {
	if a.kind == misSize {
		r := &Type{kind: ptInteger, from: a.expected.from, to: a.expected.to}
		if b.expected.from == nil || (r.from != nil && b.expected.from.Cmp(r.from) < 0) {
			r.from = b.expected.from
		}
		if r.to != nil && (b.expected.to == nil || b.expected.to.Cmp(r.to) > 0) {
			r.to = b.expected.to
		}
		return mismatch{kind: misSize, path: a.path, expected: r, actual: a.actual}
	}
	return newMismatch(a.kind, a.path, maybeVariant([]*Type{a.expected, b.expected}), a.actual)
}

func (c *checker) describeArray(expected, original, actual *Type, path []pathElem) []mismatch {
	elem := orAny(expected.elem)
	switch actual.kind {
	case ptTuple:
		want, have := sizeOf(expected), sizeOf(actual)
		if !rangeWithin(want, have) {
			return []mismatch{{kind: misSize, path: path, expected: want, actual: have}}
		}
		var out []mismatch
		for i, t := range actual.types {
			if !c.assignable(elem, t) {
				out = append(out, c.describeMismatch(elem, t, with(path, peIndex, strconv.Itoa(i)))...)
			}
		}
		return out
	case ptArray:
		if expected.size == nil || rangeWithin(expected.size, sizeOf(actual)) {
			return []mismatch{newMismatch(misType, path, original, &Type{kind: ptArray, elem: actual.elem})}
		}
		return []mismatch{{kind: misSize, path: path, expected: expected.size, actual: sizeOf(actual)}}
	}
	return []mismatch{newMismatch(misType, path, original, actual)}
}

func (c *checker) describeHash(expected, original, actual *Type, path []pathElem) []mismatch {
	key, value := orAny(expected.key), orAny(expected.elem)
	switch actual.kind {
	case ptStruct:
		want, have := sizeOf(expected), sizeOf(actual)
		if !rangeWithin(want, have) {
			return []mismatch{{kind: misSize, path: path, expected: want, actual: have}}
		}
		var out []mismatch
		for _, el := range actual.elements {
			name := el.name
			k := &Type{kind: ptString, str: &name}
			if !c.assignable(key, k) {
				out = append(out, c.describeMismatch(key, k, with(path, peEntryKey, name))...)
			}
			if !c.assignable(value, el.value) {
				out = append(out, c.describeMismatch(value, el.value, with(path, peEntry, name))...)
			}
		}
		return out
	case ptHash:
		if expected.size == nil || rangeWithin(expected.size, sizeOf(actual)) {
			return []mismatch{newMismatch(misType, path, original, &Type{kind: ptHash, key: actual.key, elem: actual.elem})}
		}
		return []mismatch{{kind: misSize, path: path, expected: expected.size, actual: sizeOf(actual)}}
	}
	return []mismatch{newMismatch(misType, path, original, actual)}
}

func (c *checker) describeStruct(expected, original, actual *Type, path []pathElem) []mismatch {
	switch actual.kind {
	case ptStruct:
		present := map[string]*Type{}
		for _, el := range actual.elements {
			present[el.name] = el.value
		}
		var out []mismatch
		for _, el := range expected.elements {
			v, ok := present[el.name]
			if !ok {
				if !el.optional {
					out = append(out, mismatch{kind: misMissingKey, path: path, key: el.name})
				}
				continue
			}
			delete(present, el.name)
			if !c.assignable(el.value, v) {
				out = append(out, c.describeMismatch(el.value, v, with(path, peEntry, el.name))...)
			}
		}
		for _, el := range actual.elements {
			if _, extra := present[el.name]; extra {
				out = append(out, mismatch{kind: misExtraKey, path: path, key: el.name})
			}
		}
		return out
	case ptHash:
		want, have := sizeOf(expected), sizeOf(actual)
		if rangeWithin(want, have) {
			return []mismatch{newMismatch(misType, path, original, &Type{kind: ptHash, key: actual.key, elem: actual.elem})}
		}
		return []mismatch{{kind: misSize, path: path, expected: want, actual: have}}
	}
	return []mismatch{newMismatch(misType, path, original, actual)}
}

func (c *checker) describeTuple(expected, original, actual *Type, path []pathElem) []mismatch {
	if len(expected.types) == 0 && actual.kind == ptArray {
		return nil
	}
	want := sizeOf(expected)
	switch actual.kind {
	case ptTuple:
		have := sizeOf(actual)
		if !rangeWithin(want, have) {
			return []mismatch{{kind: misSize, path: path, expected: want, actual: have}}
		}
		var out []mismatch
		if len(expected.types) > 0 {
			for i, t := range actual.types {
				j := min(i, len(expected.types)-1)
				out = append(out, c.describeMismatch(expected.types[j], t, with(path, peIndex, strconv.Itoa(j)))...)
			}
		}
		return out
	case ptArray:
		if actual.elem == nil {
			return []mismatch{newMismatch(misType, path, original, actual)}
		}
		have := sizeOf(actual)
		if !rangeWithin(want, have) {
			return []mismatch{{kind: misSize, path: path, expected: want, actual: have}}
		}
		var out []mismatch
		for i, t := range expected.types {
			out = append(out, c.describeMismatch(t, actual.elem, with(path, peIndex, strconv.Itoa(i)))...)
		}
		return out
	}
	return []mismatch{newMismatch(misType, path, original, actual)}
}
