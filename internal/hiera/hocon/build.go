package hocon

import (
	"fmt"
	"path/filepath"
	"strings"
)

// The value pass, after the gem's ConfigParser (config_parser.rb): repeated keys merge (the later one
// wins, objects merge key by key), `a.b = 1` builds nested objects, `a += x` is `a = ${?a} [x]`, and
// includes merge another file's object in.

type builder struct {
	opts       *Options
	work       *work      // shared with the files it includes and the resolution
	pathStack  [][]string // the enclosing fields' paths, innermost last
	arrayCount int
	includes   int // include statements followed in this file and the files it includes
	depth      int // include nesting
}

func (b *builder) errorf(line int, format string, args ...any) error {
	return &Error{Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (b *builder) fullPath() []string {
	var full []string
	for _, p := range b.pathStack {
		full = append(full, p...)
	}
	return full
}

func (b *builder) value(n node) (value, error) {
	switch t := n.(type) {
	case value:
		return t, nil
	case *substitutionNode:
		return b.substitution(t.tok)
	case *objectNode:
		return b.object(t)
	case *arrayNode:
		return b.array(t)
	case *concatNode:
		var pieces []value
		for _, item := range t.items {
			v, err := b.value(item)
			if err != nil {
				return nil, err
			}
			pieces = append(pieces, v)
		}
		v, err := b.work.concatenate(pieces)
		if err != nil {
			return nil, withLine(err, t.line)
		}
		return v, nil
	}
	return nil, fmt.Errorf("unexpected node %T", n)
}

func withLine(err error, line int) error {
	if e, ok := err.(*Error); ok && e.Line == 0 {
		return &Error{Line: line, Msg: e.Msg}
	}
	return err
}

func (b *builder) substitution(t token) (value, error) {
	path, err := parsePath(t.expr)
	if err != nil {
		return nil, b.errorf(t.line, "%s", err.Error())
	}
	return &refValue{path: path, optional: t.optional, line: t.line}, nil
}

func (b *builder) array(n *arrayNode) (value, error) {
	b.arrayCount++
	defer func() { b.arrayCount-- }()
	items := make([]value, 0, len(n.items))
	for _, item := range n.items {
		v, err := b.value(item)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
	}
	return newList(items), nil
}

// put stores v under key, v winning over what the key held.
func (b *builder) put(keys *[]string, values map[string]value, key string, v value) error {
	if existing, ok := values[key]; ok {
		merged, err := b.work.withFallback(v, existing)
		values[key] = merged
		return err
	}
	*keys = append(*keys, key)
	values[key] = v
	return nil
}

func (b *builder) object(n *objectNode) (value, error) {
	keys := make([]string, 0, len(n.items)) // at most one key per item, unless includes add more
	values := make(map[string]value, len(n.items))
	for _, item := range n.items {
		if inc, ok := item.(*includeNode); ok {
			obj, err := b.include(inc)
			if err != nil {
				return nil, err
			}
			for _, k := range obj.keys {
				if err := b.put(&keys, values, k, obj.m[k]); err != nil {
					return nil, withLine(err, inc.line)
				}
			}
			continue
		}
		f, isField := item.(*fieldNode)
		if !isField {
			return nil, fmt.Errorf("unexpected object item %T", item)
		}
		b.pathStack = append(b.pathStack, f.path)
		if f.sep == tokPlusEquals {
			if b.arrayCount > 0 {
				return nil, b.errorf(f.line, "Due to current limitations of the config parser, += does not work nested inside a list. += expands to a ${} substitution and the path in ${} cannot currently refer to list elements. You might be able to move the += outside of the list and then refer to it from inside the list with ${}.")
			}
			b.arrayCount++
		}
		v, err := b.value(f.value)
		if err != nil {
			return nil, err
		}
		if f.sep == tokPlusEquals {
			b.arrayCount--
			previous := &refValue{path: b.fullPath(), optional: true, line: f.line}
			if v, err = b.work.concatenate([]value{previous, newList([]value{v})}); err != nil {
				return nil, withLine(err, f.line)
			}
		}
		b.pathStack = b.pathStack[:len(b.pathStack)-1]
		if len(f.path) > 1 {
			for i := len(f.path) - 1; i >= 1; i-- {
				v = newObject([]string{f.path[i]}, map[string]value{f.path[i]: v})
			}
		}
		if err := b.put(&keys, values, f.path[0], v); err != nil {
			return nil, withLine(err, f.line)
		}
	}
	return newObject(keys, values), nil
}

// include reads the object an include statement names. Like the gem parsing a string (which is how
// Puppet calls it): a quoted name alone includes nothing; file() reads an absolute path, trying
// name.conf then name.json when it has neither extension, and a missing file is an empty object.
func (b *builder) include(inc *includeNode) (*objectValue, error) {
	empty := newObject(nil, map[string]value{})
	switch inc.kind {
	case includeHeuristic:
		if strings.HasPrefix(inc.name, "http://") || strings.HasPrefix(inc.name, "https://") {
			return nil, b.errorf(inc.line, "include of a URL (%q) is not supported", inc.name)
		}
		return empty, nil
	case includeURL, includeClasspath:
		return nil, b.errorf(inc.line, "include url() and classpath() are not supported")
	}
	if !filepath.IsAbs(inc.name) {
		return nil, b.errorf(inc.line, "include file(%q): a relative path depends on the working directory of the Puppet process; give an absolute path", inc.name)
	}
	b.includes++
	if b.includes > b.opts.Limits.Includes {
		return nil, b.errorf(inc.line, "more than %d include statements", b.opts.Limits.Includes)
	}
	if b.depth >= maxIncludeDepth {
		return nil, b.errorf(inc.line, "include statements nested more than %d times, you probably have a cycle in your includes", maxIncludeDepth)
	}
	names := []string{inc.name}
	if ext := filepath.Ext(inc.name); ext != ".conf" && ext != ".json" && ext != ".properties" {
		names = []string{inc.name + ".conf", inc.name + ".json"}
	}
	var result value = empty
	got := false
	for _, name := range names {
		obj, found, err := b.includeFile(name, inc.line)
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		if got {
			if result, err = b.work.withFallback(result, obj); err != nil {
				return nil, withLine(err, inc.line)
			}
		} else {
			result, got = obj, true
		}
	}
	o, ok := result.(*objectValue)
	if !ok { // a .conf and a .json whose roots merge unresolved
		o = newObject(nil, map[string]value{})
	}
	if b.arrayCount > 0 && !o.resolved {
		return nil, b.errorf(inc.line, "Due to current limitations of the config parser, when an include statement is nested inside a list value, ${} substitutions inside the included file cannot be resolved correctly. Either move the include outside of the list value or remove the ${} statements from the included file.")
	}
	if len(b.pathStack) > 0 {
		var err error
		if o, err = b.work.relativizedObject(o, b.fullPath()); err != nil {
			return nil, withLine(err, inc.line)
		}
	}
	return o, nil
}

func (b *builder) includeFile(name string, line int) (value, bool, error) {
	if b.opts.ReadInclude == nil {
		return nil, false, b.errorf(line, "include file(%q) is not allowed here", name)
	}
	data, found, err := b.opts.ReadInclude(name)
	if err != nil {
		return nil, false, b.errorf(line, "include file(%q): %v", name, err)
	}
	if !found {
		return nil, false, nil
	}
	sub := &builder{opts: b.opts, work: b.work, includes: b.includes, depth: b.depth + 1}
	root, err := parseRoot(string(data), sub)
	b.includes = sub.includes
	if err != nil {
		return nil, false, &IncludeError{File: name, Err: err, Line: line}
	}
	return root, true, nil
}

func (w *work) relativizedObject(o *objectValue, prefix []string) (*objectValue, error) {
	m := make(map[string]value, len(o.m))
	for k, c := range o.m {
		r, err := w.relativized(c, prefix)
		if err != nil {
			return nil, err
		}
		m[k] = r
	}
	return &objectValue{keys: o.keys, m: m, resolved: allResolved(m), ignoresFallbacks: o.ignoresFallbacks}, nil
}

// relativized moves an included object's substitutions under the path it is included at.
func (w *work) relativized(v value, prefix []string) (value, error) {
	if err := w.spend(1); err != nil {
		return nil, err
	}
	switch t := v.(type) {
	case *objectValue:
		return w.relativizedObject(t, prefix)
	case *refValue:
		return &refValue{path: append(append([]string(nil), prefix...), t.path...), optional: t.optional, prefixLen: t.prefixLen + len(prefix), line: t.line}, nil
	case *listValue:
		items, err := w.relativizedAll(t.items, prefix)
		return newList(items), err
	case *concatValue:
		pieces, err := w.relativizedAll(t.pieces, prefix)
		return &concatValue{pieces: pieces}, err
	case *delayedMerge:
		stack, err := w.relativizedAll(t.stack, prefix)
		return &delayedMerge{stack: stack, isObject: t.isObject}, err
	}
	return v, nil
}

func (w *work) relativizedAll(values []value, prefix []string) ([]value, error) {
	out := make([]value, len(values))
	for i, c := range values {
		r, err := w.relativized(c, prefix)
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}
