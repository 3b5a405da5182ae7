package ptype

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Parse is Puppet's TypeParser#parse for a type expression such as "Hash[String, Array[Integer, 1]]".
// The text is first parsed as a Puppet expression (syntax errors name the token and column as Puppet's
// parser does), then interpreted as a type with the TypeParser's messages. Names Puppet does not know
// become type references, reported when a value is checked ("references an unresolved type").
func Parse(src string) (*Type, error) { return parse(src, nil) }

// parse is Parse with a code base's type aliases (nil: none).
func parse(src string, aliases *Aliases) (*Type, error) {
	if t, ok := ptypeShortcuts[src]; ok { // Puppet's "peephole" table: Array[1] means Array[Any, 1] only here
		return t, nil
	}
	p := &tparser{src: src, aliases: aliases}
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
	t, ok := v.(*Type)
	if !ok {
		return nil, p.invalid(body)
	}
	return t, nil
}

var ptypeShortcuts = map[string]*Type{"Array[1]": {kind: ptArray, elem: ptypeAny, size: sizeRange(1, -1)}}

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
	src     string
	toks    []ptoken
	pos     int
	aliases *Aliases // a code base's type aliases, nil: none
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
		if named := namedType(t.text); named.kind != ptReference || p.aliases == nil {
			return named, nil
		}
		return p.aliases.resolve(t.text)
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

var ptypeSimple = map[string]*Type{
	"any": ptypeAny, "undef": ptypeUndef, "default": ptypeDefaultT, "boolean": {kind: ptBoolean},
	"integer": {kind: ptInteger}, "float": {kind: ptFloat, ffrom: math.Inf(-1), fto: math.Inf(1)},
	"numeric": {kind: ptNumeric}, "string": ptypeString, "enum": {kind: ptEnum}, "pattern": {kind: ptPattern},
	"scalar": {kind: ptScalar}, "scalardata": ptypeScalarData, "collection": {kind: ptCollection},
	"array": {kind: ptArray}, "hash": {kind: ptHash}, "tuple": {kind: ptTuple}, "struct": {kind: ptStruct},
	"optional": {kind: ptOptional}, "notundef": {kind: ptNotUndef}, "variant": {kind: ptVariant},
	"sensitive": {kind: ptSensitive}, "iterable": {kind: ptIterable},
}

// namedType resolves a capitalized name as Puppet's loaders would for a lookup.
func namedType(name string) *Type {
	lower := strings.ToLower(name)
	if t, ok := ptypeSimple[lower]; ok {
		return t
	}
	if t, ok := ptypeAliases[lower]; ok {
		return t
	}
	if n, ok := ptypeOpaque[lower]; ok {
		return &Type{kind: ptOpaque, name: n, short: n}
	}
	if ptypeResources[lower] {
		return &Type{kind: ptOpaque, name: strings.ToUpper(lower[:1]) + lower[1:], short: "Resource"}
	}
	return &Type{kind: ptReference, name: name}
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
		return &Type{kind: ptCollection, size: size}, err
	case "string":
		size, err := c.sizeParams("String", params)
		return &Type{kind: ptString, size: size}, err
	case "enum":
		return c.enum()
	case "pattern":
		return c.pattern()
	case "variant":
		if err := c.allTypes(params); err != nil {
			return nil, err
		}
		return &Type{kind: ptVariant, types: typesOf(params)}, nil
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
		return &Type{kind: ptBoolean, boolean: &b}, nil
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
		inner, _ := params[0].(*Type) // allTypes checked it
		switch name {
		case "sensitive": // Puppet's PSensitiveType generalizes what it holds: Sensitive[String[100]] is Sensitive[String]
			return &Type{kind: ptSensitive, elem: generalize(inner)}, nil
		case "iterable":
			return &Type{kind: ptIterable, elem: inner}, nil
		}
		return &Type{kind: ptOpaque, name: "Type[" + inner.String() + "]", short: "Type[" + inner.shortName() + "]"}, nil
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
			return &Type{kind: kind, elem: &Type{kind: ptString, str: &s}}, nil
		}
		if err := c.allTypes(params); err != nil {
			return nil, err
		}
		inner, _ := params[0].(*Type) // allTypes checked it
		return &Type{kind: kind, elem: inner}, nil
	case "any", "data", "catalogentry", "scalar", "undef", "numeric", "default", "semverrange",
		"scalardata", "binary", "unit", "richdata", "richdatakey":
		return nil, model.Errorf("Not a parameterized type <%s>", p.text(n.left))
	}
	if n, ok := ptypeOpaque[name]; ok {
		return &Type{kind: ptOpaque, name: p.text(c.n), short: n}, nil
	}
	if ptypeResources[name] {
		return &Type{kind: ptOpaque, name: p.text(c.n), short: "Resource"}, nil
	}
	if _, ok := ptypeAliases[name]; ok {
		return nil, model.Errorf("Not a parameterized type <%s>", p.text(n.left))
	}
	return &Type{kind: ptReference, name: p.text(n)}, nil
}
