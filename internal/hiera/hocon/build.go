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
	pathStack  [][]string // the enclosing fields' paths, innermost first
	arrayCount int
	includes   int // include statements followed in this file and the files it includes
	depth      int // include nesting
}

func (b *builder) errorf(line int, format string, args ...any) error {
	return &Error{Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (b *builder) fullPath() []string {
	var full []string
	for i := len(b.pathStack) - 1; i >= 0; i-- {
		full = append(full, b.pathStack[i]...)
	}
	return full
}

func (b *builder) value(n node) (value, error) {
	switch t := n.(type) {
	case *simpleNode:
		return b.simple(t.tok)
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
		v, err := concatenate(pieces)
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

func (b *builder) simple(t token) (value, error) {
	switch t.kind {
	case tokValue:
		return t.value, nil
	case tokUnquoted:
		return &stringValue{s: t.text}, nil
	}
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
func put(keys *[]string, values map[string]value, key string, v value) error {
	if existing, ok := values[key]; ok {
		merged, err := withFallback(v, existing)
		values[key] = merged
		return err
	}
	*keys = append(*keys, key)
	values[key] = v
	return nil
}

func (b *builder) object(n *objectNode) (value, error) {
	var keys []string
	values := map[string]value{}
	for _, item := range n.items {
		if inc, ok := item.(*includeNode); ok {
			obj, err := b.include(inc)
			if err != nil {
				return nil, err
			}
			for _, k := range obj.keys {
				if err := put(&keys, values, k, obj.m[k]); err != nil {
					return nil, withLine(err, inc.line)
				}
			}
			continue
		}
		f, isField := item.(*fieldNode)
		if !isField {
			return nil, fmt.Errorf("unexpected object item %T", item)
		}
		b.pathStack = append([][]string{f.path}, b.pathStack...)
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
			if v, err = concatenate([]value{previous, newList([]value{v})}); err != nil {
				return nil, withLine(err, f.line)
			}
		}
		b.pathStack = b.pathStack[1:]
		if len(f.path) > 1 {
			for i := len(f.path) - 1; i >= 1; i-- {
				v = newObject([]string{f.path[i]}, map[string]value{f.path[i]: v})
			}
		}
		if err := put(&keys, values, f.path[0], v); err != nil {
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
			if result, err = withFallback(result, obj); err != nil {
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
		o = relativizedObject(o, b.fullPath())
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
	sub := &builder{opts: b.opts, includes: b.includes, depth: b.depth + 1}
	root, err := parseRoot(string(data), sub)
	b.includes = sub.includes
	if err != nil {
		return nil, false, &IncludeError{File: name, Err: err, Line: line}
	}
	return root, true, nil
}

func relativizedObject(o *objectValue, prefix []string) *objectValue {
	m := make(map[string]value, len(o.m))
	for k, c := range o.m {
		m[k] = relativized(c, prefix)
	}
	return &objectValue{keys: o.keys, m: m, resolved: allResolved(m), ignoresFallbacks: o.ignoresFallbacks}
}

// relativized moves an included object's substitutions under the path it is included at.
func relativized(v value, prefix []string) value {
	switch t := v.(type) {
	case *objectValue:
		return relativizedObject(t, prefix)
	case *listValue:
		items := make([]value, len(t.items))
		for i, c := range t.items {
			items[i] = relativized(c, prefix)
		}
		return newList(items)
	case *refValue:
		return &refValue{path: append(append([]string(nil), prefix...), t.path...), optional: t.optional, prefixLen: t.prefixLen + len(prefix), line: t.line}
	case *concatValue:
		pieces := make([]value, len(t.pieces))
		for i, c := range t.pieces {
			pieces[i] = relativized(c, prefix)
		}
		return &concatValue{pieces: pieces}
	case *delayedMerge:
		stack := make([]value, len(t.stack))
		for i, c := range t.stack {
			stack[i] = relativized(c, prefix)
		}
		return &delayedMerge{stack: stack, isObject: t.isObject}
	}
	return v
}
