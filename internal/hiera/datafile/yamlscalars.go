package datafile

// Scalars resolved as Psych's ScalarScanner and ToRuby do (YAML 1.1, Ruby 3.1).

import (
	"encoding/base64"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"gopkg.in/yaml.v3"
)

const yamlTagPrefix = "tag:yaml.org,2002:"

// plainScalar is tokenize through the cache.
func (r *yamlReader) plainScalar(n *yaml.Node, s string) (any, error) {
	if v, ok := r.plain[s]; ok {
		return v, nil
	}
	return r.newPlainScalar(n, s, false)
}

// newPlainScalar is tokenize for a scalar not in the cache yet, which it adds. Symbols are not
// cached: they carry their position. A key's value is shared with other files through r.share.
func (r *yamlReader) newPlainScalar(n *yaml.Node, s string, key bool) (any, error) {
	if key {
		if v, ok := r.share.Key(s); ok {
			r.plain[s] = v
			return v, nil
		}
	}
	v, err := r.tokenize(n, s)
	if _, sym := v.(model.Symbol); err == nil && !sym && len(s) <= yamlInternMax {
		if key {
			v = r.share.ShareKey(s, v)
		}
		r.plain[s] = v
	}
	return v, err
}

// quotedScalar is the value of a quoted (or block) scalar, through the cache.
func (r *yamlReader) quotedScalar(s string) any {
	if v, ok := r.quoted[s]; ok {
		return v
	}
	var v any = s
	if len(s) <= yamlInternMax {
		r.quoted[s] = v
	}
	return v
}

var (
	psychStrTagRE       = regexp.MustCompile(`^!(?:str|ruby/string)(?::(.*))?$`)
	psychSymTagRE       = regexp.MustCompile(`^!ruby/sym(bol)?`)
	psychSeqClassRE     = regexp.MustCompile(`^!(?:seq|ruby/array):(.*)$`)
	psychStructTagRE    = regexp.MustCompile(`^!ruby/struct:?(.*)$`)
	psychObjectTagRE    = regexp.MustCompile(`^!ruby/object:?(.*)$`)
	psychExceptionTagRE = regexp.MustCompile(`^!ruby/exception:?(.*)$`)
	psychHashClassRE    = regexp.MustCompile(`^!(?:map|ruby/hash|ruby/array|ruby/marshalable):(.*)$`)
	psychIvarsTagRE     = regexp.MustCompile(`^!ruby/hash-with-ivars(?::(.*))?$`)
	psychScalarClasses  = map[string]string{
		"!ruby/object:BigDecimal": "BigDecimal", "!ruby/object:DateTime": "DateTime",
		"!ruby/object:Complex": "Complex", "!ruby/object:Rational": "Rational",
		"!ruby/regexp": "Regexp", "!ruby/range": "Range",
	}
)

// scalar resolves a scalar node as Psych's ToRuby#deserialize does.
func (r *yamlReader) scalar(n *yaml.Node) (any, error) {
	tag := psychTag(n)
	if tag == "" {
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			return r.quotedScalar(n.Value), nil
		}
		return r.plainScalar(n, n.Value)
	}
	// With an explicit tag Psych ignores quoting: !!int "12" is 12.
	switch {
	case tag == "!binary" || tag == yamlTagPrefix+"binary":
		return psychBase64(n.Value), nil
	case tag == yamlTagPrefix+"str":
		return n.Value, nil
	case psychStrTagRE.MatchString(tag):
		if class := psychStrTagRE.FindStringSubmatch(tag)[1]; class != "" {
			return nil, psychDisallowed(n, class)
		}
		return n.Value, nil
	case psychScalarClasses[tag] != "":
		return nil, psychDisallowed(n, psychScalarClasses[tag])
	case tag == "!ruby/class" || tag == "!ruby/module":
		return nil, psychDisallowed(n, n.Value)
	case tag == "!ruby/encoding":
		return nonData{typ: "Runtime[ruby, 'Encoding']"}, nil // fails the lookup of its root key only
	case tag == yamlTagPrefix+"float" || tag == "!float":
		v, err := r.tokenize(n, n.Value)
		if err != nil {
			return nil, err
		}
		return psychFloatOf(n, v)
	case psychSymTagRE.MatchString(tag):
		return r.symbol(n, n.Value)
	}
	// Every other tag (!!int, !!bool, !!null, !!timestamp, unknown local tags) is read like a plain scalar.
	return r.tokenize(n, n.Value)
}

