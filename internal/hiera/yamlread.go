package hiera

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// This file reads YAML the way Puppet does: Psych.safe_load (YAML 1.1 scalar rules, aliases on, only the
// Symbol class permitted), then symbol keys turned into strings. yaml.v3 only builds the node tree;
// every scalar is resolved here with Psych's rules (Psych 4.0, Ruby 3.1), because yaml.v3 applies YAML 1.2.

// YAMLError is a YAML file that cannot be read. Line and Column are 1-based, 0 when unknown.
type YAMLError struct {
	Line, Column int
	Msg          string
}

func (e *YAMLError) Error() string { return dataErrorPosition(e.Line, e.Column) + e.Msg }

// dataErrorPosition renders "line L, column C: " (or less when the position is not known).
func dataErrorPosition(line, col int) string {
	switch {
	case line > 0 && col > 0:
		return fmt.Sprintf("line %d, column %d: ", line, col)
	case line > 0:
		return fmt.Sprintf("line %d: ", line)
	}
	return ""
}

// yamlMaxAliasValues bounds how many values aliases and merge keys may add to a document. Values built from
// an alias are shared, not copied, but whoever walks the result (merges, JSON output) sees them expanded,
// so a "billion laughs" file must be refused here.
const yamlMaxAliasValues = 10_000_000

const yamlTagPrefix = "tag:yaml.org,2002:"

// rubySymbol is a scalar that Psych reads as a Ruby Symbol (plain ":name", or tagged !ruby/sym). It only
// lives while a file is read: hash keys become strings (Puppet's symkeys_to_string) and a symbol left
// as a value is an error, since Puppet's data validation rejects it.
type rubySymbol struct {
	name      string
	line, col int // where a symbol value was written; zero in keys so that equal symbols are equal keys
}

// parseYAML reads YAML text as Puppet does. It returns the first document's value (any engine value; an
// empty document is nil) and, for every *Hash it built, the 1-based line where that mapping starts.
//
// Most data files are plain block YAML, which the fast reader in yamlfast.go reads directly; anything
// else, and every error, goes through yaml.v3.
func parseYAML(data []byte) (v any, lines map[*Hash]int, err error) {
	v, lines, err = readYAML(data, yamlSetup{lines: true})
	if err != nil {
		lines = nil
	}
	return v, lines, err
}

// parseDataYAML is parseYAML for a data file. It records no lines (a large file has hundreds of
// thousands of hashes, and a map of their lines would only be garbage), shares keys and key lists
// through share (which may be nil) and refuses values nested more than maxDataNesting levels deep.
func parseDataYAML(data []byte, share *sharing) (any, error) {
	v, _, err := readYAML(data, yamlSetup{share: share, maxNesting: maxDataNesting})
	return v, err
}

// The fast reader needs no nesting check: it gives up on deeper values.
const _ = uint(maxDataNesting - fastYAMLMaxDepth)

// readYAML is parseYAML as set up.
func readYAML(data []byte, setup yamlSetup) (v any, lines map[*Hash]int, err error) {
	simple, e := checkYAMLText(data)
	if e != nil {
		return nil, nil, e
	}
	if simple {
		if v, lines, ok := tryFastYAML(data, setup); ok {
			return v, lines, nil
		}
	}
	r := newYAMLReader(setup)
	v, err = r.parseYAMLv3(data)
	if err == nil && setup.maxNesting > 0 && nestingExceeds(v, setup.maxNesting, len(r.anchors) > 0) {
		return nil, nil, &YAMLError{Msg: fmt.Sprintf("arrays and hashes nest more than %d levels deep", setup.maxNesting)}
	}
	return v, r.lines, err
}

// parseYAMLv3 is readYAML through yaml.v3, for text that checkYAMLText accepts.
func (r *yamlReader) parseYAMLv3(data []byte) (v any, err error) {
	defer func() {
		// yaml.v3 has a few internal panics on odd input; a data file must never crash the provider.
		if p := recover(); p != nil {
			v, err = nil, &YAMLError{Msg: fmt.Sprintf("cannot read YAML: %v", p)}
		}
	}()
	var doc yaml.Node
	if e := yaml.Unmarshal(data, &doc); e != nil {
		return nil, yamlSyntaxError(e, data)
	}
	if doc.Kind == 0 { // no document at all (empty file, only comments)
		return nil, nil
	}
	v, _, err = r.build(&doc)
	if err != nil {
		return nil, err
	}
	return r.fixSymbols(v)
}

