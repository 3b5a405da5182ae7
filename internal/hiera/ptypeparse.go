package hiera

import (
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"math"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// parseType is Puppet's TypeParser#parse for a type expression such as "Hash[String, Array[Integer, 1]]".
// The text is first parsed as a Puppet expression (syntax errors name the token and column as Puppet's
// parser does), then interpreted as a type with the TypeParser's messages. Names Puppet does not know
// become type references, reported when a value is checked ("references an unresolved type").
func parseType(src string) (*ptype, error) {
	if t, ok := ptypeShortcuts[src]; ok { // Puppet's "peephole" table: Array[1] means Array[Any, 1] only here
		return t, nil
	}
	p := &tparser{src: src}
	if err := p.lex(); err != nil {
		return nil, err
	}
	body, err := p.body()
	if err != nil {
		return nil, err
	}
	v, err := p.interpret(body)
	if err != nil {
		return nil, err
	}
	t, ok := v.(*ptype)
	if !ok {
		return nil, p.invalid(body)
	}
	return t, nil
}

var ptypeShortcuts = map[string]*ptype{"Array[1]": {kind: ptArray, elem: ptypeAny, size: sizeRange(1, -1)}}

// ptypeMaxDepth bounds the nesting of a type expression (brackets, braces), so that a hostile
// value_type cannot exhaust the stack.
const ptypeMaxDepth = 100

type tokKind uint8

const (
	tkEOF  tokKind = iota
	tkRef          // a capitalized name: a type
	tkName         // a lower-case name: a bare word
	tkInt
	tkFloat
	tkString
	tkRegex
	tkPunct // [ ] { } , => -
)

type ptoken struct {
	kind       tokKind
	text       string // punctuation, names; a string's value; a regexp's source
	start, end int    // byte offsets in the source
}

type tnode struct {
	tok      ptoken
	kind     byte // 'v' token value, 'a' access, 'l' list, 'h' hash, '-' negation
	left     *tnode
	args     []*tnode // access parameters, list items, hash keys and values alternating
	from, to int
}

type tparser struct {
	src  string
	toks []ptoken
	pos  int
}

func (p *tparser) syntaxError(t ptoken) error {
	if t.kind == tkEOF {
		return model.Errorf("Syntax error at end of input")
	}
	line := 1 + strings.Count(p.src[:t.start], "\n")
	col := 1 + utf8.RuneCountInString(p.src[strings.LastIndexByte(p.src[:t.start], '\n')+1:t.start])
	text := p.src[t.start:t.end]
	if t.kind == tkString || t.kind == tkRegex {
		text = text[:1]
	}
	return model.Errorf("Syntax error at '%s' (line: %d, column: %d)", text, line, col)
}

func (p *tparser) lex() error {
	s := p.src
	for i := 0; i < len(s); {
		c := s[i]
		start := i
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		case c == '=' && i+1 < len(s) && s[i+1] == '>':
			i += 2
			p.toks = append(p.toks, ptoken{kind: tkPunct, text: "=>", start: start, end: i})
			continue
		case strings.IndexByte("[]{},-", c) >= 0:
			i++
			p.toks = append(p.toks, ptoken{kind: tkPunct, text: string(c), start: start, end: i})
			continue
		case c == '\'' || c == '"':
			val, n, ok := lexString(s[i:])
			if !ok {
				return model.Errorf("Syntax error at end of input")
			}
			i += n
			p.toks = append(p.toks, ptoken{kind: tkString, text: val, start: start, end: i})
			continue
		case c == '/':
			j := i + 1
			for j < len(s) && s[j] != '/' && s[j] != '\n' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) || s[j] != '/' {
				return p.syntaxError(ptoken{kind: tkPunct, start: i, end: i + 1})
			}
			p.toks = append(p.toks, ptoken{kind: tkRegex, text: s[i+1 : j], start: start, end: j + 1})
			i = j + 1
			continue
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (isWordByte(s[j]) || s[j] == '.' || ((s[j] == '-' || s[j] == '+') && (s[j-1] == 'e' || s[j-1] == 'E'))) {
				j++
			}
			kind := tkInt
			if strings.ContainsAny(s[i:j], ".eE") && !strings.HasPrefix(s[i:j], "0x") && !strings.HasPrefix(s[i:j], "0X") {
				kind = tkFloat
			}
			p.toks = append(p.toks, ptoken{kind: kind, text: s[i:j], start: start, end: j})
			i = j
			continue
		case isWordByte(c) || c == ':':
			j := i
			for j < len(s) && (isWordByte(s[j]) || (s[j] == ':' && j+1 < len(s) && s[j+1] == ':')) {
				if s[j] == ':' {
					j++
				}
				j++
			}
			if j == i {
				return p.syntaxError(ptoken{kind: tkPunct, start: i, end: i + 1})
			}
			word := strings.TrimPrefix(s[i:j], "::")
			kind := tkName
			if word != "" && word[0] >= 'A' && word[0] <= 'Z' {
				kind = tkRef
			}
			p.toks = append(p.toks, ptoken{kind: kind, text: word, start: start, end: j})
			i = j
			continue
		default:
			_, n := utf8.DecodeRuneInString(s[i:])
			return p.syntaxError(ptoken{kind: tkPunct, start: i, end: i + n})
		}
	}
	p.toks = append(p.toks, ptoken{kind: tkEOF, start: len(s), end: len(s)})
	return nil
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// lexString reads a single- or double-quoted Puppet string at the start of s: its value, its length,
// and false when it is not terminated.
func lexString(s string) (string, int, bool) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), i + 1, true
		case c == '\\' && i+1 < len(s):
			n := s[i+1]
			switch {
			case n == '\\' || n == q:
				b.WriteByte(n)
			case q == '"' && n == 'n':
				b.WriteByte('\n')
			case q == '"' && n == 't':
				b.WriteByte('\t')
			case q == '"' && n == 'r':
				b.WriteByte('\r')
			case q == '"' && (n == '$' || n == '\''):
				b.WriteByte(n)
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
			}
			i++
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

