package hiera

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// maxExplanation bounds the explain trace: it grows with locations × value size (a 1.2 MB value
// found through 200 locations made 240 MB). Real traces are kilobytes; the provider returns the
// trace in an attribute and in "not found" errors, which must stay well below gRPC's 4 MB limit.
const maxExplanation = 1 << 20

// explainer observes a search and records its trace, as `puppet lookup --explain` prints it. The
// search reports what it does (a key searched, a layer, a hierarchy entry or location entered and
// left, a value found or not) and the explainer alone decides the words and the indentation. A nil
// *explainer ignores every report, so a lookup without explain pays one nil check per report: the
// reports made at every key, layer, entry, location and value are small enough for the compiler to
// inline where the search calls them (a longer one hands its writing to a ...Text method).
type explainer struct {
	secret    func() bool // whether the lookup has touched a secret: values are then not shown
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
// "Merge strategy" header and followed by the merged result v (when found); with fewer, only the
// branch, at the merge's own depth.
func (x *explainer) closeMerge(m *merge.Merge, v any, found bool) {
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
	header := "Merge strategy " + m.String()
	if oh := m.OptionsHash(); oh != nil {
		header += "\n  Options: " + model.PrettyInspect(oh, 2, maxExplanation)
	}
	x.line("%s", header)
	x.b.Write(body)
	if found {
		x.depth++
		x.line("Merged result: %s", x.show(v))
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

// push and pop indent what follows one level deeper, and back.
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
func (x *explainer) show(v any) string {
	if x.truncated {
		return "" // full: never pay for printing
	}
	if x.secret() {
		return "(sensitive value)"
	}
	return model.PrettyInspect(v, 0, maxExplanation-x.b.Len()) // longer is truncated by line
}

// The reports of a search, in the order a lookup makes them. Each enter... is followed by leave.

// leave ends what the last enter... began.
func (x *explainer) leave() { x.pop() }

// enterKey: the search of a key (or of lookup_options) begins.
func (x *explainer) enterKey(key string) {
	if x == nil {
		return
	}
	x.line("Searching for %q", key)
	x.push()
}

// invalidKey: lookup_options was asked for, which no lookup may.
func (x *explainer) invalidKey() {
	if x != nil {
		x.line("Invalid key \"lookup_options\"")
	}
}

// mergeFromOptions: the merge comes from the key's lookup_options.
func (x *explainer) mergeFromOptions() {
	if x != nil {
		x.line("Using merge options from \"lookup_options\" hash")
	}
}

// moduleNotFound: the key's module layer has no module of that name, or (confined) none with data.
func (x *explainer) moduleNotFound(module string, confined bool) {
	switch {
	case x == nil:
	case confined:
		x.node("Module data provider for module %q not found", module)
	default:
		x.node("Module %q not found", module)
	}
}

// enterLayer: one layer's hierarchy is searched.
func (x *explainer) enterLayer(l *layer) {
	if x != nil {
		x.enterLayerText(l)
	}
}

func (x *explainer) enterLayerText(l *layer) {
	x.node("%s", l.name())
	x.push()
	x.line("Using configuration %q", l.cfg.Path)
}

// enterDefaultHierarchy: no layer had the key; the module's default_hierarchy is searched.
func (x *explainer) enterDefaultHierarchy(module string) {
	if x == nil {
		return
	}
	x.line("Searching default_hierarchy of module %q", module)
	x.push()
}

// enterEntry: one hierarchy level is searched.
func (x *explainer) enterEntry(e *entry) {
	if x == nil {
		return
	}
	x.node("Hierarchy entry %q", e.Name)
	x.push()
}

// enterLocation: one of the level's locations is read: its resolved path (or URI) and the path
// as hiera.yaml writes it.
func (x *explainer) enterLocation(path, original string, uri bool) {
	if x != nil {
		x.enterLocationText(path, original, uri)
	}
}

func (x *explainer) enterLocationText(path, original string, uri bool) {
	if uri {
		x.node("URI %q", path)
	} else {
		x.node("Path %q", path)
	}
	x.push()
	x.line("Original path: %q", original)
}

// pathNotFound: the location's file does not exist.
func (x *explainer) pathNotFound() {
	if x != nil {
		x.line("Path not found")
	}
}

// noSuchKey: the file (or the value dug into) does not have the key.
func (x *explainer) noSuchKey(key string) {
	if x != nil {
		x.line("No such key: %q", key)
	}
}

// found: the location gave the key a value (interpolated).
func (x *explainer) found(key string, v any) {
	if x != nil {
		x.foundText(key, v)
	}
}

func (x *explainer) foundText(key string, v any) {
	x.line("Found key: %q value: %s", key, x.show(v))
}

// enterInterpolation: a string's %{...} are interpolated (the text may be a secret).
func (x *explainer) enterInterpolation(s string) {
	if x != nil {
		x.enterInterpolationText(s)
	}
}

func (x *explainer) enterInterpolationText(s string) {
	x.line("Interpolation on %s", x.show(s))
	x.push()
}

// foundInScope: an interpolation found a variable in the scope.
func (x *explainer) foundInScope(name string, v any) {
	if x != nil {
		x.foundInScopeText(name, v)
	}
}

func (x *explainer) foundInScopeText(name string, v any) {
	x.line("Global Scope")
	x.line("  Found key: %q value: %s", name, x.show(v))
}

// dig: the value found for the root is dug into for the rest of a dotted key, each segment found
// or not (the trace only: the search digs by itself).
func (x *explainer) dig(value any, segs []any, key string) {
	if x != nil {
		x.digText(value, segs, key)
	}
}

func (x *explainer) digText(value any, segs []any, key string) {
	parts := make([]string, 0, len(segs)-1)
	for _, s := range segs[1:] {
		parts = append(parts, model.ToS(s))
	}
	x.line("Sub key: %q", strings.Join(parts, "."))
	x.push()
	defer x.pop()
	for i := 2; i <= len(segs); i++ {
		v, found, err := dig(value, segs[:i], key)
		if err != nil || !found {
			x.line("No such key: %q", parts[i-2])
			return
		}
		x.line("Found key: %q value: %s", parts[i-2], x.show(v))
	}
}

// convertTo: the value found is converted as the key's lookup_options say.
func (x *explainer) convertTo(spec any) {
	if x != nil {
		x.line("Applying convert_to lookup_option with arguments %s", convertToText(spec))
	}
}

// defaultValue: nothing was found and the request's default is the answer.
func (x *explainer) defaultValue(v any) {
	if x != nil {
		x.line("Using the default value: %s", x.show(v))
	}
}

// notFound: nothing was found and there is no default.
func (x *explainer) notFound(key string) {
	if x != nil {
		x.line("Function lookup() did not find a value for the name '%s'", key)
	}
}

// convertToText is how Puppet's explain prints convert_to: an array whose first element is the
// type (shown bare, as a type is), e.g. [Array, true] or [Integer].
func convertToText(spec any) string {
	list, isList := spec.([]any)
	if !isList {
		list = []any{spec}
	}
	parts := make([]string, len(list))
	for i, a := range list {
		if s, isStr := a.(string); isStr && i == 0 {
			parts[i] = s
		} else {
			parts[i] = model.Inspect(a)
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// customSkipped: a level served by a custom function is not read, and why (formatted only when
// explaining: line does nothing on a nil explainer).
func (x *explainer) customSkipped(format string, args ...any) { x.line(format, args...) }
