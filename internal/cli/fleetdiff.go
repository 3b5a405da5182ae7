package cli

// hieraform diff over a fleet: every node of a node source answered on both sides, the changes
// grouped by key, then by distinct change, with the nodes each reaches.

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/facts"
	"github.com/hieraform/terraform-provider-hiera/internal/fleet"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// sideNames are the two sides in a fleet diff's output.
var sideNames = [2]string{"from", "to"}

// fleetDiff is the outcome of a fleet diff.
type fleetDiff struct {
	sides   [2]setup
	nodes   int         // nodes read
	changed int         // nodes with at least one change
	keys    []*keyGroup // sorted by key
	failed  []failure   // sorted by node, side, key
	// broken is set when a failure leaves the diff incomplete: a node that could not be read, or a
	// key that failed on one side only or otherwise than on the other.
	broken bool
}

// keyGroup is one key (or dotted subkey) that changes, with its distinct changes.
type keyGroup struct {
	key     string
	secret  bool
	changes []*changeGroup // most nodes first
}

// changeGroup is one distinct change of a key and the nodes it reaches (sorted). A secret's
// change (without --reveal) holds no values.
type changeGroup struct {
	valueChange
	nodes []string
}

// failure is a node, or one key of a node (key set), that could not be read on one side.
type failure struct {
	node, side, key, reason string
}

// nodeDiff is what one node contributes: its changes, or why it could not be compared.
type nodeDiff struct {
	changes []valueChange
	secret  map[string]bool // keys of changes whose value is secret
	failed  []failure
	broken  bool
}