func (p *tparser) peek() ptoken { return p.toks[p.pos] }

func (p *tparser) isPunct(text string) bool {
	t := p.peek()
	return t.kind == tkPunct && t.text == text
}

// body parses the whole text: one expression, or several (Puppet's block), which is no type.
func (p *tparser) body() (*tnode, error) {
	if p.peek().kind == tkEOF { // an empty program
		return &tnode{kind: 'b'}, nil
	}
	first, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if p.peek().kind == tkEOF {
		return first, nil
	}
	if p.peek().kind == tkPunct && !p.isPunct("[") && !p.isPunct("{") && !p.isPunct("-") {
		return nil, p.syntaxError(p.peek())
	}
	for p.peek().kind != tkEOF {
		if _, err := p.expr(0); err != nil {
			return nil, err
		}
	}
	return &tnode{kind: 'b', from: 0, to: len(p.src)}, nil
}

func (p *tparser) expr(depth int) (*tnode, error) {
	if depth > ptypeMaxDepth {
		return nil, model.Errorf("The type expression nests more than %d levels", ptypeMaxDepth)
	}
	n, err := p.primary(depth)
	if err != nil {
		return nil, err
	}
	for p.isPunct("[") && (n.kind == 'v' || n.kind == 'a') {
		p.pos++
		args, end, err := p.items("]", depth)
		if err != nil {
			return nil, err
		}
		if len(args) == 0 {
			return nil, p.syntaxError(p.toks[p.pos-1])
		}
		n = &tnode{kind: 'a', left: n, args: args, from: n.from, to: end}
	}
	return n, nil
}

// items parses comma-separated expressions up to the closing punctuation (a trailing comma is
// allowed) and returns them with the end offset of the closer.
func (p *tparser) items(closer string, depth int) ([]*tnode, int, error) {
	var out []*tnode
	for {
		if p.isPunct(closer) {
			end := p.peek().end
			p.pos++
			return out, end, nil
		}
		e, err := p.expr(depth + 1)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, e)
		if closer == "}" {
			if !p.isPunct("=>") {
				return nil, 0, p.syntaxError(p.peek())
			}
			p.pos++
			v, err := p.expr(depth + 1)
			if err != nil {
				return nil, 0, err
			}
			out = append(out, v)
		}
		if p.isPunct(",") {
			p.pos++
			if p.isPunct(",") {
				return nil, 0, p.syntaxError(p.peek())
			}
			continue
		}
		if !p.isPunct(closer) {
			return nil, 0, p.syntaxError(p.peek())
		}
	}
}

