package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// NewArrayDataSource returns hiera_array, which behaves like Puppet's hiera_array(): a unique merge
// whose result is always a list.
func NewArrayDataSource() datasource.DataSource {
	return &hieraDataSource{kind: lookupVariant{
		name:     "array",
		function: hiera.FuncArray,
		description: "Collects the values found for one key at every hierarchy level into one list without duplicates, " +
			"as Puppet's `hiera_array()` does. The result is always a list: a single value comes back as a one-element list.",
		mergeText: "Without it, the strategy is `unique`.",
		shape:     arrayShape,
	}}
}

// arrayShape wraps a single value in a list, as Hiera's unique merge does.
func arrayShape(v any) (any, string) {
	if _, ok := v.([]any); ok {
		return v, ""
	}
	return []any{v}, ""
}
