package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// NewSecretDataSource returns hiera_secret: hiera_lookup for secrets (eyaml-encrypted values,
// convert_to: Sensitive), whose results are marked sensitive.
func NewSecretDataSource() datasource.DataSource {
	return &hieraDataSource{kind: lookupVariant{
		name:     "secret",
		function: hiera.FuncLookup,
		description: "Looks up one key in Hiera as `hiera_lookup` does, including secrets: values decrypted from eyaml " +
			"(`lookup_key: eyaml_lookup_key`) and values whose `lookup_options` say `convert_to: Sensitive`. " +
			"`value`, `json` and `explanation` are marked sensitive, so Terraform hides them in plan output, but like every " +
			"data source result they are stored in the state. To keep a secret out of plan and state, use the ephemeral resource `hiera_lookup`.",
		mergeText: lookupMergeText,
		shape:     anyShape,
		secret:    true,
	}}
}
