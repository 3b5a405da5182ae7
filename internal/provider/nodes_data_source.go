package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSource              = (*nodesDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*nodesDataSource)(nil)
)

// NewNodesDataSource returns hiera_nodes: a fleet's nodes, each answered as hiera_node answers it,
// in one data source.
func NewNodesDataSource() datasource.DataSource { return &nodesDataSource{} }

type nodesDataSource struct {
	data *providerData
}

// nodesModel is hiera_nodes' arguments and results.
type nodesModel struct {
	lookupArgs
	FactsDir      types.String        `tfsdk:"facts_dir"`
	PuppetDB      *nodesPuppetDBModel `tfsdk:"puppetdb"`
	Nodes         types.Dynamic       `tfsdk:"nodes"`
	Select        types.List          `tfsdk:"select"`
	Keys          types.List          `tfsdk:"keys"`
	Prefixes      types.List          `tfsdk:"prefixes"`
	NodeNames     types.List          `tfsdk:"node_names"`
	Values        types.Dynamic       `tfsdk:"values"`
	JSON          types.Map           `tfsdk:"json"`
	FoundKeys     types.Map           `tfsdk:"found_keys"`
	MissingKeys   types.Map           `tfsdk:"missing_keys"`
	SecretKeys    types.Map           `tfsdk:"secret_keys"`
	FailedKeys    types.Map           `tfsdk:"failed_keys"`
	Sources       types.Map           `tfsdk:"sources"`
	CheckParams   types.Bool          `tfsdk:"check_params"`
	ParamProblems types.Map           `tfsdk:"param_problems"`
	WithSources   types.Bool          `tfsdk:"with_sources"`
	WithJSON      types.Bool          `tfsdk:"with_json"`
}

func (d *nodesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_nodes"
}

func (d *nodesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = nodesSchema()
}

