package hocon

import (
	"errors"
)

// Substitutions are resolved as the gem's ResolveContext and ResolveSource do (resolve_context.rb,
// resolve_source.rb, config_reference.rb, config_delayed_merge.rb): a reference looks its path up in
// the root, resolving only what lies on that path; a reference inside a delayed merge (`a = ${a} x`)
// sees the root with that merge replaced by the values below it, which is how a self-reference finds
// the previous value; a reference met again while it is being resolved is a cycle. The gem's memo
// table never hits (its keys lack eql?), so it resolves a reference again each time it is met;
// here a reference resolved in full against a root, without meeting a cycle, is remembered for
// that root (the answer is the same, the work linear instead of exponential), and all work is
// counted against a limit.

// errNotPossible is the gem's NotPossibleToResolve: a cycle, caught by the reference that started it.
var errNotPossible = errors.New("not possible to resolve")

type resolveContext struct {
	restrict []string            // nil: resolve everything
	markers  map[*refValue]bool  // the references being resolved (shared: added and removed in stack order)
	resolved map[refInRoot]value // references resolved in full, without meeting a cycle (shared)
	cycles   *int                // cycles met so far
	work     *work
}

// refInRoot is a reference resolved against a root: what the reference finds depends on nothing
// else once no cycle is met.
type refInRoot struct {
	ref  *refValue
	root *objectValue
}

func (c resolveContext) restrictTo(path []string) resolveContext {
	c.restrict = path
	return c
}

// parents is the gem's ResolveSource::Node list: innermost container first.
type parents struct {
	value value
	next  *parents
}

func (p *parents) last() value {
	for p.next != nil {
		p = p.next
	}
	return p.value
}

type resolveSource struct {
	root     *objectValue
	fromRoot *parents // nil when not known
}

func (c resolveContext) resolve(v value, src resolveSource) (value, resolveContext, error) {
	if err := c.work.spend(1); err != nil {
		return nil, c, err
	}
	if r, ok := v.(*refValue); ok && c.markers[r] {
		*c.cycles++
		return nil, c, errNotPossible
	}
	switch t := v.(type) {
	case *objectValue:
		return c.resolveObject(t, src)
	case *listValue:
		return c.resolveList(t, src)
	case *refValue:
		return c.resolveRef(t, src)
	case *concatValue:
		return c.resolveConcat(t, src)
	case *delayedMerge:
		return c.resolveDelayed(t, src)
	}
	return v, c, nil
}

func (c resolveContext) resolveObject(o *objectValue, src resolveSource) (value, resolveContext, error) {
	if o.resolved {
		return o, c, nil
	}
	withParent := src.pushParent(o)
	original := c.restrict
	keys := o.keys
	if original != nil { // only the child on the path is resolved, and only below it
		if _, ok := o.m[original[0]]; !ok || len(original) == 1 {
			return o, c, nil
		}
		keys = original[:1]
	}
	var changed map[string]value
	for _, k := range keys {
		v := o.m[k]
		var modified value
		var err error
		if original != nil {
			modified, c, err = c.restrictTo(original[1:]).resolve(v, withParent)
		} else {
			modified, c, err = c.restrictTo(nil).resolve(v, withParent)
		}
		if err != nil {
			return nil, c, err
		}
		c = c.restrictTo(original)
		if modified != v {
			if changed == nil {
				changed = map[string]value{}
			}
			changed[k] = modified
		}
	}
	if changed == nil {
		return o, c, nil
	}
	if err := c.work.spend(len(o.keys)); err != nil { // copying the object is work too
		return nil, c, err
	}
	var newKeys []string
	m := make(map[string]value, len(o.keys))
	for _, k := range o.keys {
		v, ok := changed[k]
		if !ok {
			v = o.m[k]
		}
		if v != nil {
			newKeys = append(newKeys, k)
			m[k] = v
		}
	}
	return &objectValue{keys: newKeys, m: m, resolved: allResolved(m), ignoresFallbacks: o.ignoresFallbacks}, c, nil
}

func (c resolveContext) resolveList(l *listValue, src resolveSource) (value, resolveContext, error) {
	if l.resolved || c.restrict != nil {
		return l, c, nil
	}
	withParent := src.pushParent(l)
	var changed []value
	for i, v := range l.items {
		modified, next, err := c.resolve(v, withParent)
		if err != nil {
			return nil, c, err
		}
		c = next
		if changed == nil && modified != v {
			changed = append([]value{}, l.items[:i]...)
		}
		if changed != nil && modified != nil {
			changed = append(changed, modified)
		}
	}
	if changed == nil {
		return l, c, nil
	}
	return &listValue{items: changed, resolved: true}, c, nil
}

