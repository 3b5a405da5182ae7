package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// NewHashDataSource returns hiera_hash, which behaves like Puppet's hiera_hash(): a hash merge
// whose result must be a hash.
func NewHashDataSource() datasource.DataSource {
	return &hieraDataSource{kind: lookupVariant{
		name:     "hash",
		function: hiera.FuncHash,
		description: "Merges the hashes found for one key at every hierarchy level, as Puppet's `hiera_hash()` does, " +
			"and returns an object whose keys can feed `for_each`.",
		mergeText: "Without it, the strategy is `hash` (for a version 3 `hiera.yaml`, its `:merge_behavior:` decides).",
		shape:     hashShape,
	}}
}

// hashShape rejects anything but a hash: a hash merge over scalars makes no sense, and callers
// rely on an object (for_each, attribute access).
func hashShape(v any) (any, string) {
	if _, ok := v.(*model.Hash); ok {
		return v, ""
	}
	return v, fmt.Sprintf("must be a hash for hiera_hash, but it is %s: use hiera_array for a list, or hiera_lookup for a value of any type", tfKind(v))
}
