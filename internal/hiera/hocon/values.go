package hocon

import (
	"math"
	"math/big"
	"slices"
	"strconv"
)

// The value model of the gem before resolution: objects and lists, scalars, and the three unresolved
// kinds (a substitution, a concatenation holding one, a delayed merge of a stack of values). Values
// are pointers because the resolver, like the gem, finds and replaces children by identity.
// Merging follows the gem's with_fallback (abstract_config_value.rb, simple_config_object.rb).

type value interface{ isValue() }

type objectValue struct {
	keys             []string
	m                map[string]value
	resolved         bool
	ignoresFallbacks bool
}

type listValue struct {
	items    []value
	resolved bool
}

type stringValue struct {
	s      string
	quoted bool
}

// numberValue is an int64, *big.Int or float64, with the text as written (used in concatenations).
type numberValue struct {
	n    any
	text string
}

type boolValue struct{ b bool }

type nullValue struct{}

// refValue is ${path} or ${?path}; prefixLen is how much of path an include prepended.
type refValue struct {
	path      []string
	optional  bool
	prefixLen int
	line      int
}

type concatValue struct{ pieces []value }

// delayedMerge is a stack of values, the first winning, that can only be merged once resolved;
// isObject marks the gem's ConfigDelayedMergeObject (its first value is an object).
type delayedMerge struct {
	stack    []value
	isObject bool
}

func (*objectValue) isValue()  {}
func (*listValue) isValue()    {}
func (*stringValue) isValue()  {}
func (*numberValue) isValue()  {}
func (*boolValue) isValue()    {}
func (*nullValue) isValue()    {}
func (*refValue) isValue()     {}
func (*concatValue) isValue()  {}
func (*delayedMerge) isValue() {}

func newNumberFromInt(i *big.Int, text string) value {
	if i.IsInt64() {
		return &numberValue{n: i.Int64(), text: text}
	}
	return &numberValue{n: i, text: text}
}

// newNumberFromFloat is the gem's ConfigNumber.new_number: a float equal to its integer part is an
// integer.
func newNumberFromFloat(f float64, text string) value {
	if f == math.Trunc(f) {
		i, _ := new(big.Float).SetFloat64(f).Int(nil)
		return newNumberFromInt(i, text)
	}
	return &numberValue{n: f, text: text}
}

func newObject(keys []string, m map[string]value) *objectValue {
	return &objectValue{keys: keys, m: m, resolved: allResolved(m)}
}

func allResolved(m map[string]value) bool {
	for _, v := range m {
		if !isResolved(v) {
			return false
		}
	}
	return true
}

func newList(items []value) *listValue {
	l := &listValue{items: items, resolved: true}
	for _, v := range items {
		if !isResolved(v) {
			l.resolved = false
		}
	}
	return l
}

func isResolved(v value) bool {
	switch t := v.(type) {
	case *objectValue:
		return t.resolved
	case *listValue:
		return t.resolved
	case *refValue, *concatValue, *delayedMerge:
		return false
	}
	return true
}

func isUnmergeable(v value) bool {
	switch v.(type) {
	case *refValue, *concatValue, *delayedMerge:
		return true
	}
	return false
}

// isObjectLike is the gem's AbstractConfigObject: a plain object or a delayed merge of one.
func isObjectLike(v value) bool {
	if d, ok := v.(*delayedMerge); ok {
		return d.isObject
	}
	_, ok := v.(*objectValue)
	return ok
}

func ignoresFallbacks(v value) bool {
	switch t := v.(type) {
	case *objectValue:
		return t.ignoresFallbacks
	case *delayedMerge:
		return ignoresFallbacks(t.stack[len(t.stack)-1])
	}
	return isResolved(v)
}

func unmergedValues(v value) []value {
	if d, ok := v.(*delayedMerge); ok {
		return d.stack
	}
	return []value{v}
}

func stackOf(v value) []value { return unmergedValues(v) }

// withFallback merges fallback under v: v's values win, objects merge key by key.
func (w *work) withFallback(v, fallback value) (value, error) {
	if ignoresFallbacks(v) {
		return v, nil
	}
	if err := w.spend(1); err != nil {
		return nil, err
	}
	if isUnmergeable(fallback) {
		return w.delay(v, unmergedValues(fallback)...)
	}
	o, vIsObject := v.(*objectValue)
	if f, isObject := fallback.(*objectValue); isObject && vIsObject {
		return w.mergeObjects(o, f)
	}
	// merged with a non-object (or a delayed object with an object): v wins once resolved; the
	// only resolved value that does not ignore fallbacks is an object
	if vIsObject && o.resolved {
		return &objectValue{keys: o.keys, m: o.m, resolved: o.resolved, ignoresFallbacks: true}, nil
	}
	return w.delay(v, fallback)
}

