package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSource              = (*nodeDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*nodeDataSource)(nil)
)

// NewNodeDataSource returns hiera_node: a node's keys, or many given keys, in one data source.
func NewNodeDataSource() datasource.DataSource { return &nodeDataSource{} }

type nodeDataSource struct {
	data *providerData
}

// nodeModel is hiera_node's arguments and results.
type nodeModel struct {
	lookupArgs
	Keys          types.List    `tfsdk:"keys"`
	Prefixes      types.List    `tfsdk:"prefixes"`
	Values        types.Dynamic `tfsdk:"values"`
	JSON          types.String  `tfsdk:"json"`
	FoundKeys     types.List    `tfsdk:"found_keys"`
	MissingKeys   types.List    `tfsdk:"missing_keys"`
	SecretKeys    types.List    `tfsdk:"secret_keys"`
	Sources       types.Map     `tfsdk:"sources"`
	FailedKeys    types.Map     `tfsdk:"failed_keys"`
	CheckParams   types.Bool    `tfsdk:"check_params"`
	ParamProblems types.Map     `tfsdk:"param_problems"`
}

func (d *nodeDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_node"
}

func (d *nodeDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = nodeSchema()
}

// keyListValidators check keys and prefixes at plan time: no empty, null or repeated entry.
var keyListValidators = []validator.List{listvalidator.NoNullValues(), listvalidator.UniqueValues(),
	listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))}

func nodeSchema() schema.Schema {
	attrs := argumentAttributes()
	maps.Copy(attrs, map[string]schema.Attribute{
		"keys": schema.ListAttribute{
			MarkdownDescription: "Only these keys, looked up in this order; dotted subkeys reach into a value as in `hiera_lookup`. " +
				"Those no hierarchy level has are listed in `missing_keys`. Without `keys` (and without `prefixes`), every key the node's " +
				"data holds.",
			ElementType: types.StringType,
			Optional:    true,
			Validators:  keyListValidators,
		},
		"prefixes": schema.ListAttribute{
			MarkdownDescription: "Only the keys that start with one of these, such as `profile::`; with `keys`, only those of `keys`.",
			ElementType:         types.StringType,
			Optional:            true,
			Validators:          keyListValidators,
		},
		"values": schema.DynamicAttribute{
			MarkdownDescription: "An object of each key found to its value, each as `hiera_lookup` without a `merge` block answers it: " +
				"merged as `lookup_options` say, interpolated, converted by `convert_to`; with its real types. Secrets are left out (`secret_keys`).",
			Computed: true,
		},
		"json": schema.StringAttribute{
			MarkdownDescription: "`values` as one JSON object: keys in the order found (most specific hierarchy level first), " +
				"hash keys in Hiera's order (Terraform objects sort their keys).",
			Computed: true,
		},
		"found_keys": schema.ListAttribute{
			MarkdownDescription: "The keys found, in the order found: those in `values` and the secret ones.",
			ElementType:         types.StringType,
			Computed:            true,
		},
		"missing_keys": schema.ListAttribute{
			MarkdownDescription: "The keys of `keys` that no hierarchy level has (empty without `keys`).",
			ElementType:         types.StringType,
			Computed:            true,
		},
		"secret_keys": schema.ListAttribute{
			MarkdownDescription: "The keys found whose value is secret (decrypted from eyaml, or `convert_to: Sensitive`): never in " +
				"`values` or `json`. Read them with `hiera_secret` or the ephemeral resource `hiera_lookup`.",
			ElementType: types.StringType,
			Computed:    true,
		},
		"sources": schema.MapAttribute{
			MarkdownDescription: "For each key in `values`, the data files that gave its value, most specific first, as `sources` on " +
				"`hiera_lookup`: objects with `layer` (`global`, `environment` or `module`), `module` (the module's name, or `\"\"`), " +
				"`level` (the hierarchy level's name) and `file` (the data file's absolute path).",
			ElementType: sourcesType,
			Computed:    true,
		},
		"check_params":   checkParamsAttribute,
		"param_problems": paramProblemsAttribute,
		"failed_keys": schema.MapAttribute{
			MarkdownDescription: "Without `keys`: each of the node's keys whose lookup failed, mapped to the error `hiera_lookup` would give for it " +
				"(never a secret). Such a key is left out of `values`, `json` and `found_keys`, the read still succeeds and one warning names them, " +
				"so that one undecryptable eyaml value or one malformed key in a module's data does not hide the node's other keys. " +
				"Empty with `keys`: a key of `keys` that fails fails the read.",
			ElementType: types.StringType,
			Computed:    true,
		},
	})
	return schema.Schema{
		MarkdownDescription: "Looks up a node's Hiera data as a whole: every key its hierarchy reaches (in the global, environment and " +
			"module layers), or the keys given, each answered as `hiera_lookup` answers it, in one data source. With it a plan reads one " +
			"data source per node instead of one per key, and `sources` tells where each value comes from.",
		Attributes: attrs,
		Blocks:     map[string]schema.Block{"eyaml": eyamlBlock()},
	}
}

func (d *nodeDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	d.data, resp.Diagnostics = toProvider(req.ProviderData)
}

// Read is the framework's read; the server reads hiera_node directly (protocol.go) with the same readNode.
func (d *nodeDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	readWhole(ctx, d.data, nodeSchema(), req, resp, func(m *nodeModel) (nodeOutput, diag.Diagnostics) { return d.data.readNode(ctx, m, nil, wholeNode) })
}

// readWhole is the framework's Read of hiera_node and hiera_nodes: the configuration into a model
// M, read answers it, and its computed attributes are decoded into the model for the state.
func readWhole[M any](ctx context.Context, pd *providerData, sch schema.Schema, req datasource.ReadRequest, resp *datasource.ReadResponse,
	read func(*M) (nodeOutput, diag.Diagnostics)) {
	var m M
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	if pd != nil && pd.unknown && req.ClientCapabilities.DeferralAllowed {
		resp.Deferred = &datasource.Deferred{Reason: datasource.DeferredReasonProviderConfigUnknown}
		return
	}
	out, diags := read(&m)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(setComputed(ctx, sch, out, &m)...)
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	}
}
