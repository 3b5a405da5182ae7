package provider

// Nodes' facts from PuppetDB (internal/puppetdb): the provider's puppetdb block, hiera_nodes'
// puppetdb block (a node source) and puppetdb_node on the single-node data sources.

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/fleet"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/puppetdb"
)

// providerPuppetDBModel is the provider's puppetdb block.
type providerPuppetDBModel struct {
	URL       types.String `tfsdk:"url"`
	Query     types.String `tfsdk:"query"`
	CACert    types.String `tfsdk:"cacert"`
	Cert      types.String `tfsdk:"cert"`
	Key       types.String `tfsdk:"key"`
	CACertPEM types.String `tfsdk:"cacert_pem"`
	CertPEM   types.String `tfsdk:"cert_pem"`
	KeyPEM    types.String `tfsdk:"key_pem"`
	Token     types.String `tfsdk:"token"`
	Timeout   types.String `tfsdk:"timeout"`
}

// nodesPuppetDBModel is hiera_nodes' puppetdb block: paths only, as a data source's arguments are
// stored in the state; each attribute replaces the provider's.
type nodesPuppetDBModel struct {
	URL     types.String `tfsdk:"url"`
	Query   types.String `tfsdk:"query"`
	CACert  types.String `tfsdk:"cacert"`
	Cert    types.String `tfsdk:"cert"`
	Key     types.String `tfsdk:"key"`
	Timeout types.String `tfsdk:"timeout"`
}

// puppetdbSettings are the provider's PuppetDB settings, known and with the environment's defaults.
type puppetdbSettings struct {
	config puppetdb.Config
	query  string
}

const puppetdbBlockText = "The PuppetDB that nodes' facts come from: `puppetdb_node` on the single-node data sources, and " +
	"`hiera_nodes`' own `puppetdb` block (whose attributes replace these one by one). A node read from PuppetDB answers as the " +
	"same facts in a facts file: its facts as PuppetDB holds them, its `$trusted` the trusted data Puppet stored with them."

var puppetdbText = map[string]string{
	"url": "PuppetDB's URL: `https://puppetdb.example.com:8081` (client certificate, or a PE token), or `http://localhost:8080` " +
		"on the PuppetDB host.",
	"query": "Which nodes `hiera_nodes` reads: a PQL `inventory` query such as `inventory[certname, facts] { facts.role = \"web\" }`, " +
		"or an AST query over the inventory endpoint (JSON, starting with `[`). Defaults to every active node; deactivated and " +
		"expired nodes are left out unless the query asks for them (`node_state = \"any\"`).",
	"cacert": "Path to the CA certificate PuppetDB's certificate is checked against: the Puppet CA " +
		"(`/etc/puppetlabs/puppet/ssl/certs/ca.pem`). Without it, the system's CAs.",
	"cert": "Path to the client certificate PuppetDB admits (its `certificate-allowlist`), e.g. an agent's " +
		"`/etc/puppetlabs/puppet/ssl/certs/<certname>.pem`.",
	"key":     "Path to the client certificate's private key (`/etc/puppetlabs/puppet/ssl/private_keys/<certname>.pem`).",
	"timeout": "How long to wait for PuppetDB to connect and to answer, and at most between two parts of a long answer: a duration such as `\"30s\"` or `\"2m\"`. Defaults to `\"30s\"`. A whole query, its answer streamed, must end within 20 times it (10 minutes by default).",
}

// puppetdbEnv names the environment variable of each provider block attribute that has one.
var puppetdbEnv = map[string]string{"url": "PUPPETDB_URL", "cacert": "PUPPETDB_CACERT", "cert": "PUPPETDB_CERT",
	"key": "PUPPETDB_KEY", "token": "PUPPETDB_TOKEN"}