func isPlainObject(v value) bool {
	_, ok := v.(*objectValue)
	return ok
}

// delay builds the delayed merge the gem's construct_delayed_merge gives for v's class: v's stack
// (a copy) followed by the fallbacks.
func (w *work) delay(v value, fallbacks ...value) (value, error) {
	own := stackOf(v)
	if err := w.spend(len(own) + len(fallbacks)); err != nil {
		return nil, err
	}
	stack := append(append(make([]value, 0, len(own)+len(fallbacks)), own...), fallbacks...)
	return &delayedMerge{stack: stack, isObject: isObjectLike(v)}, nil
}

// mergeObjects is SimpleConfigObject#merged_with_object: v's keys in order, then the fallback's new
// ones, each merged. Whether a key changed is decided with the gem's ==, which fails when it compares
// an object with a delayed merge of one (an object over a substitution, one level down).
func (w *work) mergeObjects(v, fallback *objectValue) (value, error) {
	if err := w.spend(len(v.keys) + len(fallback.keys)); err != nil {
		return nil, err
	}
	keys := append([]string(nil), v.keys...)
	for _, k := range fallback.keys {
		if _, ok := v.m[k]; !ok {
			keys = append(keys, k)
		}
	}
	merged := make(map[string]value, len(keys))
	changed := false
	resolved := true
	for _, k := range keys {
		first, inFirst := v.m[k]
		second, inSecond := fallback.m[k]
		kept := first
		switch {
		case !inFirst:
			kept = second
			changed = true
		case inSecond:
			var err error
			if kept, err = w.withFallback(first, second); err != nil {
				return nil, err
			}
			same, err := w.rubyEqual(first, kept)
			if err != nil {
				return nil, err
			}
			changed = changed || !same
		}
		merged[k] = kept
		if !isResolved(kept) {
			resolved = false
		}
	}
	if changed {
		return &objectValue{keys: keys, m: merged, resolved: resolved, ignoresFallbacks: fallback.ignoresFallbacks}, nil
	}
	if resolved != v.resolved || fallback.ignoresFallbacks != v.ignoresFallbacks {
		return &objectValue{keys: v.keys, m: v.m, resolved: resolved, ignoresFallbacks: fallback.ignoresFallbacks}, nil
	}
	return v, nil
}

// errNotResolved is the gem's ConfigNotResolvedError from comparing an object with a delayed merge.
var errNotResolved = &Error{Msg: "need to Config#resolve() before using this object, see the API docs for Config#resolve()"}

// rubyEqual is the gem's == between a value and what merging made of it.
func (w *work) rubyEqual(a, b value) (bool, error) {
	if a == b {
		return true, nil
	}
	if err := w.spend(1); err != nil {
		return false, err
	}
	switch x := a.(type) {
	case *objectValue:
		switch y := b.(type) {
		case *objectValue:
			if len(x.keys) != len(y.keys) {
				return false, nil
			}
			for _, k := range x.keys {
				if _, ok := y.m[k]; !ok {
					return false, nil
				}
			}
			for _, k := range x.keys {
				if same, err := w.rubyEqual(x.m[k], y.m[k]); err != nil || !same {
					return false, err
				}
			}
			return true, nil
		case *delayedMerge:
			if y.isObject {
				return false, errNotResolved
			}
		}
		return false, nil
	case *listValue:
		y, ok := b.(*listValue)
		if !ok || len(x.items) != len(y.items) {
			return false, nil
		}
		return w.allEqual(x.items, y.items)
	case *refValue:
		y, ok := b.(*refValue)
		return ok && x.optional == y.optional && slices.Equal(x.path, y.path), nil
	case *concatValue:
		y, ok := b.(*concatValue)
		if !ok || len(x.pieces) != len(y.pieces) {
			return false, nil
		}
		return w.allEqual(x.pieces, y.pieces)
	case *delayedMerge:
		y, ok := b.(*delayedMerge)
		if !ok || x.isObject != y.isObject || len(x.stack) != len(y.stack) {
			return false, nil
		}
		return w.allEqual(x.stack, y.stack)
	}
	return scalarEqual(a, b), nil
}

