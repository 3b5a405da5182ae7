package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// The three data sources differ only in the Puppet function they behave like: the default merge
// and the shape of the result. dataSourceKind holds those differences; hieraDataSource the rest.
type dataSourceKind struct {
	name        string // type name without the "hiera_" prefix
	function    hiera.Function
	description string
	mergeText   string // what happens without a merge block
	// shape checks or adjusts the result; a non-empty message rejects it.
	shape func(v any) (any, string)
}

var (
	_ datasource.DataSource              = (*hieraDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*hieraDataSource)(nil)
)

type hieraDataSource struct {
	kind dataSourceKind
	data *providerData
}

type dataSourceModel struct {
	Key          types.String  `tfsdk:"key"`
	Config       types.String  `tfsdk:"config"`
	Facts        types.Dynamic `tfsdk:"facts"`
	Scope        types.Dynamic `tfsdk:"scope"`
	Merge        *mergeModel   `tfsdk:"merge"`
	DefaultValue types.Dynamic `tfsdk:"default_value"`
	Explain      types.Bool    `tfsdk:"explain"`
	Value        types.Dynamic `tfsdk:"value"`
	JSON         types.String  `tfsdk:"json"`
	Found        types.Bool    `tfsdk:"found"`
	Explanation  types.String  `tfsdk:"explanation"`
}

func (d *hieraDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + d.kind.name
}

func (d *hieraDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: d.kind.description,
		Attributes: map[string]schema.Attribute{
			// Required.
			"key": schema.StringAttribute{
				MarkdownDescription: "The Hiera key to look up, such as `profile::ntp::servers`. Dotted subkeys reach into the result: " +
					"`users.bob.uid`, `list.0`, `a.'dotted.key'`.",
				Required:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			// Optional.
			"config": schema.StringAttribute{
				MarkdownDescription: configDescription("Overrides the provider's `config`, for modules that ship their own hieradata."),
				Optional:            true,
			},
			"facts": schema.DynamicAttribute{
				MarkdownDescription: factsDescription + " Merged over the provider's `facts`, top-level key by key.",
				Optional:            true,
			},
			"scope": schema.DynamicAttribute{
				MarkdownDescription: scopeDescription + " Merged over the provider's `scope`, top-level key by key.",
				Optional:            true,
			},
			"default_value": schema.DynamicAttribute{
				MarkdownDescription: "Returned, with its type, when no hierarchy level has the key; `found` is then `false`. " +
					"Without it a missing key is an error.",
				Optional: true,
			},
			"explain": schema.BoolAttribute{
				MarkdownDescription: "When `true`, `explanation` tells how the value was found, level by level, like `puppet lookup --explain`. Defaults to `false`.",
				Optional:            true,
			},
			// Computed.
			"value": schema.DynamicAttribute{
				MarkdownDescription: "The result with its real types: string, number, bool, null, tuple or object, nested as in the data.",
				Computed:            true,
			},
			"json": schema.StringAttribute{
				MarkdownDescription: "The result as JSON, with hash keys in Hiera's order (Terraform objects sort their keys).",
				Computed:            true,
			},
			"found": schema.BoolAttribute{
				MarkdownDescription: "`false` when `default_value` was returned because no hierarchy level has the key.",
				Computed:            true,
			},
			"explanation": schema.StringAttribute{
				MarkdownDescription: "With `explain = true`, how the value was found, level by level; otherwise empty.",
				Computed:            true,
			},
		},
		Blocks: map[string]schema.Block{"merge": mergeBlock(d.kind.mergeText)},
	}
}

func (d *hieraDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	d.data, resp.Diagnostics = toProvider(req.ProviderData)
}

