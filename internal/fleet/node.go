package fleet

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// MaxNodes bounds a fleet: far above what one plan or command reads (a fleet's whole nodes take
// tens of kilobytes each in memory), and a directory of more files is refused before any is read.
const MaxNodes = 20000

// errTooManyNodes is the error of a fleet of more than MaxNodes nodes.
var errTooManyNodes = fmt.Errorf("the fleet has more than %d nodes, more than one read takes: choose fewer (select, a smaller directory or query)", MaxNodes)

// Node is one node of a fleet.
type Node struct {
	Name   string      // the node's certname
	Facts  *model.Hash // its facts, in the order its source gives them; never nil
	Origin string      // where it comes from, for messages: the facts file's path, or the source
}

// Source yields the nodes of one node source, in any order.
type Source interface {
	Nodes(ctx context.Context) ([]Node, error)
}

// SourceFunc is a function as a Source.
type SourceFunc func(ctx context.Context) ([]Node, error)

// Nodes calls f.
func (f SourceFunc) Nodes(ctx context.Context) ([]Node, error) { return f(ctx) }

// Map is nodes given by name, each with its facts (nil: none): the provider's `nodes` argument.
// Origin names the source in messages, as `nodes` does; each node's origin is Origin["name"].
type Map struct {
	Origin string
	Facts  map[string]*model.Hash
}

// Nodes returns m's nodes.
func (m Map) Nodes(context.Context) ([]Node, error) {
	nodes := make([]Node, 0, len(m.Facts))
	for name, facts := range m.Facts {
		if name == "" {
			return nil, fmt.Errorf("%s: a node's name is empty", m.Origin)
		}
		if facts == nil {
			facts = model.NewHash(0)
		}
		nodes = append(nodes, Node{Name: name, Facts: facts, Origin: fmt.Sprintf("%s[%q]", m.Origin, name)})
	}
	return nodes, nil
}

// Collect returns the nodes of every source, sorted by name. A node named by two files or sources
// is an error naming both, as is a fleet of more than MaxNodes nodes.
func Collect(ctx context.Context, sources ...Source) ([]Node, error) {
	var all []Node
	for _, s := range sources {
		nodes, err := s.Nodes(ctx)
		if err != nil {
			return nil, err
		}
		if len(all)+len(nodes) > MaxNodes {
			return nil, errTooManyNodes
		}
		all = append(all, nodes...)
	}
	slices.SortStableFunc(all, func(a, b Node) int { return strings.Compare(a.Name, b.Name) })
	for i := 1; i < len(all); i++ {
		if all[i].Name == all[i-1].Name {
			return nil, fmt.Errorf("two nodes are named %q: %s and %s", all[i].Name, all[i-1].Origin, all[i].Origin)
		}
	}
	return all, nil
}

// Overlay lays m's facts over the nodes of the same name, top-level keys replaced (Ruby's
// Hash#merge, as facts are layered everywhere), and adds the others as nodes of their own: the
// provider's `nodes` over its facts_dir and PuppetDB nodes. The result is sorted by name.
func Overlay(nodes []Node, m Map) ([]Node, error) {
	given, err := m.Nodes(context.Background())
	if err != nil {
		return nil, err
	}
	byName := make(map[string]int, len(nodes))
	for i, n := range nodes {
		byName[n.Name] = i
	}
	out := slices.Clone(nodes)
	for _, g := range given {
		i, ok := byName[g.Name]
		if !ok {
			out = append(out, g)
			continue
		}
		out[i].Facts = merge.Hashes(g.Facts, out[i].Facts)
		out[i].Origin += " with " + g.Origin
	}
	if len(out) > MaxNodes {
		return nil, errTooManyNodes
	}
	slices.SortStableFunc(out, func(a, b Node) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// Select returns the nodes whose names match one of globs (path.Match's syntax: *, ?, [a-z], \),
// in their order, and the globs that match none, for a warning. With no globs, every node.
func Select(nodes []Node, globs []string) (selected []Node, unmatched []string, err error) {
	if globs == nil {
		return nodes, nil, nil
	}
	for _, g := range globs {
		if _, err := path.Match(g, ""); err != nil {
			return nil, nil, fmt.Errorf("select: %q is not a valid glob (* ? [a-z] \\ are its special characters)", g)
		}
	}
	matched := make([]bool, len(globs))
	for _, n := range nodes {
		chosen := false
		for i, g := range globs {
			if ok, _ := path.Match(g, n.Name); ok {
				matched[i], chosen = true, true
			}
		}
		if chosen {
			selected = append(selected, n)
		}
	}
	for i, g := range globs {
		if !matched[i] {
			unmatched = append(unmatched, g)
		}
	}
	return selected, unmatched, nil
}