func (w *work) allEqual(a, b []value) (bool, error) {
	for i := range a {
		if same, err := w.rubyEqual(a[i], b[i]); err != nil || !same {
			return false, err
		}
	}
	return true, nil
}

func scalarEqual(a, b value) bool {
	switch x := a.(type) {
	case *stringValue:
		y, ok := b.(*stringValue)
		return ok && x.s == y.s
	case *boolValue:
		y, ok := b.(*boolValue)
		return ok && x.b == y.b
	case *nullValue:
		_, ok := b.(*nullValue)
		return ok
	case *numberValue:
		y, ok := b.(*numberValue)
		return ok && numberFloat(x).Cmp(numberFloat(y)) == 0
	}
	return false
}

func numberFloat(n *numberValue) *big.Float {
	switch t := n.n.(type) {
	case int64:
		return new(big.Float).SetInt64(t)
	case *big.Int:
		return new(big.Float).SetInt(t)
	case float64:
		return big.NewFloat(t)
	}
	return new(big.Float)
}

// concatenate joins the values written side by side (`a b`, `${x} [1]`), as the gem's
// ConfigConcatenation.concatenate does; nil when there is nothing.
func (w *work) concatenate(pieces []value) (value, error) {
	joined, err := w.consolidate(pieces)
	switch {
	case err != nil:
		return nil, err
	case len(joined) == 0:
		return nil, nil
	case len(joined) == 1:
		return joined[0], nil
	}
	return &concatValue{pieces: joined}, nil
}

func (w *work) consolidate(pieces []value) ([]value, error) {
	if len(pieces) < 2 {
		return pieces, nil
	}
	var flat []value
	for _, p := range pieces {
		if c, ok := p.(*concatValue); ok {
			flat = append(flat, c.pieces...)
		} else {
			flat = append(flat, p)
		}
	}
	var out []value
	for _, p := range flat {
		if len(out) == 0 {
			out = append(out, p)
			continue
		}
		joined, err := w.join(out[len(out)-1], p)
		if err != nil {
			return nil, err
		}
		if joined == nil {
			out = append(out, p)
		} else {
			out[len(out)-1] = joined
		}
	}
	return out, nil
}

// join is ConfigConcatenation.join: two objects merge, two lists concatenate, unquoted text after an
// object or list is dropped, scalars join as strings; nil when one side is unresolved.
func (w *work) join(left, right value) (value, error) {
	ll, leftList := left.(*listValue)
	rl, rightList := right.(*listValue)
	if (isObjectLike(left) && rightList) || (leftList && isObjectLike(right)) {
		// the gem's object-to-list conversion builds a list of Ruby integers and then fails
		return nil, &Error{Msg: "Cannot concatenate an object and a list"}
	}
	switch {
	case isObjectLike(left) && isObjectLike(right):
		return w.withFallback(right, left)
	case leftList && rightList:
		if err := w.spend(len(ll.items) + len(rl.items)); err != nil {
			return nil, err
		}
		return newList(append(append(make([]value, 0, len(ll.items)+len(rl.items)), ll.items...), rl.items...)), nil
	case (leftList || isObjectLike(left)) && isUnquoted(right):
		return left, nil
	case isUnmergeable(left) || isUnmergeable(right):
		return nil, nil
	}
	s1, ok1 := transformToString(left)
	s2, ok2 := transformToString(right)
	if !ok1 || !ok2 {
		return nil, &Error{Msg: "Cannot concatenate object or list with a non-object-or-list, " + describeValue(left) + " and " + describeValue(right) + " are not compatible"}
	}
	if err := w.build(len(s1) + len(s2)); err != nil {
		return nil, err
	}
	return &stringValue{s: s1 + s2, quoted: true}, nil
}

func isUnquoted(v value) bool {
	s, ok := v.(*stringValue)
	return ok && !s.quoted
}

func transformToString(v value) (string, bool) {
	switch t := v.(type) {
	case *stringValue:
		return t.s, true
	case *numberValue:
		return t.text, true
	case *boolValue:
		return strconv.FormatBool(t.b), true
	case *nullValue:
		return "null", true
	}
	return "", false
}

func describeValue(v value) string {
	switch v.(type) {
	case *objectValue:
		return "an object"
	case *listValue:
		return "a list"
	}
	if s, ok := transformToString(v); ok {
		return "'" + s + "'"
	}
	return "an unresolved value"
}
