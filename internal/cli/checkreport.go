package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// report is check's output to stdout, line by line in the order met, printed when the check
// ends: a problem or warning that several nodes meet is one line naming every node, and which
// nodes meet it is known only once every node is read.
type report []*reportLine

// reportLine is one line of the report: its text given the nodes that met it, and the same as
// --render-as json gives it, in its section (problems, notes, warnings).
type reportLine struct {
	section string
	text    func(nodes []string) string
	fields  func(nodes []string) map[string]any
	nodes   []string
	named   map[string]bool // nodes as a set: a line every node meets is added to once per node and lookup
}

// add appends a line met by node ("" for none) and returns it, so that other nodes can be added.
func (r *report) add(section string, text func(nodes []string) string, fields func(nodes []string) map[string]any, node string) *reportLine {
	l := &reportLine{section: section, text: text, fields: fields}
	if node != "" {
		l.nodes, l.named = []string{node}, map[string]bool{node: true}
	}
	*r = append(*r, l)
	return l
}

// addNode adds a node that met the line, once; a line first met without a node (a data file's
// problem, found whatever the node) names none.
func (l *reportLine) addNode(node string) {
	if node != "" && len(l.nodes) > 0 && !l.named[node] {
		l.nodes = append(l.nodes, node)
		l.named[node] = true
	}
}

func (r report) print(w io.Writer) {
	for _, l := range r {
		_, _ = fmt.Fprintln(w, l.text(l.nodes))
	}
}

// json is the report as --render-as json prints it: {"problems": [...], "notes": [...], "warnings":
// [...], "summary": S}, each entry with the nodes that met it ("nodes", absent for none).
func (r report) json(summary string) []byte {
	doc := map[string]any{"summary": summary}
	for _, section := range []string{"problems", "notes", "warnings"} {
		entries := []map[string]any{}
		for _, l := range r {
			if l.section == section {
				f := l.fields(l.nodes)
				if len(l.nodes) > 0 {
					f["nodes"] = l.nodes
				}
				entries = append(entries, f)
			}
		}
		doc[section] = entries
	}
	out, _ := json.Marshal(doc) // strings, numbers and lists of them
	return append(out, '\n')
}

// problemFields is a problem as --render-as json gives it: file, line, level, key, message, hint
// (each absent when it has none), the message and hint as the text line words them.
func problemFields(err error) map[string]any {
	var he *model.Error
	if !errors.As(err, &he) {
		return map[string]any{"message": oneLine(err.Error())}
	}
	f := map[string]any{"message": oneLine(model.CutMessage(he.Message))}
	for name, v := range map[string]string{"file": he.File, "level": he.Level, "key": he.Key, "hint": oneLine(he.Hint)} {
		if v != "" {
			f[name] = v
		}
	}
	if he.Line > 0 {
		f["line"] = he.Line
	}
	return f
}

// nodesNamed names the nodes of a line: "node a", "2 nodes: a, b", "32 nodes: a, ..., j and 22 more"
// (the first ones as a fleet diff's table names them).
func nodesNamed(nodes []string) string {
	if len(nodes) == 1 {
		return "node " + nodes[0]
	}
	return fmt.Sprintf("%d nodes: %s", len(nodes), nodeList(nodes, func(s string) string { return s }))
}

// The kinds of warnings (a node's findings), each line showing its kind, which --no-warn KIND hides.
var warningKinds = []struct{ kind, about string }{
	{"certname", "a certname taken from networking.fqdn (Facter 4's facter -j names no node)"},
	{"unset", "a variable a value or a hierarchy path interpolates that is not set"},
	{"dotted-fact", "a fact whose name holds a dot, which no interpolation reads"},
	{"module-data", "a module with a data directory and no hiera.yaml"},
	{"other", "any other"},
}

// pitfallKind is the kind of a finding, by the engine's wording of it (internal/hiera's
// pitfalls.go and interpolate.go; TestCheckWarningKinds meets each).
func pitfallKind(msg string) string {
	switch {
	case strings.HasPrefix(msg, "The facts name no certname"):
		return "certname"
	case strings.Contains(msg, "which is not set") || strings.Contains(msg, "interpolates a variable that is not set"):
		return "unset"
	case strings.HasPrefix(msg, "The fact ") && strings.Contains(msg, "has a dot in its name"):
		return "dotted-fact"
	case strings.HasPrefix(msg, "Module ") && strings.Contains(msg, "no hiera.yaml"):
		return "module-data"
	}
	return "other"
}

// certnameFindings is the certname warning of every node whose facts name no certname, in one
// line (each node's own note names its certname: hieraform node and lookup print it).
const certnameFindings = "The facts name no certname, clientcert or fqdn (Facter 4's facter -j prints none of them): each node's " +
	"trusted.certname is its fact networking.fqdn, as a Puppet agent's certname defaults to its fqdn. Where a node's certificate " +
	"names it otherwise, add a clientcert fact to its facts file"

// kindList is a flag of warning kinds, each checked, given many times or comma-separated.
type kindList map[string]bool

func (k kindList) String() string { return strings.Join(slices.Sorted(maps.Keys(k)), ",") }

func (k kindList) Set(s string) error {
	for _, kind := range strings.Split(s, ",") {
		if !slices.ContainsFunc(warningKinds, func(w struct{ kind, about string }) bool { return w.kind == kind }) {
			return fmt.Errorf("no warning kind %q: the kinds are %s", kind, warningKindNames())
		}
		k[kind] = true
	}
	return nil
}

func warningKindNames() string {
	var names []string
	for _, w := range warningKinds {
		names = append(names, w.kind)
	}
	return strings.Join(names, ", ")
}

// hiddenSummary says what --no-warn hid: of each kind, on how many nodes ("" for nothing).
func hiddenSummary(hidden map[string]map[string]bool) string {
	var parts []string
	for _, w := range warningKinds {
		if nodes := hidden[w.kind]; len(nodes) > 0 {
			parts = append(parts, fmt.Sprintf("%s warnings of %s", w.kind, count(len(nodes), "node")))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "--no-warn hid " + strings.Join(parts, ", ")
}