func (d *hieraDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m dataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if d.data == nil {
		resp.Diagnostics.AddError("Provider Not Configured", "The hiera provider was not configured. This is a provider bug, please report it.")
		return
	}
	key := m.Key.ValueString()
	if d.data.unknown {
		// Terraform reads data sources at plan time even when the provider's own arguments are
		// unknown, and rejects unknown results: defer where the client allows it, else say why.
		if req.ClientCapabilities.DeferralAllowed {
			resp.Deferred = &datasource.Deferred{Reason: datasource.DeferredReasonProviderConfigUnknown}
			return
		}
		resp.Diagnostics.AddError("Provider Arguments Not Known Yet",
			fmt.Sprintf("The hiera provider's config, facts or scope depend on values known only after apply, so %q cannot be looked up during this plan. ", key)+
				"Pass such facts in the data source's own facts or scope instead (the lookup then waits for apply), "+
				"or create the resources they come from first.")
		return
	}

	lookup, ok := d.request(ctx, &m, resp)
	if !ok {
		return
	}
	configPath := d.data.config
	if m.Config.ValueString() != "" {
		configPath = m.Config.ValueString()
	}
	engine, err := d.data.engines.get(configPath)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("config"), "Invalid Hiera Config Path", err.Error())
		return
	}

	res, err := engine.Lookup(ctx, lookup)
	// Never log the value: Hiera holds secrets.
	tflog.Debug(ctx, "hiera lookup", map[string]any{
		"key": key, "config": configPath, "merge": lookup.Merge.String(), "found": res.Found, "levels_searched": res.Searched,
	})
	for _, w := range res.Warnings {
		resp.Diagnostics.AddAttributeWarning(path.Root("key"), "Hiera Warning", w)
	}
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("key"), "Hiera Lookup Failed", lookupError(key, configPath, err))
		return
	}
	value := res.Value
	switch {
	case !res.Found && !lookup.HasDefault:
		resp.Diagnostics.AddAttributeError(path.Root("key"), "Hiera Key Not Found", notFound(key, configPath, res))
		return
	case !res.Found:
		value = lookup.Default // returned as given, whatever the engine did with it
	case res.Sensitive:
		resp.Diagnostics.AddAttributeError(path.Root("key"), "Sensitive Hiera Value",
			fmt.Sprintf("The value of %q is sensitive (eyaml-encrypted or convert_to: Sensitive) and would be written to the state in clear. "+
				"A later release adds hiera_secret for such values.", key))
		return
	}
	value, msg := d.kind.shape(value)
	if msg != "" {
		resp.Diagnostics.AddAttributeError(path.Root("key"), "Unexpected Hiera Value Type", fmt.Sprintf("The value of %q %s.", key, msg))
		return
	}

	if m.Value, err = toDynamic(value, path.Root("value")); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("key"), "Unrepresentable Hiera Value", fmt.Sprintf("The value of %q cannot be returned: %s.", key, err))
		return
	}
	js, err := hiera.MarshalJSON(value)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("key"), "Unrepresentable Hiera Value", fmt.Sprintf("The value of %q cannot be written as JSON: %s.", key, err))
		return
	}
	m.JSON = types.StringValue(string(js))
	m.Found = types.BoolValue(res.Found)
	m.Explanation = types.StringValue("")
	if lookup.Explain {
		m.Explanation = types.StringValue(res.Explanation)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// request builds the engine request from the data source's arguments and the provider's.
func (d *hieraDataSource) request(ctx context.Context, m *dataSourceModel, resp *datasource.ReadResponse) (hiera.Request, bool) {
	req := hiera.Request{Key: m.Key.ValueString(), Function: d.kind.function, Merge: m.Merge.toEngine(), Explain: m.Explain.ValueBool()}
	for _, a := range []struct {
		name     string
		val      types.Dynamic
		provider map[string]any
		out      **hiera.Hash
	}{{"facts", m.Facts, d.data.facts, &req.Scope.Facts}, {"scope", m.Scope, d.data.scope, &req.Scope.Vars}} {
		own, err := objectArg(ctx, a.val, path.Root(a.name))
		if err == nil {
			*a.out, err = toHash(mergeOver(a.provider, own))
		}
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root(a.name), "Invalid Argument", err.Error())
		}
	}
	if !m.DefaultValue.IsNull() && !m.DefaultValue.IsUnderlyingValueNull() {
		g, err := fromAttr(ctx, m.DefaultValue, path.Root("default_value"))
		if err == nil {
			req.Default, err = hiera.FromGo(g)
		}
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("default_value"), "Invalid Argument", err.Error())
		}
		req.HasDefault = true
	}
	return req, !resp.Diagnostics.HasError()
}

func toHash(m map[string]any) (*hiera.Hash, error) {
	v, err := hiera.FromGo(m)
	if err != nil {
		return nil, err
	}
	h, _ := v.(*hiera.Hash)
	return h, nil
}

// lookupError words an engine failure; *hiera.Error already names its level, file and line.
func lookupError(key, configPath string, err error) string {
	var he *hiera.Error
	if errors.As(err, &he) && he.Key != "" && he.Key != key {
		return fmt.Sprintf("Looking up %q with %s failed while looking up %q: %s", key, configPath, he.Key, err)
	}
	return fmt.Sprintf("Looking up %q with %s failed: %s", key, configPath, err)
}

func notFound(key, configPath string, res hiera.Result) string {
	levels := "no hierarchy levels"
	if len(res.Searched) > 0 {
		levels = "these hierarchy levels: " + strings.Join(res.Searched, ", ")
	}
	msg := fmt.Sprintf("The key %q was not found in the Hiera data of %s. Searched %s. "+
		"Set default_value to return a value when the key is missing.", key, configPath, levels)
	if res.Explanation != "" {
		msg += "\n\n" + res.Explanation
	}
	return msg
}
