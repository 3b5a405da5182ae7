package provider

// The merge block shared by the lookup data sources: its schema, plan-time checks and engine form.

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/objectvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
)

type mergeModel struct {
	Strategy         types.String `tfsdk:"strategy"`
	KnockoutPrefix   types.String `tfsdk:"knockout_prefix"`
	SortMergedArrays types.Bool   `tfsdk:"sort_merged_arrays"`
	MergeHashArrays  types.Bool   `tfsdk:"merge_hash_arrays"`
}

func (m *mergeModel) toEngine() *merge.Merge {
	if m == nil {
		return nil
	}
	return &merge.Merge{
		Strategy: m.Strategy.ValueString(),
		Deep: merge.DeepOptions{
			KnockoutPrefix:   m.KnockoutPrefix.ValueString(),
			SortMergedArrays: m.SortMergedArrays.ValueBool(),
			MergeHashArrays:  m.MergeHashArrays.ValueBool(),
		},
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
				Validators: []validator.String{stringvalidator.OneOf(merge.Strategies...)},
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
	diags.AddAttributeError(at, "Merge Option Needs Deep Strategy", deepOnlyMessage(at.String(), strategy.ValueString()))
	return diags
}

// deepOnlyMessage words a deep option given with another strategy, for the merge block and the
// merge() function alike.
func deepOnlyMessage(option, strategy string) string {
	return fmt.Sprintf("%s only applies to the \"deep\" merge strategy, but the strategy is %q. "+
		"Set strategy = \"deep\" or remove the option.", option, strategy)
}
