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