func nodesSchema() schema.Schema {
	node := nodeSchema().Attributes
	perNode := func(attribute, what string, elem attr.Type) schema.Attribute {
		return schema.MapAttribute{
			MarkdownDescription: "For each node read, by name: its `" + attribute + "` as `hiera_node` gives it (" + what + ").",
			ElementType:         elem,
			Computed:            true,
		}
	}
	keyList := types.ListType{ElemType: types.StringType}
	attrs := argumentAttributes()
	maps.Copy(attrs, map[string]schema.Attribute{
		"facts": schema.DynamicAttribute{
			MarkdownDescription: "Facts every node gets, an object of any shape, below each node's own (its facts file's, its `nodes` entry's): " +
				"merged over the provider's facts and this data source's `facts_file`, top-level key by key. " + factsDescription,
			Optional: true,
		},
		"facts_file": schema.StringAttribute{
			MarkdownDescription: "A facts file every node gets, below `facts` and each node's own facts (read as `facts_file` on " +
				"`hiera_node`). Replaces the provider's facts (its `facts_file` and `facts`), as a data source's `facts_file` does: " +
				"none of the provider's node's facts leak into the fleet (a warning says so); with the provider's " +
				"`facts_file_merge = true` it is merged over them, top-level key by key.",
			Optional:   true,
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		"facts_dir": schema.StringAttribute{
			MarkdownDescription: "A directory of facts files, one node per file: every `*.json`, `*.yaml` and `*.yml` file directly " +
				"inside it (not in subdirectories; hidden files skipped), in any format `facts_file` reads, such as a Puppet Server's " +
				"facts cache (`/opt/puppetlabs/server/data/puppetserver/yaml/facts`). A node's name is its certname as Puppet names it: " +
				"its `trusted.certname` fact, else the name the file gives, else its `clientcert` fact, else its `fqdn` fact, else its " +
				"`networking.fqdn` fact (as Facter 4 prints facts), else the " +
				"file's name less its extension. Two files naming one node, a file that does not parse, a symlink leading out of the " +
				"directory and an empty directory are errors. Each file replaces the provider's facts for its node, as a " +
				"`facts_file` does (unless the provider's `facts_file_merge = true`). A relative path is taken from Terraform's working directory.",
			Optional:   true,
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		"nodes": schema.DynamicAttribute{
			MarkdownDescription: "Nodes given by name: an object of node name to that node's facts (an object of any shape, or `{}`), " +
				"such as `{ \"web01.example.com\" = { role = \"web\" } }`. A node that `facts_dir` or the `puppetdb` block also names keeps its facts from there, with these laid over them (top-level keys replaced).",
			Optional: true,
		},
		"select": schema.ListAttribute{
			MarkdownDescription: "Only the nodes whose names match one of these globs (`*` any characters, `?` one, `[a-z]` a class), " +
				"such as `[\"web*\", \"db01.example.com\"]`. A glob that matches no node is a warning.",
			ElementType: types.StringType,
			Optional:    true,
			Validators:  keyListValidators,
		},
		"puppetdb_node": schema.StringAttribute{
			MarkdownDescription: "Not taken here: `hiera_nodes` reads its nodes from PuppetDB with its `puppetdb` block.",
			Optional:            true,
			Validators:          []validator.String{puppetdbNodeNotHere{}},
		},
		"keys":         node["keys"],
		"prefixes":     node["prefixes"],
		"check_params": node["check_params"],
		"param_problems": perNode("param_problems", "with `check_params`, each key whose value does not match the declared type of "+
			"the class parameter it binds to, or names no parameter near one, mapped to Puppet's message; null without `check_params`",
			types.MapType{ElemType: types.StringType}),
		"node_names": schema.ListAttribute{
			MarkdownDescription: "The names of the nodes read, sorted.",
			ElementType:         types.StringType,
			Computed:            true,
		},
		"values": schema.DynamicAttribute{
			MarkdownDescription: "Each node's name to its `values` as `hiera_node` gives them: each key found to its " +
				"value, as `hiera_lookup` without a `merge` block answers it; secrets left out. `for_each = data.hiera_nodes.NAME.values` " +
				"makes one instance per node. A map when every node's values have one type (Terraform then reads one type, not one " +
				"per node), else an object. So that the most fleets share one, an array is a list and a hash a map wherever their " +
				"elements share a type (`hiera_node` gives tuples and objects): `for_each`, indexing and `jsonencode` give the same.",
			Computed: true,
		},
		"with_sources": schema.BoolAttribute{
			MarkdownDescription: "Fill `sources` (default false: null). Provenance is for the few nodes someone is looking at: " +
				"with `select`, or `hiera_node`; for a whole fleet it is most of what Terraform spends on the answer.",
			Optional: true,
		},
		"with_json": schema.BoolAttribute{
			MarkdownDescription: "Fill `json` (default false: null).",
			Optional:            true,
		},
		"json": perNode("json", "its values as one JSON object, keys in the order found, hash keys in Hiera's order; "+
			"null unless `with_json = true`", types.StringType),
		"found_keys":   perNode("found_keys", "the keys found, in the order found, the secret ones too", keyList),
		"missing_keys": perNode("missing_keys", "the keys of `keys` that no hierarchy level has", keyList),
		"secret_keys":  perNode("secret_keys", "the keys found whose value is secret, never in `values` or `json`", keyList),
		"failed_keys": perNode("failed_keys", "without `keys`, each key whose lookup failed, with the message `hiera_lookup` "+
			"would give; a warning names them", types.MapType{ElemType: types.StringType}),
		"sources": perNode("sources", "for each key in its `values`, the data files that gave its value, most specific first; "+
			"null unless `with_sources = true`",
			types.MapType{ElemType: sourcesType}),
	})
	return schema.Schema{
		MarkdownDescription: "Looks up a fleet's Hiera data in one data source: every node of a directory of facts files (such as a " +
			"Puppet Server's facts cache) and of `nodes`, each answered exactly as one `hiera_node` with the same arguments answers it " +
			"(its facts over the shared ones; `trusted.certname` is its name unless this data source's `scope` sets it: the provider's never renames a node), the results keyed by node name. " +
			"A plan reads one data source for the whole fleet instead of one per node.",
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"eyaml": eyamlBlock(), "puppetdb": nodesPuppetDBBlock()},
	}
}

func (d *nodesDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	d.data, resp.Diagnostics = toProvider(req.ProviderData)
}

// Read is the framework's read; the server reads hiera_nodes directly (protocol.go) with the same readNodes.
func (d *nodesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	readWhole(ctx, d.data, nodesSchema(), req, resp, func(m *nodesModel) (nodeOutput, diag.Diagnostics) {
		out, diags := d.data.readNodes(ctx, m, nil)
		return out.joined(), diags
	})
}
