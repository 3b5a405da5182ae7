package convert

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Strings accepted by Integer.new, Float.new and Numeric.new (Puppet's Convertible patterns).
// Decimal digits are matched leniently, so "09" passes and then fails in Ruby's Integer() with
// `invalid value for Integer(): "09"`, as recorded from Puppet.
var (
	convIntegerPattern = regexp.MustCompile(`\A[+-]?[ \t\n\v\f\r]*(?:0[xX][0-9A-Fa-f]+|0[bB][01]+|[0-9]+)\z`)
	convFloatPattern   = regexp.MustCompile(`\A[+-]?[ \t\n\v\f\r]*(?:[0-9]+(?:\.[0-9]+)?(?:[eE]-?[0-9]+)?|0[xX][0-9A-Fa-f]+|0[bB][01]+)\z`)
	// convWSAfterSign is Puppet's WS_BETWEEN_SIGN_AND_NUMBER: "- 42" is retried as "-42".
	convWSAfterSign = regexp.MustCompile(`(?s)\A([+-])[ \t\n\v\f\r]+(.*)\z`)
	// convNumericRe is Puppet's Patterns::NUMERIC, used by Utils.to_n for Numeric.new.
	convNumericRe     = regexp.MustCompile(`\A[ \t]*([-+]?)[ \t]*((0[xX][0-9A-Fa-f]+)|(0?[0-9]+)((?:\.[0-9]+)?(?:[eE]-?[0-9]+)?))[ \t]*\z`)
	convZeroExp       = regexp.MustCompile(`\A\.?0*[eE]`)
	convRubyFloatText = regexp.MustCompile(`\A(?:[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|0[xX][0-9A-Fa-f]+)\z`)
)

// convInteger is Integer.new(from, radix = default, abs = false).
func convInteger(v any, args []any) (any, string) {
	if len(args) > 2 {
		return nil, fmt.Sprintf("'new' expects between 1 and 3 arguments, got %d", len(args)+1)
	}
	radix := 0
	if len(args) >= 1 {
		r, ok := args[0].(int64)
		if !ok {
			return nil, "'new' parameter 'radix' expects an Integer value, got " + convShortType(args[0])
		}
		if r != 2 && r != 8 && r != 10 && r != 16 {
			return nil, fmt.Sprintf("Illegal radix: %d, expected 2, 8, 10, 16, or default", r)
		}
		radix = int(r)
	}
	abs, msg := convAbsArg("new", args, 1)
	if msg != "" {
		return nil, msg
	}
	var n *big.Int
	switch x := v.(type) {
	case int64:
		n = big.NewInt(x)
	case *big.Int:
		n = new(big.Int).Set(x)
	case bool:
		n = big.NewInt(0)
		if x {
			n.SetInt64(1)
		}
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, model.FloatToS(x) // Ruby's FloatDomainError message
		}
		n, _ = big.NewFloat(x).Int(nil) // truncates like Float#to_i
	case string:
		if !convIntegerPattern.MatchString(x) {
			return nil, "'new' The string '" + x + "' cannot be converted to Integer"
		}
		var ok bool
		if n, ok = convRetrySign(x, func(s string) (*big.Int, bool) { return convParseInteger(s, radix) }); !ok {
			return nil, "invalid value for Integer(): " + strconv.Quote(x)
		}
	default:
		return nil, "'new' Value of type " + convGeneralType(v) + " cannot be converted to Integer"
	}
	if abs {
		n.Abs(n)
	}
	return model.NormInt(n), ""
}

// convFloat is Float.new(from, abs = false).
func convFloat(v any, args []any) (any, string) {
	if len(args) > 1 {
		return nil, fmt.Sprintf("'new_float' expects between 1 and 2 arguments, got %d", len(args)+1)
	}
	abs, msg := convAbsArg("new_float", args, 0)
	if msg != "" {
		return nil, msg
	}
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case int64:
		f = float64(x)
	case *big.Int:
		f, _ = new(big.Float).SetInt(x).Float64()
	case bool:
		if x {
			f = 1
		}
	case string:
		if !convFloatPattern.MatchString(x) {
			return nil, "'new_float' The string '" + x + "' cannot be converted to Float"
		}
		if len(x) > 1 && x[0] == '0' && (x[1] == 'b' || x[1] == 'B') { // "support a binary as float"
			n, ok := convParseInteger(x, 0)
			if !ok {
				return nil, "invalid value for Integer(): " + strconv.Quote(x)
			}
			f, _ = new(big.Float).SetInt(n).Float64()
			break
		}
		bf, ok := convRetrySign(x, convParseFloat)
		if !ok {
			return nil, "invalid value for Float(): " + strconv.Quote(x)
		}
		f = bf
	default:
		return nil, "'new_float' Value of type " + convGeneralType(v) + " cannot be converted to Float"
	}
	if abs {
		f = math.Abs(f)
	}
	return f, ""
}

