package hiera

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// maxExplanation bounds the explain trace: it grows with locations × value size (a 1.2 MB value
// found through 200 locations made 240 MB). Real traces are kilobytes; the provider returns the
// trace in an attribute and in "not found" errors, which must stay well below gRPC's 4 MB limit.
const maxExplanation = 1 << 20

// explainer collects the indented trace of a lookup, in the spirit of `puppet lookup --explain`.
// A nil *explainer ignores everything, so callers need no checks when explain is off.
type explainer struct {
	b         bytes.Buffer
	depth     int
	truncated bool        // maxExplanation reached: the trace ends with a note, nothing more is added
	merges    []mergeNode // the open merges, innermost last
}

// mergeNode is a merge over variants being traced: where its text starts, its depth and how many
// branches (data providers, hierarchy entries, locations) it has so far.
type mergeNode struct {
	start, depth, branches int
}

// node writes the first line of a trace node (a data provider, a hierarchy entry, a location),
// which is a branch of the merge it is directly in.
func (x *explainer) node(format string, args ...any) {
	if x == nil {
		return
	}
	if n := len(x.merges); n > 0 && x.merges[n-1].depth+1 == x.depth {
		x.merges[n-1].branches++
	}
	x.line(format, args...)
}

// openMerge starts tracing a merge over variants; its branches are written one level deeper.
func (x *explainer) openMerge() {
	if x == nil {
		return
	}
	x.merges = append(x.merges, mergeNode{start: x.b.Len(), depth: x.depth})
	x.depth++
}

// closeMerge ends the innermost merge as Puppet prints it: with two or more branches, under a
// "Merge strategy" header (header) and followed by the merged result (result, "" when nothing
// was found); with fewer, only the branch, at the merge's own depth.
func (x *explainer) closeMerge(header func() string, result func() string) {
	if x == nil {
		return
	}
	n := x.merges[len(x.merges)-1]
	x.merges = x.merges[:len(x.merges)-1]
	x.depth = n.depth
	if x.truncated {
		return // the trace ends with the truncation note as written
	}
	body := append([]byte(nil), x.b.Bytes()[n.start:]...)
	x.b.Truncate(n.start)
	if n.branches < 2 {
		for _, l := range bytes.SplitAfter(body, []byte("\n")) {
			x.b.Write(bytes.TrimPrefix(l, []byte("  ")))
		}
		return
	}
	x.line("%s", header())
	x.b.Write(body)
	if r := result(); r != "" {
		x.depth++
		x.line("Merged result: %s", r)
		x.depth--
	}
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
	return model.PrettyInspect(v, 0, maxExplanation-inv.ex.b.Len()) // longer is truncated by line
}
