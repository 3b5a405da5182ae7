package model

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Puppet embeds non-string values in interpolated text with Ruby's to_s and prints values in explain
// output with Ruby's inspect, so both are reproduced here byte for byte (Ruby 3.1).

// ToS is Ruby's to_s: nil is empty, strings are raw, arrays and hashes are inspected.
func ToS(v any) string {
	switch t := v.(type) {
	case nil:
		return ""
	case string:
		return t
	}
	return Inspect(v)
}

// Inspect is Ruby's inspect: ["x", 1], {"k"=>"v"}, nil, 1.5.
func Inspect(v any) string {
	var b strings.Builder
	writeInspect(&b, v)
	return b.String()
}

func writeInspect(b *strings.Builder, v any) {
	switch t := v.(type) {
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteString(", ")
			}
			writeInspect(b, e)
		}
		b.WriteByte(']')
	case *Hash:
		b.WriteByte('{')
		for i, k := range t.RawKeys() {
			if i > 0 {
				b.WriteString(", ")
			}
			writeInspect(b, k)
			b.WriteString("=>")
			writeInspect(b, t.Vals[i])
		}
		b.WriteByte('}')
	default:
		b.WriteString(InspectScalar(v))
	}
}

// InspectScalar handles the non-container values.
func InspectScalar(v any) string {
	switch t := v.(type) {
	case nil:
		return "nil"
	case bool:
		return strconv.FormatBool(t)
	case int64:
		return strconv.FormatInt(t, 10)
	case *big.Int:
		return t.String()
	case float64:
		return FloatToS(t)
	case *big.Float:
		return BigFloatToS(t)
	case string:
		return Quote(t)
	}
	return fmt.Sprint(v)
}

// FloatToS is Ruby's Float#to_s: shortest round-trip digits in fixed notation for values from 1e-4
// up to 16 digits before the point (15 when there is no fraction), else d.ddde+XX; integral values
// keep ".0".
func FloatToS(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return rubyFloatText(strconv.FormatFloat(f, 'e', -1, 64))
}

// BigFloatToS prints a number that float64 cannot hold as Ruby prints a Float, with all the
// digits that tell it apart at its precision: 0.1000000000000000000001, 1.0e+400.
func BigFloatToS(f *big.Float) string {
	return rubyFloatText(f.Text('e', -1))
}

// rubyFloatText formats e, a number's shortest digits as "-d.ddde±XX", as Float#to_s does.
func rubyFloatText(e string) string {
	sign := ""
	if e[0] == '-' {
		sign, e = "-", e[1:]
	}
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	decpt := x + 1 // value = 0.digits * 10^decpt
	switch {
	case decpt > 0 && decpt <= 16 && len(digits) > decpt:
		return sign + digits[:decpt] + "." + digits[decpt:]
	case decpt > 0 && decpt < 16:
		return sign + digits + strings.Repeat("0", decpt-len(digits)) + ".0"
	case decpt <= 0 && decpt > -4:
		return sign + "0." + strings.Repeat("0", -decpt) + digits
	}
	frac := digits[1:]
	if frac == "" {
		frac = "0"
	}
	es := "+"
	if x < 0 {
		es, x = "-", -x
	}
	return fmt.Sprintf("%s%s.%se%s%02d", sign, digits[:1], frac, es, x)
}

// Quote is String#inspect for a UTF-8 string.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			fmt.Fprintf(&b, "\\x%02X", s[i])
			i++
			continue
		}
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '#':
			// "#{", "#$" and "#@" would interpolate in Ruby source, so inspect escapes the '#'.
			if i+1 < len(s) && (s[i+1] == '{' || s[i+1] == '$' || s[i+1] == '@') {
				b.WriteString("\\#")
			} else {
				b.WriteByte('#')
			}
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\f':
			b.WriteString(`\f`)
		case '\v':
			b.WriteString(`\v`)
		case '\b':
			b.WriteString(`\b`)
		case '\a':
			b.WriteString(`\a`)
		case 0x1b:
			b.WriteString(`\e`)
		default:
			switch {
			case rubyPrintable(r):
				b.WriteRune(r)
			case r < 0x10000:
				fmt.Fprintf(&b, "\\u%04X", r)
			default:
				fmt.Fprintf(&b, "\\u{%X}", r)
			}
		}
		i += n
	}
	b.WriteByte('"')
	return b.String()
}

// rubyPrintable follows Onigmo's Print class: assigned characters other than controls (U+0085 counts
// as a space) and the line/paragraph separators.
func rubyPrintable(r rune) bool {
	switch {
	case r == 0x85:
		return true
	case r < 0x20, r >= 0x7f && r < 0xa0, r == 0x2028, r == 0x2029:
		return false
	}
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cf, unicode.Co)
}

// PrettyInspect is the value format of Puppet's explain output: hashes and arrays one entry per line,
// indented two spaces more than indent (the indentation of the line the value starts on). It stops
// once the text is longer than limit bytes: the indentation grows with the depth, so a value 1,000
// levels deep prints megabytes that the bounded explanation would cut anyway.
func PrettyInspect(v any, indent, limit int) string {
	var b strings.Builder
	writePretty(&b, v, strings.Repeat(" ", indent), limit)
	return b.String()
}

func writePretty(b *strings.Builder, v any, indent string, limit int) {
	if b.Len() > limit {
		return
	}
	inner := indent + "  "
	switch t := v.(type) {
	case *Hash:
		b.WriteByte('{')
		if t.Len() > 0 {
			for i, k := range t.RawKeys() {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString("\n" + inner)
				writePretty(b, k, inner, limit)
				b.WriteString(" => ")
				writePretty(b, t.Vals[i], inner, limit)
			}
			b.WriteString("\n" + indent)
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		if len(t) > 0 {
			for i, e := range t {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString("\n" + inner)
				writePretty(b, e, inner, limit)
			}
			b.WriteString("\n" + indent)
		}
		b.WriteByte(']')
	default:
		b.WriteString(InspectScalar(v))
	}
}

// ClassName is the Ruby class of a value, as Hiera 3 and Ruby's comparison errors name it.
func ClassName(v any) string {
	switch t := v.(type) {
	case nil:
		return "NilClass"
	case bool:
		if t {
			return "TrueClass"
		}
		return "FalseClass"
	case int64, *big.Int:
		return "Integer"
	case float64, *big.Float:
		return "Float"
	case string:
		return "String"
	case []any:
		return "Array"
	case *Hash:
		return "Hash"
	case Symbol:
		return "Symbol"
	}
	return fmt.Sprintf("%T", v)
}

// CmpOperand names the right operand in "comparison of X with Y failed": Ruby inspects
// immediate values (nil, booleans, fixnums, floats) and names the class of the others.
func CmpOperand(v any) string {
	switch t := v.(type) {
	case nil, bool, float64, *big.Float:
		return InspectScalar(t)
	case int64:
		if t >= -(1<<62) && t < 1<<62 {
			return InspectScalar(t)
		}
	}
	return ClassName(v)
}
