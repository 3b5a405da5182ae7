package provider

// hiera_nodes' read: the fleet's nodes from its node sources, each read as hiera_node reads it
// (readNode), many at once, and their attributes put together keyed by node name.

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/hieraform/terraform-provider-hiera/internal/fleet"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/provider/wire"
)

// maxFleetBytes bounds the attributes of one hiera_nodes read (their msgpack, as the state holds
// them). The whole benchmarks' fleet, 500 whole nodes, is 131 MB of values (258 MB with sources
// and json, which cost Terraform some 8.5 GB of memory: largeFleetWarning); a fleet past the bound
// holds it all (outside the collector's heap) besides what reading that many nodes takes, so the
// bound is what such a fleet's error costs: with 192 MiB, 10,000 whole nodes of that fleet stop at
// a 367-371 MB peak of the benchmark's process (502-517 MB with 320 MiB).
var maxFleetBytes int64 = 192 << 20 // a variable for its test

// largeFleetBytes is the answer size from which a read warns: Terraform's own handling of an answer
// (decoding, checking, storing it) takes about a quarter of a second of CPU and 33 MB of memory per
// MB (Terraform 1.11.4; PERFORMANCE.md), whatever the provider does.
var largeFleetBytes int64 = 32 << 20 // a variable for its test

// largeFleetWarning says what an answer of size bytes costs Terraform, and how to read less.
func largeFleetWarning(nodes int, size int64) diag.Diagnostic {
	mb := float64(size) / (1 << 20)
	return diag.NewWarningDiagnostic("Large Hiera Nodes Answer", fmt.Sprintf("The answers of the %d nodes take %.0f MB. Terraform "+
		"decodes, checks and stores all of it, whatever the provider: about a quarter of a second and 33 MB of its memory per MB "+
		"(Terraform 1.11), so some %.0f s and %.1f GB for this read. Read only the keys the configuration uses (keys, prefixes) "+
		"and the nodes it needs (select); every key of a whole fleet is work for the hieraform command (node, diff --facts, "+
		"unused --facts).", nodes, mb, mb/4, mb*33/1024))
}

// giveBackAbove is the size of a fleet's answers above which the read returns the memory its
// garbage took to the system before its state is made (readNodes).
const giveBackAbove = 64 << 20

// perNodeAttributes are hiera_nodes' attributes that hold, per node, that node's hiera_node attribute.
var perNodeAttributes = []string{"json", "found_keys", "missing_keys", "secret_keys", "failed_keys", "sources", "param_problems"}