func (c resolveContext) resolveRef(r *refValue, src resolveSource) (value, resolveContext, error) {
	memo := refInRoot{ref: r, root: src.root}
	if c.restrict == nil {
		if v, ok := c.resolved[memo]; ok {
			return v, c, nil
		}
	}
	cycles := *c.cycles
	v, c, err := c.resolveRefOnce(r, src)
	err = withLine(err, r.line) // a limit met while resolving it: the innermost reference's line
	if err == nil && c.restrict == nil && *c.cycles == cycles {
		c.resolved[memo] = v
	}
	return v, c, err
}

func (c resolveContext) resolveRefOnce(r *refValue, src resolveSource) (value, resolveContext, error) {
	c.markers[r] = true
	defer delete(c.markers, r)
	found, fromRoot, next, err := src.lookup(c, r)
	var v value
	if err == nil && found != nil {
		root, _ := fromRoot.last().(*objectValue) // the object the path was found in
		v, _, err = next.resolve(found, resolveSource{root: root, fromRoot: fromRoot})
	}
	if errors.Is(err, errNotPossible) {
		if !r.optional {
			return nil, c, &Error{Line: r.line, Msg: "Could not resolve substitution to a value: " + renderRef(r) + " (part of a cycle of substitutions)"}
		}
		v, err = nil, nil
	}
	if err != nil {
		return nil, c, err
	}
	if v == nil && !r.optional {
		return nil, c, &Error{Line: r.line, Msg: "Could not resolve substitution to a value: " + renderRef(r)}
	}
	return v, c, nil
}

func renderRef(r *refValue) string {
	q := ""
	if r.optional {
		q = "?"
	}
	return "${" + q + renderPath(r.path) + "}"
}

func (c resolveContext) resolveConcat(cv *concatValue, src resolveSource) (value, resolveContext, error) {
	var resolved []value
	for _, p := range cv.pieces {
		restriction := c.restrict
		v, next, err := c.restrictTo(nil).resolve(p, src)
		if err != nil {
			return nil, c, err
		}
		c = next.restrictTo(restriction)
		if v != nil {
			resolved = append(resolved, v)
		}
	}
	joined, err := c.work.consolidate(resolved)
	if err != nil {
		return nil, c, err
	}
	switch len(joined) {
	case 0:
		return nil, c, nil
	case 1:
		return joined[0], c, nil
	}
	return nil, c, &Error{Msg: "a concatenation did not resolve to one value"}
}

func (c resolveContext) resolveDelayed(d *delayedMerge, src resolveSource) (value, resolveContext, error) {
	var merged value
	for i, end := range d.stack {
		var sourceForEnd resolveSource
		if isUnmergeable(end) {
			remainder, err := c.work.makeReplacement(d.stack[i+1:])
			if err != nil {
				return nil, c, err
			}
			s, err := src.replaceWithinCurrentParent(c.work, d, remainder)
			if err != nil {
				return nil, c, err
			}
			sourceForEnd = resolveSource{root: s.root}
		} else {
			sourceForEnd = src.pushParent(d)
		}
		v, next, err := c.resolve(end, sourceForEnd)
		if err != nil {
			return nil, c, err
		}
		c = next
		if v != nil {
			if merged == nil {
				merged = v
			} else if merged, err = c.work.withFallback(merged, v); err != nil {
				return nil, c, err
			}
		}
	}
	if d.isObject && !isPlainObject(merged) {
		return nil, c, &Error{Msg: "an object merge did not resolve to an object"}
	}
	return merged, c, nil
}

func (w *work) makeReplacement(stack []value) (value, error) {
	var merged value
	for _, v := range stack {
		if merged == nil {
			merged = v
			continue
		}
		var err error
		if merged, err = w.withFallback(merged, v); err != nil {
			return nil, err
		}
	}
	return merged, nil
}

// lookup finds a reference's path in the root (and, for an include's reference, without the include's
// prefix), resolving just what lies on the way.
func (s resolveSource) lookup(c resolveContext, r *refValue) (value, *parents, resolveContext, error) {
	v, p, next, err := s.findInObject(s.root, c, r.path)
	if err != nil || v != nil || r.prefixLen == 0 {
		return v, p, next, err
	}
	return s.findInObject(s.root, next, r.path[r.prefixLen:])
}

