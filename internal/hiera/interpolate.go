package hiera

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

var (
	// A token is %{...} with no } inside; text it produces is never rescanned.
	tokenPattern = regexp.MustCompile(`%\{([^}]*)\}`)
	// Hiera 5 method call: a word, then one non-empty quoted argument, nothing else.
	methodPattern = regexp.MustCompile(`^(\w+)\((?:"([^"]+)"|'([^']+)')\)$`)
	// Hiera 3 method call: the argument is checked for quotes afterwards.
	method3Pattern = regexp.MustCompile(`^(\w+)\(([^)]*)\)$`)
)

// emptyTokens produce the empty string: the escape mechanism (%%{}{x} gives %{x}).
var emptyTokens = map[string]bool{"": true, "::": true, `""`: true, "''": true, `"::"`: true, "'::'": true}

// interpolateValue interpolates every string inside a data value (hash keys too). It returns v
// itself when nothing changes, so cached data is shared rather than copied.
func (inv *invocation) interpolateValue(v any) (any, error) {
	return inv.interpolateAny(v, true)
}

// interpolateAny is interpolateValue with Puppet's allow_methods flag, which a nested
// interpolation inherits: a variable used in hiera.yaml may not call lookup() through its value.
func (inv *invocation) interpolateAny(v any, allowMethods bool) (any, error) {
	switch t := v.(type) {
	case string:
		if !strings.Contains(t, "%{") {
			return v, nil // v, not t: boxing t again would allocate for every string of the value
		}
		return inv.interpolateString(t, allowMethods)
	case []any:
		var out []any
		for i, el := range t {
			nv, err := inv.interpolateAny(el, allowMethods)
			if err != nil {
				inv.errPath = append(inv.errPath, i)
				return nil, err
			}
			if out == nil && !sameRef(nv, el) {
				out = make([]any, len(t))
				copy(out, t[:i])
			}
			if out != nil {
				out[i] = nv
			}
		}
		if out == nil {
			return t, nil
		}
		return out, nil
	case *model.Hash:
		// Copied only once an entry changes: checking the whole subtree first at every level
		// cost depth² on deep values.
		var out *model.Hash
		for i, k := range t.RawKeys() {
			val := t.Vals[i]
			nk, err := inv.interpolateAny(k, allowMethods)
			if err != nil {
				inv.errPath = append(inv.errPath, model.ToS(k))
				return nil, err
			}
			switch nk.(type) {
			case []any, *model.Hash: // an alias() key; engine hashes only have scalar keys
				inv.errPath = append(inv.errPath[:0], model.ToS(k))
				return nil, model.Errorf("Interpolation of the hash key %s produced %s: hash keys must be scalars", model.Inspect(k), describe(nk))
			}
			nv, err := inv.interpolateAny(val, allowMethods)
			if err != nil {
				inv.errPath = append(inv.errPath, model.ToS(k))
				return nil, err
			}
			if out == nil && (!sameRef(nk, k) || !sameRef(nv, val)) {
				out = model.NewHash(t.Len())
				for j, pk := range t.RawKeys()[:i] {
					out.Set(pk, t.Vals[j])
				}
			}
			if out != nil {
				out.Set(nk, nv)
			}
		}
		if out == nil {
			return t, nil
		}
		return out, nil
	}
	return v, nil
}

// sameRef reports whether interpolation left a value untouched (strings by value, containers by identity).
func sameRef(a, b any) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case *model.Hash:
		y, ok := b.(*model.Hash)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		return ok && len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
	}
	return a == b
}

// interpolateString replaces each %{...} token. An alias token that is the whole string returns
// the aliased value with its type; everything else is stringified the Ruby way.
func (inv *invocation) interpolateString(s string, allowMethods bool) (any, error) {
	if !strings.Contains(s, "%{") {
		return s, nil
	}
	matches := tokenPattern.FindAllStringSubmatchIndex(s, -1)
	if len(matches) == 0 {
		return s, nil
	}
	inv.ex.enterInterpolation(s)
	defer inv.ex.leave()
	var b strings.Builder
	last := 0
	for _, m := range matches {
		if err := inv.countText(m[0] - last); err != nil {
			return nil, err
		}
		b.WriteString(s[last:m[0]])
		last = m[1]
		token := s[m[0]:m[1]]
		expr := strings.TrimSpace(s[m[2]:m[3]])
		if emptyTokens[expr] {
			continue
		}
		var text string
		var whole any
		var isWhole bool
		var err error
		if inv.cfg.V3 != nil {
			text, whole, isWhole, err = inv.token3(s, token, expr, allowMethods)
		} else {
			text, whole, isWhole, err = inv.token5(s, token, expr, allowMethods)
		}
		if err != nil {
			// what the error path holds is about the values this token read (a nested lookup's,
			// a fact's): the containers around this string add theirs as the error returns
			inv.errPath = inv.errPath[:0]
			return nil, err
		}
		if isWhole {
			return whole, nil
		}
		if err := inv.countText(len(text)); err != nil {
			return nil, err
		}
		b.WriteString(text)
	}
	if err := inv.countText(len(s) - last); err != nil {
		return nil, err
	}
	b.WriteString(s[last:])
	return b.String(), nil
}