// fixSymbols turns the symbol keys of a finished document into strings, if it has any.
func (r *yamlReader) fixSymbols(v any) (any, error) {
	if !r.symbols {
		return v, nil
	}
	_, isHash := v.(*Hash)
	fix := &yamlSymbolFixer{strict: isHash, lines: r.lines, hashes: map[*Hash]*Hash{}, lists: map[*any][]any{}}
	v, _, err := fix.value(v)
	return v, err
}

// checkYAMLText refuses what libyaml refuses before parsing: bytes that are not UTF-8 (Puppet reads
// files as UTF-8, so UTF-16 is refused too) and control characters. yaml.v3 reports these without a
// position, so they are located here. simple is false when the text has a tab, a carriage return,
// a byte order mark or a Unicode line break, which the fast reader leaves to yaml.v3.
func checkYAMLText(data []byte) (simple bool, err *YAMLError) {
	simple = true
	line, col := 1, 1
	for i := 0; i < len(data); {
		if c := data[i]; c >= 0x20 && c <= 0x7E { // most of the text
			col++
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return false, &YAMLError{Line: line, Column: col, Msg: "invalid UTF-8 byte sequence: YAML data files must be UTF-8 text"}
		}
		allowed := r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r <= 0x7E) || r == 0x85 ||
			(r >= 0xA0 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || r >= 0x10000
		if !allowed && r != 0xFEFF {
			return false, &YAMLError{Line: line, Column: col, Msg: fmt.Sprintf("control characters are not allowed (found %U)", r)}
		}
		switch r {
		case '\t', '\r', 0x85, 0x2028, 0x2029, 0xFEFF:
			simple = false
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return simple, nil
}

var yamlV3ErrorRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// yamlParserContexts are libyaml's parser problems (as opposed to scanner ones), with the context
// Psych prints after them when it is always the same.
var yamlParserContexts = map[string]string{
	"did not find expected ',' or ']'":       "while parsing a flow sequence",
	"did not find expected ',' or '}'":       "while parsing a flow mapping",
	"did not find expected '-' indicator":    "while parsing a block collection",
	"did not find expected key":              "while parsing a block mapping",
	"did not find expected node content":     "",
	"did not find expected <document start>": "",
	"found duplicate %TAG directive":         "",
	"found duplicate %YAML directive":        "",
	"found incompatible YAML document":       "",
	"found undefined tag handle":             "",
}

// textPosition is the 1-based line and column (in characters) of byte offset i of data.
func textPosition(data []byte, i int) (line, col int) {
	before := data[:i]
	return 1 + bytes.Count(before, []byte("\n")), 1 + utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:])
}

// yamlSyntaxError turns a yaml.v3 error into a *YAMLError. yaml.v3 gives a line but no column; it leaves
// the line out when it is the first one, and gives parser (not scanner) errors a 0-based line.
func yamlSyntaxError(err error, data []byte) *YAMLError {
	m := yamlV3ErrorRE.FindStringSubmatch(err.Error())
	if m == nil {
		return &YAMLError{Msg: err.Error()}
	}
	msg := m[2]
	if name, ok := strings.CutPrefix(msg, "unknown anchor '"); ok {
		// Psych's wording; yaml.v3 gives no position, so look for the alias in the text.
		name = strings.TrimSuffix(name, "' referenced")
		e := &YAMLError{Msg: "Unknown alias: " + name}
		if i := bytes.Index(data, []byte("*"+name)); i >= 0 {
			e.Line, e.Column = textPosition(data, i)
		}
		return e
	}
	line := 1
	if m[1] != "" {
		line, _ = strconv.Atoi(m[1])
	}
	if msg == "found character that cannot start any token" {
		msg += " while scanning for the next token" // a scanner error: its line is right
	} else if context, ok := yamlParserContexts[msg]; ok {
		if m[1] != "" {
			line++
		}
		if context != "" {
			msg += " " + context
		}
	}
	return &YAMLError{Line: line, Msg: msg}
}

// yamlAnchored is the value built for an anchored node, reused by every alias to it.
type yamlAnchored struct {
	v    any
	size int // number of values in v once expanded, for the alias budget
	done bool
}