func providerPuppetDBBlock() pschema.SingleNestedBlock {
	sibling := func(name string) path.Expression { return path.MatchRelative().AtParent().AtName(name) }
	text := func(name string) string {
		if puppetdbEnv[name] != "" {
			return puppetdbText[name] + envDescription("puppetdb."+name)
		}
		return puppetdbText[name]
	}
	pathAttr := func(name string) pschema.StringAttribute {
		return pschema.StringAttribute{MarkdownDescription: text(name), Optional: true,
			Validators: []validator.String{stringvalidator.LengthAtLeast(1), stringvalidator.ConflictsWith(sibling(name + "_pem"))}}
	}
	return pschema.SingleNestedBlock{
		MarkdownDescription: puppetdbBlockText,
		Attributes: map[string]pschema.Attribute{
			"url":        pschema.StringAttribute{MarkdownDescription: text("url"), Optional: true},
			"query":      pschema.StringAttribute{MarkdownDescription: puppetdbText["query"] + " `hiera_nodes`' own `query` replaces it.", Optional: true},
			"cacert":     pathAttr("cacert"),
			"cert":       pathAttr("cert"),
			"key":        pathAttr("key"),
			"cacert_pem": pschema.StringAttribute{MarkdownDescription: "The CA certificate itself, PEM text, in place of `cacert`.", Optional: true},
			"cert_pem":   pschema.StringAttribute{MarkdownDescription: "The client certificate itself, PEM text, in place of `cert`.", Optional: true},
			"key_pem": pschema.StringAttribute{MarkdownDescription: "The client certificate's private key itself, PEM text, in place of `key`: " +
				"from a sensitive variable or a secret store. Sensitive: never shown, and never in the state.", Optional: true, Sensitive: true},
			"token": pschema.StringAttribute{MarkdownDescription: "A Puppet Enterprise RBAC token (`puppet access show`), sent as the " +
				"`X-Authentication` header. Sensitive: never shown, and never in the state." + envDescription("puppetdb.token"),
				Optional: true, Sensitive: true},
			"timeout": pschema.StringAttribute{MarkdownDescription: puppetdbText["timeout"], Optional: true, Validators: []validator.String{durationValidator{}}},
		},
	}
}

// nodesPuppetDBBlock is hiera_nodes' puppetdb block.
func nodesPuppetDBBlock() dschema.SingleNestedBlock {
	attr := func(name string) dschema.StringAttribute {
		return dschema.StringAttribute{MarkdownDescription: puppetdbText[name] + " Replaces the provider's `" + name + "`.", Optional: true,
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)}}
	}
	urlAttr := attr("url")
	urlAttr.MarkdownDescription += " An `http://` URL of its own takes none of the provider's TLS settings and not its `token`: " +
		"the token is not sent in the clear to another server."
	timeout := attr("timeout")
	timeout.Validators = append(timeout.Validators, durationValidator{})
	return dschema.SingleNestedBlock{
		MarkdownDescription: "Nodes from PuppetDB, a node source beside `facts_dir` and `nodes`: every node `query` selects, named by " +
			"its certname, with its facts as PuppetDB holds them (its `$trusted` the trusted data Puppet stored with them). Each " +
			"attribute not given here is the provider's `puppetdb` block's; the certificate and key text and the PE token are " +
			"given there only (a data source's arguments are stored in the state). A query matching no node is a warning.",
		Attributes: map[string]dschema.Attribute{
			"url": urlAttr, "query": attr("query"), "cacert": attr("cacert"), "cert": attr("cert"), "key": attr("key"), "timeout": timeout,
		},
	}
}

const puppetdbNodeText = "Takes the node's facts from PuppetDB: the certname of a node it holds, such as `\"web01.example.com\"`, " +
	"read from the provider's `puppetdb` block's PuppetDB (once per plan). Its facts come first, as a `facts_file`'s would, and " +
	"`facts` is merged over them; its `$trusted` is the trusted data Puppet stored with them (else the certname's, as for a " +
	"facts file), its `trusted.certname` this certname unless this data source's `scope` sets one (the provider's `scope` does " +
	"not rename the node). A node PuppetDB does not hold, or holds deactivated, is an error."