func (p *tparser) primary(depth int) (*tnode, error) {
	if depth > ptypeMaxDepth {
		return nil, model.Errorf("The type expression nests more than %d levels", ptypeMaxDepth)
	}
	t := p.peek()
	switch t.kind {
	case tkEOF:
		return nil, p.syntaxError(t)
	case tkPunct:
		p.pos++
		switch t.text {
		case "[", "{":
			closer := map[string]string{"[": "]", "{": "}"}[t.text]
			items, end, err := p.items(closer, depth)
			if err != nil {
				return nil, err
			}
			kind := byte('l')
			if t.text == "{" {
				kind = 'h'
			}
			return &tnode{kind: kind, args: items, from: t.start, to: end}, nil
		case "-":
			e, err := p.primary(depth + 1)
			if err != nil {
				return nil, err
			}
			return &tnode{kind: '-', left: e, from: t.start, to: e.to}, nil
		}
		return nil, p.syntaxError(t)
	}
	p.pos++
	return &tnode{kind: 'v', tok: t, from: t.start, to: t.end}, nil
}

func (p *tparser) text(n *tnode) string { return p.src[n.from:n.to] }

func (p *tparser) invalid(n *tnode) error {
	return model.Errorf("The expression <%s> is not a valid type specification.", p.text(n))
}

// Interpreted parameter values besides *ptype: string, *big.Int, float64, bool, nil (undef),
// ptDefaultLit, ptRegexLit, []any, *ptHashLit, and ptNotAType (a type expression that made no type).
type ptDefaultLit struct{}
type ptRegexLit struct{ source string }
type ptNotAType struct{}
type ptHashLit struct{ keys, values []any }

func (p *tparser) interpret(n *tnode) (any, error) {
	switch n.kind {
	case 'b':
		return ptNotAType{}, nil
	case '-':
		v, err := p.interpret(n.left)
		if err != nil {
			return nil, err
		}
		switch x := v.(type) {
		case *big.Int:
			return new(big.Int).Neg(x), nil
		case float64:
			return -x, nil
		}
		return ptNotAType{}, nil
	case 'l':
		out := make([]any, len(n.args))
		for i, a := range n.args {
			v, err := p.interpret(a)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case 'h':
		h := &ptHashLit{}
		for i := 0; i+1 < len(n.args); i += 2 {
			k, err := p.interpret(n.args[i])
			if err != nil {
				return nil, err
			}
			v, err := p.interpret(n.args[i+1])
			if err != nil {
				return nil, err
			}
			h.keys, h.values = append(h.keys, k), append(h.values, v)
		}
		return h, nil
	case 'a':
		return p.access(n)
	}
	t := n.tok
	switch t.kind {
	case tkRef:
		return namedType(t.text), nil
	case tkName:
		switch t.text {
		case "true":
			return true, nil
		case "false":
			return false, nil
		case "default":
			return ptDefaultLit{}, nil
		case "undef":
			return nil, nil
		}
		return t.text, nil
	case tkString:
		return t.text, nil
	case tkRegex:
		return ptRegexLit{source: t.text}, nil
	case tkInt:
		i, ok := parsePuppetInt(t.text)
		if !ok {
			return nil, model.Errorf("Syntax error: '%s' is not a valid number", t.text)
		}
		return i, nil
	case tkFloat:
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, model.Errorf("Syntax error: '%s' is not a valid number", t.text)
		}
		return f, nil
	}
	return nil, p.syntaxError(t)
}

func parsePuppetInt(s string) (*big.Int, bool) {
	base := 10
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		s, base = s[2:], 16
	case len(s) > 1 && s[0] == '0':
		s, base = s[1:], 8
	}
	return new(big.Int).SetString(s, base)
}

// ptypeOpaque are the types Puppet knows whose instances a Hiera value never is.
var ptypeOpaque = map[string]string{
	"binary": "Binary", "timestamp": "Timestamp", "timespan": "Timespan", "semver": "SemVer",
	"semverrange": "SemVerRange", "uri": "URI", "regexp": "Regexp", "type": "Type", "class": "Class",
	"resource": "Resource", "catalogentry": "CatalogEntry", "runtime": "Runtime", "callable": "Callable",
	"object": "Object", "typealias": "TypeAlias", "typereference": "TypeReference", "typeset": "TypeSet",
	"init": "Init", "iterator": "Iterator",
}