type yamlReader struct {
	lines   map[*Hash]int
	anchors map[*yaml.Node]*yamlAnchored
	aliased int  // values added by aliases and merge keys, against yamlMaxAliasValues
	symbols bool // some scalar was a Ruby symbol: keys must be converted
	// Values of the untagged plain and quoted scalars read so far, by text: a file repeats most of
	// its keys and many values, which then share one value (less memory, and plain ones are read once).
	plain, quoted map[string]any
	share         *sharing
}

// yamlInternMax is the longest scalar text kept in the yamlReader's caches.
const yamlInternMax = 128

// yamlSetup says what a yamlReader records and shares.
type yamlSetup struct {
	lines      bool     // record the line where each hash starts
	share      *sharing // what to share with other files; nil shares nothing
	maxNesting int      // refuse arrays and hashes nested deeper; 0: no limit
}

func newYAMLReader(setup yamlSetup) *yamlReader {
	r := &yamlReader{anchors: map[*yaml.Node]*yamlAnchored{}, plain: map[string]any{}, quoted: map[string]any{},
		share: setup.share}
	if setup.lines {
		r.lines = map[*Hash]int{}
	}
	return r
}

// setLine records where h starts, if lines are being recorded.
func (r *yamlReader) setLine(h *Hash, line int) {
	if r.lines != nil {
		r.lines[h] = line
	}
}

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
		if v, ok := r.share.key(s); ok {
			r.plain[s] = v
			return v, nil
		}
	}
	v, err := r.tokenize(n, s)
	if _, sym := v.(rubySymbol); err == nil && !sym && len(s) <= yamlInternMax {
		if key {
			v = r.share.shareKey(s, v)
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

func yamlNodeError(n *yaml.Node, format string, args ...any) *YAMLError {
	return &YAMLError{Line: n.Line, Column: n.Column, Msg: fmt.Sprintf(format, args...)}
}

// psychDisallowed is Psych's error for a class that safe_load does not permit (Puppet permits only Symbol).
func psychDisallowed(n *yaml.Node, class string) *YAMLError {
	return yamlNodeError(n, "Tried to load unspecified class: %s", class)
}

// spend adds n values to the alias budget.
func (r *yamlReader) spend(n int, at *yaml.Node) error {
	r.aliased += n
	if r.aliased > yamlMaxAliasValues {
		return yamlNodeError(at, "document too large after alias expansion (more than %d values)", yamlMaxAliasValues)
	}
	return nil
}

// build returns the value of node n and its expanded size.
func (r *yamlReader) build(n *yaml.Node) (any, int, error) {
	if n.Kind == yaml.AliasNode {
		a := r.anchors[n.Alias]
		if a == nil || !a.done {
			return nil, 0, yamlNodeError(n, "alias *%s refers to a collection that contains it (recursive data is not supported)", n.Value)
		}
		if err := r.spend(a.size, n); err != nil {
			return nil, 0, err
		}
		return a.v, a.size, nil
	}
	var a *yamlAnchored
	if n.Anchor != "" {
		a = &yamlAnchored{}
		r.anchors[n] = a
	}
	var v any
	size := 1
	var err error
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, 1, nil
		}
		return r.build(n.Content[0])
	case yaml.ScalarNode:
		v, err = r.scalar(n)
	case yaml.SequenceNode:
		v, size, err = r.sequence(n)
	case yaml.MappingNode:
		v, size, err = r.mapping(n)
	default:
		err = yamlNodeError(n, "unexpected YAML node kind %d", n.Kind)
	}
	if err != nil {
		return nil, 0, err
	}
	if a != nil {
		a.v, a.size, a.done = v, size, true
	}
	return v, size, nil
}

