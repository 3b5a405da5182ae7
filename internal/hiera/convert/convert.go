package convert

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// lookup_options convert_to (hiera-semantics.md §5.5) runs Puppet's new(Type, value, *args). The messages
// follow Puppet 7/8 (checked against recorded Puppet 8.10 answers where available): conversion
// functions report argument mismatches as "'<function name>' <message>", e.g. "'new' The string
// 'bananas' cannot be converted to Integer" ('new' is the Integer function's name, the others
// are new_float, new_numeric, new_boolean, new_array, new_hash, new_string, new_sensitive).
//
// Only plain type names are understood; a parameterized type such as Array[String] is reported
// as unsupported rather than half-implemented.

// convArraySizeLimit caps Integer-to-Array conversion (Puppet would build [0, ..., n-1]).
const convArraySizeLimit = 1 << 20

// convTypeName matches a (possibly qualified) Puppet type name.
var convTypeName = regexp.MustCompile(`^[A-Z]\w*(::[A-Z]\w*)*$`)

// convTypes lists the built-in types that take part in convert_to: the converter for types with
// a new function, nil for those whose instances are returned unchanged and that Puppet otherwise
// cannot create ("Creation of new instance of type 'Scalar' is not supported").
var convTypes = map[string]func(v any, args []any) (any, string){
	"Integer": convInteger, "Float": convFloat, "Numeric": convNumeric, "Boolean": convBoolean,
	"String": convString, "Array": convArray, "Tuple": convArray, "Hash": convHash, "Struct": convHash,
	"Any": nil, "Data": nil, "RichData": nil, "Optional": nil, "NotUndef": nil, "Scalar": nil,
	"ScalarData": nil, "Undef": nil, "Collection": nil, "Enum": nil, "Pattern": nil, "Variant": nil,
	"Default": nil, "Callable": nil, "Class": nil, "Resource": nil, "CatalogEntry": nil, "Type": nil,
	"Iterable": nil, "Iterator": nil, "Runtime": nil, "TypeAlias": nil, "TypeReference": nil,
	"TypeSet": nil, "Unit": nil,
}

// convRichTypes have a Puppet new function but produce values this engine cannot represent.
var convRichTypes = map[string]bool{
	"Regexp": true, "Timestamp": true, "Timespan": true, "SemVer": true, "SemVerRange": true,
	"Binary": true, "URI": true, "Init": true, "Object": true, "Error": true, "Deferred": true,
}

// To applies a convert_to option (a type name string, or an array [type, args...]) to v.
// sensitive=true for "Sensitive" (value returned unchanged, the caller marks it). A nil spec
// means no conversion.
func To(key string, v any, spec any) (out any, sensitive bool, err error) {
	var typeArg any
	var args []any
	switch s := spec.(type) {
	case nil:
		return v, false, nil
	case []any:
		if len(s) > 0 {
			typeArg, args = s[0], s[1:]
		}
	default:
		typeArg = s
	}
	source, ok := typeArg.(string)
	if !ok {
		return nil, false, convRaised(key, "'new' parameter 'type' expects a Type value, got "+convShortType(typeArg))
	}
	name, perr := ParseType(source)
	if perr != "" {
		return nil, false, model.Errorf("Invalid data type in lookup_options for key '%s' could not parse '%s', error: '%s", key, source, perr)
	}
	if name == "Sensitive" {
		if len(args) > 0 {
			return nil, false, convRaised(key, fmt.Sprintf("'new_sensitive' expects 1 argument, got %d", len(args)+1))
		}
		return v, true, nil
	}
	if i := strings.IndexByte(name, '['); i > 0 {
		if _, known := convTypes[name[:i]]; !known && name[:i] != "Sensitive" && !convRichTypes[name[:i]] {
			return nil, false, convRaised(key, "Creation of new instance of type 'TypeReference['"+name+"']' is not supported")
		}
		return nil, false, model.Errorf("The convert_to lookup_option for key '%s' uses the parameterized type '%s', which is not supported (use a plain type name such as Integer or Array)", key, name)
	}
	if convRichTypes[name] {
		return nil, false, model.Errorf("The convert_to lookup_option for key '%s' uses the type '%s', whose values this engine cannot represent", key, name)
	}
	convert, known := convTypes[name]
	if !known {
		return nil, false, convRaised(key, "Creation of new instance of type 'TypeReference['"+name+"']' is not supported")
	}
	if convert == nil {
		if len(args) == 0 && convIsInstance(name, v) {
			return v, false, nil
		}
		return nil, false, convRaised(key, "Creation of new instance of type '"+name+"' is not supported")
	}
	out, msg := convert(v, args)
	if msg != "" {
		return nil, false, convRaised(key, msg)
	}
	return out, false, nil
}