// ptypeResources are Puppet's built-in resource types (File, Package, ...): no Hiera value is one.
var ptypeResources = map[string]bool{"component": true, "exec": true, "file": true, "filebucket": true,
	"group": true, "node": true, "notify": true, "package": true, "resources": true, "schedule": true,
	"service": true, "stage": true, "tidy": true, "user": true, "whit": true}

var ptypeSimple = map[string]*ptype{
	"any": ptypeAny, "undef": ptypeUndef, "default": ptypeDefaultT, "boolean": {kind: ptBoolean},
	"integer": {kind: ptInteger}, "float": {kind: ptFloat, ffrom: math.Inf(-1), fto: math.Inf(1)},
	"numeric": {kind: ptNumeric}, "string": ptypeString, "enum": {kind: ptEnum}, "pattern": {kind: ptPattern},
	"scalar": {kind: ptScalar}, "scalardata": ptypeScalarData, "collection": {kind: ptCollection},
	"array": {kind: ptArray}, "hash": {kind: ptHash}, "tuple": {kind: ptTuple}, "struct": {kind: ptStruct},
	"optional": {kind: ptOptional}, "notundef": {kind: ptNotUndef}, "variant": {kind: ptVariant},
	"sensitive": {kind: ptSensitive}, "iterable": {kind: ptIterable},
}

// namedType resolves a capitalized name as Puppet's loaders would for a lookup.
func namedType(name string) *ptype {
	lower := strings.ToLower(name)
	if t, ok := ptypeSimple[lower]; ok {
		return t
	}
	if t, ok := ptypeAliases[lower]; ok {
		return t
	}
	if n, ok := ptypeOpaque[lower]; ok {
		return &ptype{kind: ptOpaque, name: n, short: n}
	}
	if ptypeResources[lower] {
		return &ptype{kind: ptOpaque, name: strings.ToUpper(lower[:1]) + lower[1:], short: "Resource"}
	}
	return &ptype{kind: ptReference, name: name}
}

func (p *tparser) access(n *tnode) (any, error) {
	params := make([]any, len(n.args))
	for i, a := range n.args {
		v, err := p.interpret(a)
		if err != nil {
			return nil, err
		}
		params[i] = v
	}
	if n.left.kind != 'v' || n.left.tok.kind != tkRef {
		return nil, p.invalid(n)
	}
	name := strings.ToLower(n.left.tok.text)
	c := &ctor{p: p, n: n, params: params}
	switch name {
	case "array":
		return c.array()
	case "hash":
		return c.hash()
	case "collection":
		size, err := c.sizeParams("Collection", params)
		return &ptype{kind: ptCollection, size: size}, err
	case "string":
		size, err := c.sizeParams("String", params)
		return &ptype{kind: ptString, size: size}, err
	case "enum":
		return c.enum()
	case "pattern":
		return c.pattern()
	case "variant":
		if err := c.allTypes(params); err != nil {
			return nil, err
		}
		return &ptype{kind: ptVariant, types: typesOf(params)}, nil
	case "tuple":
		return c.tuple()
	case "struct":
		return c.structType()
	case "boolean":
		if len(params) != 1 {
			return nil, c.count("Boolean", "1")
		}
		b, ok := params[0].(bool)
		if !ok {
			return nil, model.Errorf("Boolean parameter must be true or false")
		}
		return &ptype{kind: ptBoolean, boolean: &b}, nil
	case "integer":
		return c.integer()
	case "float":
		return c.float()
	case "sensitive", "iterable", "type":
		display := map[string]string{"sensitive": "Sensitive", "iterable": "Iterable", "type": "Type"}[name]
		if len(params) != 1 {
			if name == "sensitive" {
				return nil, c.count(display, "0 to 1")
			}
			return nil, c.count(display, "1")
		}
		if err := c.allTypes(params); err != nil {
			return nil, err
		}
		inner, _ := params[0].(*ptype) // allTypes checked it
		switch name {
		case "sensitive":
			return &ptype{kind: ptSensitive, elem: inner}, nil
		case "iterable":
			return &ptype{kind: ptIterable, elem: inner}, nil
		}
		return &ptype{kind: ptOpaque, name: "Type[" + inner.String() + "]", short: "Type[" + inner.shortName() + "]"}, nil
	case "optional", "notundef":
		kind, display := ptOptional, "Optional"
		if name == "notundef" {
			kind, display = ptNotUndef, "NotUndef"
		}
		if len(params) != 1 {
			if kind == ptNotUndef {
				return nil, c.count(display, "0 to 1")
			}
			return nil, c.count(display, "1")
		}
		if s, ok := params[0].(string); ok {
			return &ptype{kind: kind, elem: &ptype{kind: ptString, str: &s}}, nil
		}
		if err := c.allTypes(params); err != nil {
			return nil, err
		}
		inner, _ := params[0].(*ptype) // allTypes checked it
		return &ptype{kind: kind, elem: inner}, nil
	case "any", "data", "catalogentry", "scalar", "undef", "numeric", "default", "semverrange",
		"scalardata", "binary", "unit", "richdata", "richdatakey":
		return nil, model.Errorf("Not a parameterized type <%s>", p.text(n.left))
	}
	if n, ok := ptypeOpaque[name]; ok {
		return &ptype{kind: ptOpaque, name: p.text(c.n), short: n}, nil
	}
	if ptypeResources[name] {
		return &ptype{kind: ptOpaque, name: p.text(c.n), short: "Resource"}, nil
	}
	if _, ok := ptypeAliases[name]; ok {
		return nil, model.Errorf("Not a parameterized type <%s>", p.text(n.left))
	}
	return &ptype{kind: ptReference, name: p.text(n)}, nil
}