// symbol is a Ruby symbol's value, refused where Puppet permits no class (facts).
func (r *yamlReader) symbol(n *yaml.Node, name string) (any, error) {
	if r.noSymbols {
		return nil, psychDisallowed(n, "Symbol")
	}
	r.symbols = true
	return model.Symbol{Name: name, Line: n.Line, Col: n.Column}, nil
}

// Psych::ScalarScanner's patterns. Ruby's ^ and $ match at line breaks, hence (?m) where a string may
// hold one.
var (
	psychNotBoolRE    = regexp.MustCompile(`(?mi)^[^ytonf~]`)
	psychNullRE       = regexp.MustCompile(`(?mi)^null$`)
	psychTrueRE       = regexp.MustCompile(`(?mi)^(?:yes|true|on)$`)
	psychFalseRE      = regexp.MustCompile(`(?mi)^(?:no|false|off)$`)
	psychTimeRE       = regexp.MustCompile(`^-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$`)
	psychDateRE       = regexp.MustCompile(`^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$`)
	psychPosInfRE     = regexp.MustCompile(`(?i)^\+?\.inf$`)
	psychNegInfRE     = regexp.MustCompile(`(?i)^-\.inf$`)
	psychNaNRE        = regexp.MustCompile(`(?i)^\.nan$`)
	psychSexaIntRE    = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9]){1,2}$`)
	psychSexaFloatRE  = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9]){1,2}\.[0-9_]*$`)
	psychFloatPlainRE = regexp.MustCompile(`^[-+]?(?:[0-9][0-9_,]*)?\.[0-9]*(?:[eE][-+][0-9]+)?$`)
	psychIntegerRE    = regexp.MustCompile(`^(?:[-+]?0b[0-1_,]+|[-+]?0[0-7_,]+|[-+]?(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)|[-+]?0x[0-9a-fA-F_,]+)$`)
	psychFloatDotRE   = regexp.MustCompile(`\.([Ee]|$)`)
	// psychFloatRE is what Ruby's Float() accepts once underscores are checked (see psychFloatText).
	psychFloatRE = regexp.MustCompile(`^[-+]?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$`)
)

// tokenize is Psych::ScalarScanner#tokenize: the YAML 1.1 reading of a plain scalar. Cheap tests on
// the text decide which of Psych's patterns can apply, as most scalars are plain words.
func (r *yamlReader) tokenize(n *yaml.Node, s string) (any, error) {
	if s == "" {
		return nil, nil
	}
	if psychWordStart(s) || strings.Contains(s, "\n") {
		return psychWord(s), nil
	}
	if plainReadsPlainly(s[0]) {
		return s, nil // none of the patterns below can match
	}
	if v, ok := psychSimpleNumber(s); ok {
		return v, nil
	}
	return r.tokenizePatterns(n, s)
}

// plainReadsPlainly reports whether tokenize reads a plain scalar starting with c without its
// patterns: so never with an error or as a symbol (the fast reader's skim relies on this).
func plainReadsPlainly(c byte) bool {
	return c != '-' && c != '+' && c != '.' && c != ':' && (c < '0' || c > '9')
}

