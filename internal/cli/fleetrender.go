package cli

// A fleet diff rendered: a table for a terminal, JSON for programs, Markdown for a pull-request
// comment. The table and Markdown name the first nodes of a change, then count the rest; JSON
// names every node.

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/render"
)

// shownNodes is how many nodes of a change the table and Markdown name before a count; shownChanges
// how many changes of a key the table shows (a value that interpolates the node's name changes
// differently on every node).
const (
	shownNodes   = 10
	shownChanges = 10
)

// Markdown bounds: a pull-request comment must stay readable and under GitHub's 65,536 characters.
const (
	markdownBudget      = 60000 // characters, past which the remaining keys are only counted
	markdownOpenChanges = 3     // changes of a key shown before the rest are folded
	markdownChanges     = 20    // changes of a key shown in all, open and folded
	markdownKeyRows     = 50    // rows of the summary table
)

// secretChange is a secret's change, shown without its values.
func secretChange(vc valueChange) string {
	if vc.opaque {
		return "(secret changed, no key to compare)"
	}
	return map[string]string{"added": "(secret added)", "removed": "(secret removed)", "changed": "(secret changed)"}[vc.kind()]
}

// changeText is a change as "old -> new" for people ("(absent)" for a side without a value),
// control characters escaped. A secret's change (no values kept) says only what happened.
func (c *changeGroup) text(g *keyGroup, reveal bool) (before, after string) {
	if g.secret && !reveal {
		return "", secretChange(c.valueChange)
	}
	return c.side(c.old, c.hasOld), c.side(c.new, c.hasNew)
}

func (*changeGroup) side(v any, has bool) string {
	if !has {
		return "(absent)"
	}
	return cell(v)
}

// nodeList is the first nodes of a change, then how many more: "web01, web02 and 3 more".
func nodeList(nodes []string, quote func(string) string) string {
	shown := nodes
	if len(shown) > shownNodes {
		shown = shown[:shownNodes]
	}
	parts := make([]string, len(shown))
	for i, n := range shown {
		parts[i] = quote(n)
	}
	s := strings.Join(parts, ", ")
	if n := len(nodes) - len(shown); n > 0 {
		s += fmt.Sprintf(" and %d more", n)
	}
	return s
}

// writeFleetTable writes the diff for a terminal: the summary, each key with its changes and
// their nodes, then the failures.
func writeFleetTable(w io.Writer, d *fleetDiff, reveal bool) {
	_, _ = fmt.Fprintf(w, "from: %s\nto:   %s\n\n%s\n", escapeControl(d.sides[0].describe()), escapeControl(d.sides[1].describe()), d.summary())
	for _, g := range d.keys {
		_, _ = fmt.Fprintf(w, "\n%s\n", escapeControl(g.key))
		for i, c := range g.changes {
			if i == shownChanges {
				_, _ = fmt.Fprintf(w, "  and %d more changes (--render-as json lists every one)\n", len(g.changes)-i)
				break
			}
			before, after := c.text(g, reveal)
			arrow := before + " -> " + after
			if before == "" {
				arrow = after
			}
			_, _ = fmt.Fprintf(w, "  %s\n    %s: %s\n", arrow, count(len(c.nodes), "node"), nodeList(c.nodes, escapeControl))
		}
	}
	writeFailures(w, d, "  ", escapeControl)
}

// failureGroup is one failure shared by several nodes: the same key (or the node itself, key ""),
// the same reason, on the same sides.
type failureGroup struct {
	key, sides, reason string
	nodes              []string
}

// failureGroups are the diff's failures, identical ones as one: a key failing alike on every node
// (an eyaml value without the private key) is one line, not one per node and side. Grouped by
// key, reason and side, then a group of the "to" side joined to the "from" one with the same nodes.
func (d *fleetDiff) failureGroups() []*failureGroup {
	var groups []*failureGroup
	byFailure := map[[3]string]*failureGroup{}
	for _, f := range d.failed { // sorted by node: so are each group's nodes
		id := [3]string{f.key, f.reason, f.side}
		g := byFailure[id]
		if g == nil {
			g = &failureGroup{key: f.key, sides: f.side, reason: f.reason}
			byFailure[id] = g
			groups = append(groups, g)
		}
		g.nodes = append(g.nodes, f.node)
	}
	kept := groups[:0]
	for _, g := range groups {
		if from := byFailure[[3]string{g.key, g.reason, sideNames[0]}]; g.sides == sideNames[1] && from != nil && slices.Equal(from.nodes, g.nodes) {
			from.sides = sideNames[0] + " and " + sideNames[1]
			continue
		}
		kept = append(kept, g)
	}
	return kept
}

// writeFailures lists the nodes and keys that could not be read, apart from the changes, each
// failure shared by several nodes once: its nodes (the first, then how many more), the key, the
// sides and why. code shows data (node names, keys, reasons): escaped for a terminal, in code spans
// in Markdown, where plain text would mention people (@user), reference issues (#1) or link out.
func writeFailures(w io.Writer, d *fleetDiff, item string, code func(string) string) {
	if len(d.failed) == 0 {
		return
	}
	if d.broken {
		_, _ = fmt.Fprintf(w, "\nThe diff is incomplete: these could not be read (a key failing alike on both sides is no change):\n")
	} else {
		_, _ = fmt.Fprintf(w, "\nThese fail alike on both sides, before the change and after (not compared):\n")
	}
	for _, g := range d.failureGroups() {
		what := nodeList(g.nodes, code)
		if len(g.nodes) > 1 {
			what = fmt.Sprintf("%s (%s)", count(len(g.nodes), "node"), what)
		}
		if g.key != "" {
			what += " key " + code(g.key)
		}
		_, _ = fmt.Fprintf(w, "%s%s (%s): %s\n", item, what, g.sides, code(g.reason))
	}
}

