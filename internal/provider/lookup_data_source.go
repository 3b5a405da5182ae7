package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// NewLookupDataSource returns hiera_lookup, which behaves like Puppet's lookup().
func NewLookupDataSource() datasource.DataSource {
	return &hieraDataSource{kind: lookupVariant{
		name:     "lookup",
		function: hiera.FuncLookup,
		description: "Looks up one key in Hiera as Puppet's `lookup()` does and returns the value with its real types. " +
			"Values found at several hierarchy levels are merged as `lookup_options` in the data say, else the first one found wins.",
		mergeText: lookupMergeText,
		shape:     anyShape,
	}}
}

// lookupMergeText is the merge block's default for lookups that follow lookup_options.
const lookupMergeText = "Without it, the strategy comes from `lookup_options` for the key in the data, else `first`."

// anyShape accepts a value of any shape, as lookup() does.
func anyShape(v any) (any, string) { return v, "" }
