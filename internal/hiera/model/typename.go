package model

import (
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// Puppet's merge type errors name the inferred type of the offending value: a short name when the
// expected type is of another kind ("got Struct"), the full inferred type when only the details differ
// ("got Hash[Integer[1, 1], String]"). This is a close approximation of Puppet's type inference.

// TypeName is the short name: Undef, Boolean, Integer, Float, String, Array (empty), Tuple,
// Hash (empty or with non-string keys) or Struct (string keys).
func TypeName(v any) string {
	switch t := NearFloat(v).(type) {
	case nil:
		return "Undef"
	case bool:
		return "Boolean"
	case int64, *big.Int:
		return "Integer"
	case float64:
		return "Float"
	case string:
		return "String"
	case []any:
		if len(t) == 0 {
			return "Array"
		}
		return "Tuple"
	case *Hash:
		if t.Len() > 0 && StringKeys(t) {
			return "Struct"
		}
		return "Hash"
	}
	return "Runtime"
}

// TypeDetail is the full inferred type, as in "Hash[Integer[1, 1], String]". Hashes with
// non-string keys show their size only when nested, as Puppet's messages do.
func TypeDetail(v any) string {
	if h, ok := v.(*Hash); ok && h.Len() > 0 && !StringKeys(h) {
		return "Hash[" + CommonType(h.RawKeys()) + ", " + CommonType(h.Vals) + "]"
	}
	return InferredType(v)
}

func InferredType(v any) string {
	switch t := NearFloat(v).(type) {
	case bool:
		return "Boolean[" + strconv.FormatBool(t) + "]"
	case int64, *big.Int:
		s := InspectScalar(t)
		return "Integer[" + s + ", " + s + "]"
	case float64:
		s := FloatToS(t)
		return "Float[" + s + ", " + s + "]"
	case []any:
		if len(t) == 0 {
			return "Array[0, 0]"
		}
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = InferredType(e)
		}
		return "Tuple[" + strings.Join(parts, ", ") + "]"
	case *Hash:
		if t.Len() == 0 {
			return "Hash[0, 0]"
		}
		if StringKeys(t) {
			parts := make([]string, t.Len())
			for i, k := range t.RawKeys() {
				name, _ := k.(string) // StringKeys checked every key
				key := "'" + name + "'"
				if t.Vals[i] == nil {
					key = "NotUndef[" + key + "]"
				}
				parts[i] = key + " => " + InferredType(t.Vals[i])
			}
			return "Struct[{" + strings.Join(parts, ", ") + "}]"
		}
		n := strconv.Itoa(t.Len())
		return "Hash[" + CommonType(t.RawKeys()) + ", " + CommonType(t.Vals) + ", " + n + ", " + n + "]"
	}
	return TypeName(v)
}

// inferred is one element type of a hash's key or value set, before Puppet's Variant normalization.
type inferred struct {
	kind   byte // 'i' Integer range, 'f' Float range, 's' String value, 'u' Undef, 'o' other
	lo, hi *big.Int
	flo    float64
	fhi    float64
	str    string // the string value, or the display of an 'o'
	ident  string // what makes two types the same (string values included)
}

func inferElement(v any) inferred {
	switch t := NearFloat(v).(type) {
	case nil:
		return inferred{kind: 'u', ident: "u"}
	case int64:
		b := big.NewInt(t)
		return inferred{kind: 'i', lo: b, hi: b, ident: "i" + b.String()}
	case *big.Int:
		return inferred{kind: 'i', lo: t, hi: t, ident: "i" + t.String()}
	case float64:
		return inferred{kind: 'f', flo: t, fhi: t, ident: "f" + FloatToS(t)}
	case string:
		return inferred{kind: 's', str: t, ident: "s" + t}
	}
	return inferred{kind: 'o', str: InferredType(v), ident: "o" + rubyInspectType(v)}
}

func (t inferred) String() string {
	switch t.kind {
	case 'i':
		return "Integer[" + t.lo.String() + ", " + t.hi.String() + "]"
	case 'f':
		return "Float[" + FloatToS(t.flo) + ", " + FloatToS(t.fhi) + "]"
	case 's':
		return "String"
	case 'u':
		return "Undef"
	}
	return t.str
}

// rubyInspectType identifies an inferred container type: string values are part of Puppet's
// inferred types, so ["a"] and ["b"] are two types (both shown as Tuple[String]).
func rubyInspectType(v any) string {
	return InferredType(v) + Inspect(v)
}

// CommonType names the type of a set of values (hash keys or values) the way Puppet shows an
// inferred, normalized Variant: duplicates dropped, nil making it Optional, several strings merged
// into an Enum, touching integer ranges merged.
func CommonType(vals []any) string {
	var types []inferred
	seen := map[string]bool{}
	for _, v := range vals {
		t := inferElement(v)
		if !seen[t.ident] {
			seen[t.ident] = true
			types = append(types, t)
		}
	}
	return normalizeVariant(types)
}

