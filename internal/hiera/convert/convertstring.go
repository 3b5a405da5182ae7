package convert

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// String.new(value) with Puppet's default formats (StringConverter): at the top level a String
// is kept, undef is "", a Float uses %f ("3.140000"); inside arrays and hashes every value uses
// %p: strings quoted Puppet-style, undef as "undef", floats as Ruby's Float#inspect ("1.5").
// Example: {'a' => [1, {'b' => 'c'}], 'd e' => undef}.

func convPuppetString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case float64:
		return convFormatF(x)
	}
	return convContainerString(v)
}

// convContainerString formats v with %p, as an element of an array or hash.
func convContainerString(v any) string {
	switch x := v.(type) {
	case nil:
		return "undef"
	case string:
		return convQuote(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = convContainerString(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *model.Hash:
		parts := make([]string, 0, x.Len())
		x.Each(func(k, val any) bool {
			parts = append(parts, convContainerString(k)+" => "+convContainerString(val))
			return true
		})
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return model.InspectScalar(v) // the other scalars print as inspect prints them
}

// convFormatF is Ruby's format('%f', f).
func convFormatF(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(f, 'f', 6, 64)
}

// convQuote is Puppet's puppet_quote: single quotes unless the string has control characters,
// in which case double quotes with escapes are used.
func convQuote(s string) string {
	for _, r := range s {
		if r < 0x20 {
			return convDoubleQuote(s)
		}
	}
	var b strings.Builder
	b.WriteByte('\'')
	escaped := false
	for _, r := range s {
		switch {
		case escaped:
			b.WriteByte('\\')
			b.WriteRune(r)
			escaped = false
		case r == '\'':
			b.WriteString(`\'`)
		case r == '\\':
			escaped = true
		default:
			b.WriteRune(r)
		}
	}
	if escaped {
		b.WriteString(`\\`)
	}
	b.WriteByte('\'')
	return b.String()
}

func convDoubleQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '"':
			b.WriteString(`\"`)
		case '$':
			b.WriteString(`\$`)
		case '\\':
			b.WriteString(`\\`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u{%X}`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