// maxInterpolatedText bounds the text that interpolation builds in one lookup, and
// maxReadInterpolatedText in all the lookups of a node read: keys that interpolate a long value
// twice, each in turn, double it at every level. A real value holds a certificate bundle at most.
var (
	maxInterpolatedText     = 64 << 20
	maxReadInterpolatedText = 1 << 30
)

// sizeText is a bound in MiB, or KiB below one MiB.
func sizeText(n int) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d MiB", n>>20)
}

// countText counts n more bytes of text built by interpolation, failing past the bounds before
// the text is written.
func (inv *invocation) countText(n int) error {
	inv.interpolated += n
	inv.readInterpolated += n
	switch {
	case inv.interpolated > maxInterpolatedText:
		return model.ValueFreef("The lookup built more than %s of text by interpolation: the data's interpolations multiply", sizeText(maxInterpolatedText))
	case inv.readInterpolated > maxReadInterpolatedText:
		return model.ValueFreef("The node read built more than %s of text by interpolation, over all its keys", sizeText(maxReadInterpolatedText))
	}
	return nil
}

// token5 evaluates one token with Hiera 5 rules.
func (inv *invocation) token5(subject, token, expr string, allowMethods bool) (string, any, bool, error) {
	method, arg := "scope", expr
	if m := methodPattern.FindStringSubmatch(expr); m != nil {
		if !allowMethods {
			return "", nil, false, model.Errorf("Interpolation using method syntax is not allowed in this context")
		}
		method, arg = m[1], m[2]+m[3]
	}
	var value any
	var err error
	switch method {
	case "scope":
		if value, err = inv.scopeValue(arg, subject); value == nil && err == nil && allowMethods {
			inv.noteUnset(arg)
		}
	case "lookup", "hiera":
		value, err = inv.nestedLookup(arg)
	case "alias":
		if subject != token {
			return "", nil, false, model.Errorf("'alias' interpolation is only permitted if the expression is equal to the entire string")
		}
		value, err = inv.nestedLookup(arg)
		return "", value, true, err
	case "literal":
		value = arg
	default:
		return "", nil, false, model.Errorf("Unknown interpolation method '%s'", method)
	}
	if err != nil {
		return "", nil, false, err
	}
	return inv.reinterpolate(method, arg, value, allowMethods)
}

// token3 evaluates one token with Hiera 3 rules (a version 3 hiera.yaml): no lookup(), arguments
// must be quoted, alias may be embedded when it yields a string.
func (inv *invocation) token3(subject, token, expr string, allowMethods bool) (string, any, bool, error) {
	method, arg := "scope", expr
	if m := method3Pattern.FindStringSubmatch(expr); m != nil {
		if !allowMethods {
			return "", nil, false, model.Errorf("Interpolation using method syntax is not allowed in this context")
		}
		method, arg = m[1], m[2]
		switch method {
		case "hiera", "scope", "literal", "alias":
		default:
			return "", nil, false, model.Errorf("Invalid interpolation method '%s'", method)
		}
		q := arg
		quoted := len(q) >= 2 && (q[0] == '\'' && q[len(q)-1] == '\'' || q[0] == '"' && q[len(q)-1] == '"')
		if !quoted {
			return "", nil, false, model.Errorf("Argument to interpolation method '%s' must be quoted, got '%s'", method, arg)
		}
		arg = q[1 : len(q)-1]
	}
	var value any
	var err error
	switch method {
	case "scope":
		if value, err = inv.scopeValue(arg, subject); value == nil && err == nil && allowMethods {
			inv.noteUnset(arg)
		}
	case "literal":
		value = arg
	default:
		value, err = inv.nestedLookup(arg)
	}
	if err != nil {
		return "", nil, false, err
	}
	if method == "alias" {
		if subject == token {
			return "", value, true, nil
		}
		s, isStr := value.(string)
		if !isStr {
			return "", nil, false, model.Errorf("Cannot call alias in the string context")
		}
		return s, nil, false, nil
	}
	// As Puppet does (the Hiera 3 command line differs, see the README): a value holding %{...},
	// such as a fact, is interpolated in turn, and a loop is an error.
	return inv.reinterpolate(method, arg, value, allowMethods)
}

