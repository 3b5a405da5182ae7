package hocon

import (
	"fmt"
)

// The syntax pass, after the gem's ConfigDocumentParser (config_document_parser.rb): tokens become a
// tree of objects (fields and includes), arrays, concatenations and single tokens. Values are built
// from the tree afterwards (build.go), so a syntax error anywhere wins over a value error, as in the
// gem.

type node interface{} // a value (a scalar as written), or one of the node types below

type substitutionNode struct{ tok token }

type objectNode struct{ items []node } // *fieldNode or *includeNode

type arrayNode struct{ items []node }

type concatNode struct {
	items []node
	line  int
}

type fieldNode struct {
	path  []string
	sep   tokenKind // tokColon, tokEquals, tokPlusEquals, or tokOpenCurly for `key { ... }`
	value node
	line  int
}

type includeKind int

const (
	includeHeuristic includeKind = iota
	includeFile
	includeURL
	includeClasspath
)

type includeNode struct {
	kind includeKind
	name string
	line int
}

type docParser struct {
	tokens *tokenStream
	buffer []token // put-back tokens, last out first
	// stack holds the items of the arrays, objects and concatenations being read, innermost last:
	// each is copied out at its end to a slice of its exact size (a 4 MB array's growing slices
	// were five times its final size).
	stack  []node
	line   int
	depth  int
	limits Limits
}

func (p *docParser) errorf(format string, args ...any) error {
	return &Error{Line: p.line, Msg: fmt.Sprintf(format, args...)}
}

// next returns the next token; a tokenizer problem is reported where the parser reaches it.
func (p *docParser) next() (token, error) {
	var t token
	if n := len(p.buffer); n > 0 {
		t = p.buffer[n-1]
		p.buffer = p.buffer[:n-1]
	} else {
		var err error
		if t, err = p.tokens.next(); err != nil {
			return t, err
		}
	}
	if t.kind == tokProblem {
		return t, &Error{Line: t.line, Msg: t.text}
	}
	return t, nil
}

func (p *docParser) putBack(t token) { p.buffer = append(p.buffer, t) }

func isUnquotedWhitespace(t token) bool {
	if t.kind != tokUnquoted {
		return false
	}
	for _, r := range t.text {
		if !isSpace(r) {
			return false
		}
	}
	return true
}

// nextSkipping skips whitespace, newlines and comments.
func (p *docParser) nextSkipping() (token, error) {
	for {
		t, err := p.next()
		if err != nil {
			return t, err
		}
		switch {
		case t.kind == tokIgnoredWhitespace || isUnquotedWhitespace(t) || t.kind == tokComment:
		case t.kind == tokNewline:
			p.line = t.line + 1
		default:
			p.line = t.line
			return t, nil
		}
	}
}

// elementSeparator consumes a comma or newlines (with whitespace and comments) between elements.
func (p *docParser) elementSeparator() (bool, error) {
	sawNewline := false
	for {
		t, err := p.next()
		if err != nil {
			return false, err
		}
		switch {
		case t.kind == tokIgnoredWhitespace || isUnquotedWhitespace(t) || t.kind == tokComment:
		case t.kind == tokNewline:
			sawNewline = true
			p.line++
		case t.kind == tokComma:
			return true, nil
		default:
			p.putBack(t)
			return sawNewline, nil
		}
	}
}

func startsValue(t token) bool {
	return t.kind == tokValue || t.kind == tokUnquoted || t.kind == tokSubstitution || t.kind == tokOpenCurly || t.kind == tokOpenSquare
}

// consolidate reads the values written side by side on one line: nil when there is none, the value
// when there is one, else a concatenation (whitespace between simple values is one of its parts).
func (p *docParser) consolidate() (node, error) {
	t, err := p.nextSkipping()
	if err != nil {
		return nil, err
	}
	start := len(p.stack) // the values: a node, or a token for ignored whitespace
	defer p.popTo(start)
	count := 0
	line := t.line
	for {
		if t.kind == tokIgnoredWhitespace {
			p.stack = append(p.stack, t)
		} else if startsValue(t) {
			v, err := p.value(t)
			if err != nil {
				return nil, err
			}
			p.stack = append(p.stack, v)
			count++
		} else {
			break
		}
		if t, err = p.next(); err != nil {
			return nil, err
		}
	}
	p.putBack(t)
	values := p.stack[start:]
	if count < 2 {
		var v node
		for _, n := range values {
			if tok, isTok := n.(token); isTok {
				p.putBack(tok)
			} else {
				v = n
			}
		}
		return v, nil
	}
	for len(values) > 0 {
		tok, isTok := values[len(values)-1].(token)
		if !isTok {
			break
		}
		p.putBack(tok)
		values = values[:len(values)-1]
	}
	items := make([]node, 0, count)
	for _, n := range values {
		if _, isTok := n.(token); !isTok {
			items = append(items, n)
		}
	}
	return &concatNode{items: items, line: line}, nil
}

