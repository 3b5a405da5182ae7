package datafile

import (
	"math"
	"math/big"
	"strconv"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Puppet validates a looked-up value as RichData: hash keys must be strings or numbers. A YAML
// file may hold other keys (true: x) and values Psych reads but Puppet rejects (a Symbol, an
// Encoding, a collection as a key: nonData); Puppet fails the lookup of the root key that contains
// them, and only that one.

// nonData stands in a file's data for a value that is not RichData and that the engine's value
// model cannot hold: typ is the type Puppet's error names (Runtime[ruby, 'Symbol'], a hash with a
// collection key). It only ever sits under a root key listed by InvalidRootKeys.
type nonData struct {
	typ string
	// rest is a mapping without its collection keys: a document that is such a mapping is read
	// as rest, since no lookup can name a collection key (Puppet then finds the other keys).
	rest *model.Hash
}

// InvalidRootKeys maps each root key of data whose value is not RichData to the value's type.
// It runs once when a file is parsed, so lookups only consult the map.
func InvalidRootKeys(data *model.Hash) map[string]string {
	var bad map[string]string
	data.Each(func(k, v any) bool {
		ks, isStr := k.(string)
		if isStr && !isRichData(v) {
			if bad == nil {
				bad = map[string]string{}
			}
			bad[ks] = lookupValueType(v)
		}
		return true
	})
	return bad
}

func isRichData(v any) bool {
	switch t := v.(type) {
	case nonData:
		return false
	case []any:
		for _, el := range t {
			if !isRichData(el) {
				return false
			}
		}
	case *model.Hash:
		ok := true
		t.Each(func(k, val any) bool {
			switch k.(type) {
			case string, int64, float64, *big.Int:
			default:
				ok = false
			}
			ok = ok && isRichData(val)
			return ok
		})
		return ok
	}
	return true
}

// lookupValueType is the type Puppet names for a value that fails its Puppet::LookupValue check:
// the inferred type with strings generalized to String and collections to Array or Hash with
// their sizes, e.g. Hash[String, Array[Any, 2, 2], 1, 1] for {a: [1, :sym]}.
func lookupValueType(v any) string {
	switch t := v.(type) {
	case nonData:
		return t.typ
	case string:
		return "String"
	case []any:
		n := strconv.Itoa(len(t))
		if len(t) == 0 {
			return "Array[0, 0]"
		}
		return "Array[" + commonLookupValueType(t) + ", " + n + ", " + n + "]"
	case *model.Hash:
		if t.Len() == 0 {
			return "Hash[0, 0]"
		}
		return hashLookupValueType(t.RawKeys(), t.Vals)
	}
	return model.InferredType(v)
}

func hashLookupValueType(keys, vals []any) string {
	n := strconv.Itoa(len(keys))
	keyType := model.CommonType(keys) // scalar keys: a Variant, several strings an Enum
	for _, k := range keys {
		switch k.(type) {
		case []any, *model.Hash, nonData:
			keyType = commonLookupValueType(keys) // collections generalized, as values are
		}
	}
	return "Hash[" + keyType + ", " + commonLookupValueType(vals) + ", " + n + ", " + n + "]"
}

// commonLookupValueType is Puppet's common type of the elements' types: one type when they agree,
// the enclosing range when all are integers (or all floats), an Enum of strings, else Any.
func commonLookupValueType(vals []any) string {
	first := lookupValueType(vals[0])
	same, ints, floats, strs := true, true, true, true
	var lo, hi *big.Int
	flo, fhi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		same = same && lookupValueType(v) == first
		switch n := v.(type) {
		case int64:
			lo, hi = bigMin(lo, big.NewInt(n)), bigMax(hi, big.NewInt(n))
			floats = false
		case *big.Int:
			lo, hi = bigMin(lo, n), bigMax(hi, n)
			floats = false
		case float64:
			flo, fhi = min(flo, n), max(fhi, n)
			ints = false
		case string:
			ints, floats = false, false
		default:
			ints, floats, strs = false, false, false
		}
		if _, isStr := v.(string); !isStr {
			strs = false
		}
	}
	switch {
	case same:
		return first
	case strs:
		return model.CommonType(vals) // an Enum of the strings
	case ints:
		return "Integer[" + lo.String() + ", " + hi.String() + "]"
	case floats:
		return "Float[" + model.FloatToS(flo) + ", " + model.FloatToS(fhi) + "]"
	}
	return "Any"
}

func bigMin(a, b *big.Int) *big.Int {
	if a == nil || b.Cmp(a) < 0 {
		return b
	}
	return a
}

func bigMax(a, b *big.Int) *big.Int {
	if a == nil || b.Cmp(a) > 0 {
		return b
	}
	return a
}