func convRaised(key, msg string) error {
	return model.Errorf("The convert_to lookup_option for key '%s' raised error: %s", key, msg)
}

// ParseType checks a type string the way Puppet's TypeParser would for plain names. It returns
// the name (or the parameterized text), or a Puppet-like parse error message.
func ParseType(s string) (name string, perr string) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "::")
	if convTypeName.MatchString(t) {
		return t, ""
	}
	if i := strings.IndexByte(t, '['); i > 0 && strings.HasSuffix(t, "]") && convTypeName.MatchString(t[:i]) {
		return t, "" // parameterized: accepted here, judged by To
	}
	if strings.Count(t, "[") > strings.Count(t, "]") {
		return "", "Syntax error at end of input"
	}
	return "", "The expression <" + strings.TrimSpace(s) + "> is not a valid type specification."
}

// convIsInstance answers Type.instance?(v) for the types that have no converter.
func convIsInstance(name string, v any) bool {
	_, isString := v.(string)
	switch name {
	case "Any", "Data", "RichData", "Optional", "Unit":
		return true
	case "NotUndef":
		return v != nil
	case "Scalar", "ScalarData":
		return v != nil && !convIsCollection(v)
	case "Undef":
		return v == nil
	case "Collection":
		return convIsCollection(v)
	case "Enum", "Pattern":
		return isString
	}
	return false
}

func convIsCollection(v any) bool {
	switch v.(type) {
	case []any, *model.Hash:
		return true
	}
	return false
}

func convBoolean(v any, args []any) (any, string) {
	if len(args) > 0 {
		return nil, fmt.Sprintf("'new_boolean' expects 1 argument, got %d", len(args)+1)
	}
	switch x := v.(type) {
	case bool:
		return x, ""
	case int64:
		return x != 0, ""
	case *big.Int:
		return x.Sign() != 0, ""
	case float64:
		return x != 0, ""
	case string:
		switch strings.ToLower(x) {
		case "true", "yes", "y":
			return true, ""
		case "false", "no", "n":
			return false, ""
		}
		return nil, "'new_boolean' The string '" + x + "' cannot be converted to Boolean"
	}
	return nil, "'new_boolean' Value of type " + convGeneralType(v) + " cannot be converted to Boolean"
}

func convString(v any, args []any) (any, string) {
	switch {
	case len(args) > 1:
		return nil, fmt.Sprintf("'new_string' expects between 1 and 2 arguments, got %d", len(args)+1)
	case len(args) == 1:
		return nil, "String formats are not supported by this engine's convert_to"
	}
	return convPuppetString(v), ""
}

func convArray(v any, args []any) (any, string) {
	if len(args) > 1 {
		return nil, fmt.Sprintf("'new_array' expects between 1 and 2 arguments, got %d", len(args)+1)
	}
	wrap := false
	if len(args) == 1 {
		b, ok := args[0].(bool)
		if !ok {
			return nil, "'new_array' parameter 'wrap' expects a Boolean value, got " + convShortType(args[0])
		}
		wrap = b
	}
	if arr, ok := v.([]any); ok {
		return arr, ""
	}
	if wrap {
		return []any{v}, ""
	}
	if h, ok := v.(*model.Hash); ok {
		pairs := make([]any, 0, h.Len())
		h.Each(func(k, val any) bool {
			pairs = append(pairs, []any{k, val})
			return true
		})
		return pairs, ""
	}
	if items, ok := convIterate(v); ok {
		return items, ""
	}
	if n, ok := v.(int64); ok && n >= 0 {
		return nil, fmt.Sprintf("Integer %d is too large to convert to an Array", n)
	}
	return nil, "'new_array' Value of type " + convGeneralType(v) + " cannot be converted to Array"
}

