package hiera

import (
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// Puppet's merge type errors name the inferred type of the offending value: a short name when the
// expected type is of another kind ("got Struct"), the full inferred type when only the details differ
// ("got Hash[Integer[1, 1], String]"). This is a close approximation of Puppet's type inference.

// puppetTypeName is the short name: Undef, Boolean, Integer, Float, String, Array (empty), Tuple,
// Hash (empty or with non-string keys) or Struct (string keys).
func puppetTypeName(v any) string {
	switch t := v.(type) {
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
		if t.Len() > 0 && stringKeys(t) {
			return "Struct"
		}
		return "Hash"
	}
	return "Runtime"
}

// puppetTypeDetail is the full inferred type, as in "Hash[Integer[1, 1], String]". Hashes with
// non-string keys show their size only when nested, as Puppet's messages do.
func puppetTypeDetail(v any) string {
	if h, ok := v.(*Hash); ok && h.Len() > 0 && !stringKeys(h) {
		return "Hash[" + commonType(h.keys) + ", " + commonType(h.vals) + "]"
	}
	return typeDetail(v)
}

func typeDetail(v any) string {
	switch t := v.(type) {
	case bool:
		return "Boolean[" + strconv.FormatBool(t) + "]"
	case int64, *big.Int:
		s := scalarInspect(t)
		return "Integer[" + s + ", " + s + "]"
	case float64:
		s := rubyFloat(t)
		return "Float[" + s + ", " + s + "]"
	case []any:
		if len(t) == 0 {
			return "Array[0, 0]"
		}
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = typeDetail(e)
		}
		return "Tuple[" + strings.Join(parts, ", ") + "]"
	case *Hash:
		if t.Len() == 0 {
			return "Hash[0, 0]"
		}
		if stringKeys(t) {
			parts := make([]string, t.Len())
			for i, k := range t.keys {
				parts[i] = "'" + k.(string) + "' => " + typeDetail(t.vals[i])
			}
			return "Struct[{" + strings.Join(parts, ", ") + "}]"
		}
		n := strconv.Itoa(t.Len())
		return "Hash[" + commonType(t.keys) + ", " + commonType(t.vals) + ", " + n + ", " + n + "]"
	}
	return puppetTypeName(v)
}

// commonType names the type of a set of values (hash keys or values): integer ranges join, several
// strings make an Enum, mixed kinds a Variant, nil makes it Optional.
func commonType(vals []any) string {
	var (
		ints          []*big.Int
		strs          = map[string]bool{}
		others        []string
		seen          = map[string]bool{}
		undef, anyStr bool
	)
	for _, v := range vals {
		switch t := v.(type) {
		case nil:
			undef = true
		case int64:
			ints = append(ints, big.NewInt(t))
		case *big.Int:
			ints = append(ints, t)
		case string:
			anyStr = true
			strs[t] = true
		default:
			if d := typeDetail(v); !seen[d] {
				seen[d] = true
				others = append(others, d)
			}
		}
	}
	var parts []string
	if len(ints) > 0 {
		lo, hi := ints[0], ints[0]
		for _, i := range ints[1:] {
			if i.Cmp(lo) < 0 {
				lo = i
			}
			if i.Cmp(hi) > 0 {
				hi = i
			}
		}
		parts = append(parts, "Integer["+lo.String()+", "+hi.String()+"]")
	}
	parts = append(parts, others...)
	if anyStr {
		if len(strs) == 1 {
			parts = append(parts, "String")
		} else {
			list := make([]string, 0, len(strs))
			for s := range strs {
				list = append(list, "'"+s+"'")
			}
			sort.Strings(list)
			parts = append(parts, "Enum["+strings.Join(list, ", ")+"]")
		}
	}
	t := "Undef"
	switch len(parts) {
	case 0:
		return t
	case 1:
		t = parts[0]
	default:
		t = "Variant[" + strings.Join(parts, ", ") + "]"
	}
	if undef {
		t = "Optional[" + t + "]"
	}
	return t
}

func stringKeys(h *Hash) bool {
	for _, k := range h.keys {
		if _, ok := k.(string); !ok {
			return false
		}
	}
	return true
}

// isData reports whether v is Puppet Data: hashes anywhere inside must have string keys.
func isData(v any) bool {
	switch t := v.(type) {
	case []any:
		for _, e := range t {
			if !isData(e) {
				return false
			}
		}
	case *Hash:
		if !stringKeys(t) {
			return false
		}
		for _, e := range t.vals {
			if !isData(e) {
				return false
			}
		}
	}
	return true
}

// dataMismatches describes why v (at path, e.g. "entry 'a' ") is not Data, the way Puppet's type
// mismatch describer walks the variants of Data.
func dataMismatches(v any, path string) []string {
	switch t := v.(type) {
	case *Hash:
		if !stringKeys(t) {
			return []string{path + "expects a Data value, got Hash"}
		}
		out := []string{path + "variant 0 expects a ScalarData value, got Struct"}
		for i, k := range t.keys {
			if !isData(t.vals[i]) {
				out = append(out, dataMismatches(t.vals[i], path+"variant 1 entry '"+k.(string)+"' ")...)
			}
		}
		return append(out, path+"variant 2 expects an Array value, got Struct")
	case []any:
		out := []string{
			path + "variant 0 expects a ScalarData value, got Tuple",
			path + "variant 1 expects a Hash value, got Tuple",
		}
		for i, e := range t {
			if !isData(e) {
				out = append(out, dataMismatches(e, path+"variant 2 index "+strconv.Itoa(i)+" ")...)
			}
		}
		return out
	}
	return nil
}