// tokenizePatterns is the rest of tokenize, for a scalar that may be a number, a date, a symbol...
func (r *yamlReader) tokenizePatterns(n *yaml.Node, s string) (any, error) {
	if len(s) >= 8 && strings.IndexByte(s[1:], '-') >= 0 {
		if psychTimeRE.MatchString(s) {
			return nil, psychDisallowed(n, "Time")
		}
		if psychDateRE.MatchString(s) {
			return nil, psychDisallowed(n, "Date")
		}
	}
	hasDot := strings.IndexByte(s, '.') >= 0
	if hasDot && len(s) <= 5 {
		switch {
		case psychPosInfRE.MatchString(s):
			return math.Inf(1), nil
		case psychNegInfRE.MatchString(s):
			return math.Inf(-1), nil
		case psychNaNRE.MatchString(s):
			return math.NaN(), nil
		}
	}
	if len(s) >= 2 && s[0] == ':' {
		return r.symbol(n, psychSymbolName(s))
	}
	if strings.IndexByte(s, ':') > 0 {
		if psychSexaIntRE.MatchString(s) {
			return psychSexagesimalInt(s), nil
		}
		if psychSexaFloatRE.MatchString(s) {
			return psychSexagesimalFloat(s), nil
		}
	}
	if hasDot {
		if !psychFloatPlainRE.MatchString(s) || s == "." || s == "-." || s == "+." {
			return s, nil
		}
		t := psychFloatDotRE.ReplaceAllString(psychDropSeparators(s), "$1")
		return psychFloat(n, t)
	}
	if psychIntegerRE.MatchString(s) {
		t := psychDropSeparators(s)
		i, ok := new(big.Int).SetString(t, 0)
		if !ok {
			return nil, yamlNodeError(n, "invalid value for Integer(): %q", t)
		}
		return model.NormInt(i), nil
	}
	return s, nil
}

// psychSimpleNumber reads the most common numbers without regexps: [-+]?(0|[1-9][0-9]*) is an integer
// and [-+]?[0-9]+\.[0-9]+ a float, as tokenize would find (none of its earlier patterns can match them).
func psychSimpleNumber(s string) (any, bool) {
	isFloat, ok := simpleNumberShape(s)
	switch {
	case !ok:
		return nil, false
	case isFloat:
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	}
	i, err := strconv.ParseInt(s, 10, 64)
	return i, err == nil
}

// simpleNumberShape reports whether psychSimpleNumber reads s, and as a float or an integer: an
// integer of at most 18 digits (an int64) without a leading zero (octal), or a float of digits around
// one dot, short enough never to overflow. It reads every such s without an error.
func simpleNumberShape[T string | []byte](s T) (isFloat, ok bool) {
	digits := s
	if len(digits) > 0 && (digits[0] == '+' || digits[0] == '-') {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 300 {
		return false, false
	}
	dot := -1
	for i := 0; i < len(digits); i++ {
		if c := digits[i]; c == '.' && dot < 0 && i > 0 && i < len(digits)-1 {
			dot = i
		} else if c < '0' || c > '9' {
			return false, false
		}
	}
	if dot >= 0 {
		return true, true
	}
	return false, len(digits) <= 18 && (len(digits) == 1 || digits[0] != '0') // big, or octal
}

// psychWordStart is Psych's test for words, %r{^[^\d.:-]?[[:alpha:]_\s!@#$%\^&*(){}<>|/\\~;=]+}.
func psychWordStart(s string) bool {
	r0, size := utf8.DecodeRuneInString(s)
	if psychWordRune(r0) {
		return true
	}
	if r0 >= '0' && r0 <= '9' || r0 == '.' || r0 == ':' || r0 == '-' || size >= len(s) {
		return false
	}
	r1, _ := utf8.DecodeRuneInString(s[size:])
	return psychWordRune(r1)
}

func psychWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || strings.ContainsRune("_ \t\n\v\f\r!@#$%^&*(){}<>|/\\~;=", r)
}

// psychWord reads a word: only short ones can be booleans or null. In a multi-line scalar Psych's
// patterns look at every line, as Ruby's ^ and $ match at line breaks.
func psychWord(s string) any {
	if utf8.RuneCountInString(s) > 5 {
		return s
	}
	if strings.Contains(s, "\n") {
		switch {
		case psychNotBoolRE.MatchString(s):
			return s
		case psychNullRE.MatchString(s):
			return nil
		case psychTrueRE.MatchString(s):
			return true
		case psychFalseRE.MatchString(s):
			return false
		}
		return s
	}
	switch strings.ToLower(s) {
	case "~", "null":
		return nil
	case "yes", "true", "on":
		return true
	case "no", "false", "off":
		return false
	}
	return s
}

// psychDropSeparators removes the "," and "_" Psych allows inside numbers.
func psychDropSeparators(s string) string {
	if !strings.ContainsAny(s, ",_") {
		return s
	}
	return psychSeparators.Replace(s)
}

var psychSeparators = strings.NewReplacer(",", "", "_", "")

