// The constructors of parameterized types (Array[...], Hash[...], Enum[...], ...) with the
// messages of Puppet's TypeParser for wrong parameters.

package ptype

import (
	"math"
	"math/big"
	"regexp"
	"regexp/syntax"
	"sort"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/rubyre"
)

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
		if _, ok := v.(*Type); !ok {
			return c.invalid()
		}
	}
	return nil
}

func typesOf(params []any) []*Type {
	out := make([]*Type, len(params))
	for i, v := range params {
		out[i], _ = v.(*Type) // callers checked
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
func (c *ctor) rangeOf(from, to any) (*Type, error) {
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
func (c *ctor) sizeParams(typ string, params []any) (*Type, error) {
	switch len(params) {
	case 1:
		if t, ok := params[0].(*Type); ok && t.kind == ptInteger {
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
	t := &Type{kind: ptArray}
	var err error
	switch len(ps) {
	case 1:
		if err := c.allTypes(ps); err != nil {
			return nil, err
		}
		t.elem = typesOf(ps)[0]
	case 2:
		if e, ok := ps[0].(*Type); ok {
			t.elem = e
			if s, ok := ps[1].(*Type); ok && s.kind == ptInteger {
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
	t := &Type{kind: ptHash}
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
		if s, ok := ps[2].(*Type); ok && s.kind == ptInteger {
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
	return &Type{kind: ptEnum, values: values, ci: ci}, nil
}

func (c *ctor) pattern() (any, error) {
	t := &Type{kind: ptPattern}
	for _, v := range c.params {
		switch x := v.(type) {
		case string:
			t.rx = append(t.rx, ptypeRegex{source: x})
		case ptRegexLit:
			t.rx = append(t.rx, ptypeRegex{source: x.source})
		case *Type:
			if x.kind != ptPattern {
				return nil, model.Errorf("The expression <%s> is not a valid type specification: Pattern takes strings, regular expressions and Pattern types", c.p.text(c.n))
			}
			t.rx = append(t.rx, x.rx...)
		default:
			return nil, model.Errorf("The expression <%s> is not a valid type specification: Pattern takes strings, regular expressions and Pattern types", c.p.text(c.n))
		}
	}
	for i := range t.rx {
		if t.rx[i].re != nil {
			continue // from a Pattern type given as a parameter
		}
		re, insts, err := compileTypeRegexp(t.rx[i].source)
		if err != nil {
			return nil, err
		}
		t.rx[i].re, t.rx[i].insts = re, insts
	}
	return t, nil
}

// compileTypeRegexp compiles a Pattern's Ruby regexp on RE2, refusing clearly what RE2 cannot do,
// and counts the instructions of its program.
func compileTypeRegexp(source string) (*regexp.Regexp, int, error) {
	translated, feature := rubyre.Translate(source)
	if feature != "" {
		return nil, 0, model.Errorf("Pattern /%s/ uses Ruby regexp syntax that is not supported: %s", source, feature)
	}
	re, err := regexp.Compile("(?m)" + translated)
	if err != nil {
		return nil, 0, model.Errorf("Pattern /%s/ is not a valid regular expression: %v", source, err)
	}
	parsed, err := syntax.Parse("(?m)"+translated, syntax.Perl)
	if err != nil {
		return nil, 0, model.Errorf("Pattern /%s/ is not a valid regular expression: %v", source, err)
	}
	prog, err := syntax.Compile(parsed.Simplify())
	if err != nil {
		return nil, 0, model.Errorf("Pattern /%s/ is not a valid regular expression: %v", source, err)
	}
	return re, len(prog.Inst), nil
}

func (c *ctor) tuple() (any, error) {
	ps := c.params
	t := &Type{kind: ptTuple}
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
	t := &Type{kind: ptStruct}
	seen := map[string]bool{}
	for i, k := range h.keys {
		var value *Type
		switch v := h.values[i].(type) {
		case *Type:
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
		case *Type:
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
			return &Type{kind: ptInteger}, nil
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