// ctor builds one parameterized type with the TypeParser's checks.
type ctor struct {
	p      *tparser
	n      *tnode
	params []any
}

func (c *ctor) count(typ, required string) error {
	return model.Errorf("Invalid number of type parameters specified: %s requires %s, %d provided", typ, required, len(c.params))
}

func (c *ctor) invalid() error { return c.p.invalid(c.n) }

func (c *ctor) allTypes(params []any) error {
	for _, v := range params {
		if _, ok := v.(*ptype); !ok {
			return c.invalid()
		}
	}
	return nil
}

func typesOf(params []any) []*ptype {
	out := make([]*ptype, len(params))
	for i, v := range params {
		out[i], _ = v.(*ptype) // callers checked
	}
	return out
}

func isRangeParam(v any) bool {
	switch v.(type) {
	case *big.Int, ptDefaultLit:
		return true
	}
	return v == "default"
}

// rangeOf is TypeFactory.range: default (or nil) leaves a bound open.
func (c *ctor) rangeOf(from, to any) (*ptype, error) {
	bound := func(v any) *big.Int {
		if b, ok := v.(*big.Int); ok {
			return b
		}
		return nil
	}
	t := intRange(bound(from), bound(to))
	if t.from != nil && t.to != nil && t.from.Cmp(t.to) > 0 {
		return nil, model.Errorf("The expression <%s> is not a valid type specification: 'from' must be less or equal to 'to' (got %s, %s)", c.p.text(c.n), t.from, t.to)
	}
	return t, nil
}

// sizeParams reads the size parameters of String and Collection: an Integer type, or one or two
// range parameters.
func (c *ctor) sizeParams(typ string, params []any) (*ptype, error) {
	switch len(params) {
	case 1:
		if t, ok := params[0].(*ptype); ok && t.kind == ptInteger {
			return t, nil
		}
		if !isRangeParam(params[0]) {
			return nil, c.invalid()
		}
		return c.rangeOf(params[0], nil)
	case 2:
		if !isRangeParam(params[0]) || !isRangeParam(params[1]) {
			return nil, c.invalid()
		}
		return c.rangeOf(params[0], params[1])
	}
	return nil, c.count(typ, "1 to 2")
}

func (c *ctor) array() (any, error) {
	ps := c.params
	t := &ptype{kind: ptArray}
	var err error
	switch len(ps) {
	case 1:
		if err := c.allTypes(ps); err != nil {
			return nil, err
		}
		t.elem = typesOf(ps)[0]
	case 2:
		if e, ok := ps[0].(*ptype); ok {
			t.elem = e
			if s, ok := ps[1].(*ptype); ok && s.kind == ptInteger {
				t.size = s
			} else if !isRangeParam(ps[1]) {
				return nil, c.invalid()
			} else {
				t.size, err = c.rangeOf(ps[1], nil)
			}
		} else {
			if !isRangeParam(ps[0]) || !isRangeParam(ps[1]) {
				return nil, c.invalid()
			}
			t.elem = ptypeDefaultT
			t.size, err = c.rangeOf(ps[0], ps[1])
		}
	case 3:
		if err := c.allTypes(ps[:1]); err != nil {
			return nil, err
		}
		if !isRangeParam(ps[1]) || !isRangeParam(ps[2]) {
			return nil, c.invalid()
		}
		t.elem = typesOf(ps[:1])[0]
		t.size, err = c.rangeOf(ps[1], ps[2])
	default:
		return nil, c.count("Array", "1 to 3")
	}
	return t, err
}

