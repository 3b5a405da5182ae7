package hiera

import (
	"fmt"
	"strings"
)

// maxExplanation bounds the explain trace: it grows with locations × value size (a 1.2 MB value
// found through 200 locations made 240 MB). Real traces are kilobytes; the provider returns the
// trace in an attribute and in "not found" errors, which must stay well below gRPC's 4 MB limit.
const maxExplanation = 1 << 20

// explainer collects the indented trace of a lookup, in the spirit of `puppet lookup --explain`.
// A nil *explainer ignores everything, so callers need no checks when explain is off.
type explainer struct {
	b         strings.Builder
	depth     int
	truncated bool // maxExplanation reached: the trace ends with a note, nothing more is added
}

func (x *explainer) line(format string, args ...any) {
	if x == nil || x.truncated {
		return
	}
	text := fmt.Sprintf(format, args...)
	pad := strings.Repeat("  ", x.depth)
	lines := strings.Split(text, "\n")
	if x.b.Len()+len(text)+len(lines)*(len(pad)+1) > maxExplanation {
		x.truncated = true
		fmt.Fprintf(&x.b, "... explanation truncated: it would exceed %d bytes (large values found at many locations)\n", maxExplanation)
		return
	}
	for i, l := range lines {
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
	if inv.ex == nil || inv.ex.truncated {
		return "" // explain is off or full: never pay for printing
	}
	if inv.secret() {
		return "(sensitive value)"
	}
	return prettyInspect(v, 0)
}