// popTo ends the items that start at start on the stack.
func (p *docParser) popTo(start int) {
	clear(p.stack[start:])
	p.stack = p.stack[:start]
}

// itemsFrom copies the stack's items from start out and ends them.
func (p *docParser) itemsFrom(start int) []node {
	out := make([]node, len(p.stack)-start)
	copy(out, p.stack[start:])
	p.popTo(start)
	return out
}

func (p *docParser) value(t token) (node, error) {
	switch t.kind {
	case tokValue:
		return t.value, nil
	case tokUnquoted:
		return &stringValue{s: t.text}, nil
	case tokSubstitution:
		return &substitutionNode{tok: t}, nil
	case tokOpenCurly, tokOpenSquare:
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > p.limits.Depth {
			return nil, p.errorf("objects and arrays nested more than %d levels", p.limits.Depth)
		}
		if t.kind == tokOpenCurly {
			return p.object(true)
		}
		return p.array()
	}
	return nil, p.errorf("Expecting a value but got wrong token: %s%s", t.describe(), quoteHint(t))
}

func quoteHint(t token) string {
	if t.kind == tokEOF {
		return ""
	}
	return fmt.Sprintf(" (if you intended %s to be part of a key or string value, try enclosing the key or value in double quotes", t.describe()) // sic: the gem leaves the parenthesis open
}

// key reads a field's path: the value and unquoted tokens up to the separator.
func (p *docParser) key(first token) ([]string, error) {
	var expr []token
	t := first
	for t.kind == tokValue || t.kind == tokUnquoted {
		expr = append(expr, t)
		var err error
		if t, err = p.next(); err != nil {
			return nil, err
		}
	}
	if len(expr) == 0 {
		return nil, p.errorf("expecting a close brace or a field name here, got %s", t.describe())
	}
	p.putBack(t)
	path, err := parsePath(expr)
	if err != nil {
		return nil, &Error{Line: first.line, Msg: err.Error()}
	}
	return path, nil
}

func (p *docParser) include() (*includeNode, error) {
	t, err := p.nextSkipping()
	if err != nil {
		return nil, err
	}
	line := t.line
	if t.kind == tokValue {
		if s, ok := t.value.(*stringValue); ok {
			return &includeNode{kind: includeHeuristic, name: s.s, line: line}, nil
		}
	}
	if t.kind != tokUnquoted {
		return nil, p.errorf("include keyword is not followed by a quoted string, but by: %s", t.describe())
	}
	kinds := map[string]includeKind{"url(": includeURL, "file(": includeFile, "classpath(": includeClasspath}
	kind, ok := kinds[t.text]
	if !ok {
		return nil, p.errorf("expecting include parameter to be quoted filename, file(), classpath(), or url(). No spaces are allowed before the open paren. Not expecting: %s", t.describe())
	}
	if t, err = p.nextSkipping(); err != nil {
		return nil, err
	}
	s, isString := t.value.(*stringValue)
	if t.kind != tokValue || !isString {
		return nil, p.errorf("expecting a quoted string inside file(), classpath(), or url(), rather than: %s", t.describe())
	}
	if t, err = p.nextSkipping(); err != nil {
		return nil, err
	}
	if t.kind != tokUnquoted || t.text != ")" {
		return nil, p.errorf("expecting a close parentheses ')' here, not: %s", t.describe())
	}
	return &includeNode{kind: kind, name: s.s, line: line}, nil
}

func (p *docParser) object(hadOpenCurly bool) (node, error) {
	start := len(p.stack)
	if err := p.objectItems(hadOpenCurly); err != nil {
		p.popTo(start)
		return nil, err
	}
	return &objectNode{items: p.itemsFrom(start)}, nil
}

