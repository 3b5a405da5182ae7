package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hieraform/terraform-provider-hiera/internal/facts"
	"github.com/hieraform/terraform-provider-hiera/internal/fleet"
	"github.com/hieraform/terraform-provider-hiera/internal/puppetdb"
)

// puppetdbFlags say which PuppetDB nodes' facts come from: --puppetdb URL and the query, the TLS
// files (default: PUPPETDB_CACERT, PUPPETDB_CERT, PUPPETDB_KEY, as the provider takes them) and
// the Puppet Enterprise token (PUPPETDB_TOKEN only: a flag would show it in the process list).
type puppetdbFlags struct {
	url, query, cacert, cert, key string
	timeout                       time.Duration
	getenv                        func(string) string
	stderr                        io.Writer // the warning of a query matching nothing
}

func (p *puppetdbFlags) register(fs *flag.FlagSet, env Env) {
	p.getenv, p.stderr = env.getenv, env.Stderr
	fs.StringVar(&p.url, "puppetdb", "", "facts from the PuppetDB at this `URL` (https://puppetdb:8081): the named node's, or every node of --puppetdb-query")
	fs.StringVar(&p.query, "puppetdb-query", "", "the fleet's nodes: a PQL inventory `query` (default: every active node), e.g. 'inventory[certname, facts] { facts.role = \"web\" }'")
	fs.StringVar(&p.cacert, "puppetdb-cacert", "", "the Puppet CA certificate `file` PuppetDB's certificate is checked against (default: PUPPETDB_CACERT)")
	fs.StringVar(&p.cert, "puppetdb-cert", "", "the client certificate `file` PuppetDB admits (default: PUPPETDB_CERT)")
	fs.StringVar(&p.key, "puppetdb-key", "", "the client certificate's key `file` (default: PUPPETDB_KEY; a PE token: PUPPETDB_TOKEN)")
	fs.DurationVar(&p.timeout, "puppetdb-timeout", puppetdb.DefaultTimeout, "how long to wait for PuppetDB to answer (a whole query: 20 times it)")
}

// given says whether the flags name a PuppetDB.
func (p *puppetdbFlags) given() bool { return p != nil && p.url != "" }

// check refuses flags that only make sense with --puppetdb.
func (p *puppetdbFlags) check() error {
	if p.url == "" && (p.query != "" || p.cacert != "" || p.cert != "" || p.key != "") {
		return errors.New("--puppetdb-query and the --puppetdb-* TLS flags need --puppetdb URL")
	}
	return nil
}

func (p *puppetdbFlags) client() (*puppetdb.Client, error) {
	orEnv := func(flag, name string) string {
		if flag != "" {
			return flag
		}
		return p.getenv(name)
	}
	return puppetdb.New(puppetdb.Config{
		URL:     p.url,
		CACert:  orEnv(p.cacert, "PUPPETDB_CACERT"),
		Cert:    orEnv(p.cert, "PUPPETDB_CERT"),
		Key:     orEnv(p.key, "PUPPETDB_KEY"),
		Token:   p.getenv("PUPPETDB_TOKEN"),
		Timeout: p.timeout,
	})
}

// node reads the facts of the node named certname.
func (p *puppetdbFlags) node(certname string) (*facts.Node, error) {
	if p.query != "" {
		return nil, errors.New("--puppetdb-query chooses a fleet's nodes: this command reads one node, named by --node")
	}
	if certname == "" {
		return nil, errors.New("--puppetdb reads one node's facts: name it with --node CERTNAME")
	}
	c, err := p.client()
	if err != nil {
		return nil, err
	}
	n, err := c.Node(context.Background(), certname)
	if err != nil {
		return nil, err
	}
	return &facts.Node{Name: n.Certname, File: fmt.Sprintf("PuppetDB %s node %q", c.URL(), n.Certname), Facts: n.Facts}, nil
}

// source is the query's nodes as a fleet's node source; a query matching nothing is a warning.
func (p *puppetdbFlags) source() fleet.Source {
	return fleet.SourceFunc(func(ctx context.Context) ([]fleet.Node, error) {
		c, err := p.client()
		if err != nil {
			return nil, err
		}
		nodes, err := c.FleetNodes(ctx, p.query)
		if err == nil && len(nodes) == 0 {
			query := p.query
			if strings.TrimSpace(query) == "" {
				query = puppetdb.AllNodes
			}
			_, _ = fmt.Fprintf(p.stderr, "Warning: PuppetDB %s: the query matches no active node: %s\n", c.URL(), query)
		}
		return nodes, err
	})
}