func (s resolveSource) findInObject(obj *objectValue, c resolveContext, path []string) (value, *parents, resolveContext, error) {
	restriction := c.restrict
	partial, next, err := c.restrictTo(path).resolve(obj, resolveSource{root: obj})
	if err != nil {
		return nil, nil, c, err
	}
	next = next.restrictTo(restriction)
	o, ok := partial.(*objectValue)
	if !ok {
		return nil, nil, next, &Error{Msg: "the root did not resolve to an object"}
	}
	var p *parents
	for {
		p = &parents{value: o, next: p}
		v, found := o.m[path[0]]
		if len(path) == 1 {
			if !found {
				v = nil
			}
			return v, p, next, nil
		}
		child, isObj := v.(*objectValue)
		if !isObj {
			return nil, p, next, nil
		}
		o, path = child, path[1:]
	}
}

func (s resolveSource) pushParent(parent value) resolveSource {
	if s.fromRoot == nil {
		if o, ok := parent.(*objectValue); ok && o == s.root {
			return resolveSource{root: s.root, fromRoot: &parents{value: parent}}
		}
		return s
	}
	return resolveSource{root: s.root, fromRoot: &parents{value: parent, next: s.fromRoot}}
}

func isContainer(v value) bool {
	switch v.(type) {
	case *objectValue, *listValue, *concatValue, *delayedMerge:
		return true
	}
	return false
}

func (s resolveSource) replaceWithinCurrentParent(w *work, old, replacement value) (resolveSource, error) {
	if old == replacement {
		return s, nil
	}
	if s.fromRoot == nil {
		if o, ok := old.(*objectValue); ok && o == s.root && isContainer(replacement) {
			return resolveSource{root: rootMustBeObject(replacement)}, nil
		}
		return s, &Error{Msg: "a substitution cannot be resolved here"}
	}
	parent := s.fromRoot.value
	newParent, err := w.replaceChild(parent, old, replacement)
	if err != nil {
		return s, err
	}
	if !isContainer(newParent) {
		newParent = nil
	}
	return s.replaceCurrentParent(w, parent, newParent)
}

func (s resolveSource) replaceCurrentParent(w *work, old, replacement value) (resolveSource, error) {
	if old == replacement {
		return s, nil
	}
	if s.fromRoot == nil {
		return resolveSource{root: rootMustBeObject(replacement)}, nil
	}
	newPath, err := w.replaceInPath(s.fromRoot, old, replacement)
	if err != nil {
		return s, err
	}
	if newPath == nil {
		return resolveSource{root: newObject(nil, map[string]value{})}, nil
	}
	root, ok := newPath.last().(*objectValue)
	if !ok {
		return s, &Error{Msg: "a substitution cannot be resolved here"}
	}
	return resolveSource{root: root, fromRoot: newPath}, nil
}

func rootMustBeObject(v value) *objectValue {
	if o, ok := v.(*objectValue); ok {
		return o
	}
	return newObject(nil, map[string]value{})
}

func (w *work) replaceInPath(list *parents, old, replacement value) (*parents, error) {
	if list.value != old {
		return nil, &Error{Msg: "a substitution cannot be resolved here"}
	}
	var parent value
	if list.next != nil {
		parent = list.next.value
	}
	if replacement == nil || !isContainer(replacement) {
		if parent == nil {
			return nil, nil
		}
		newParent, err := w.replaceChild(parent, old, nil)
		if err != nil {
			return nil, err
		}
		return w.replaceInPath(list.next, parent, newParent)
	}
	if parent == nil {
		return &parents{value: replacement}, nil
	}
	newParent, err := w.replaceChild(parent, old, replacement)
	if err != nil {
		return nil, err
	}
	tail, err := w.replaceInPath(list.next, parent, newParent)
	if err != nil {
		return nil, err
	}
	if tail == nil {
		return &parents{value: replacement}, nil
	}
	return &parents{value: replacement, next: tail}, nil
}

// replaceChild is SimpleConfigObject#replace_child. The gem's other containers (a list, a
// concatenation, a delayed merge) call a replace_child_in_list they do not have and fail with a
// Ruby NoMethodError; that is an error here too.
func (w *work) replaceChild(parent, child, replacement value) (value, error) {
	if t, ok := parent.(*objectValue); ok {
		if err := w.spend(len(t.keys)); err != nil {
			return nil, err
		}
		for _, k := range t.keys {
			if t.m[k] != child {
				continue
			}
			var keys []string
			m := make(map[string]value, len(t.m))
			for _, k2 := range t.keys {
				switch {
				case k2 != k:
					keys, m[k2] = append(keys, k2), t.m[k2]
				case replacement != nil:
					keys, m[k2] = append(keys, k2), replacement
				}
			}
			return &objectValue{keys: keys, m: m, resolved: allResolved(m), ignoresFallbacks: t.ignoresFallbacks}, nil
		}
	}
	return nil, &Error{Msg: "a substitution cannot be resolved here (the hocon gem fails with an internal error)"}
}
