package rubyre

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// lookup_options keys that start with '^' are Ruby (Onigmo) regexps, matched unanchored with =~
// (hiera-semantics.md §5.2). Compile translates the constructs whose meaning differs in Go's RE2 and
// rejects, with a clear message, those RE2 cannot express at all.
//
// Semantics kept from Ruby: '^' and '$' always match at line boundaries (Go flag m), Ruby's (?m)
// is "dot matches newline" (Go's s), \Z may match before a final newline, \h is a hex digit.
func Compile(pattern string) (*regexp.Regexp, error) {
	translated, feature := Translate(pattern)
	if feature != "" {
		return nil, model.Errorf("lookup_options pattern %q uses Ruby regexp syntax that is not supported: %s", pattern, feature)
	}
	re, err := regexp.Compile("(?m)" + translated)
	if err != nil {
		return nil, rxCompileError(pattern, err)
	}
	return re, nil
}

// Translate rewrites pattern for RE2. feature is non-empty when the pattern uses something RE2
// cannot do; it names that construct.
func Translate(p string) (out string, feature string) {
	var b strings.Builder
	inClass := false
	classStart := 0     // index in p just after '[' or '[^', where a leading ']' is literal
	afterQuant := false // the previous token was an unescaped quantifier
	for i := 0; i < len(p); i++ {
		c := p[i]
		wasQuant := afterQuant
		afterQuant = false
		switch {
		case c == '\\':
			if i+1 >= len(p) {
				b.WriteByte(c) // Go reports the trailing backslash
				continue
			}
			i++
			esc, f := rxEscape(p, &i, inClass)
			if f != "" {
				return "", f
			}
			b.WriteString(esc)
		case inClass:
			switch {
			case c == '[' && strings.HasPrefix(p[i:], "[:"):
				end := strings.Index(p[i:], ":]")
				if end < 0 {
					return "", "nested character class"
				}
				b.WriteString(p[i : i+end+2])
				i += end + 1
			case c == '[':
				return "", "nested character class"
			case c == '&' && i+1 < len(p) && p[i+1] == '&':
				return "", "character class intersection (&&)"
			case c == ']' && i != classStart:
				inClass = false
				b.WriteByte(c)
			default:
				b.WriteByte(c)
			}
		case c == '[':
			inClass = true
			b.WriteByte(c)
			classStart = i + 1
			if classStart < len(p) && p[classStart] == '^' {
				b.WriteByte('^')
				i++
				classStart++
			}
		case c == '(' && strings.HasPrefix(p[i:], "(?"):
			group, f := rxGroup(p, &i)
			if f != "" {
				return "", f
			}
			b.WriteString(group)
		case c == '+' && wasQuant:
			return "", "possessive quantifier"
		case c == '*' || c == '+' || c == '?':
			afterQuant = c != '?' || !wasQuant // a '?' after a quantifier makes it lazy
			b.WriteByte(c)
		case c == '{' && rxOpenMin.MatchString(p[i:]):
			b.WriteString("{0,") // Ruby's {,n} is {0,n}
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

// rxEscape translates the escape whose letter is p[*i] (the backslash is already consumed).
func rxEscape(p string, i *int, inClass bool) (string, string) {
	c := p[*i]
	switch c {
	case 'h':
		if inClass {
			return "0-9a-fA-F", ""
		}
		return "[0-9a-fA-F]", ""
	case 'H':
		if inClass {
			return "", `\H inside a character class`
		}
		return "[^0-9a-fA-F]", ""
	case 'Z':
		return `(?:\n?\z)`, ""
	case 'e':
		return `\x1b`, ""
	case 'u':
		if rest := p[*i+1:]; len(rest) >= 4 && rxAllHex(rest[:4]) {
			*i += 4
			return `\x{` + rest[:4] + `}`, ""
		}
		if strings.HasPrefix(p[*i+1:], "{") {
			*i++
			return `\x{`, "" // \u{HHHH} becomes \x{HHHH}
		}
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return "", "backreference"
	case 'k':
		return "", "named backreference"
	case 'g':
		return "", "subexpression call"
	case 'G':
		return "", `\G anchor`
	case 'K':
		return "", `\K (keep)`
	case 'R', 'X':
		return "", `\` + string(c)
	}
	return `\` + string(c), ""
}

// rxGroup translates a group that starts with "(?" at p[*i], leaving *i on its last consumed byte.
func rxGroup(p string, i *int) (string, string) {
	rest := p[*i+2:]
	switch {
	case strings.HasPrefix(rest, "="):
		return "", "lookahead"
	case strings.HasPrefix(rest, "!"):
		return "", "negative lookahead"
	case strings.HasPrefix(rest, "<=") || strings.HasPrefix(rest, "<!"):
		return "", "lookbehind"
	case strings.HasPrefix(rest, ">"):
		return "", "atomic group"
	case strings.HasPrefix(rest, "~"):
		return "", "absent operator"
	case strings.HasPrefix(rest, "("):
		return "", "conditional group"
	case strings.HasPrefix(rest, "#"):
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return "(?#", "" // unterminated: let Go report it
		}
		*i += 2 + end
		return "", "" // comment
	case strings.HasPrefix(rest, "'"):
		end := strings.IndexByte(rest[1:], '\'')
		if end < 0 {
			return "(?'", ""
		}
		*i += 2 + 1 + end
		return "(?P<" + rest[1:1+end] + ">", "" // (?'name'...) is (?<name>...)
	}
	// Option groups (?imx-imx) and (?imx-imx:...); Ruby's m is Go's s.
	j := 0
	for j < len(rest) && strings.IndexByte("imx-", rest[j]) >= 0 {
		j++
	}
	if j > 0 && j < len(rest) && (rest[j] == ':' || rest[j] == ')') {
		flags := rest[:j]
		if strings.Contains(flags, "x") {
			return "", "extended mode (?x)"
		}
		*i += 2 + j
		return "(?" + strings.ReplaceAll(flags, "m", "s") + string(rest[j]), ""
	}
	*i++
	return "(?", "" // named group (?<name>...) and (?:...) are the same in Go
}

// rxOpenMin matches Ruby's {,n} repetition at the start of the rest of a pattern.
var rxOpenMin = regexp.MustCompile(`^\{,[0-9]+\}`)

func rxAllHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte("0123456789abcdefABCDEF", s[i]) < 0 {
			return false
		}
	}
	return true
}

// rxCompileError words a compile failure like Ruby does for the common mistakes (Puppet shows
// Ruby's raw message, e.g. "end pattern with unmatched parenthesis: /^a(/").
func rxCompileError(pattern string, err error) error {
	msg := "invalid regular expression"
	if se, ok := err.(*syntax.Error); ok {
		switch se.Code {
		case syntax.ErrMissingParen:
			msg = "end pattern with unmatched parenthesis"
		case syntax.ErrUnexpectedParen:
			msg = "unmatched close parenthesis"
		case syntax.ErrMissingBracket:
			msg = "premature end of char-class"
		case syntax.ErrMissingRepeatArgument:
			msg = "target of repeat operator is not specified"
		case syntax.ErrTrailingBackslash:
			msg = "too short escape sequence"
		case syntax.ErrInvalidCharRange:
			msg = "empty range in char class"
		default:
			return &model.Error{Message: fmt.Sprintf("invalid regular expression: /%s/: %s", pattern, se.Code), Err: err}
		}
	}
	return &model.Error{Message: fmt.Sprintf("%s: /%s/", msg, pattern), Err: err}
}