func convHash(v any, args []any) (any, string) {
	switch {
	case len(args) > 1:
		return nil, fmt.Sprintf("'new_hash' expects between 1 and 2 arguments, got %d", len(args)+1)
	case len(args) == 1:
		return nil, "Hash build options are not supported by this engine's convert_to"
	}
	var flat []any
	switch x := v.(type) {
	case nil:
		return nil, "Converted value from Hash.new() has wrong type, expects a Hash value, got Undef"
	case *model.Hash:
		return x, ""
	case []any:
		if convAllPairs(x) {
			for _, p := range x {
				pair, _ := p.([]any) // convAllPairs checked that every element is a pair
				flat = append(flat, pair...)
			}
		} else {
			flat = x
		}
	default:
		items, ok := convIterate(v)
		if !ok {
			return nil, "Value of type " + convGeneralType(v) + " cannot be converted to Hash"
		}
		flat = items
	}
	if len(flat)%2 != 0 {
		return nil, "odd number of arguments for Hash"
	}
	h := model.NewHash(len(flat) / 2)
	for i := 0; i < len(flat); i += 2 {
		if convIsCollection(flat[i]) {
			return nil, "Hash keys of type " + convGeneralType(flat[i]) + " are not supported by this engine"
		}
		h.Set(flat[i], flat[i+1])
	}
	return h, ""
}

// convAllPairs reports whether a is a non-empty array of [key, value] arrays.
func convAllPairs(a []any) bool {
	for _, e := range a {
		if p, ok := e.([]any); !ok || len(p) != 2 {
			return false
		}
	}
	return len(a) > 0
}

// convIterate is Puppet's Iterable.on(v).to_a for the iterable scalars: a String gives its
// characters, a non-negative Integer n gives 0..n-1.
func convIterate(v any) ([]any, bool) {
	switch x := v.(type) {
	case string:
		out := make([]any, 0, utf8.RuneCountInString(x))
		for _, r := range x {
			out = append(out, string(r))
		}
		return out, true
	case int64:
		if x < 0 || x > convArraySizeLimit {
			return nil, false
		}
		out := make([]any, x)
		for i := range out {
			out[i] = int64(i)
		}
		return out, true
	}
	return nil, false
}

// convShortType is the type name Puppet's argument checks print ("got Struct").
func convShortType(v any) string {
	switch t := v.(type) {
	case []any:
		return "Tuple"
	case *model.Hash:
		if t.Len() > 0 && convStringKeys(t) {
			return "Struct"
		}
		return "Hash"
	}
	return convGeneralType(v)
}

// convGeneralType approximates Puppet's generalized inferred type, used in "Value of type X
// cannot be converted" messages (Array[Integer], Struct[{'a' => Integer}], ...).
func convGeneralType(v any) string {
	switch t := v.(type) {
	case []any:
		if len(t) == 0 {
			return "Array"
		}
		names := make([]string, len(t))
		for i, e := range t {
			names[i] = convGeneralType(e)
		}
		return "Array[" + convCommonType(names) + "]"
	case *model.Hash:
		if t.Len() == 0 {
			return "Hash"
		}
		var keys, vals, elems []string
		t.Each(func(k, val any) bool {
			keys = append(keys, convGeneralType(k))
			vals = append(vals, convGeneralType(val))
			elems = append(elems, convQuote(fmt.Sprint(k))+" => "+convGeneralType(val))
			return true
		})
		if convStringKeys(t) {
			return "Struct[{" + strings.Join(elems, ", ") + "}]"
		}
		return "Hash[" + convCommonType(keys) + ", " + convCommonType(vals) + "]"
	}
	return model.TypeName(v) // scalars: the short names are the general ones
}

func convStringKeys(h *model.Hash) bool {
	for _, k := range h.Keys() {
		if s, ok := k.(string); !ok || s == "" {
			return false
		}
	}
	return true
}

// convCommonType is a simplified TypeCalculator#common_type over type names.
func convCommonType(names []string) string {
	same, numeric, scalar, undef := true, true, true, false
	var other string
	for _, n := range names {
		if n == "Undef" {
			undef = true
			continue
		}
		if other == "" {
			other = n
		}
		same = same && n == other
		numeric = numeric && (n == "Integer" || n == "Float")
		scalar = scalar && (n == "Integer" || n == "Float" || n == "String" || n == "Boolean")
	}
	var t string
	switch {
	case other == "":
		return "Undef"
	case same:
		t = other
	case numeric:
		t = "Numeric"
	case scalar:
		t = "ScalarData"
	default:
		t = "Data"
	}
	if undef && t != "Data" {
		return "Optional[" + t + "]"
	}
	return t
}