// objectItems reads an object's fields and includes onto the stack.
func (p *docParser) objectItems(hadOpenCurly bool) error {
	for {
		t, err := p.nextSkipping()
		if err != nil {
			return err
		}
		switch {
		case t.kind == tokCloseCurly:
			if !hadOpenCurly {
				return p.errorf("unbalanced close brace '}' with no open brace%s", quoteHint(t))
			}
			return nil
		case t.kind == tokEOF && !hadOpenCurly:
			p.putBack(t)
			return nil
		case t.kind == tokUnquoted && t.text == "include":
			inc, err := p.include()
			if err != nil {
				return err
			}
			p.stack = append(p.stack, inc)
		default:
			f, err := p.field(t)
			if err != nil {
				return err
			}
			p.stack = append(p.stack, f)
		}
		sep, err := p.elementSeparator()
		if err != nil {
			return err
		}
		if sep {
			continue
		}
		if t, err = p.nextSkipping(); err != nil {
			return err
		}
		switch {
		case t.kind == tokCloseCurly:
			if !hadOpenCurly {
				return p.errorf("unbalanced close brace '}' with no open brace%s", quoteHint(t))
			}
			return nil
		case !hadOpenCurly && t.kind == tokEOF:
			p.putBack(t)
			return nil
		}
		return p.errorf("Expecting close brace } or a comma, got %s%s", t.describe(), quoteHint(t))
	}
}

func (p *docParser) field(first token) (*fieldNode, error) {
	line := first.line
	path, err := p.key(first)
	if err != nil {
		return nil, err
	}
	after, err := p.nextSkipping()
	if err != nil {
		return nil, err
	}
	if p.depth+len(path) > p.limits.Depth { // `a.b.c = 1` is three objects deep
		return nil, &Error{Line: line, Msg: fmt.Sprintf("objects and arrays nested more than %d levels (a key of %d parts)", p.limits.Depth, len(path))}
	}
	f := &fieldNode{path: path, sep: after.kind, line: line}
	if after.kind == tokOpenCurly {
		f.value, err = p.value(after)
		return f, err
	}
	if after.kind != tokColon && after.kind != tokEquals && after.kind != tokPlusEquals {
		return nil, p.errorf("Key '%s' may not be followed by token: %s%s", renderPath(path), after.describe(), quoteHint(after))
	}
	if f.value, err = p.consolidate(); err != nil || f.value != nil {
		return f, err
	}
	t, err := p.nextSkipping()
	if err != nil {
		return nil, err
	}
	f.value, err = p.value(t)
	return f, err
}

func (p *docParser) array() (node, error) {
	start := len(p.stack)
	if err := p.arrayItems(); err != nil {
		p.popTo(start)
		return nil, err
	}
	return &arrayNode{items: p.itemsFrom(start)}, nil
}

// arrayItems reads an array's elements onto the stack.
func (p *docParser) arrayItems() error {
	v, err := p.consolidate()
	if err != nil {
		return err
	}
	if v == nil {
		t, err := p.nextSkipping()
		if err != nil {
			return err
		}
		if t.kind == tokCloseSquare {
			return nil
		}
		if !startsValue(t) {
			return p.errorf("List should have ] or a first element after the open [, instead had token: %s (if you want %s to be part of a string value, then double-quote it)", t.describe(), t.describe())
		}
		if v, err = p.value(t); err != nil {
			return err
		}
	}
	p.stack = append(p.stack, v)
	for {
		sep, err := p.elementSeparator()
		if err != nil {
			return err
		}
		if !sep {
			t, err := p.nextSkipping()
			if err != nil {
				return err
			}
			if t.kind == tokCloseSquare {
				return nil
			}
			return p.errorf("List should have ended with ] or had a comma, instead had token: %s (if you want %s to be part of a string value, then double-quote it)", t.describe(), t.describe())
		}
		v, err := p.consolidate()
		if err != nil {
			return err
		}
		if v == nil {
			t, err := p.nextSkipping()
			if err != nil {
				return err
			}
			switch {
			case startsValue(t):
				if v, err = p.value(t); err != nil {
					return err
				}
			case t.kind == tokCloseSquare:
				p.putBack(t) // a trailing comma
				continue
			default:
				return p.errorf("List should have had new element after a comma, instead had token: %s (if you want the comma or %s to be part of a string value, then double-quote it)", t.describe(), t.describe())
			}
		}
		p.stack = append(p.stack, v)
	}
}

// document parses a whole file: an object with or without braces, or an array.
func (p *docParser) document() (node, error) {
	t, err := p.nextSkipping()
	if err != nil {
		return nil, err
	}
	var root node
	if t.kind == tokOpenCurly || t.kind == tokOpenSquare {
		root, err = p.value(t)
	} else {
		p.putBack(t)
		root, err = p.object(false)
	}
	if err != nil {
		return nil, err
	}
	if t, err = p.nextSkipping(); err != nil {
		return nil, err
	}
	if t.kind != tokEOF {
		return nil, p.errorf("Document has trailing tokens after first object or array: %s", t.describe())
	}
	return root, nil
}