// readNodes answers hiera_nodes' arguments in m. scope, when not nil, is m's facts and scope
// converted already (scopeCache): what every node shares.
func (pd *providerData) readNodes(ctx context.Context, m *nodesModel, scope *hiera.Scope) (out fleetOutput, diags diag.Diagnostics) {
	if diags = pd.notReady("the nodes' keys cannot be read"); diags.HasError() {
		return out, diags
	}
	start := time.Now()
	nodes, givenOnly, diags := pd.fleetNodes(ctx, m)
	fetched := time.Since(start)
	if diags.HasError() {
		return out, diags
	}
	diags.Append(pd.factsFileReplaces(&m.lookupArgs)...)
	shared := scope
	if shared == nil {
		s, scopeDiags := pd.engineScope(ctx, &m.lookupArgs)
		if diags.Append(scopeDiags...); diags.HasError() {
			return out, diags
		}
		shared = &s
	}
	// A provider set up for one node (the quickstart's) names it in its scope: each node of the
	// fleet is still answered as itself, unless this data source's own scope names one.
	own, _ := objectArg(ctx, m.Scope, path.Root("scope")) // its errors are engineScope's
	ownCertname := setsCertname(own)
	if name, set := scopeCertname(shared.Vars); set && ownCertname && len(nodes) > 1 {
		diags.AddWarning("Same Certname For Every Node", fmt.Sprintf("This data source's scope sets "+
			"trusted.certname to %q, so every node of the fleet is answered with that certname: %%{trusted.certname} in "+
			"hiera.yaml finds %q's node-level data for each of the %d nodes, not the node's own. Leave trusted.certname out of "+
			"the data source's scope to answer each node as itself.", name, name, len(nodes)))
	}
	// A node of a facts file or of PuppetDB is read as hiera_node reads that file as its facts_file:
	// the file names its own node, and replaces the provider's facts (unless facts_file_merge). A
	// node given in nodes alone gets them, as hiera_node's facts does.
	ownFile := shared
	if pd.facts != nil && !pd.factsFileMerge && m.FactsFile.IsNull() && slices.ContainsFunc(nodes, func(n fleet.Node) bool { return !givenOnly[n.Name] }) {
		s, scopeDiags := pd.engineScopeOver(ctx, &m.lookupArgs, nil)
		if diags.Append(scopeDiags...); diags.HasError() {
			return out, diags
		}
		ownFile = &s
		diags.AddWarning("Provider Facts Replaced", "Each node's facts file (or PuppetDB's facts) replaces the provider's facts "+
			"(its facts_file and facts) for that node, as a data source's facts_file does: no fact of the provider's node (a role, "+
			"a datacenter) leaks into the fleet. Set facts_file_merge = true in the provider block to merge each node's facts over "+
			"the provider's instead.")
	}
	type nodeRead struct {
		out   nodeOutput
		diags diag.Diagnostics
	}
	nodeDiags := make([]diag.Diagnostics, len(nodes))
	parts := nodeParts{fleet: true, sources: m.WithSources.ValueBool(), json: m.WithJSON.ValueBool()}
	w := newFleetWriter(nodes, parts, m.CheckParams.ValueBool())
	defer func() {
		if diags.HasError() {
			w.free() // at once: the chunks are outside the collector's heap
		}
	}()
	var held int64 // the bytes of the nodes' attributes written so far
	reading, stop := context.WithCancel(ctx)
	defer stop()
	fleet.EachInOrder(reading, len(nodes), func(i int) nodeRead {
		n := nodes[i]
		nm := nodeModel{lookupArgs: m.lookupArgs, Keys: m.Keys, Prefixes: m.Prefixes, CheckParams: m.CheckParams}
		nm.FactsFile = types.StringNull() // read into shared already: its warning is the fleet's, once
		below := ownFile
		if givenOnly[n.Name] {
			below = shared
		}
		s := hiera.Scope{Facts: overlay(below.Facts, n.Facts), Vars: shared.Vars}
		if !ownCertname {
			s.Vars = withCertname(shared.Vars, n.Name)
		}
		out, diags := pd.readNode(reading, &nm, &s, parts)
		return nodeRead{out, diags}
	}, func(i int, r nodeRead) {
		nodeDiags[i] = r.diags
		if !r.diags.HasError() { // a node failed: the read fails, its other nodes for their diagnostics only
			w.add(i, r.out)
		}
		if held = w.size(); held > maxFleetBytes {
			stop()
		}
	})
	if held > maxFleetBytes {
		diags.AddError("Hiera Nodes Too Large", fmt.Sprintf("The answers of the %d nodes take more than %d MB, more than one data source "+
			"may return (Terraform holds them in memory and in its state): read fewer keys (keys, prefixes), fewer nodes (select), "+
			"or the fleet in several hiera_nodes.", len(nodes), maxFleetBytes>>20))
		return out, diags
	}
	if held > largeFleetBytes {
		diags.Append(largeFleetWarning(len(nodes), held))
	}
	if err := ctx.Err(); err != nil {
		diags.AddError("Hiera Nodes Read Failed", fmt.Sprintf("Reading the nodes was stopped: %s.", err))
		return out, diags
	}
	if diags.Append(byNode(nodes, nodeDiags)...); diags.HasError() {
		return out, diags
	}
	// the fleet's fetch (files read, PuppetDB queried) and its answers, apart: scripts/bench-puppetdb.sh reads them
	tflog.Debug(ctx, "hiera nodes", map[string]any{"nodes": len(nodes), "fetch_ms": fetched.Milliseconds(),
		"answer_ms": (time.Since(start) - fetched).Milliseconds()})
	if held > giveBackAbove {
		// The state made of these answers is as large again, on the collector's heap: first the
		// heap's memory that reading the nodes left unused goes back to the system.
		debug.FreeOSMemory()
	}
	out, err := w.output()
	if err != nil {
		diags.AddError("Value Conversion Error", "An unexpected error was encountered putting the nodes' attributes together. "+
			"This is always an error in the provider. Please report the following to the provider developer:\n\n"+err.Error())
	}
	return out, diags
}

