package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
)

var _ function.Function = (*deepMergeFunction)(nil)

// NewDeepMergeFunction returns provider::hiera::deep_merge(values...), Hiera's deep merge.
func NewDeepMergeFunction() function.Function { return &deepMergeFunction{} }

type deepMergeFunction struct{}

func (f *deepMergeFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "deep_merge"
}

func (f *deepMergeFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Deep-merges values, later arguments winning, as Hiera's deep merge does",
		MarkdownDescription: "Merges any number of values as Hiera's `deep` strategy does and returns the result with its real types. " +
			"Objects and maps are merged key by key, recursively; lists are joined without duplicates, the elements of earlier " +
			"arguments first; any other value, or a value of another type, from a later argument replaces the earlier one. " +
			"Unlike Terraform's `merge()`, which replaces a nested object whole, `deep_merge` keeps the nested keys that later " +
			"arguments do not set. A null argument, or a null inside an object, changes nothing. " +
			"The result is null when there are no arguments or all are null.",
		VariadicParameter: valuesParameter,
		Return:            function.DynamicReturn{},
	}
}

func (f *deepMergeFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var args []types.Dynamic
	resp.Error = req.Arguments.Get(ctx, &args)
	if resp.Error != nil {
		return
	}
	result, ferr := mergeArguments(ctx, &merge.Merge{Strategy: "deep"}, args, 0)
	if ferr != nil {
		resp.Error = ferr
		return
	}
	resp.Error = resp.Result.Set(ctx, result)
}