func (c *ctor) hash() (any, error) {
	ps := c.params
	t := &ptype{kind: ptHash}
	var err error
	switch len(ps) {
	case 2:
		if c.allTypes(ps) == nil {
			t.key, t.elem = typesOf(ps)[0], typesOf(ps)[1]
			return t, nil
		}
		if !isRangeParam(ps[0]) || !isRangeParam(ps[1]) {
			return nil, c.invalid()
		}
		t.key, t.elem = ptypeDefaultT, ptypeDefaultT
		t.size, err = c.rangeOf(ps[0], ps[1])
	case 3:
		if s, ok := ps[2].(*ptype); ok && s.kind == ptInteger {
			t.size = s
		} else if !isRangeParam(ps[2]) {
			return nil, c.invalid()
		} else if t.size, err = c.rangeOf(ps[2], nil); err != nil {
			return nil, err
		}
		if err := c.allTypes(ps[:2]); err != nil {
			return nil, err
		}
		t.key, t.elem = typesOf(ps)[0], typesOf(ps)[1]
	case 4:
		if !isRangeParam(ps[2]) || !isRangeParam(ps[3]) {
			return nil, c.invalid()
		}
		if t.size, err = c.rangeOf(ps[2], ps[3]); err != nil {
			return nil, err
		}
		if err := c.allTypes(ps[:2]); err != nil {
			return nil, err
		}
		t.key, t.elem = typesOf(ps)[0], typesOf(ps)[1]
	default:
		return nil, c.count("Hash", "2 to 4")
	}
	return t, err
}

func (c *ctor) enum() (any, error) {
	ps := c.params
	ci := false
	if b, ok := ps[len(ps)-1].(bool); ok {
		ci, ps = b, ps[:len(ps)-1]
	}
	if len(ps) == 0 {
		return nil, model.Errorf("Invalid number of type parameters specified: Enum requires 1 or more, 0 provided")
	}
	seen := map[string]bool{}
	var values []string
	for _, v := range ps {
		s, ok := v.(string)
		if !ok {
			return nil, model.Errorf("Enum parameters must be identifiers or strings")
		}
		if !seen[s] {
			seen[s] = true
			values = append(values, s)
		}
	}
	sort.Strings(values)
	return &ptype{kind: ptEnum, values: values, ci: ci}, nil
}

func (c *ctor) pattern() (any, error) {
	t := &ptype{kind: ptPattern}
	for _, v := range c.params {
		switch x := v.(type) {
		case string:
			t.rx = append(t.rx, ptypeRegex{source: x})
		case ptRegexLit:
			t.rx = append(t.rx, ptypeRegex{source: x.source})
		case *ptype:
			if x.kind != ptPattern {
				return nil, model.Errorf("The expression <%s> is not a valid type specification: Pattern takes strings, regular expressions and Pattern types", c.p.text(c.n))
			}
			t.rx = append(t.rx, x.rx...)
		default:
			return nil, model.Errorf("The expression <%s> is not a valid type specification: Pattern takes strings, regular expressions and Pattern types", c.p.text(c.n))
		}
	}
	for i := range t.rx {
		re, err := compileTypeRegexp(t.rx[i].source)
		if err != nil {
			return nil, err
		}
		t.rx[i].re = re
	}
	return t, nil
}

// compileTypeRegexp compiles a Pattern's Ruby regexp on RE2, refusing clearly what RE2 cannot do.
func compileTypeRegexp(source string) (*regexp.Regexp, error) {
	translated, feature := rxTranslate(source)
	if feature != "" {
		return nil, model.Errorf("Pattern /%s/ uses Ruby regexp syntax that is not supported: %s", source, feature)
	}
	re, err := regexp.Compile("(?m)" + translated)
	if err != nil {
		return nil, model.Errorf("Pattern /%s/ is not a valid regular expression: %v", source, err)
	}
	return re, nil
}