// fleetNodes is the nodes of m's node sources (facts_dir, puppetdb) with nodes laid over those of the
// same name (and a node of its own for any other name), chosen by select; a glob
// matching no node is a warning. givenOnly names the nodes of nodes that no source has.
func (pd *providerData) fleetNodes(ctx context.Context, m *nodesModel) (chosen []fleet.Node, givenOnly map[string]bool, diags diag.Diagnostics) {
	var sources []fleet.Source
	switch {
	case m.FactsDir.IsUnknown():
		diags.Append(argumentsNotKnown("facts_dir is not known yet"))
	case !m.FactsDir.IsNull():
		sources = append(sources, fleet.Dir(m.FactsDir.ValueString()))
	}
	var fromPuppetDB *puppetdbFleet
	if m.PuppetDB != nil {
		var err error
		fromPuppetDB, err = pd.puppetdbSource(m.PuppetDB)
		switch {
		case errors.Is(err, errUnknown):
			diags.Append(argumentsNotKnown("the puppetdb block is not known yet"))
		case err != nil:
			diags.AddAttributeError(path.Root("puppetdb"), "Invalid PuppetDB Settings", err.Error())
		default:
			sources = append(sources, fromPuppetDB)
		}
		if err != nil {
			fromPuppetDB = nil
		}
	}
	given, err := objectArg(ctx, m.Nodes, path.Root("nodes"))
	var byName fleet.Map // laid over the other sources' nodes of the same name
	switch {
	case err != nil:
		diags.AddAttributeError(path.Root("nodes"), "Invalid Argument", err.Error())
	case given != nil:
		byName = fleet.Map{Origin: "nodes", Facts: make(map[string]*model.Hash, len(given))}
		for name, v := range given {
			facts, ok := v.(map[string]any)
			if v != nil && !ok {
				diags.AddAttributeError(path.Root("nodes").AtMapKey(name), "Invalid Argument",
					fmt.Sprintf("nodes[%q] must be the node's facts, an object such as { role = \"web\" }, got %s", name, tfKind(v)))
				continue
			}
			if byName.Facts[name], err = toHash(facts); err != nil {
				diags.AddAttributeError(path.Root("nodes").AtMapKey(name), "Invalid Argument", err.Error())
			}
		}
	}
	globs, err := stringList(m.Select)
	if err != nil {
		diags.AddAttributeError(path.Root("select"), "Invalid Argument", err.Error())
	}
	if diags.HasError() {
		return nil, nil, diags
	}
	if len(sources) == 0 && byName.Facts == nil {
		diags.AddError("No Nodes Given", "hiera_nodes reads the nodes of facts_dir (a directory of facts files, one per node), "+
			"of nodes (node name -> facts), of a puppetdb block (a PuppetDB query), or several: give at least one.")
		return nil, nil, diags
	}
	all, err := fleet.Collect(ctx, sources...)
	if err == nil && byName.Facts != nil {
		givenOnly = make(map[string]bool, len(byName.Facts))
		for name := range byName.Facts {
			givenOnly[name] = true
		}
		for _, n := range all {
			delete(givenOnly, n.Name)
		}
		all, err = fleet.Overlay(all, byName)
	}
	if err != nil {
		diags.AddError("Invalid Nodes", "The fleet's nodes cannot be read: "+err.Error())
		return nil, nil, diags
	}
	if fromPuppetDB != nil && fromPuppetDB.count == 0 {
		diags.AddAttributeWarning(path.Root("puppetdb"), "No Node From PuppetDB", fromPuppetDB.noneMatched()+".")
	}
	chosen, unmatched, err := fleet.Select(all, globs)
	if err != nil {
		diags.AddAttributeError(path.Root("select"), "Invalid Argument", err.Error())
		return nil, nil, diags
	}
	for _, g := range unmatched {
		example := ""
		if len(all) > 0 {
			example = fmt.Sprintf(" (node names are certnames, such as %q)", all[0].Name)
		}
		diags.AddAttributeWarning(path.Root("select"), "No Node Selected",
			fmt.Sprintf("The select glob %q matches none of the %d nodes%s.", g, len(all), example))
	}
	return chosen, givenOnly, diags
}