// maxNestedLookups bounds the nested lookups of one lookup: keys that each interpolate the next one
// twice make 2^n lookups. Real data makes a few dozen.
const maxNestedLookups = 100000

// nestedLookup is the lookup()/hiera()/alias() interpolation function: a whole lookup in the same
// invocation with a default of "".
func (inv *invocation) nestedLookup(key string) (any, error) {
	if inv.withoutNode {
		return inv.keySyntaxOnly(key)
	}
	if inv.nestedLookups++; inv.nestedLookups > maxNestedLookups {
		return nil, tooManyNestedLookups(key)
	}
	v, found, err := inv.answerNested(key)
	if err != nil {
		return nil, err
	}
	if !found {
		return "", nil
	}
	return v, nil
}

func tooManyNestedLookups(key string) error {
	return model.ValueFreef("The lookup made more than %d nested lookup()/hiera()/alias() interpolations (the last of '%s'): the data's interpolations multiply", maxNestedLookups, key)
}

// scopeValue resolves a variable reference such as facts.os.family or ::hostname.
func (inv *invocation) scopeValue(expr, subject string) (any, error) {
	segs, err := parseKey(expr)
	if err != nil {
		return nil, model.Errorf("Syntax error in string: %s", subject)
	}
	root := model.ToS(segs[0])
	v, ok := inv.scope.get(root)
	if ok {
		inv.ex.foundInScope(root, v)
	}
	if ok && v != nil && len(segs) > 1 {
		if inv.cfg.V3 != nil {
			v, _, err = dig3(v, expr)
		} else {
			v, _, err = dig(v, segs, expr)
		}
	}
	if s, isStr := v.(string); isStr && err == nil && !utf8.ValidString(s) {
		// a YAML !!binary fact: Ruby fails on it once interpolated ("partial character in source")
		return nil, model.ValueFreef("The variable '%s' holds bytes that are not UTF-8 text (a !!binary fact?): Puppet cannot interpolate it either", expr)
	}
	return v, err
}

// describe is a short text of a value for error messages, never its content (it may be secret).
func describe(v any) string { return fmt.Sprintf("a %s", model.TypeName(v)) }

// reinterpolate interpolates a found value again, as Puppet does (a fact or a nested lookup's
// result holding %{...} is resolved in turn), guarding against loops, and renders it as Ruby's to_s.
func (inv *invocation) reinterpolate(method, arg string, value any, allowMethods bool) (string, any, bool, error) {
	guard := arg
	if method == "scope" {
		guard = "scope:" + arg
	}
	err := inv.check(guard, func() error {
		var err error
		value, err = inv.interpolateAny(value, allowMethods)
		return err
	})
	if err != nil {
		return "", nil, false, err
	}
	return model.ToS(value), nil, false, nil
}

// keySyntaxOnly is a nested lookup without a node (FileCheck.Check): the key is parsed as a lookup
// parses it, and nothing is looked up (what a key holds depends on the node).
func (inv *invocation) keySyntaxOnly(key string) (any, error) {
	if !plainKey(key) {
		if _, err := parseKey(key); err != nil {
			return nil, err
		}
	}
	return "", nil
}

// Pitfalls noticed while a lookup runs; the analysis after it is pitfalls.go.

// maxPitfalls bounds the pitfalls of one lookup; each is a sentence.
const maxPitfalls = 10

// noteUnset records that a value interpolated variable expr and found it unset (Puppet makes it an
// empty string), when the request asks for pitfalls.
func (inv *invocation) noteUnset(expr string) {
	if !inv.req.Pitfalls {
		return
	}
	key := "" // the innermost key being looked up (the recursion guard also holds "scope:x" names)
	for i := len(inv.nameStack) - 1; i >= 0 && key == ""; i-- {
		if !strings.HasPrefix(inv.nameStack[i], "scope:") {
			key = inv.nameStack[i]
		}
	}
	if key == "" {
		return
	}
	if inv.secret() { // the expression is part of the secret's text
		inv.pitfall(fmt.Sprintf("The value of %q interpolates a variable that is not set (its name withheld: the value is secret): "+
			"it became an empty string, as in Puppet. Give the fact or variable in facts or scope, or check its name.", key))
		return
	}
	inv.pitfall(fmt.Sprintf("The value of %q interpolates %%{%s}, which is not set: it became an empty string, as in Puppet. "+
		"Give the fact or variable in facts or scope, or check its name.", key, expr))
}

func (inv *invocation) pitfall(msg string) { inv.pitfalls.add(msg) }

// notes are distinct sentences, at most maxPitfalls: no more are reported.
type notes []string

func (n *notes) add(msg string) {
	if len(*n) < maxPitfalls && !slices.Contains(*n, msg) {
		*n = append(*n, msg)
	}
}
