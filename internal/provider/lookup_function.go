package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

var _ function.Function = (*lookupFunction)(nil)

// NewLookupFunction returns provider::hiera::lookup(config, key, facts[, scope[, value_type]]). Terraform does not
// configure provider functions, so it gets the provider's engine cache instead of its arguments.
func NewLookupFunction(engines *engineCache) function.Function {
	return &lookupFunction{engines: engines}
}

type lookupFunction struct {
	engines *engineCache
}

var lookupFunctionKind = lookupVariant{
	name:        "lookup",
	function:    hiera.FuncLookup,
	shape:       anyShape,
	missingHint: "Wrap the call in try() to fall back to a default, or use the hiera_lookup data source and its default_value.",
}

func (f *lookupFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "lookup"
}

func (f *lookupFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Looks up one key in Hiera as Puppet's lookup() does",
		MarkdownDescription: "Looks up one key in Hiera without a data source and returns the value with its real types. " +
			"Values found at several levels are merged as `lookup_options` in the data say, else the first one found wins. " +
			"The provider's own `config`, `facts` and `scope` do not apply (Terraform does not configure provider functions), " +
			"but the parsed `hiera.yaml` and data files are shared with the data sources. A missing key is an error " +
			"(wrap the call in `try()` for a default), and so is a secret value (eyaml, `convert_to: Sensitive`), which would " +
			"otherwise land in the plan and the state.",
		Parameters: []function.Parameter{
			function.StringParameter{
				Name: "config",
				MarkdownDescription: "Path to a `hiera.yaml`; null means `hiera.yaml`. A relative path is taken from Terraform's " +
					"working directory; use `\"${path.module}/hiera.yaml\"` in modules.",
				AllowNullValue: true,
			},
			function.StringParameter{
				Name: "key",
				MarkdownDescription: "The Hiera key, such as `profile::ntp::servers`. Dotted subkeys reach into the result: " +
					"`users.bob.uid`, `list.0`, `a.'dotted.key'`.",
			},
			function.DynamicParameter{
				Name: "facts",
				MarkdownDescription: "The node's facts, an object of any shape, or null. Interpolation sees them as `%{facts.x}` and as " +
					"top-scope variables `%{x}` and `%{::x}`. As with `puppet lookup`, `%{trusted.certname}` comes from the " +
					"`clientcert` or `fqdn` fact unless `scope` gives `trusted`.",
				AllowNullValue: true,
			},
		},
		VariadicParameter: function.DynamicParameter{
			Name: "scope",
			MarkdownDescription: "Optional, at most two: first `scope`, other top-scope variables such as `trusted`, `server_facts` or " +
				"`environment`, an object of any shape (or null), as the provider's `scope`; a name there wins over a fact of " +
				"the same name. Then `value_type`, a Puppet type expression the result must match, as the data sources' " +
				"`value_type` (`\"Array[String, 1]\"`): a value that does not match is an error with Puppet's message.",
			AllowNullValue: true,
		},
		Return: function.DynamicReturn{},
	}
}

func (f *lookupFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	m := lookupModel{Scope: types.DynamicNull(), DefaultValue: types.DynamicNull()}
	var scope []types.Dynamic
	resp.Error = req.Arguments.Get(ctx, &m.Config, &m.Key, &m.Facts, &scope)
	if resp.Error != nil {
		return
	}
	switch {
	case m.Key.ValueString() == "":
		resp.Error = function.NewArgumentFuncError(1, "the key must not be empty")
		return
	case len(scope) > 2:
		resp.Error = function.NewArgumentFuncError(5, "give at most a scope object and a value_type")
		return
	}
	if len(scope) > 0 {
		m.Scope = scope[0]
	}
	if len(scope) == 2 {
		var err *function.FuncError
		if m.ValueType, err = valueTypeArgument(scope[1], 4); err != nil {
			resp.Error = err
			return
		}
	}
	pd := &providerData{engines: f.engines}
	if diags := pd.lookup(ctx, lookupFunctionKind, &m); diags.HasError() {
		resp.Error = funcErrorFromDiags(diags, map[string]int64{"config": 0, "key": 1, "facts": 2, "scope": 3, "value_type": 4})
		return
	}
	resp.Error = resp.Result.Set(ctx, m.Value)
}