// scopeCertname is the trusted.certname that vars set, if any.
func scopeCertname(vars *model.Hash) (any, bool) {
	if vars == nil {
		return nil, false
	}
	given, _ := vars.Get("trusted")
	t, ok := given.(*model.Hash)
	if !ok {
		return nil, false
	}
	return t.Get("certname")
}

// setsCertname tells whether scope, a data source's own, sets trusted.certname.
func setsCertname(scope map[string]any) bool {
	t, ok := scope["trusted"].(map[string]any)
	if !ok {
		return scope["trusted"] != nil // not a hash: the caller's choice, kept as is (withCertname)
	}
	_, set := t["certname"]
	return set
}

// withCertname is vars with trusted.certname set to name, over the one vars set (the provider's:
// a data source whose own scope sets it does not call this), unless vars set trusted to something
// other than a hash (the caller's choice). vars is not changed.
func withCertname(vars *model.Hash, name string) *model.Hash {
	trusted := model.NewHash(1)
	if vars != nil {
		given, _ := vars.Get("trusted")
		switch t := given.(type) {
		case nil:
		case *model.Hash:
			trusted = model.NewHash(t.Len() + 1)
			t.Each(func(k, v any) bool { trusted.Set(k, v); return true })
		default:
			return vars
		}
	}
	trusted.Set("certname", name)
	over := model.NewHash(1)
	over.Set("trusted", trusted)
	return overlay(vars, over)
}

// maxListedNodes is how many diagnostics of nodes a read gives one by one.
const maxListedNodes = 20

// byNode is the nodes' diagnostics, each naming the nodes that had it: the same diagnostic of many
// nodes (a shared hiera.yaml's warning) once, naming them.
func byNode(nodes []fleet.Node, perNode []diag.Diagnostics) diag.Diagnostics {
	type group struct {
		d     diag.Diagnostic
		nodes []fleet.Node
	}
	var groups []*group
	index := map[string]*group{}
	for i, ds := range perNode {
		for _, d := range ds {
			key := fmt.Sprintf("%d\x00%s\x00%s", d.Severity(), d.Summary(), d.Detail())
			if dp, ok := d.(diag.DiagnosticWithPath); ok {
				key += "\x00" + dp.Path().String()
			}
			g := index[key]
			if g == nil {
				g = &group{d: d}
				index[key] = g
				groups = append(groups, g)
			}
			g.nodes = append(g.nodes, nodes[i])
		}
	}
	var out diag.Diagnostics
	errors, warnings := 0, 0
	for _, g := range groups {
		count := &warnings
		if g.d.Severity() == diag.SeverityError {
			count = &errors
		}
		if *count++; *count > maxListedNodes {
			continue
		}
		detail := whichNodes(g.nodes, len(nodes)) + ": " + g.d.Detail()
		dp, hasPath := g.d.(diag.DiagnosticWithPath)
		switch {
		case g.d.Severity() == diag.SeverityError && hasPath:
			out.AddAttributeError(dp.Path(), g.d.Summary(), detail)
		case g.d.Severity() == diag.SeverityError:
			out.AddError(g.d.Summary(), detail)
		case hasPath:
			out.AddAttributeWarning(dp.Path(), g.d.Summary(), detail)
		default:
			out.AddWarning(g.d.Summary(), detail)
		}
	}
	if errors > maxListedNodes {
		out.AddError("Hiera Nodes Read Failed", fmt.Sprintf("... and %d more errors of nodes.", errors-maxListedNodes))
	}
	if warnings > maxListedNodes {
		out.AddWarning("Hiera Warning", fmt.Sprintf("... and %d more warnings of nodes.", warnings-maxListedNodes))
	}
	return out
}

