package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// The hiera_* data sources differ only in the Puppet function they behave like (the default merge
// and the shape of the result) and in whether they return secrets. lookupVariant holds those
// differences; hieraDataSource the rest. The ephemeral resource and the lookup function use it too.
type lookupVariant struct {
	name        string // type name without the "hiera_" prefix
	function    hiera.Function
	description string
	mergeText   string // what happens without a merge block
	// shape checks or adjusts the result; a non-empty message rejects it.
	shape func(v any) (any, string)
	// secret marks value, json and explanation sensitive and lets secret values through; without
	// it a secret value is refused with an error that points to hiera_secret and the ephemeral resource.
	secret bool
	// missingHint tells how to get a value for a missing key; empty means "set default_value".
	missingHint string
	// isFunction is set for provider::hiera::lookup: no explain argument, config is its first argument.
	isFunction bool
}

var (
	_ datasource.DataSource              = (*hieraDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*hieraDataSource)(nil)
)

type hieraDataSource struct {
	kind lookupVariant
	data *providerData
}

func (d *hieraDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + d.kind.name
}

func (d *hieraDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = lookupSchema(d.kind)
}

// lookupSchema is the schema of the hiera_* data sources, and of the ephemeral resource through
// ephemeralSchema.
func lookupSchema(kind lookupVariant) schema.Schema {
	redacted := ""
	if kind.secret {
		redacted = " It never shows a secret: from the point where the lookup meets one, values read `(sensitive value)`."
	}
	attrs := argumentAttributes()
	maps.Copy(attrs, map[string]schema.Attribute{
		// Required.
		"key": schema.StringAttribute{
			MarkdownDescription: "The Hiera key to look up, such as `profile::ntp::servers`. Dotted subkeys reach into the result: " +
				"`users.bob.uid`, `list.0`, `a.'dotted.key'`.",
			Required:   true,
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		// Optional.
		"default_value": schema.DynamicAttribute{
			MarkdownDescription: "Returned, with its type, when no hierarchy level has the key; `found` is then `false`. " +
				"Without it a missing key is an error.",
			Optional: true,
		},
		"value_type": schema.StringAttribute{
			MarkdownDescription: valueTypeDescription,
			Optional:            true,
			Validators:          []validator.String{valueTypeValidator{}},
		},
		"explain": schema.BoolAttribute{
			MarkdownDescription: "When `true`, `explanation` tells how the value was found, level by level, like `puppet lookup --explain`. Defaults to `false`.",
			Optional:            true,
		},
		// Computed.
		"value": schema.DynamicAttribute{
			MarkdownDescription: "The result with its real types: string, number, bool, null, tuple or object, nested as in the data.",
			Computed:            true,
			Sensitive:           kind.secret,
		},
		"json": schema.StringAttribute{
			MarkdownDescription: "The result as JSON, with hash keys in Hiera's order (Terraform objects sort their keys). " +
				"A plan displays a JSON string as `jsonencode({...})` with the keys sorted; the string itself, in outputs, " +
				"the state and files written from it, keeps Hiera's order.",
			Computed:  true,
			Sensitive: kind.secret,
		},
		"found": schema.BoolAttribute{
			MarkdownDescription: "`false` when `default_value` was returned because no hierarchy level has the key.",
			Computed:            true,
		},
		"explanation": schema.StringAttribute{
			MarkdownDescription: "With `explain = true`, how the value was found, level by level; otherwise empty." + redacted,
			Computed:            true,
			Sensitive:           kind.secret,
		},
		"sources": schema.ListAttribute{
			MarkdownDescription: sourcesDescription + " Empty when `default_value` was returned.",
			ElementType:         sourceType,
			Computed:            true,
		},
	})
	return schema.Schema{
		MarkdownDescription: kind.description,
		Attributes:          attrs,
		Blocks:              map[string]schema.Block{"merge": mergeBlock(kind.mergeText), "eyaml": eyamlBlock()},
	}
}

// argumentAttributes are the arguments every data source takes (lookupArgs): where to look up,
// and for which node.
func argumentAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"config": schema.StringAttribute{
			MarkdownDescription: configDescription("Overrides the provider's `config`, for modules that ship their own hieradata."),
			Optional:            true,
		},
		"environment": schema.StringAttribute{
			MarkdownDescription: environmentDescription("Overrides the provider's `environment`."),
			Optional:            true,
			Validators:          environmentValidators,
		},
		"modulepath": schema.ListAttribute{
			MarkdownDescription: modulepathDescription("Overrides the provider's `modulepath`."),
			ElementType:         types.StringType,
			Optional:            true,
			Validators:          modulepathValidators,
		},
		"facts": schema.DynamicAttribute{
			MarkdownDescription: factsDescription + " Merged over the provider's facts and this data source's `facts_file`, top-level key by key.",
			Optional:            true,
		},
		"facts_file": schema.StringAttribute{
			MarkdownDescription: factsFileDescription + " Replaces the provider's facts (its `facts_file` and `facts`): the file names " +
				"this data source's node, and none of the provider's node's facts leak into it (a warning says so); with the provider's " +
				"`facts_file_merge = true` it is merged over them, top-level key by key.",
			Optional:   true,
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		},
		"scope": schema.DynamicAttribute{
			MarkdownDescription: scopeDescription + " Merged over the provider's `scope`, top-level key by key.",
			Optional:            true,
		},
		"puppetdb_node": schema.StringAttribute{
			MarkdownDescription: puppetdbNodeText,
			Optional:            true,
			Validators:          []validator.String{stringvalidator.LengthAtLeast(1), stringvalidator.ConflictsWith(path.MatchRoot("facts_file"))},
		},
	}
}

func (d *hieraDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	d.data, resp.Diagnostics = toProvider(req.ProviderData)
}

func (d *hieraDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	m, deferred, diags := d.data.readLookup(ctx, d.kind, req.Config, req.ClientCapabilities.DeferralAllowed)
	resp.Diagnostics.Append(diags...)
	switch {
	case deferred:
		resp.Deferred = &datasource.Deferred{Reason: datasource.DeferredReasonProviderConfigUnknown}
	case !resp.Diagnostics.HasError():
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	}
}

// configDescription describes a config argument; what says how this one is used.
func configDescription(what string) string {
	return "Path to a `hiera.yaml` (version 5, or version 3). " + what +
		" A relative path is taken from Terraform's working directory; use `${path.module}/hiera.yaml` in modules. " +
		"Paths inside the file (`datadir`, key files) are relative to the directory that holds it."
}

const factsDescription = "The node's facts, an object of any shape. Interpolation sees them as `%{facts.x}` and, as Puppet does, " +
	"as top-scope variables `%{x}` and `%{::x}`; values keep their types."

const scopeDescription = "Other top-scope variables such as `trusted`, `server_facts` or `environment`, an object of any shape. " +
	"A name here wins over a fact of the same name."

	// Merge block.
