package ptype

// Variants as Puppet builds and normalizes them: flattened, duplicates removed, enums, patterns
// and adjacent ranges merged.

import (
	"math"
	"math/big"
	"sort"
)

// maybeVariant is PVariantType.maybe_create: flattened, duplicates removed, a single type unwrapped.
func maybeVariant(types []*Type) *Type {
	var flat []*Type
	seen := map[string]bool{}
	for _, t := range types {
		members := []*Type{t}
		if t.kind == ptVariant {
			members = t.types
		}
		for _, m := range members {
			if id := m.ident(); !seen[id] {
				seen[id] = true
				flat = append(flat, m)
			}
		}
	}
	if len(flat) == 1 {
		return flat[0]
	}
	return &Type{kind: ptVariant, types: flat}
}

// normalize is Puppet's Type#normalize: variants flattened and merged (enums, patterns, adjacent
// ranges), Undef members turned into Optional, NotUndef of a type that rejects undef dropped.
func normalize(t *Type) *Type {
	switch t.kind {
	case ptVariant:
		return normalizeVariantType(t)
	case ptOptional:
		if t.elem == nil {
			return t
		}
		n := normalize(t.elem)
		if n.kind == ptUndef || n.kind == ptOptional {
			return n
		}
		return &Type{kind: ptOptional, elem: n}
	case ptNotUndef:
		n := ptypeAny
		if t.elem != nil {
			n = normalize(t.elem)
		}
		if n.kind == ptOptional {
			return normalize(&Type{kind: ptNotUndef, elem: n.elem})
		}
		if n.acceptsUndef() {
			return &Type{kind: ptNotUndef, elem: n}
		}
		return n
	case ptArray, ptHash, ptSensitive, ptIterable:
		c := *t
		if t.elem != nil {
			c.elem = normalize(t.elem)
		}
		if t.key != nil {
			c.key = normalize(t.key)
		}
		return &c
	case ptTuple:
		c := *t
		c.types = make([]*Type, len(t.types))
		for i, e := range t.types {
			c.types[i] = normalize(e)
		}
		return &c
	case ptStruct:
		c := *t
		c.elements = make([]structElement, len(t.elements))
		for i, e := range t.elements {
			e.value = normalize(e.value)
			c.elements[i] = e
		}
		return &c
	}
	return t
}

func normalizeVariantType(t *Type) *Type {
	if len(t.types) == 0 {
		return t
	}
	types := make([]*Type, len(t.types))
	for i, m := range t.types {
		types[i] = normalize(m)
	}
	if len(types) == 1 {
		return types[0]
	}
	for _, m := range types {
		if m.kind == ptUndef || m.kind == ptOptional {
			var rest []*Type
			for _, r := range types {
				switch r.kind {
				case ptUndef:
				case ptOptional:
					rest = append(rest, orAny(r.elem))
				default:
					rest = append(rest, r)
				}
			}
			if len(rest) == 0 {
				return ptypeUndef
			}
			return normalize(&Type{kind: ptOptional, elem: maybeVariant(rest)})
		}
	}
	flat := maybeVariant(types).types
	if flat == nil {
		return maybeVariant(types)
	}
	flat = mergeEnums(flat)
	flat = mergePatterns(flat)
	flat = mergeNumbers(flat, ptInteger)
	flat = mergeNumbers(flat, ptFloat)
	return maybeVariant(flat)
}

func mergeEnums(types []*Type) []*Type {
	var enums, others []*Type
	for _, t := range types {
		if (t.kind == ptEnum && len(t.values) > 0 && !t.ci) || (t.kind == ptString && t.str != nil) {
			enums = append(enums, t)
		} else {
			others = append(others, t)
		}
	}
	if len(enums) < 2 {
		return types
	}
	seen := map[string]bool{}
	var values []string
	for _, e := range enums {
		vs := e.values
		if e.kind == ptString {
			vs = []string{*e.str}
		}
		for _, v := range vs {
			if !seen[v] {
				seen[v] = true
				values = append(values, v)
			}
		}
	}
	sort.Strings(values)
	return append(others, &Type{kind: ptEnum, values: values})
}

func mergePatterns(types []*Type) []*Type {
	var pats, others []*Type
	for _, t := range types {
		if t.kind == ptPattern {
			pats = append(pats, t)
		} else {
			others = append(others, t)
		}
	}
	if len(pats) < 2 {
		return types
	}
	merged := &Type{kind: ptPattern}
	seen := map[string]bool{}
	for _, p := range pats {
		for _, r := range p.rx {
			if !seen[r.source] {
				seen[r.source] = true
				merged.rx = append(merged.rx, r)
			}
		}
	}
	return append(others, merged)
}

// mergeNumbers joins the Integer (or Float) ranges of a variant that overlap or, for integers, touch,
// in Puppet's order (merged ranges first, taken from the end).
func mergeNumbers(types []*Type, kind ptypeKind) []*Type {
	var ranges, others []*Type
	for _, t := range types {
		if t.kind == kind {
			ranges = append(ranges, t)
		} else {
			others = append(others, t)
		}
	}
	if len(ranges) < 2 {
		return types
	}
	var result []*Type
	for len(ranges) > 0 {
		memo := ranges[len(ranges)-1]
		ranges = ranges[:len(ranges)-1]
		var unmerged []*Type
		for _, y := range ranges {
			if m := mergeRangeTypes(memo, y); m != nil {
				memo = m
			} else {
				unmerged = append(unmerged, y)
			}
		}
		result = append(result, memo)
		ranges = unmerged
	}
	return append(result, others...)
}

func mergeRangeTypes(a, b *Type) *Type {
	if a.kind == ptFloat {
		if a.fto < b.ffrom || b.fto < a.ffrom {
			return nil
		}
		return floatRange(math.Min(a.ffrom, b.ffrom), math.Max(a.fto, b.fto))
	}
	one := big.NewInt(1)
	apart := func(lo, hi *big.Int) bool { // hi ends before lo starts, not even touching
		return hi != nil && lo != nil && new(big.Int).Add(hi, one).Cmp(lo) < 0
	}
	if apart(b.from, a.to) || apart(a.from, b.to) {
		return nil
	}
	from, to := a.from, a.to
	if from != nil && (b.from == nil || b.from.Cmp(from) < 0) {
		from = b.from
	}
	if to != nil && (b.to == nil || b.to.Cmp(to) > 0) {
		to = b.to
	}
	return intRange(from, to)
}
