package hiera

import (
	"fmt"
	"strings"
)

// explainer collects the indented trace of a lookup, in the spirit of `puppet lookup --explain`.
// A nil *explainer ignores everything, so callers need no checks when explain is off.
type explainer struct {
	b     strings.Builder
	depth int
}

func (x *explainer) line(format string, args ...any) {
	if x == nil {
		return
	}
	text := fmt.Sprintf(format, args...)
	pad := strings.Repeat("  ", x.depth)
	for i, l := range strings.Split(text, "\n") {
		if i > 0 {
			x.b.WriteString("\n")
		}
		x.b.WriteString(pad + l)
	}
	x.b.WriteString("\n")
}

func (x *explainer) push() {
	if x != nil {
		x.depth++
	}
}

func (x *explainer) pop() {
	if x != nil && x.depth > 0 {
		x.depth--
	}
}

func (x *explainer) String() string {
	if x == nil {
		return ""
	}
	return x.b.String()
}

// show is how explain prints a value: once a lookup has touched a secret (an eyaml decryption,
// or a key whose convert_to is Sensitive) no value is printed at all.
func (inv *invocation) show(v any) string {
	if inv.ex == nil {
		return "" // explain is off: never pay for printing
	}
	if inv.secret() {
		return "(sensitive value)"
	}
	return prettyInspect(v, 0)
}
