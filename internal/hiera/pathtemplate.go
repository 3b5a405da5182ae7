package hiera

import (
	"strings"
	"sync"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Hierarchy paths are interpolated on every lookup, so their templates are parsed once: a fast
// path substitutes plain variables directly; anything unusual (functions, escapes, values that
// need interpolating again, errors) goes through the full interpolation so behaviour is the same.

type pathTemplate struct {
	literals []string // len(vars)+1 pieces of text around the variables
	vars     []pathVar
	slow     bool
}

type pathVar struct {
	root string
	segs []any
	expr string
}

var pathTemplates sync.Map // template text -> *pathTemplate

func compilePathTemplate(s string) *pathTemplate {
	if cached, ok := pathTemplates.Load(s); ok {
		if t, isTemplate := cached.(*pathTemplate); isTemplate { // always: only templates are stored
			return t
		}
	}
	t := &pathTemplate{}
	last := 0
	for _, m := range tokenPattern.FindAllStringSubmatchIndex(s, -1) {
		expr := strings.TrimSpace(s[m[2]:m[3]])
		segs, err := parseKey(expr)
		if emptyTokens[expr] || methodPattern.MatchString(expr) || method3Pattern.MatchString(expr) || err != nil {
			t.slow = true
			break
		}
		t.literals = append(t.literals, s[last:m[0]])
		t.vars = append(t.vars, pathVar{root: model.ToS(segs[0]), segs: segs, expr: expr})
		last = m[1]
	}
	t.literals = append(t.literals, s[last:])
	pathTemplates.Store(s, t)
	return t
}

// fastInterpolatePath substitutes plain variables; ok is false when the full path must be taken.
func (inv *invocation) fastInterpolatePath(s string) (string, bool) {
	t := compilePathTemplate(s)
	if t.slow {
		return "", false
	}
	if len(t.vars) == 0 {
		return s, true
	}
	var b strings.Builder
	for i, v := range t.vars {
		b.WriteString(t.literals[i])
		val, ok := inv.scope.get(v.root)
		if ok && val != nil && len(v.segs) > 1 {
			if inv.cfg.V3 != nil {
				return "", false
			}
			var found bool
			var err error
			if val, found, err = dig(val, v.segs, v.expr); err != nil {
				return "", false
			} else if !found {
				val = nil
			}
		}
		switch t := val.(type) {
		case string:
			if strings.Contains(t, "%{") {
				return "", false // the value is interpolated again, under the recursion guard
			}
			b.WriteString(t)
		case *model.Hash, []any:
			return "", false
		default:
			b.WriteString(model.ToS(t))
		}
	}
	b.WriteString(t.literals[len(t.vars)])
	return b.String(), true
}