// psychSexagesimalInt reads "1:30" the way Psych does, which weighs the parts as if there were always three:
// 1:30 is 1*3600 + 30*60 = 5400.
func psychSexagesimalInt(s string) any {
	sum := new(big.Int)
	for i, part := range strings.Split(s, ":") {
		w := new(big.Int).Exp(big.NewInt(60), big.NewInt(int64(psychAbs(i-2))), nil)
		sum.Add(sum, w.Mul(w, psychToI(part)))
	}
	return model.NormInt(sum)
}

func psychSexagesimalFloat(s string) float64 {
	sum := 0.0
	for i, part := range strings.Split(s, ":") {
		sum += psychToF(part) * math.Pow(60, float64(psychAbs(i-2)))
	}
	return sum
}

func psychAbs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// psychToI is Ruby's String#to_i: an optional sign and digits, single underscores allowed between digits.
func psychToI(s string) *big.Int {
	t := psychDigitsPrefix(s, false)
	i, ok := new(big.Int).SetString(t, 10)
	if !ok {
		return new(big.Int)
	}
	return i
}

// psychToF is Ruby's String#to_f for the digit strings a sexagesimal float can hold.
func psychToF(s string) float64 {
	f, _ := strconv.ParseFloat(psychDigitsPrefix(s, true), 64)
	return f
}

// psychDigitsPrefix keeps the leading number of s as Ruby's to_i/to_f read it, without underscores.
func psychDigitsPrefix(s string, fraction bool) string {
	var b strings.Builder
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		b.WriteByte(s[i])
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) {
			c := s[i]
			if c >= '0' && c <= '9' {
				b.WriteByte(c)
				n++
				i++
			} else if c == '_' && n > 0 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
				i++
			} else {
				break
			}
		}
		return n
	}
	if digits() == 0 {
		return "0"
	}
	if fraction && i+1 < len(s) && s[i] == '.' && s[i+1] >= '0' && s[i+1] <= '9' {
		b.WriteByte('.')
		i++
		digits()
	}
	return b.String()
}

// psychFloat is Ruby's Float(string): strict, single underscores allowed between digits, huge values
// become infinite.
func psychFloat(n *yaml.Node, s string) (float64, error) {
	t, ok := psychFloatText(s)
	if ok {
		if f, err := strconv.ParseFloat(t, 64); err == nil || isFloatRangeError(err) {
			return f, nil
		}
	}
	return 0, yamlNodeError(n, "invalid value for Float(): %q", s)
}

// psychFloatText removes underscores that sit between digits and checks the rest is a decimal float.
func psychFloatText(s string) (string, bool) {
	t := strings.TrimSpace(s)
	var b strings.Builder
	for i := 0; i < len(t); i++ {
		if t[i] == '_' {
			if i == 0 || i+1 >= len(t) || !yamlIsDigit(t[i-1]) || !yamlIsDigit(t[i+1]) {
				return "", false
			}
			continue
		}
		b.WriteByte(t[i])
	}
	return b.String(), psychFloatRE.MatchString(b.String())
}

func yamlIsDigit(c byte) bool { return c >= '0' && c <= '9' }

func isFloatRangeError(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// psychFloatOf is Float(x) applied to an already tokenized scalar (the !!float tag).
func psychFloatOf(n *yaml.Node, v any) (any, error) {
	switch t := v.(type) {
	case float64:
		return t, nil
	case int64:
		return float64(t), nil
	case *big.Int:
		f, _ := new(big.Float).SetInt(t).Float64()
		return f, nil
	case string:
		return psychFloat(n, t)
	case nil:
		return nil, yamlNodeError(n, "can't convert nil into Float")
	case bool:
		return nil, yamlNodeError(n, "can't convert %v into Float", t)
	}
	return nil, yamlNodeError(n, "can't convert %s into Float", model.ClassName(v))
}

// psychBase64 is Ruby's unpack('m'): characters outside the alphabet are skipped, decoding stops
// at padding, and an incomplete last group is dropped.
func psychBase64(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '=' {
			break
		}
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' {
			b.WriteByte(c)
		}
	}
	t := b.String()
	if len(t)%4 == 1 {
		t = t[:len(t)-1]
	}
	out, err := base64.RawStdEncoding.DecodeString(t)
	if err != nil {
		return ""
	}
	return string(out)
}