// providerPuppetDB reads the provider's block (the environment's defaults already in it).
// unknown is set when a value is not known yet.
func providerPuppetDB(m *providerPuppetDBModel) (s puppetdbSettings, unknown bool, diags diag.Diagnostics) {
	if m == nil {
		return s, false, nil
	}
	value := func(v types.String) string {
		unknown = unknown || v.IsUnknown()
		return v.ValueString()
	}
	s.config = puppetdb.Config{URL: value(m.URL), CACert: value(m.CACert), Cert: value(m.Cert), Key: value(m.Key),
		CACertPEM: value(m.CACertPEM), CertPEM: value(m.CertPEM), KeyPEM: value(m.KeyPEM), Token: value(m.Token)}
	s.query = value(m.Query)
	timeout := value(m.Timeout)
	if unknown {
		return s, true, nil
	}
	var err error
	if s.config.Timeout, err = parseTimeout(timeout); err != nil {
		diags.AddAttributeError(path.Root("puppetdb").AtName("timeout"), "Invalid PuppetDB Timeout", err.Error())
	}
	if s.config.URL == "" {
		if s.config != (puppetdb.Config{Timeout: s.config.Timeout}) || s.query != "" {
			diags.AddAttributeError(path.Root("puppetdb").AtName("url"), "Missing PuppetDB URL",
				"The puppetdb block gives certificates, a token, a query or a timeout but no url (nor PUPPETDB_URL): give PuppetDB's URL.")
		}
		return s, false, diags
	}
	if _, err := puppetdb.New(s.config); err != nil { // settings that cannot work, said before any read
		diags.AddAttributeError(path.Root("puppetdb"), "Invalid PuppetDB Settings", err.Error())
	}
	return s, false, diags
}

func parseTimeout(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("timeout must be a positive duration such as \"30s\" or \"2m\", not %q", s)
	}
	return d, nil
}

// durationValidator checks a timeout at plan time.
type durationValidator struct{}

func (durationValidator) Description(context.Context) string {
	return "a positive duration such as \"30s\""
}
func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }
func (durationValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := parseTimeout(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid PuppetDB Timeout", err.Error())
	}
}

// puppetdbNodeNotHere refuses puppetdb_node on hiera_nodes, which takes its nodes from its
// puppetdb block.
type puppetdbNodeNotHere struct{}

func (puppetdbNodeNotHere) Description(context.Context) string {
	return "not set: hiera_nodes reads its nodes with its puppetdb block"
}
func (v puppetdbNodeNotHere) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}
func (puppetdbNodeNotHere) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !req.ConfigValue.IsNull() {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Argument", "puppetdb_node names the one node of hiera_lookup, hiera_node and "+
			"the like: hiera_nodes reads its nodes from PuppetDB with a puppetdb block, e.g. puppetdb { query = \"inventory[certname, facts] { facts.role = \\\"web\\\" }\" }.")
	}
}

// puppetdbNodes holds the nodes puppetdb_node read from the provider's PuppetDB, by certname: the
// data sources of one node read it once. Every node is read with one client (its connections
// reused).
type puppetdbNodes struct {
	mu    sync.Mutex
	nodes map[string]*puppetdbNode

	clientOnce sync.Once
	client     *puppetdb.Client
	clientErr  error
}

type puppetdbNode struct {
	once  sync.Once
	facts *model.Hash
	err   error
}

