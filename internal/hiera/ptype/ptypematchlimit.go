package ptype

import (
	"fmt"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// maxMatchWork bounds the regexp work of one check: the instructions of the Pattern programs in the
// type times the bytes of the strings in the value (a Pattern of 1,000 regexps over a 100 KB string
// took 17 s). Real value_types match a few short patterns against short strings, thousands of times
// below it.
const maxMatchWork = 1 << 26

// matchWorkExceeded reports whether checking v against t could take more regexp work than
// maxMatchWork: every Pattern of t against every string of v, an upper bound.
func matchWorkExceeded(t *Type, v any) bool {
	insts := patternInsts(t, 0, nil)
	if insts == 0 {
		return false
	}
	bytes := stringBytes(v, 0)
	return bytes > 0 && insts > maxMatchWork/bytes
}

// patternInsts is the size of the Pattern programs in t: Puppet's own aliases hold none, a code
// base's are counted once each (seen), as they may refer to themselves.
func patternInsts(t *Type, depth int, seen map[*Type]bool) int {
	if t == nil || depth > ptypeMaxDepth || (t.kind == ptAlias && (!t.defined || seen[t])) {
		return 0
	}
	if t.kind == ptAlias {
		if seen == nil {
			seen = map[*Type]bool{}
		}
		seen[t] = true
		return patternInsts(t.resolved, depth+1, seen)
	}
	n := 0
	for _, r := range t.rx {
		n += r.insts
	}
	for _, c := range append([]*Type{t.key, t.elem, t.size}, t.types...) {
		n += patternInsts(c, depth+1, seen)
	}
	for _, e := range t.elements {
		n += patternInsts(e.value, depth+1, seen)
	}
	return n
}

// stringBytes is the bytes of the strings in v, hash keys included (capped at maxMatchWork).
func stringBytes(v any, n int) int {
	switch x := v.(type) {
	case string:
		n += len(x)
	case SensitiveValue:
		n = stringBytes(x.Value, n)
	case []any:
		for _, e := range x {
			if n = stringBytes(e, n); n > maxMatchWork {
				break
			}
		}
	case *model.Hash:
		x.Each(func(k, e any) bool {
			n = stringBytes(e, stringBytes(k, n))
			return n <= maxMatchWork
		})
	}
	return n
}

func matchWorkMessage(subject string) string {
	return fmt.Sprintf("%s cannot be checked: matching the value_type's regular expressions against the value's strings would take more than %d steps (program instructions times bytes)", subject, maxMatchWork)
}

// maxCheckSteps bounds the steps of one check (a type against a value, and the description of a
// mismatch). A code base's aliases can branch without end: 82 one-line aliases, each a Variant
// whose members lead to the next, are 2^82 paths to one Integer; Puppet follows every path. The
// checker answers each alias against each part of the value once (memo), which makes the check
// of such aliases linear, and gives up past the bound, which no real type comes near (stdlib's
// aliases take tens of steps a value).
const maxCheckSteps = 1 << 20

// checker is one check's state: what it has answered for an alias against an actual type, and
// the steps it has taken.
type checker struct {
	memo           map[[2]*Type]bool
	steps          int
	describedSteps int

	referencesChecked bool // describeMismatch found no unresolved type name in the type
}

// maxDescribeSteps bounds the description of one mismatch, where each step may add a finding:
// a value of a thousand wrong elements takes a few thousand steps.
const maxDescribeSteps = 1 << 13

// exceeded reports whether the check went past maxCheckSteps or maxDescribeSteps: its answers
// are then not Puppet's.
func (c *checker) exceeded() bool {
	return c.steps > maxCheckSteps || c.describedSteps > maxDescribeSteps
}

// assignableAlias is assignable where either side is an alias, answered once per pair.
func (c *checker) assignableAlias(e, a *Type) bool {
	key := [2]*Type{e, a}
	if ok, seen := c.memo[key]; seen {
		return ok
	}
	var ok bool
	if a.kind == ptAlias {
		ok = c.assignable(e, a.resolved)
	} else {
		ok = c.assignable(e.resolved, a)
	}
	if c.memo == nil {
		c.memo = map[[2]*Type]bool{}
	}
	c.memo[key] = ok
	return ok
}

// checkWorkMessage says that subject's check went past maxCheckSteps: "cannot be checked".
func checkWorkMessage(subject string, t *Type) string {
	return fmt.Sprintf("%s cannot be checked: %s branches into more than %d steps of checking or %d of describing the mismatch "+
		"(type aliases whose Variants lead to the same aliases, level after level)", subject, t.String(), maxCheckSteps, maxDescribeSteps)
}