func (c *ctor) tuple() (any, error) {
	ps := c.params
	t := &ptype{kind: ptTuple}
	var err error
	n := len(ps)
	switch {
	case n >= 2 && isRangeParam(ps[n-2]):
		if !isRangeParam(ps[n-1]) {
			return nil, c.invalid()
		}
		t.size, err = c.rangeOf(tupleMin(ps[n-2]), ps[n-1])
		ps = ps[:n-2]
	case isRangeParam(ps[n-1]):
		t.size, err = c.rangeOf(tupleMin(ps[n-1]), nil)
		ps = ps[:n-1]
	}
	if err != nil {
		return nil, err
	}
	if err := c.allTypes(ps); err != nil {
		return nil, err
	}
	t.types = typesOf(ps)
	return t, nil
}

// tupleMin is a Tuple's minimum size parameter: default means 0.
func tupleMin(v any) any {
	if _, isDefault := v.(ptDefaultLit); isDefault || v == "default" {
		return big.NewInt(0)
	}
	return v
}

func (c *ctor) structType() (any, error) {
	if len(c.params) != 1 {
		return nil, c.count("Struct", "1")
	}
	h, ok := c.params[0].(*ptHashLit)
	if !ok {
		return nil, c.invalid()
	}
	t := &ptype{kind: ptStruct}
	seen := map[string]bool{}
	for i, k := range h.keys {
		var value *ptype
		switch v := h.values[i].(type) {
		case *ptype:
			value = v
		case ptDefaultLit:
			value = ptypeDefaultT
		default:
			return nil, c.invalid()
		}
		e := structElement{value: value}
		switch key := k.(type) {
		case string:
			e.name, e.optional = key, value.acceptsUndef()
		case *ptype:
			switch {
			case key.kind == ptOptional && key.elem.kind == ptString && key.elem.str != nil:
				e.name, e.optional = *key.elem.str, true
			case key.kind == ptNotUndef && key.elem != nil && key.elem.kind == ptString && key.elem.str != nil:
				e.name, e.notUndef = *key.elem.str, true
			default:
				return nil, c.invalid()
			}
		default:
			return nil, c.invalid()
		}
		if seen[e.name] {
			return nil, model.Errorf("The expression <%s> is not a valid type specification: the key '%s' is given twice", c.p.text(c.n), e.name)
		}
		seen[e.name] = true
		t.elements = append(t.elements, e)
	}
	return t, nil
}

func (c *ctor) integer() (any, error) {
	ps := c.params
	switch len(ps) {
	case 1:
		switch x := ps[0].(type) {
		case *big.Int:
			return intRange(x, nil), nil
		case ptDefaultLit:
			return &ptype{kind: ptInteger}, nil
		}
		return ptNotAType{}, nil
	case 2:
		for _, v := range ps {
			if !isRangeParam(v) {
				return nil, c.invalid()
			}
		}
		return c.rangeOf(ps[0], ps[1])
	}
	return nil, c.count("Integer", "1 or 2")
}

func (c *ctor) float() (any, error) {
	ps := c.params
	bound := func(v any, open float64) (float64, bool) {
		switch x := v.(type) {
		case float64:
			return x, true
		case *big.Int:
			f, _ := new(big.Float).SetInt(x).Float64()
			return f, true
		case ptDefaultLit:
			return open, true
		}
		return 0, false
	}
	switch len(ps) {
	case 1:
		if _, isDefault := ps[0].(ptDefaultLit); isDefault {
			return floatRange(math.Inf(-1), math.Inf(1)), nil
		}
		from, ok := bound(ps[0], 0)
		if !ok {
			return ptNotAType{}, nil
		}
		return floatRange(from, math.Inf(1)), nil
	case 2:
		from, ok1 := bound(ps[0], math.Inf(-1))
		to, ok2 := bound(ps[1], math.Inf(1))
		if !ok1 || !ok2 {
			return nil, c.invalid()
		}
		if from > to {
			return nil, model.Errorf("The expression <%s> is not a valid type specification: 'from' must be less or equal to 'to' (got %s, %s)", c.p.text(c.n), model.FloatToS(from), model.FloatToS(to))
		}
		return floatRange(from, to), nil
	}
	return nil, c.count("Float", "1 or 2")
}

// acceptsUndef reports whether undef is an instance of t.
func (t *ptype) acceptsUndef() bool { return assignable(t, ptypeUndef) }