func normalizeVariant(types []inferred) string {
	if len(types) == 1 {
		return types[0].String()
	}
	var rest []inferred
	for _, t := range types {
		if t.kind != 'u' {
			rest = append(rest, t)
		}
	}
	if len(rest) < len(types) {
		if len(rest) == 1 && rest[0].kind == 's' {
			return "Optional['" + rest[0].str + "']" // Optional shows a String type's value
		}
		return "Optional[" + normalizeVariant(rest) + "]"
	}
	original := types
	if strs, others := partitionKind(types, 's'); len(strs) > 1 {
		set := map[string]bool{}
		var vals []string
		for _, s := range strs {
			if !set[s.str] {
				set[s.str] = true
				vals = append(vals, "'"+s.str+"'")
			}
		}
		sort.Strings(vals)
		types = append(others, inferred{kind: 'o', str: "Enum[" + strings.Join(vals, ", ") + "]"})
	}
	for _, k := range []byte{'i', 'f'} {
		if ranges, others := partitionKind(types, k); len(ranges) > 1 {
			types = append(mergeRanges(ranges), others...)
		}
	}
	if len(types) == len(original) {
		types = original // nothing merged: Puppet keeps the variant as it was
	}
	var parts []string
	for _, t := range types {
		parts = append(parts, t.String())
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "Variant[" + strings.Join(parts, ", ") + "]"
}

func partitionKind(types []inferred, kind byte) (match, others []inferred) {
	for _, t := range types {
		if t.kind == kind {
			match = append(match, t)
		} else {
			others = append(others, t)
		}
	}
	return match, others
}

// mergeRanges is PVariantType#merge_ranges: take the last range, fold in the others it overlaps (or,
// for integers, touches), repeat with what is left.
func mergeRanges(ranges []inferred) []inferred {
	var result []inferred
	for len(ranges) > 0 {
		memo := ranges[len(ranges)-1]
		var unmerged []inferred
		for _, y := range ranges[:len(ranges)-1] {
			if m, ok := mergeRange(memo, y); ok {
				memo = m
			} else {
				unmerged = append(unmerged, y)
			}
		}
		result = append(result, memo)
		ranges = unmerged
	}
	return result
}

func mergeRange(a, b inferred) (inferred, bool) {
	if a.kind == 'f' {
		if a.fhi < b.flo || b.fhi < a.flo {
			return a, false
		}
		a.flo, a.fhi = math.Min(a.flo, b.flo), math.Max(a.fhi, b.fhi)
		return a, true
	}
	one := big.NewInt(1)
	if new(big.Int).Add(a.hi, one).Cmp(b.lo) < 0 || new(big.Int).Add(b.hi, one).Cmp(a.lo) < 0 {
		return a, false
	}
	if b.lo.Cmp(a.lo) < 0 {
		a.lo = b.lo
	}
	if b.hi.Cmp(a.hi) > 0 {
		a.hi = b.hi
	}
	return a, true
}

func StringKeys(h *Hash) bool {
	for _, k := range h.RawKeys() {
		if _, ok := k.(string); !ok {
			return false
		}
	}
	return true
}

// IsData reports whether v is Puppet Data: hashes anywhere inside must have string keys.
func IsData(v any) bool {
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			if !IsData(e) {
				return false
			}
		}
	case *Hash:
		if !StringKeys(t) {
			return false
		}
		for _, e := range t.Vals {
			if !IsData(e) {
				return false
			}
		}
	}
	return true
}

// DataMismatches describes why v (at path, e.g. "entry 'a' ") is not Data, the way Puppet's type
// mismatch describer walks the variants of Data.
func DataMismatches(v any, path string) []string {
	switch t := v.(type) {
	case *Hash:
		if !StringKeys(t) {
			return []string{path + "expects a Data value, got Hash"}
		}
		out := []string{path + "variant 0 expects a ScalarData value, got Struct"}
		for i, k := range t.RawKeys() {
			if !IsData(t.Vals[i]) {
				name, _ := k.(string) // StringKeys checked every key
				out = append(out, DataMismatches(t.Vals[i], path+"variant 1 entry '"+name+"' ")...)
			}
		}
		return append(out, path+"variant 2 expects an Array value, got Struct")
	case []any:
		out := []string{
			path + "variant 0 expects a ScalarData value, got Tuple",
			path + "variant 1 expects a Hash value, got Tuple",
		}
		for i, e := range t {
			if !IsData(e) {
				out = append(out, DataMismatches(e, path+"variant 2 index "+strconv.Itoa(i)+" ")...)
			}
		}
		return out
	}
	return nil
}
