package provider

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-validators/objectvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// defaultConfig is used when neither the provider nor the data source names a hiera.yaml.
const defaultConfig = "hiera.yaml"

// providerData is what the provider hands to its data sources after Configure.
type providerData struct {
	engines *engineCache
	config  string         // the provider's hiera.yaml, possibly relative to the working directory
	facts   map[string]any // the provider's facts, nil when unset
	scope   map[string]any
	// unknown is set when a provider argument is not known yet (it depends on something computed
	// at apply time), so no lookup can be answered during this plan.
	unknown bool
}

// toProvider is the ProviderData type check every data source's Configure shares.
func toProvider(data any) (*providerData, diag.Diagnostics) {
	var diags diag.Diagnostics
	pd, ok := data.(*providerData)
	if !ok {
		diags.AddError("Unexpected Provider Data",
			fmt.Sprintf("Expected *providerData, got %T. This is a provider bug, please report it.", data))
	}
	return pd, diags
}

// engineCache keeps one engine per hiera.yaml, so every data source naming the same file shares
// its parsed configuration and data files instead of reading them again.
type engineCache struct {
	mu      sync.Mutex
	engines map[string]*hiera.Engine
}

func newEngineCache() *engineCache {
	return &engineCache{engines: map[string]*hiera.Engine{}}
}

// get returns the engine for configPath, which is made absolute against the working directory
// (Terraform's, since it starts the provider there) so that two spellings of one file share it.
func (c *engineCache) get(configPath string) (*hiera.Engine, error) {
	abs, err := filepath.Abs(configPath)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve the hiera.yaml path %q: %w", configPath, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.engines[abs]
	if !ok {
		e = hiera.NewEngine(abs)
		c.engines[abs] = e
	}
	return e, nil
}

// objectArg reads facts or scope: an object (or map) of any shape, or null.
func objectArg(ctx context.Context, v attr.Value, at path.Path) (map[string]any, error) {
	if v.IsNull() {
		return nil, nil
	}
	if v.IsUnknown() {
		return nil, errUnknown
	}
	g, err := fromAttr(ctx, v, at)
	if err != nil {
		return nil, err
	}
	if g == nil {
		return nil, nil
	}
	m, ok := g.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s must be an object such as { role = \"web\" }, got %s", at, describe(g))
	}
	return m, nil
}

// describe names the kind of a value (engine or plain Go) for error messages.
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case string:
		return "a string"
	case []any:
		return "an array"
	case *hiera.Hash, map[string]any:
		return "a hash"
	}
	return "a number"
}

// mergeOver returns base with the top-level keys of over replacing its own.
func mergeOver(base, over map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}

// Schema pieces shared by the provider and all three data sources.

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

type mergeModel struct {
	Strategy         types.String `tfsdk:"strategy"`
	KnockoutPrefix   types.String `tfsdk:"knockout_prefix"`
	SortMergedArrays types.Bool   `tfsdk:"sort_merged_arrays"`
	MergeHashArrays  types.Bool   `tfsdk:"merge_hash_arrays"`
}

func (m *mergeModel) toEngine() *hiera.Merge {
	if m == nil {
		return nil
	}
	return &hiera.Merge{
		Strategy:         m.Strategy.ValueString(),
		KnockoutPrefix:   m.KnockoutPrefix.ValueString(),
		SortMergedArrays: m.SortMergedArrays.ValueBool(),
		MergeHashArrays:  m.MergeHashArrays.ValueBool(),
	}
}

func mergeBlock(defaultText string) schema.SingleNestedBlock {
	return schema.SingleNestedBlock{
		MarkdownDescription: "How values found at several hierarchy levels are combined. " + defaultText +
			" A `merge` block always wins over `lookup_options` in the data.",
		// A Required attribute would be demanded even with no block, so the block asks for it.
		Validators: []validator.Object{objectvalidator.AlsoRequires(path.MatchRelative().AtName("strategy"))},
		Attributes: map[string]schema.Attribute{
			"strategy": schema.StringAttribute{
				MarkdownDescription: "The merge strategy, required in the block: `first` (the first value found), `unique` (arrays flattened and joined without duplicates), " +
					"`hash` (top-level hash keys merged, higher levels winning) or `deep` (hashes merged recursively, arrays joined).",
				Optional:   true, // required in a given block: see the block's validator
				Validators: []validator.String{stringvalidator.OneOf("first", "unique", "hash", "deep")},
			},
			"knockout_prefix": schema.StringAttribute{
				MarkdownDescription: "`deep` only: a value or array element starting with this prefix (such as `--`) removes that entry coming from lower levels.",
				Optional:            true,
				Validators:          []validator.String{deepOnly{}, stringvalidator.LengthAtLeast(1)},
			},
			"sort_merged_arrays": schema.BoolAttribute{
				MarkdownDescription: "`deep` only: sort arrays that were merged. Defaults to `false`.",
				Optional:            true,
				Validators:          []validator.Bool{deepOnly{}},
			},
			"merge_hash_arrays": schema.BoolAttribute{
				MarkdownDescription: "`deep` only: deep-merge hashes that sit at the same index of merged arrays. Defaults to `false`.",
				Optional:            true,
				Validators:          []validator.Bool{deepOnly{}},
			},
		},
	}
}

// deepOnly rejects a deep merge option set beside a strategy other than deep.
type deepOnly struct{}

func (deepOnly) Description(context.Context) string { return "only valid with strategy \"deep\"" }

func (d deepOnly) MarkdownDescription(ctx context.Context) string { return d.Description(ctx) }

func (deepOnly) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() {
		return
	}
	resp.Diagnostics.Append(checkDeep(ctx, req.Config, req.Path)...)
}

func (deepOnly) ValidateBool(ctx context.Context, req validator.BoolRequest, resp *validator.BoolResponse) {
	if req.ConfigValue.IsNull() {
		return
	}
	resp.Diagnostics.Append(checkDeep(ctx, req.Config, req.Path)...)
}

type configReader interface {
	GetAttribute(context.Context, path.Path, any) diag.Diagnostics
}

func checkDeep(ctx context.Context, cfg configReader, at path.Path) diag.Diagnostics {
	var strategy types.String
	diags := cfg.GetAttribute(ctx, at.ParentPath().AtName("strategy"), &strategy)
	if diags.HasError() || strategy.IsUnknown() || strategy.ValueString() == "deep" {
		return diags
	}
	diags.AddAttributeError(at, "Merge Option Needs Deep Strategy",
		fmt.Sprintf("%s only applies to the \"deep\" merge strategy, but the strategy is %q. "+
			"Set strategy = \"deep\" or remove the option.", at, strategy.ValueString()))
	return diags
}