// diffFleet answers every node on both sides, on every core (fleet.Each), and groups the
// changes. reveal groups and shows secrets by their values. When the sides differ only in data
// (changedKeys), only the keys the change reaches are looked up; else every key of every node.
func diffFleet(ctx context.Context, sides [2]setup, nodes []fleet.Node, req hiera.NodeRequest, reveal bool) (*fleetDiff, error) {
	var engines [2]*hiera.Engine
	for i := range engines {
		var err error
		if engines[i], err = sides[i].engine(); err != nil {
			return nil, errors.New(sides[i].shown(err.Error()))
		}
	}
	asked := req.Keys != nil // a failing key asked for fails its node
	if changed, err := changedKeys(sides); err == nil && !compareEveryKey && dataWithinRoots(ctx, engines, sides, nodes) {
		req.Keys = reachedKeys(changed, req.Keys)
	}
	diffs := make([]nodeDiff, len(nodes))
	if req.Keys == nil || len(req.Keys) > 0 {
		fleet.Each(ctx, len(nodes), func(i int) {
			diffs[i] = diffNode(ctx, engines, sides, nodes[i], req, asked, reveal)
		})
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d := &fleetDiff{sides: sides, nodes: len(nodes)}
	groups := map[string]*keyGroup{}
	byChange := map[string]*changeGroup{}
	for i, nd := range diffs {
		d.failed = append(d.failed, nd.failed...)
		d.broken = d.broken || nd.broken
		if len(nd.changes) > 0 {
			d.changed++
		}
		for _, vc := range nd.changes {
			g := groups[vc.key]
			if g == nil {
				g = &keyGroup{key: vc.key}
				groups[vc.key] = g
				d.keys = append(d.keys, g)
			}
			g.secret = g.secret || nd.secret[vc.key]
			id := changeIdentity(vc)
			c := byChange[id]
			if c == nil {
				c = &changeGroup{valueChange: vc}
				byChange[id] = c
				g.changes = append(g.changes, c)
			}
			c.nodes = append(c.nodes, nodes[i].Name) // nodes are sorted: so are these
		}
	}
	slices.SortFunc(d.keys, func(a, b *keyGroup) int { return strings.Compare(a.key, b.key) })
	for _, g := range d.keys {
		slices.SortStableFunc(g.changes, func(a, b *changeGroup) int { return len(b.nodes) - len(a.nodes) })
	}
	return d, nil
}

// diffNode answers one node on both sides and lists its changes. A node that cannot be read on a
// side is a failure, and the diff incomplete; so is a key that fails on one side only. A node or
// key that fails alike on both sides is listed, and the diff is complete without it (it fails
// before the change and after, with the same error).
func diffNode(ctx context.Context, engines [2]*hiera.Engine, sides [2]setup, node fleet.Node, req hiera.NodeRequest, asked, reveal bool) nodeDiff {
	var nd nodeDiff
	var answers [2]map[string]hiera.NodeAnswer
	var order [2][]string
	var reasons [2]string
	keyMissing := false
	req.Scope = facts.Scope(node.Facts, node.Name)
	for i, e := range engines {
		req.EyamlKeys = sides[i].eyaml
		res, err := e.LookupNode(ctx, req)
		if err == nil && res.ListErr != nil {
			err = res.ListErr
		}
		if err == nil && asked {
			err = failingKeys(res)
		}
		if err != nil {
			reasons[i] = sides[i].neutral(oneLine(err.Error()))
			keyMissing = keyMissing || errors.Is(err, hiera.ErrEyamlKey)
			nd.failed = append(nd.failed, failure{node: node.Name, side: sideNames[i], reason: sides[i].shown(oneLine(err.Error()))})
			continue
		}
		answers[i] = make(map[string]hiera.NodeAnswer, len(res.Answers))
		for _, a := range res.Answers {
			answers[i][a.Key] = a
			order[i] = append(order[i], a.Key)
		}
	}
	if len(nd.failed) > 0 {
		nd.broken = reasons[0] != reasons[1] || keyMissing // as keyFailures
		return nd
	}
	seen := make(map[string]bool, len(order[0]))
	for _, key := range append(order[0], order[1]...) {
		if seen[key] {
			continue
		}
		seen[key] = true
		l, inLeft := answers[0][key]
		r, inRight := answers[1][key]
		if l.Err != nil || r.Err != nil {
			nd.keyFailures(node.Name, sides, key, l.Err, r.Err)
			continue
		}
		lFound, rFound := inLeft && l.Result.Found, inRight && r.Result.Found
		if !lFound && !rFound || lFound && rFound && l.Result.Sensitive == r.Result.Sensitive && model.Equal(l.Result.Value, r.Result.Value) {
			continue
		}
		secret := lFound && l.Result.Sensitive || rFound && r.Result.Sensitive
		vc := valueChange{key: key, old: l.Result.Value, new: r.Result.Value, hasOld: lFound, hasNew: rFound}
		switch {
		case secret && !reveal:
			vc.opaque = lFound && rFound && (hiera.Undecrypted(l.Result.Value) || hiera.Undecrypted(r.Result.Value))
			vc.old, vc.new = nil, nil
			nd.add(vc, true)
		case secret || !lFound || !rFound:
			nd.add(vc, secret)
		default:
			subs := valueChanges(key, vc.old, vc.new)
			if len(subs) > maxSubkeyRows { // a hash changed throughout: one change, not hundreds
				subs = []valueChange{vc}
			}
			for _, sc := range subs {
				nd.add(sc, false)
			}
		}
	}
	return nd
}

func (nd *nodeDiff) add(vc valueChange, secret bool) {
	nd.changes = append(nd.changes, vc)
	if secret {
		if nd.secret == nil {
			nd.secret = map[string]bool{}
		}
		nd.secret[vc.key] = true
	}
}

// keyFailures records a key whose lookup failed on one side or both.
func (nd *nodeDiff) keyFailures(node string, sides [2]setup, key string, errs ...error) {
	var reasons [2]string
	for i, err := range errs {
		if err != nil {
			reasons[i] = sides[i].neutral(oneLine(err.Error()))
			nd.failed = append(nd.failed, failure{node: node, side: sideNames[i], key: key, reason: sides[i].shown(oneLine(err.Error()))})
		}
	}
	// failing alike, the change makes no difference; but a missing eyaml key hides whether the
	// secret changed
	if reasons[0] != reasons[1] || errors.Is(errs[0], hiera.ErrEyamlKey) || errors.Is(errs[1], hiera.ErrEyamlKey) {
		nd.broken = true
	}
}

// neutral is a message of the side's data with its roots (sideRoots) named by role, so that the
// same failure on both sides reads the same though each side's files lie elsewhere (two
// revisions' trees, two checkouts).
func (st setup) neutral(msg string) string {
	for r, root := range sideRoots(st) {
		if abs, err := filepath.Abs(root); root != "" && err == nil {
			msg = strings.ReplaceAll(msg, abs+string(filepath.Separator), fmt.Sprintf("<root %d>/", r))
		}
	}
	return msg
}

// compareEveryKey makes diffFleet compare every key, as when changedKeys cannot tell (for tests).
var compareEveryKey = false

// reachedKeys are the keys to look up: the changed ones, or when keys were asked for (asked not
// nil), those of them whose root key changed; never nil, so that no change means no lookup.
func reachedKeys(changed, asked []string) []string {
	if asked == nil {
		return append([]string{}, changed...)
	}
	keys := []string{}
	for _, k := range asked {
		root := k
		if segs, err := hiera.ParseKey(k); err == nil {
			root = model.ToS(segs[0])
		}
		if _, found := slices.BinarySearch(changed, root); found {
			keys = append(keys, k)
		}
	}
	return keys
}

// failingKeys is the error of a read whose keys were asked for (--keys): a failing key fails the
// node, as hiera_node's keys do.
func failingKeys(res hiera.NodeResult) error {
	var failed []string
	for _, a := range res.Answers {
		if a.Err != nil {
			failed = append(failed, fmt.Sprintf("%s: %s", a.Key, a.Err))
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return fmt.Errorf("the lookups of %s failed: %s", count(len(failed), "key"), strings.Join(failed, "; "))
}

// changeIdentity tells distinct changes of one key apart: their values, as JSON (which keeps
// types and key order apart: 1, 1.0 and "1" differ), and which sides have one.
func changeIdentity(vc valueChange) string {
	var b bytes.Buffer
	b.WriteString(vc.key)
	for _, side := range []struct {
		v   any
		has bool
	}{{vc.old, vc.hasOld}, {vc.new, vc.hasNew}} {
		b.WriteByte(0)
		if side.has {
			js, err := datafile.MarshalJSON(side.v)
			if err != nil {
				js = []byte(fmt.Sprintf("%#v", side.v))
			}
			b.WriteByte('=')
			b.Write(js)
		}
	}
	if vc.opaque {
		b.WriteString("\x00ciphertext")
	}
	return b.String()
}

// summary is the diff in one line: "12 of 480 nodes change, 3 keys".
func (d *fleetDiff) summary() string {
	verb := "change"
	if d.changed == 1 {
		verb = "changes"
	}
	s := fmt.Sprintf("%d of %s %s, %s", d.changed, count(d.nodes, "node"), verb, count(len(d.keys), "key"))
	if n := d.failedNodes(); n > 0 {
		s += fmt.Sprintf("; %s could not be read", count(n, "node"))
	}
	if n := len(d.failed) - d.nodeFailures(); n > 0 {
		s += fmt.Sprintf("; %s failed", count(n, "key lookup"))
	}
	return s
}

// failedNodes is how many nodes could not be read on a side.
func (d *fleetDiff) failedNodes() int {
	nodes := map[string]bool{}
	for _, f := range d.failed {
		if f.key == "" {
			nodes[f.node] = true
		}
	}
	return len(nodes)
}

func (d *fleetDiff) nodeFailures() int {
	n := 0
	for _, f := range d.failed {
		if f.key == "" {
			n++
		}
	}
	return n
}

// fleetSource is the node source of a fleet command, or nil when the flags name no fleet: --facts
// given once, naming a directory (every facts file in it is a node, as hiera_nodes' facts_dir),
// and --puppetdb without --node (the nodes of --puppetdb-query); both may be given.
func fleetSource(src *sourceFlags) (fleet.Source, error) {
	var dir string
	for _, f := range src.facts {
		if fi, err := os.Stat(f); err == nil && fi.IsDir() {
			dir = f
		}
	}
	fromPuppetDB := src.pdb.given() && (len(src.node) == 0 || src.pdb.query != "")
	switch {
	case dir == "" && !fromPuppetDB:
		return nil, nil
	case dir != "" && len(src.facts) > 1:
		return nil, fmt.Errorf("--facts %s is a directory of nodes: give it once, for both sides", dir)
	case dir != "" && len(src.node) > 0:
		return nil, errors.New("--node names one node: a facts directory names each node by its facts file")
	case fromPuppetDB && len(src.node) > 0:
		return nil, errors.New("--node names one node: --puppetdb-query chooses the fleet's nodes")
	case fromPuppetDB && dir == "" && len(src.facts) > 0:
		return nil, errors.New("--facts and --puppetdb both give the nodes' facts: give --facts a directory to add its nodes, or one of them")
	}
	src.facts = nil // the sides' setups have no node of their own
	var sources []fleet.Source
	if dir != "" {
		sources = append(sources, fleet.Dir(dir))
	}
	if fromPuppetDB {
		pdb := src.pdb // a copy: the sides' setups are not given it
		sources = append(sources, pdb.source())
		src.pdb = puppetdbFlags{}
	}
	return fleet.SourceFunc(func(ctx context.Context) ([]fleet.Node, error) {
		return fleet.Collect(ctx, sources...)
	}), nil
}

// runFleetDiff diffs every node of source between the two sides and renders it.
func runFleetDiff(ctx context.Context, env Env, sides [2]setup, source fleet.Source, req hiera.NodeRequest, format string, reveal bool) int {
	fail := env.failer("Error: ", exitFailure)
	nodes, err := fleet.Collect(ctx, source)
	if err != nil {
		return fail(cmp.Or(interrupted(ctx), err))
	}
	d, err := diffFleet(ctx, sides, nodes, req, reveal)
	if err != nil {
		return fail(cmp.Or(interrupted(ctx), err))
	}
	switch format {
	case "json":
		out, err := fleetJSON(d, reveal)
		if err != nil {
			return fail(err)
		}
		_, _ = env.Stdout.Write(out)
	case "markdown":
		_, _ = io.WriteString(env.Stdout, fleetMarkdown(d, reveal))
	default:
		writeFleetTable(env.Stdout, d, reveal)
	}
	switch {
	case d.broken:
		return exitFailure
	case len(d.keys) > 0:
		return exitAnswer
	}
	return exitOK
}
