package model

import (
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
)

// Values inside the engine are a closed set of Go types, mirroring Puppet's RichData:
//
//	nil          YAML null / Ruby nil (a *found* nil; "not found" is a separate flag)
//	bool
//	int64        integers that fit
//	*big.Int     integers that do not fit in int64 (Ruby Bignum), kept exact
//	float64
//	*big.Float   a non-integer number that float64 cannot hold exactly, only from the provider
//	             (FromBigFloat): data files give float64, as Ruby's Float
//	string
//	[]any        arrays
//	*Hash        ordered hashes whose keys are scalars (string, int64, *big.Int, float64, bool, nil)
//
// Values read from data files are shared by the cache and by concurrent lookups: code must never
// mutate a value it did not create itself (use Copy first).

// Copy returns a deep copy of v: hashes and arrays are new, scalars are shared (they are immutable).
func Copy(v any) any {
	switch t := v.(type) {
	case *Hash:
		out := NewHash(t.Len())
		vals := t.Vals
		for i, k := range t.RawKeys() {
			out.Set(k, Copy(vals[i]))
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = Copy(e)
		}
		return out
	default:
		return v
	}
}

// Equal reports whether a and b are the same value with the same types (Ruby ==, but 1 and 1.0
// differ, as Array#| and Array#uniq see them). Hash equality ignores order, as Ruby's does.
func Equal(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool, string, float64:
		return a == b
	case *big.Float:
		y, ok := b.(*big.Float)
		return ok && x.Cmp(y) == 0
	case int64:
		if y, ok := b.(*big.Int); ok {
			return y.IsInt64() && y.Int64() == x
		}
		return a == b
	case *big.Int:
		switch y := b.(type) {
		case *big.Int:
			return x.Cmp(y) == 0
		case int64:
			return x.IsInt64() && x.Int64() == y
		}
		return false
	case []any, *Hash:
		return ContainersEqual(a, b, Equal)
	}
	return false
}

// ContainersEqual compares two arrays or two hashes element by element with eq (hash order is
// ignored, as in Ruby); false for anything else.
func ContainersEqual(a, b any, eq func(a, b any) bool) bool {
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !eq(x[i], y[i]) {
				return false
			}
		}
		return true
	case *Hash:
		y, ok := b.(*Hash)
		if !ok || x.Len() != y.Len() {
			return false
		}
		vals := x.Vals
		for i, k := range x.RawKeys() {
			w, ok := y.Get(k)
			if !ok || !eq(vals[i], w) {
				return false
			}
		}
		return true
	}
	return false
}

// FromGo converts plain Go data (as decoded from JSON or built by the provider) into engine values:
// map[string]any becomes a *Hash with sorted keys, ints become int64, []T becomes []any.
func FromGo(v any) (any, error) {
	switch t := v.(type) {
	case nil, bool, string, int64, float64, *big.Int:
		return t, nil
	case int:
		return int64(t), nil
	case int32:
		return int64(t), nil
	case float32:
		return float64(t), nil
	case *big.Float:
		return FromBigFloat(t), nil
	case *Hash:
		return t, nil
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		h := NewHash(len(keys))
		for _, k := range keys {
			cv, err := FromGo(t[k])
			if err != nil {
				return nil, err
			}
			h.Set(k, cv)
		}
		return h, nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			cv, err := FromGo(e)
			if err != nil {
				return nil, err
			}
			out[i] = cv
		}
		return out, nil
	case []string:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = e
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported value of Go type %T", v)
}

// FromBigFloat is a Terraform number as an engine value: an integer is an int64 or *big.Int; a
// number whose shortest decimal digits float64 gives too (0.1, parsed by Terraform at 512 bits) is
// a float64, as a data file's number; any other (0.1000000000000000000001, 1e400) stays a copy of
// f, so that a number given to the provider's functions, a default_value or a fact comes back
// exactly as Terraform holds it. Such a *big.Float never equals a float64 or an integer;
// comparisons, sorting and stringification use its exact value, type checks (value_type) the
// nearest float64, as a Ruby Float would be.
func FromBigFloat(f *big.Float) any {
	if f.IsInt() {
		i, _ := f.Int(nil)
		return NormInt(i)
	}
	x, acc := f.Float64()
	if acc == big.Exact || f.IsInf() ||
		(!math.IsInf(x, 0) && f.Text('e', -1) == strconv.FormatFloat(x, 'e', -1, 64)) {
		return x
	}
	return new(big.Float).Copy(f)
}

// NearFloat is v with a *big.Float replaced by the nearest float64 (type checks and names).
func NearFloat(v any) any {
	if f, ok := v.(*big.Float); ok {
		x, _ := f.Float64()
		return x
	}
	return v
}

// NormInt returns an int64 when i fits, else i itself.
func NormInt(i *big.Int) any {
	if i.IsInt64() {
		return i.Int64()
	}
	return i
}

// Symbol is a scalar that Psych reads as a Ruby Symbol (plain ":name", or tagged !ruby/sym). It only
// lives while a file is read: hash keys become strings (Puppet's symkeys_to_string) and a symbol left
// as a value is an error, since Puppet's data validation rejects it.
type Symbol struct {
	Name      string
	Line, Col int // where a symbol value was written; zero in keys so that equal symbols are equal keys
}