// psychTag is the node's explicit tag as Psych sees it ("" when there is none).
func psychTag(n *yaml.Node) string {
	if n.Kind == yaml.AliasNode || n.Style&yaml.TaggedStyle == 0 {
		return ""
	}
	if strings.HasPrefix(n.Tag, "!!") {
		return yamlTagPrefix + n.Tag[2:]
	}
	return n.Tag
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
		return nil, yamlNodeError(n, "unsupported tag %s: Hiera data cannot hold a Ruby Encoding", tag)
	case tag == yamlTagPrefix+"float" || tag == "!float":
		v, err := r.tokenize(n, n.Value)
		if err != nil {
			return nil, err
		}
		return psychFloatOf(n, v)
	case psychSymTagRE.MatchString(tag):
		r.symbols = true
		return rubySymbol{name: n.Value, line: n.Line, col: n.Column}, nil
	}
	// Every other tag (!!int, !!bool, !!null, !!timestamp, unknown local tags) is read like a plain scalar.
	return r.tokenize(n, n.Value)
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
	if c := s[0]; c != '-' && c != '+' && c != '.' && c != ':' && (c < '0' || c > '9') {
		return s, nil // none of the patterns below can match
	}
	if v, ok := psychSimpleNumber(s); ok {
		return v, nil
	}
	return r.tokenizePatterns(n, s)
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
		r.symbols = true
		return rubySymbol{name: psychSymbolName(s), line: n.Line, col: n.Column}, nil
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
		return normInt(i), nil
	}
	return s, nil
}