// puppetdbNodeArg reads the facts of the node puppetdb_node names (nil facts when it is null).
func (pd *providerData) puppetdbNodeArg(ctx context.Context, v types.String) (*model.Hash, error) {
	switch {
	case v.IsNull():
		return nil, nil
	case v.IsUnknown():
		return nil, errUnknown
	case pd.puppetdb.config.URL == "":
		return nil, fmt.Errorf("puppetdb_node reads the node from the provider's PuppetDB: give the provider a puppetdb block with its url (or set PUPPETDB_URL)")
	}
	certname := v.ValueString()
	pd.pdbNodes.mu.Lock()
	if pd.pdbNodes.nodes == nil {
		pd.pdbNodes.nodes = map[string]*puppetdbNode{}
	}
	n := pd.pdbNodes.nodes[certname]
	if n == nil {
		n = &puppetdbNode{}
		pd.pdbNodes.nodes[certname] = n
	}
	pd.pdbNodes.mu.Unlock()
	n.once.Do(func() {
		pd.pdbNodes.clientOnce.Do(func() { pd.pdbNodes.client, pd.pdbNodes.clientErr = puppetdb.New(pd.puppetdb.config) })
		if pd.pdbNodes.clientErr != nil {
			n.err = pd.pdbNodes.clientErr
			return
		}
		node, err := pd.pdbNodes.client.Node(ctx, certname)
		if err != nil {
			n.err = err
			return
		}
		n.facts = node.Facts
	})
	return n.facts, n.err
}

// puppetdbSource is the node source of hiera_nodes' puppetdb block: the provider's settings with
// the block's own over them. A URL of the block's own that is plain HTTP takes none of the
// provider's TLS settings nor its token (a PE token is not sent in the clear to another server); its own cacert replaces the provider's CA (path or text), its own cert
// or key the provider's certificate and key.
func (pd *providerData) puppetdbSource(m *nodesPuppetDBModel) (*puppetdbFleet, error) {
	for _, v := range []types.String{m.URL, m.Query, m.CACert, m.Cert, m.Key, m.Timeout} {
		if v.IsUnknown() {
			return nil, errUnknown
		}
	}
	c, query := pd.puppetdb.config, pd.puppetdb.query
	if !m.URL.IsNull() {
		c.URL = m.URL.ValueString()
		if strings.HasPrefix(strings.ToLower(c.URL), "http://") {
			c.CACert, c.Cert, c.Key, c.CACertPEM, c.CertPEM, c.KeyPEM, c.Token = "", "", "", "", "", "", ""
		}
	}
	if !m.Query.IsNull() {
		query = m.Query.ValueString()
	}
	if !m.CACert.IsNull() {
		c.CACert, c.CACertPEM = m.CACert.ValueString(), ""
	}
	if !m.Cert.IsNull() || !m.Key.IsNull() {
		c.Cert, c.Key, c.CertPEM, c.KeyPEM = m.Cert.ValueString(), m.Key.ValueString(), "", ""
	}
	timeout, err := parseTimeout(m.Timeout.ValueString())
	if err != nil {
		return nil, err
	}
	if timeout > 0 {
		c.Timeout = timeout
	}
	if c.URL == "" {
		return nil, fmt.Errorf("no PuppetDB URL: give url here or in the provider's puppetdb block (or set PUPPETDB_URL)")
	}
	client, err := puppetdb.New(c)
	if err != nil {
		return nil, err
	}
	return &puppetdbFleet{client: client, query: query}, nil
}

// puppetdbFleet is a query's nodes as a fleet's node source; it counts them for the warning of a
// query matching none.
type puppetdbFleet struct {
	client *puppetdb.Client
	query  string
	count  int
}

func (f *puppetdbFleet) Nodes(ctx context.Context) ([]fleet.Node, error) {
	nodes, err := f.client.FleetNodes(ctx, f.query)
	f.count = len(nodes)
	return nodes, err
}

// noneMatched words the warning of a query that matched no node.
func (f *puppetdbFleet) noneMatched() string {
	query := f.query
	if strings.TrimSpace(query) == "" {
		query = puppetdb.AllNodes
	}
	return fmt.Sprintf("PuppetDB %s holds no active node the query selects: %s", f.client.URL(), query)
}
