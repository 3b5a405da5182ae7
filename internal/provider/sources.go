// The sources attribute: the data files that gave a result its value.
package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// sourceAttributes are the attributes of one source object.
var sourceAttributes = map[string]attr.Type{
	"layer": types.StringType, "module": types.StringType, "level": types.StringType, "file": types.StringType,
}

// sourceType is one source, sourcesType the list of a result's sources.
var (
	sourceType  = types.ObjectType{AttrTypes: sourceAttributes}
	sourcesType = types.ListType{ElemType: sourceType}
)

const sourcesDescription = "The data files that gave the value, most specific first: the one a first-found lookup took it from, " +
	"each file whose value a merge took in. Each is an object: `layer` (`global`, `environment` or `module`), `module` (the module's " +
	"name, or `\"\"`), `level` (the hierarchy level's name) and `file` (the data file's absolute path)."

// sourcesList is a result's sources as the attribute holds them (empty when the default answered).
func sourcesList(sources []hiera.Source) types.List {
	elems := make([]attr.Value, len(sources))
	for i, s := range sources {
		elems[i] = types.ObjectValueMust(sourceAttributes, map[string]attr.Value{
			"layer": types.StringValue(s.Layer), "module": types.StringValue(s.Module),
			"level": types.StringValue(s.Level), "file": types.StringValue(s.File),
		})
	}
	return types.ListValueMust(sourceType, elems)
}

// tfSourceType is sourceType as a Terraform type, for building many sources at once (hiera_node).
var (
	tfSourceType  = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"layer": tftypes.String, "module": tftypes.String, "level": tftypes.String, "file": tftypes.String}}
	tfSourcesType = tftypes.List{ElementType: tfSourceType}
)

// tfSources is sourcesList as a Terraform value, without the framework's values: a node's thousands
// of keys cost a tenth.
func tfSources(sources []hiera.Source) tftypes.Value {
	elems := make([]tftypes.Value, len(sources))
	for i, s := range sources {
		elems[i] = tftypes.NewValue(tfSourceType, map[string]tftypes.Value{
			"layer": tftypes.NewValue(tftypes.String, s.Layer), "module": tftypes.NewValue(tftypes.String, s.Module),
			"level": tftypes.NewValue(tftypes.String, s.Level), "file": tftypes.NewValue(tftypes.String, s.File),
		})
	}
	return tftypes.NewValue(tfSourcesType, elems)
}