// convNumeric is Numeric.new(from, abs = false): an Integer or a Float, whichever the text says.
func convNumeric(v any, args []any) (any, string) {
	if len(args) > 1 {
		return nil, fmt.Sprintf("'new_numeric' expects between 1 and 2 arguments, got %d", len(args)+1)
	}
	abs, msg := convAbsArg("new_numeric", args, 0)
	if msg != "" {
		return nil, msg
	}
	var out any
	switch x := v.(type) {
	case int64, *big.Int, float64:
		out = x
	case bool:
		out = int64(0)
		if x {
			out = int64(1)
		}
	case string:
		if !convFloatPattern.MatchString(x) {
			return nil, "'new_numeric' The string '" + x + "' cannot be converted to Numeric"
		}
		if len(x) > 1 && x[0] == '0' && strings.ContainsRune("bBxX", rune(x[1])) {
			n, ok := convParseInteger(x, 0)
			if !ok {
				return nil, "invalid value for Integer(): " + strconv.Quote(x)
			}
			out = model.NormInt(n)
			break
		}
		if out, msg = convToN(x); msg != "" {
			return nil, msg
		}
		if out == nil {
			return nil, "Converted value from Numeric.new() has wrong type, expects a Numeric value, got Undef"
		}
	default:
		return nil, "'new_numeric' Value of type " + convGeneralType(v) + " cannot be converted to Numeric"
	}
	if abs {
		switch x := out.(type) {
		case float64:
			out = math.Abs(x)
		case int64:
			out = model.NormInt(new(big.Int).Abs(big.NewInt(x)))
		case *big.Int:
			out = model.NormInt(new(big.Int).Abs(x))
		}
	}
	return out, ""
}

// convAbsArg reads the optional Boolean 'abs' argument at args[i].
func convAbsArg(fn string, args []any, i int) (bool, string) {
	if len(args) <= i {
		return false, ""
	}
	b, ok := args[i].(bool)
	if !ok {
		return false, "'" + fn + "' parameter 'abs' expects a Boolean value, got " + convShortType(args[i])
	}
	return b, ""
}

// convRetrySign runs parse on s and, when that fails and s has whitespace between its sign and
// number, once more without that whitespace (Puppet's retry in Integer.new and Float.new).
func convRetrySign[T any](s string, parse func(string) (T, bool)) (T, bool) {
	if v, ok := parse(s); ok {
		return v, true
	}
	if m := convWSAfterSign.FindStringSubmatch(s); m != nil {
		return parse(m[1] + m[2])
	}
	var zero T
	return zero, false
}

// convToN is Puppet's Utils.to_n for a string: an Integer (octal with a leading 0), a Float, or nil.
func convToN(s string) (any, string) {
	m := convNumericRe.FindStringSubmatch(s)
	if m == nil {
		return nil, ""
	}
	neg := m[1] == "-"
	if m[5] != "" {
		iv, ok := convParseInteger(m[4], 0)
		if !ok {
			return nil, "invalid value for Integer(): " + strconv.Quote(m[4])
		}
		if iv.Sign() == 0 && convZeroExp.MatchString(m[5]) {
			return nil, "" // Puppet refuses 0e1 and the like
		}
		f, _ := strconv.ParseFloat(m[2], 64)
		if math.IsInf(f, 1) {
			return nil, ""
		}
		if neg {
			f = -f
		}
		return f, ""
	}
	iv, ok := convParseInteger(m[2], 0)
	if !ok {
		return nil, "invalid value for Integer(): " + strconv.Quote(m[2])
	}
	if neg {
		iv.Neg(iv)
	}
	return model.NormInt(iv), ""
}

// convParseInteger is Ruby's Integer(s) (radix 0) or Integer(s, radix): surrounding whitespace, one
// sign, a prefix (0x, 0b, 0o, 0d, or 0 for octal when radix is 0; only the matching prefix when
// a radix is given), then digits with single underscores between them.
func convParseInteger(s string, radix int) (*big.Int, bool) {
	s = strings.Trim(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	base := radix
	lower := strings.ToLower(s)
	switch {
	case (radix == 0 || radix == 16) && strings.HasPrefix(lower, "0x"):
		base, s = 16, s[2:]
	case (radix == 0 || radix == 2) && strings.HasPrefix(lower, "0b"):
		base, s = 2, s[2:]
	case (radix == 0 || radix == 8) && strings.HasPrefix(lower, "0o"):
		base, s = 8, s[2:]
	case (radix == 0 || radix == 10) && strings.HasPrefix(lower, "0d"):
		base, s = 10, s[2:]
	case radix == 0 && len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	case radix == 0:
		base = 10
	}
	if s == "" || s[0] == '_' || s[0] == '+' || s[0] == '-' || strings.HasSuffix(s, "_") || strings.Contains(s, "__") {
		return nil, false
	}
	n, ok := new(big.Int).SetString(strings.ReplaceAll(s, "_", ""), base)
	if !ok {
		return nil, false
	}
	if neg {
		n.Neg(n)
	}
	return n, true
}

// convParseFloat is Ruby's Float(s) for the texts the Float pattern admits: decimal notation or a
// hexadecimal integer, surrounded by optional whitespace, with one optional sign.
func convParseFloat(s string) (float64, bool) {
	s = strings.Trim(s, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg, s = s[0] == '-', s[1:]
	}
	if !convRubyFloatText.MatchString(s) {
		return 0, false
	}
	var f float64
	if len(s) > 1 && (s[1] == 'x' || s[1] == 'X') {
		n, _ := new(big.Int).SetString(s[2:], 16)
		f, _ = new(big.Float).SetInt(n).Float64()
	} else {
		f, _ = strconv.ParseFloat(s, 64) // out of range gives ±Inf, as Ruby does
	}
	if neg {
		f = -f
	}
	return f, true
}
