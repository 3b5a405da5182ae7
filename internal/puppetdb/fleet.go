package puppetdb

import (
	"context"
	"fmt"

	"github.com/hieraform/terraform-provider-hiera/internal/fleet"
)

// FleetNodes is the nodes of query as a fleet's nodes (a node source: fleet.SourceFunc). More than
// fleet.MaxNodes is an error as soon as the answer passes it.
func (c *Client) FleetNodes(ctx context.Context, query string) ([]fleet.Node, error) {
	var nodes []fleet.Node
	_, err := c.Nodes(ctx, query, func(n *Node) error {
		if len(nodes) == fleet.MaxNodes {
			return &Error{URL: c.base, Msg: fmt.Sprintf("the query matches more than %d nodes, more than one read takes: narrow it (facts.role = \"web\")", fleet.MaxNodes)}
		}
		nodes = append(nodes, fleet.Node{Name: n.Certname, Facts: n.Facts, Origin: fmt.Sprintf("PuppetDB %s node %q", c.base, n.Certname)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return nodes, nil
}