// fleetJSON is the diff as the contract's JSON: {"summary", "keys": [{"key", "secret", "changes":
// [{"old", "new", "count", "nodes"}]}], "failed": [{"node", "side", "key"?, "reason"}]}. An added
// key has no old, a removed one no new; a secret's changes carry no values (unless reveal).
func fleetJSON(d *fleetDiff, reveal bool) ([]byte, error) {
	keys := make([]any, len(d.keys))
	for i, g := range d.keys {
		changes := make([]any, len(g.changes))
		for j, c := range g.changes {
			h := model.NewHash(4)
			if !g.secret || reveal {
				if c.hasOld {
					h.Set("old", c.old)
				}
				if c.hasNew {
					h.Set("new", c.new)
				}
			}
			if c.opaque {
				h.Set("ciphertext", true) // compared by ciphertext: no eyaml private key
			}
			h.Set("count", int64(len(c.nodes)))
			nodes := make([]any, len(c.nodes))
			for k, n := range c.nodes {
				nodes[k] = n
			}
			h.Set("nodes", nodes)
			changes[j] = h
		}
		h := model.NewHash(3)
		h.Set("key", g.key)
		h.Set("secret", g.secret)
		h.Set("changes", changes)
		keys[i] = h
	}
	failed := make([]any, len(d.failed))
	for i, f := range d.failed {
		h := model.NewHash(4)
		h.Set("node", f.node)
		h.Set("side", f.side)
		if f.key != "" {
			h.Set("key", f.key)
		}
		h.Set("reason", f.reason)
		failed[i] = h
	}
	out := model.NewHash(3)
	out.Set("summary", d.summary())
	out.Set("keys", keys)
	out.Set("failed", failed)
	return render.Render(out, "json")
}

// fleetMarkdown is the diff as a pull-request comment: the summary and a table of the keys first,
// then each key's changes (the first few open, the rest folded in <details>), the failures, and
// past markdownBudget characters only a count of the keys left out.
func fleetMarkdown(d *fleetDiff, reveal bool) string {
	var b strings.Builder
	_, _ = fmt.Fprintf(&b, "### Hiera: %s\n\n", mdPlain(d.summary()))
	_, _ = fmt.Fprintf(&b, "From %s to %s.\n", mdCode(d.sides[0].describe()), mdCode(d.sides[1].describe()))
	if len(d.keys) > 0 {
		b.WriteString("\n| key | changes | nodes |\n|---|--:|--:|\n")
		for i, g := range d.keys {
			row := fmt.Sprintf("| %s | %d | %d |\n", mdCell(g.key), len(g.changes), g.nodeCount())
			if i == markdownKeyRows || b.Len()+len(row) > markdownBudget { // the table counts against the budget too
				_, _ = fmt.Fprintf(&b, "| and %d more keys | | |\n", len(d.keys)-i)
				break
			}
			b.WriteString(row)
		}
	}
	for i, g := range d.keys {
		var s strings.Builder
		_, _ = fmt.Fprintf(&s, "\n#### %s\n\n", mdCode(g.key))
		for j, c := range g.changes {
			if j == markdownOpenChanges {
				_, _ = fmt.Fprintf(&s, "\n<details><summary>%d more changes</summary>\n\n", len(g.changes)-j)
			}
			if j == markdownChanges {
				_, _ = fmt.Fprintf(&s, "- and %d more changes (`--render-as json` lists every one)\n", len(g.changes)-j)
				break
			}
			s.WriteString(mdChange(c, g, reveal))
		}
		if len(g.changes) > markdownOpenChanges {
			s.WriteString("\n</details>\n")
		}
		if b.Len()+s.Len() > markdownBudget {
			_, _ = fmt.Fprintf(&b, "\n%d more keys are left out here (a comment has room for so much); "+
				"`hieraform diff --render-as json` lists every change.\n", len(d.keys)-i)
			break
		}
		b.WriteString(s.String())
	}
	if len(d.failed) > 0 {
		var s strings.Builder
		writeFailures(&s, d, "- ", mdCode)
		text := s.String()
		if b.Len()+len(text) > markdownBudget+4000 {
			text = fmt.Sprintf("\n%d nodes or keys could not be read; `hieraform diff --render-as json` lists them.\n", len(d.failed))
		}
		b.WriteString(text)
	}
	return b.String()
}

// mdChange is one change as a list item: old → new, how many nodes and which.
func mdChange(c *changeGroup, g *keyGroup, reveal bool) string {
	before, after := c.text(g, reveal)
	arrow := mdCode(before) + " → " + mdCode(after)
	if before == "" {
		arrow = after
	}
	return fmt.Sprintf("- %s: **%s**: %s\n", arrow, count(len(c.nodes), "node"), nodeList(c.nodes, mdCode))
}

// nodeCount is how many nodes any change of the key reaches.
func (g *keyGroup) nodeCount() int {
	n := 0
	for _, c := range g.changes {
		n += len(c.nodes)
	}
	return n
}

// mdCell is text as a code span in a table cell: a pipe escaped so that the cell holds it (GitHub
// takes the escape out of the span there, and only there).
func mdCell(s string) string { return mdCode(strings.ReplaceAll(s, "|", `\|`)) }

// mdCode is text as a Markdown code span, whatever backticks it holds, control characters
// escaped.
func mdCode(s string) string {
	s = escapeControl(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || len(fence) > 1 {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// mdPlain is text in Markdown outside code: control characters escaped, HTML and Markdown's
// own characters neutralised.
func mdPlain(s string) string {
	s = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(escapeControl(s))
	return strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "|", `\|`).Replace(s)
}
