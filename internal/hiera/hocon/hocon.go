// Package hocon reads HOCON text as Puppet's hocon_data does: Hocon.parse from the hocon 1.3.1 Ruby
// gem, quirks included (1.0 is the integer 1, 010 is octal 8, a merged object lists the later
// definition's keys first, a quoted include and an include of a missing file add nothing).
//
// It never reads the environment (the gem falls back to environment variables for an unresolved
// ${x}), never fetches anything, and reads an included file only through Options.ReadInclude. The
// work is bounded: tokens, nesting (dotted keys and substitutions included), include statements,
// resolution steps (bounds.go), the text concatenations build and the values the result holds.
package hocon

import (
	"fmt"
)

// Object is a HOCON object with its keys in the gem's order. Values are nil, bool, int64, *big.Int,
// float64, string, []any or *Object.
type Object struct {
	Keys   []string
	Values map[string]any
}

// Limits bound the work one file (with its includes) may cause.
type Limits struct {
	Tokens   int // tokens in one file
	Depth    int // nested objects and arrays
	Includes int // include statements followed
	Steps    int // values resolved, copied, merged or compared (see work)
	Text     int // bytes of text built by concatenations
}

// DefaultLimits are generous for hand-written data and small enough to keep a hostile file cheap.
var DefaultLimits = Limits{Tokens: 4 << 20, Depth: 1000, Includes: 100, Steps: 2000000, Text: 64 << 20}

// copiedValues is how many more values than tokens read the result may hold: each substitution
// copies the value it names (a template object named by many keys), and two can name the same,
// so that a few lines can stand for more values than memory holds.
const copiedValues = 1 << 20

// maxIncludeDepth is the gem's MAX_INCLUDE_DEPTH.
const maxIncludeDepth = 50

// Options tell Parse how to read an included file: ReadInclude gets an absolute path and returns
// the file's text, or found=false for a file that does not exist. Nil refuses includes.
type Options struct {
	Limits      Limits
	ReadInclude func(path string) (data []byte, found bool, err error)
}

// Error is a HOCON file that cannot be read; Line is 1-based, 0 when unknown.
type Error struct {
	Line int
	Msg  string
}

// Error words the position as the gem does for text it parses from a string (as Puppet calls it):
// "String: 3: message", which is what Puppet users see.
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("String: %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// IncludeError is an error in a file that an include statement (at Line) names.
type IncludeError struct {
	File string
	Line int
	Err  error
}

func (e *IncludeError) Error() string {
	return fmt.Sprintf("String: %d: in included file %s: %v", e.Line, e.File, e.Err)
}

func (e *IncludeError) Unwrap() error { return e.Err }

// Parse reads HOCON text whose root must be an object, and resolves its substitutions.
func Parse(text string, opts Options) (obj *Object, err error) {
	defer func() {
		if r := recover(); r != nil { // never expected; a data file must not crash the provider
			obj, err = nil, &Error{Msg: fmt.Sprintf("cannot read HOCON: %v", r)}
		}
	}()
	if opts.Limits == (Limits{}) {
		opts.Limits = DefaultLimits
	}
	w := &work{stepLimit: opts.Limits.Steps, textLimit: opts.Limits.Text}
	b := &builder{opts: &opts, work: w}
	root, err := parseRoot(text, b)
	if err != nil {
		return nil, err
	}
	ctx := resolveContext{markers: map[*refValue]bool{}, resolved: map[refInRoot]value{}, cycles: new(int), work: w}
	resolved, _, err := ctx.resolve(root, resolveSource{root: root})
	if err != nil {
		return nil, err
	}
	o, isObject := resolved.(*objectValue)
	if !isObject {
		return nil, &Error{Msg: "the root did not resolve to an object"}
	}
	valueLimit, total := w.tokens+copiedValues, 0
	m := measurer{memo: map[value]size{}, limit: valueLimit}
	for _, k := range o.keys { // measured before anything is built
		sz := m.measure(o.m[k])
		if sz.depth+1 > opts.Limits.Depth { // the root object is the first level
			return nil, &Error{Msg: fmt.Sprintf("the value of %s nests objects and arrays more than %d levels (through substitutions or includes)", renderPath([]string{k}), opts.Limits.Depth)}
		}
		if total += sz.values; total > valueLimit {
			return nil, &Error{Msg: fmt.Sprintf("the data holds more than %d values once substitutions are resolved (each copies the value it names; the text has %d tokens)", valueLimit, w.tokens)}
		}
	}
	return unwrapObject(o), nil
}

// parseRoot reads one file's text to its (unresolved) root object.
func parseRoot(text string, b *builder) (*objectValue, error) {
	p := &docParser{tokens: newTokenizer(text, b.opts.Limits.Tokens), line: 1, limits: b.opts.Limits}
	doc, err := p.document()
	b.work.tokens += p.tokens.tz.count
	if err != nil {
		return nil, err
	}
	v, err := b.value(doc)
	if err != nil {
		return nil, err
	}
	o, ok := v.(*objectValue)
	if !ok {
		return nil, &Error{Line: 1, Msg: " has type LIST rather than object at file root"} // sic: two spaces in the gem's message
	}
	return o, nil
}

// size is how many values a resolved value holds once written out, and how deeply its objects and
// arrays nest. The parser refuses deeper text, but substitutions and includes can build deeper
// values, and a resolved value shares what two references found, so that a few lines can stand for
// more values than memory holds (see copiedValues): both are measured on the shared form.
type size struct{ values, depth int }

type measurer struct {
	memo  map[value]size // objects and lists measured
	limit int            // values: counting stops past it
}

func (m *measurer) measure(v value) size {
	if sz, ok := m.memo[v]; ok {
		return sz
	}
	var children []value
	switch t := v.(type) {
	case *objectValue:
		for _, k := range t.keys {
			children = append(children, t.m[k])
		}
	case *listValue:
		children = t.items
	default:
		return size{values: 1}
	}
	sz := size{values: 1}
	for _, c := range children {
		csz := m.measure(c)
		sz.values = min(sz.values+csz.values, m.limit+1)
		sz.depth = max(sz.depth, csz.depth)
	}
	sz.depth++
	m.memo[v] = sz
	return sz
}

func unwrapObject(o *objectValue) *Object {
	out := &Object{Keys: o.keys, Values: make(map[string]any, len(o.keys))}
	for _, k := range o.keys {
		out.Values[k] = unwrap(o.m[k])
	}
	return out
}

// unwrap converts a resolved value (measured) to plain Go values.
func unwrap(v value) any {
	switch t := v.(type) {
	case *objectValue:
		return unwrapObject(t)
	case *listValue:
		out := make([]any, len(t.items))
		for i, item := range t.items {
			out[i] = unwrap(item)
		}
		return out
	case *stringValue:
		return t.s
	case *numberValue:
		return t.n
	case *boolValue:
		return t.b
	}
	return nil
}