// psychSimpleNumber reads the most common numbers without regexps: [-+]?(0|[1-9][0-9]*) is an integer
// and [-+]?[0-9]+\.[0-9]+ a float, as tokenize would find (none of its earlier patterns can match them).
func psychSimpleNumber(s string) (any, bool) {
	digits := strings.TrimLeft(s, "+-")
	if len(s)-len(digits) > 1 || digits == "" {
		return nil, false
	}
	dot := -1
	for i := 0; i < len(digits); i++ {
		if c := digits[i]; c == '.' && dot < 0 && i > 0 && i < len(digits)-1 {
			dot = i
		} else if c < '0' || c > '9' {
			return nil, false
		}
	}
	if dot >= 0 {
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	}
	if len(digits) > 18 || len(digits) > 1 && digits[0] == '0' { // big, or octal
		return nil, false
	}
	i, err := strconv.ParseInt(s, 10, 64)
	return i, err == nil
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

// psychSymbolName is the name of the symbol written ":name" (or :"name", :'name').
func psychSymbolName(s string) string {
	if q := s[1]; q == '"' || q == '\'' {
		if end := strings.LastIndexByte(s, q); end > 1 {
			return strings.TrimPrefix(s[2:end], ":")
		}
	}
	return s[1:]
}

// psychSexagesimalInt reads "1:30" the way Psych does, which weighs the parts as if there were always three:
// 1:30 is 1*3600 + 30*60 = 5400.
func psychSexagesimalInt(s string) any {
	sum := new(big.Int)
	for i, part := range strings.Split(s, ":") {
		w := new(big.Int).Exp(big.NewInt(60), big.NewInt(int64(psychAbs(i-2))), nil)
		sum.Add(sum, w.Mul(w, psychToI(part)))
	}
	return normInt(sum)
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
	return nil, yamlNodeError(n, "can't convert %s into Float", rubyClassName(v))
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

// sequence builds a list. Psych reads !!omap into a hash and refuses class tags.
func (r *yamlReader) sequence(n *yaml.Node) (any, int, error) {
	tag := psychTag(n)
	if tag == "!omap" || tag == yamlTagPrefix+"omap" {
		return r.omap(n)
	}
	if m := psychSeqClassRE.FindStringSubmatch(tag); m != nil {
		return nil, 0, psychDisallowed(n, m[1])
	}
	list := make([]any, 0, len(n.Content))
	size := 1
	for _, c := range n.Content {
		v, s, err := r.build(c)
		if err != nil {
			return nil, 0, err
		}
		list = append(list, v)
		size = yamlAddSize(size, s)
	}
	return list, size, nil
}

// omap reads "!!omap [{a: 1}, {b: 2}]": each entry's first key and last value, as Psych does.
func (r *yamlReader) omap(n *yaml.Node) (any, int, error) {
	h := NewHash(len(n.Content))
	r.setLine(h, n.Line)
	size := 1
	for _, c := range n.Content {
		if c.Kind != yaml.MappingNode || len(c.Content) < 2 {
			return nil, 0, yamlNodeError(c, "each entry of an !!omap must be a mapping")
		}
		k, ks, err := r.build(c.Content[0])
		if err != nil {
			return nil, 0, err
		}
		v, vs, err := r.build(c.Content[len(c.Content)-1])
		if err != nil {
			return nil, 0, err
		}
		if err := yamlCheckKey(c.Content[0], k); err != nil {
			return nil, 0, err
		}
		h.Set(yamlHashKey(k), v)
		size = yamlAddSize(size, ks+vs)
	}
	return h, size, nil
}

// mapping builds a hash the way Psych's revive_hash does: later duplicate keys overwrite (keeping the
// first position) and "<<" merges where it stands.
func (r *yamlReader) mapping(n *yaml.Node) (any, int, error) {
	if err := psychCheckMappingTag(n); err != nil {
		return nil, 0, err
	}
	h := NewHash(len(n.Content) / 2)
	r.setLine(h, n.Line)
	size := 1
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		k, ks, err := r.build(kn)
		if err != nil {
			return nil, 0, err
		}
		if err := yamlCheckKey(kn, k); err != nil {
			return nil, 0, err
		}
		v, vs, err := r.build(vn)
		if err != nil {
			return nil, 0, err
		}
		size = yamlAddSize(size, ks+vs)
		if k == "<<" && psychTag(kn) != yamlTagPrefix+"str" {
			merged, err := r.merge(h, vn, v)
			if err != nil {
				return nil, 0, err
			}
			if merged {
				continue
			}
		}
		h.Set(yamlHashKey(k), v)
	}
	return h, size, nil
}

// psychCheckMappingTag refuses the tags with which Psych would instantiate a Ruby class.
func psychCheckMappingTag(n *yaml.Node) error {
	tag := psychTag(n)
	if tag == "" {
		return nil
	}
	classOr := func(class, dflt string) error {
		if class == "" {
			class = dflt
		}
		return psychDisallowed(n, class)
	}
	switch {
	case psychStructTagRE.MatchString(tag):
		return classOr(psychStructTagRE.FindStringSubmatch(tag)[1], "Struct")
	case psychObjectTagRE.MatchString(tag):
		if class := psychObjectTagRE.FindStringSubmatch(tag)[1]; class != "Hash" {
			return classOr(class, "Object")
		}
	case psychExceptionTagRE.MatchString(tag):
		return classOr(psychExceptionTagRE.FindStringSubmatch(tag)[1], "Exception")
	case psychHashClassRE.MatchString(tag):
		return psychDisallowed(n, psychHashClassRE.FindStringSubmatch(tag)[1])
	case tag == "!ruby/range":
		return psychDisallowed(n, "Range")
	case tag == "!set" || tag == yamlTagPrefix+"set":
		return psychDisallowed(n, "Psych::Set")
	case tag == "!omap" || tag == yamlTagPrefix+"omap":
		return psychDisallowed(n, "Psych::Omap")
	case psychIvarsTagRE.MatchString(tag), psychStrTagRE.MatchString(tag), tag == yamlTagPrefix+"str":
		return yamlNodeError(n, "unsupported tag %s on a mapping", tag)
	}
	return nil
}

// yamlCheckKey refuses collection keys: Ruby allows them, but Hiera data cannot use them.
func yamlCheckKey(n *yaml.Node, k any) error {
	switch k.(type) {
	case *Hash, []any:
		return yamlNodeError(n, "a mapping or sequence cannot be used as a hash key")
	}
	return nil
}

// yamlHashKey drops a symbol's position so that equal symbols are equal keys.
func yamlHashKey(k any) any {
	if s, ok := k.(rubySymbol); ok {
		return rubySymbol{name: s.name}
	}
	return k
}

// merge applies a merge key to h as Psych does: a hash (alias or inline) is merged in, overwriting what
// is already there; a list of hashes is merged with earlier ones winning. Anything else is not a merge
// (false): the caller stores it under the key "<<".
func (r *yamlReader) merge(h *Hash, vn *yaml.Node, v any) (bool, error) {
	switch vn.Kind {
	case yaml.AliasNode, yaml.MappingNode:
		src, ok := v.(*Hash)
		if !ok {
			return false, nil
		}
		return true, r.copyEntries(h, src, vn)
	case yaml.SequenceNode:
		list, ok := v.([]any) // not so for an !!omap sequence, which is read as a hash
		if !ok {
			return false, nil
		}
		hashes := make([]*Hash, len(list))
		for i, e := range list {
			if hashes[i], ok = e.(*Hash); !ok {
				return false, nil
			}
		}
		tmp := NewHash(0)
		for i := len(hashes) - 1; i >= 0; i-- {
			if err := r.copyEntries(tmp, hashes[i], vn); err != nil {
				return false, err
			}
		}
		return true, r.copyEntries(h, tmp, vn)
	}
	return false, nil
}

func (r *yamlReader) copyEntries(dst, src *Hash, at *yaml.Node) error {
	if err := r.spend(src.Len(), at); err != nil {
		return err
	}
	src.Each(func(k, v any) bool {
		dst.Set(k, v)
		return true
	})
	return nil
}

// yamlAddSize adds without overflowing; sizes past the budget only need to stay past it.
func yamlAddSize(a, b int) int {
	if a+b > yamlMaxAliasValues || a+b < 0 {
		return yamlMaxAliasValues + 1
	}
	return a + b
}

// yamlSymbolFixer does Puppet's symkeys_to_string on the finished document: symbol keys become strings.
// With strict set (the document is a hash, which Puppet validates), a symbol left as a value is an
// error; otherwise (Puppet ignores a document that is not a hash) it just becomes its name.
// Shared (aliased) collections are converted once, and collections without symbols are kept as they are.
type yamlSymbolFixer struct {
	strict bool
	lines  map[*Hash]int
	hashes map[*Hash]*Hash
	lists  map[*any][]any
}

// value returns v converted and whether that made a new value.
func (f *yamlSymbolFixer) value(v any) (any, bool, error) {
	switch t := v.(type) {
	case rubySymbol:
		if f.strict {
			return nil, false, &YAMLError{Line: t.line, Column: t.col, Msg: fmt.Sprintf(
				"the value :%s is a Ruby Symbol: has wrong type, expects Puppet::LookupValue, got Runtime[ruby, 'Symbol'] (quote it to make it a string)", t.name)}
		}
		return t.name, true, nil
	case *Hash:
		if done, ok := f.hashes[t]; ok {
			return done, done != t, nil
		}
		out := NewHash(t.Len())
		changed := false
		for i, k := range t.keys() {
			if s, ok := k.(rubySymbol); ok {
				k, changed = s.name, true
			}
			e, c, err := f.value(t.vals[i])
			if err != nil {
				return nil, false, err
			}
			changed = changed || c
			out.Set(k, e)
		}
		if !changed {
			out = t
		} else if line, ok := f.lines[t]; ok {
			f.lines[out] = line // f.lines is nil when no lines are recorded, and then never ok
		}
		f.hashes[t] = out
		return out, changed, nil
	case []any:
		if len(t) == 0 {
			return t, false, nil
		}
		if done, ok := f.lists[&t[0]]; ok {
			return done, &done[0] != &t[0], nil
		}
		out := make([]any, len(t))
		changed := false
		for i, e := range t {
			ne, c, err := f.value(e)
			if err != nil {
				return nil, false, err
			}
			changed = changed || c
			out[i] = ne
		}
		if !changed {
			out = t
		}
		f.lists[&t[0]] = out
		return out, changed, nil
	}
	return v, false, nil
}

// nestingExceeds reports whether arrays and hashes nest more than limit levels deep in v (the
// file's top hash is one level). When shared is set, collections may be shared through YAML
// aliases, and each is measured once.
func nestingExceeds(v any, limit int, shared bool) bool {
	var memo map[any]int
	if shared {
		memo = map[any]int{}
	}
	return nesting(v, memo) > limit
}

// nesting is the number of array and hash levels in v. With a memo, shared collections are
// measured once (memo is keyed by the *Hash or the array's first element).
func nesting(v any, memo map[any]int) int {
	var id any
	switch t := v.(type) {
	case *Hash:
		id = t
	case []any:
		if len(t) == 0 {
			return 1
		}
		id = &t[0]
	default:
		return 0
	}
	if d, ok := memo[id]; ok {
		return d
	}
	deepest := 0
	measure := func(x any) {
		if d := nesting(x, memo); d > deepest {
			deepest = d
		}
	}
	if h, isHash := v.(*Hash); isHash {
		h.Each(func(_, x any) bool { measure(x); return true })
	} else {
		list, _ := v.([]any) // nesting is only called on a Hash or an array
		for _, x := range list {
			measure(x)
		}
	}
	if memo != nil {
		memo[id] = deepest + 1
	}
	return deepest + 1
}
