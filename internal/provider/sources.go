package provider

// The sources attribute: the data files that gave a result its value.

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/provider/wire"
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
	"name, or `\"\"`), `level` (the hierarchy level's name) and `file` (the data file's absolute path, or relative with the provider's `explain_paths = \"relative\"`)."

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

// appendSources writes a result's sources in msgpack, as sourcesType's values are written
// (hiera_node's thousands of keys; an object's attributes in sorted order).
func appendSources(b []byte, sources []hiera.Source) []byte {
	b = wire.AppendArrayHeader(b, len(sources))
	for _, s := range sources {
		b = wire.AppendMapHeader(b, 4)
		b = wire.AppendString(wire.AppendString(b, "file"), s.File)
		b = wire.AppendString(wire.AppendString(b, "layer"), s.Layer)
		b = wire.AppendString(wire.AppendString(b, "level"), s.Level)
		b = wire.AppendString(wire.AppendString(b, "module"), s.Module)
	}
	return b
}