// whichNodes names the nodes a diagnostic is about: one with its origin, a few by name, or every
// node of the read.
func whichNodes(nodes []fleet.Node, of int) string {
	const named = 5
	switch {
	case len(nodes) == 1:
		return fmt.Sprintf("Node %q (%s)", nodes[0].Name, nodes[0].Origin)
	case len(nodes) == of:
		return fmt.Sprintf("Every node (%d)", of)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d nodes (", len(nodes))
	for i, n := range nodes[:min(len(nodes), named)] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", n.Name)
	}
	if len(nodes) > named {
		fmt.Fprintf(&b, " and %d more", len(nodes)-named)
	}
	return b.String() + ")"
}

// fleetWriter puts the nodes' attributes together, keyed by node name, node after node in the
// order of their names (as Terraform writes a map's keys): a whole fleet's attributes are hundreds
// of megabytes, so each node's are written into the fleet's as soon as the nodes before it are,
// and let go, and the fleet's are written in chunks (wire.Chunks), never copied to grow. The
// values' type is the one the nodes' share (fleet_types.go) while they share one, else each node's.
type fleetWriter struct {
	nodes       []fleet.Node
	parts       nodeParts
	checkParams bool
	written     int          // the nodes written
	shared      *tfType      // the type the values of the nodes written share; nil once they share none
	types       *wire.Chunks // each node's values' type, as JSON: `"name":type`, comma-separated
	values      *wire.Chunks // values' value: its map's pairs
	perNode     map[string]*wire.Chunks
	scratch     []byte
	err         error
}

func newFleetWriter(nodes []fleet.Node, parts nodeParts, checkParams bool) *fleetWriter {
	w := &fleetWriter{nodes: nodes, parts: parts, checkParams: checkParams, types: &wire.Chunks{}, values: &wire.Chunks{}, perNode: map[string]*wire.Chunks{}}
	for _, name := range perNodeAttributes {
		if w.asked(name) {
			w.perNode[name] = &wire.Chunks{}
			w.perNode[name].Write(wire.AppendMapHeader(nil, len(nodes)))
		}
	}
	return w
}

// asked tells whether the per-node attribute name is written (else it is null for the fleet).
func (w *fleetWriter) asked(name string) bool {
	switch name {
	case "param_problems":
		return w.checkParams
	case "sources":
		return w.parts.sources
	case "json":
		return w.parts.json
	}
	return true
}

// add writes the attributes out of nodes[i], the node after those written.
func (w *fleetWriter) add(i int, out nodeOutput) {
	if w.err != nil {
		return
	}
	if i != w.written {
		w.err = fmt.Errorf("node %d written after %d", i, w.written)
		return
	}
	w.written++
	name := w.nodes[i].Name
	value, err := out.attribute("values")
	if err == nil && out.valuesType == nil {
		err = fmt.Errorf("node %q: its values have no type", name)
	}
	if err != nil {
		w.err = err
		return
	}
	if i == 0 {
		w.shared = out.valuesType
	} else {
		w.shared = (&unifier{unifyWork}).unifyNodes(w.shared, out.valuesType)
		w.types.Write([]byte{','})
	}
	w.scratch = appendTypeJSON(append(appendJSONName(w.scratch[:0], name), ':'), out.valuesType)
	w.types.Write(w.scratch)
	key := wire.AppendString(w.scratch[:0], name) // the name as a msgpack map key
	w.scratch = key
	w.values.Write(key)
	w.values.Write(value)
	for _, attr := range perNodeAttributes {
		if !w.asked(attr) {
			continue
		}
		b, err := out.attribute(attr)
		if err != nil {
			w.err = err
			return
		}
		w.perNode[attr].Write(key)
		w.perNode[attr].Write(b)
	}
}

// output is the fleet's attributes, once every node is written.
func (w *fleetWriter) output() (fleetOutput, error) {
	if w.err == nil && w.written != len(w.nodes) {
		w.err = fmt.Errorf("%d of the %d nodes written", w.written, len(w.nodes))
	}
	if w.err != nil {
		w.free()
		return fleetOutput{}, w.err
	}
	names := make([]string, len(w.nodes))
	for i, n := range w.nodes {
		names[i] = n.Name
	}
	// values: [the type as JSON, the value], as terraform-plugin-go writes a dynamic value: a map
	// of the type the nodes share, else an object of each node's
	var typ []wire.Piece
	if w.shared != nil {
		w.types.Free()
		typ = []wire.Piece{{Bytes: append(appendTypeJSON([]byte(`["map",`), w.shared), ']')}}
	} else {
		typ = []wire.Piece{{Bytes: []byte(`["object",{`)}, {Chunks: w.types}, {Bytes: []byte(`}]`)}}
	}
	var typeLen int
	for _, p := range typ {
		typeLen += p.Len()
	}
	head := wire.Piece{Bytes: wire.AppendBinaryHeader(wire.AppendArrayHeader(nil, 2), typeLen)}
	values := append(append([]wire.Piece{head}, typ...), wire.Piece{Bytes: wire.AppendMapHeader(nil, len(w.nodes))}, wire.Piece{Chunks: w.values})
	out := fleetOutput{attributes: map[string][]wire.Piece{
		"values":     values,
		"node_names": {{Bytes: writeStrings(names)}},
	}}
	for _, name := range perNodeAttributes {
		if w.asked(name) {
			out.attributes[name] = []wire.Piece{{Chunks: w.perNode[name]}}
		} else {
			out.attributes[name] = []wire.Piece{{Bytes: wire.AppendNil(nil)}} // not asked for: null, not a map of nulls
		}
	}
	return out, nil
}

// size is the bytes w holds.
func (w *fleetWriter) size() int64 {
	n := w.types.Len() + w.values.Len()
	for _, c := range w.perNode {
		n += c.Len()
	}
	return int64(n)
}

// free gives back what w wrote, of a read that fails.
func (w *fleetWriter) free() {
	w.types.Free()
	w.values.Free()
	for _, c := range w.perNode {
		c.Free()
	}
}

// fleetOutput is hiera_nodes' computed attributes, each in the pieces it was written in: the
// state is spliced from them (protocol.go), which moves each chunk into it.
type fleetOutput struct {
	attributes map[string][]wire.Piece
}

// appendAttribute appends the pieces of the encoding of the computed attribute name.
func (o *fleetOutput) appendAttribute(name string, pieces []wire.Piece) ([]wire.Piece, error) {
	p, ok := o.attributes[name]
	if !ok {
		return nil, fmt.Errorf("hiera_nodes has no computed attribute %q", name)
	}
	return append(pieces, p...), nil
}

// size is the bytes of o's attributes.
func (o *fleetOutput) size() int64 {
	var n int64
	for _, pieces := range o.attributes {
		for _, p := range pieces {
			n += int64(p.Len())
		}
	}
	return n
}

// joined is o's attributes each in one slice (its chunks moved into them), for the framework's read.
func (o *fleetOutput) joined() nodeOutput {
	out := nodeOutput{attributes: make(map[string][]byte, len(o.attributes))}
	for name, p := range o.attributes {
		out.attributes[name] = wire.Join(p)
	}
	return out
}
