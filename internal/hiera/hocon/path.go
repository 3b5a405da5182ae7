package hocon

import (
	"strings"
)

// parsePath turns a key's or substitution's tokens into path elements, as the gem's PathParser
// does: unquoted text (and numbers, booleans, null as written) splits at '.', quoted text does not.
func parsePath(expr []token) ([]string, error) {
	type element struct {
		sb         strings.Builder
		canBeEmpty bool
	}
	buf := []*element{{}}
	var add func(quoted bool, text string)
	add = func(quoted bool, text string) {
		cur := buf[len(buf)-1]
		i := -1
		if !quoted {
			i = strings.IndexByte(text, '.')
		}
		if i < 0 {
			cur.sb.WriteString(text)
			if quoted && cur.sb.Len() == 0 {
				cur.canBeEmpty = true
			}
			return
		}
		cur.sb.WriteString(text[:i])
		buf = append(buf, &element{})
		add(false, text[i+1:])
	}
	if len(expr) == 0 {
		return nil, pathError("Expecting a field name or path here, but got nothing")
	}
	for _, t := range expr {
		switch t.kind {
		case tokIgnoredWhitespace, tokEOF:
		case tokValue:
			if s, ok := t.value.(*stringValue); ok {
				add(true, s.s)
			} else {
				text, _ := transformToString(t.value)
				add(false, text)
			}
		case tokUnquoted:
			add(false, t.text)
		default:
			return nil, pathError("Token not allowed in path expression: " + t.describe() + " (you can double-quote this token if you really want it here)")
		}
	}
	path := make([]string, len(buf))
	for i, e := range buf {
		if e.sb.Len() == 0 && !e.canBeEmpty {
			return nil, pathError("path has a leading, trailing, or two adjacent period '.' (use quoted \"\" empty string if you want an empty element)")
		}
		path[i] = e.sb.String()
	}
	return path, nil
}

// pathError is an error in a path; its message is the gem's (capitalized as the gem writes it).
func pathError(msg string) error { return &Error{Msg: msg} }

// renderPath writes a path as HOCON would, quoting elements that need it.
func renderPath(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		if p == "" || strings.ContainsAny(p, notInUnquoted+". \t\n") {
			parts[i] = `"` + strings.ReplaceAll(strings.ReplaceAll(p, `\`, `\\`), `"`, `\"`) + `"`
		} else {
			parts[i] = p
		}
	}
	return strings.Join(parts, ".")
}
