package provider

import (
	"context"
	"maps"
	"slices"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"

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

// lookupParams are the lookup function's parameter names, the variadic one last.
var lookupParams = []string{"config", "key", "facts", "scope"}

var lookupFunctionKind = lookupVariant{
	name:        "lookup",
	function:    hiera.FuncLookup,
	shape:       anyShape,
	missingHint: "Wrap the call in try() to fall back to a default, or use the hiera_lookup data source and its default_value.",
	isFunction:  true,
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
			function.DynamicParameter{
				Name: "config",
				MarkdownDescription: "Path to a `hiera.yaml`; null means `hiera.yaml`. A relative path is taken from Terraform's " +
					"working directory; use `\"${path.module}/hiera.yaml\"` in modules. Or an object with any of `config`, " +
					"`environment` and `modulepath`, as the provider's arguments of those names, to read a Puppet environment " +
					"and its modules: `{ environment = \"${path.module}/environments/production\" }`.",
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
					"`clientcert` or `fqdn` fact (else `networking.fqdn`, as Facter 4 prints facts) unless `scope` gives `trusted`.",
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
	m := lookupModel{lookupArgs: lookupArgs{Scope: types.DynamicNull()}, DefaultValue: types.DynamicNull()}
	var config types.Dynamic
	var scope []types.Dynamic
	resp.Error = req.Arguments.Get(ctx, &config, &m.Key, &m.Facts, &scope)
	if resp.Error != nil {
		return
	}
	if resp.Error = sourcesArgument(ctx, config, &m); resp.Error != nil {
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
	if diags := pd.lookup(ctx, lookupFunctionKind, &m, nil); diags.HasError() {
		resp.Error = funcErrorFromDiags(diags, lookupParams, map[string]int64{"config": 0, "environment": 0, "modulepath": 0, "key": 1, "facts": 2, "scope": 3, "value_type": 4})
		return
	}
	resp.Error = resp.Result.Set(ctx, m.Value)
}

// sourcesArgument reads the function's config argument into m: a hiera.yaml path, or an object
// with the provider's config, environment and modulepath arguments.
func sourcesArgument(ctx context.Context, arg types.Dynamic, m *lookupModel) *function.FuncError {
	const usage = "config must be a path to a hiera.yaml, or an object with any of config, environment (strings) and modulepath (a list of strings)"
	g, err := fromAttr(ctx, arg, path.Root("config"))
	if err != nil {
		return function.NewArgumentFuncError(0, err.Error())
	}
	fields := map[string]any{"config": g}
	switch g := g.(type) {
	case nil:
		return nil
	case map[string]any:
		fields = g
	case string:
	default:
		return function.NewArgumentFuncError(0, usage)
	}
	for _, name := range slices.Sorted(maps.Keys(fields)) { // sorted: one error, always the same
		v := fields[name]
		if v == nil {
			continue
		}
		switch name {
		case "config", "environment":
			s, ok := v.(string)
			if !ok || s == "" {
				return function.NewArgumentFuncError(0, name+" must be a non-empty string")
			}
			if name == "config" {
				m.Config = types.StringValue(s)
			} else {
				m.Environment = types.StringValue(s)
			}
		case "modulepath":
			list, ok := v.([]any)
			elems := make([]attr.Value, len(list))
			for i, e := range list {
				s, isString := e.(string)
				if !isString || s == "" {
					ok = false
					break
				}
				elems[i] = types.StringValue(s)
			}
			if !ok {
				return function.NewArgumentFuncError(0, "modulepath must be a list of non-empty strings")
			}
			m.Modulepath = types.ListValueMust(types.StringType, elems)
		default:
			return function.NewArgumentFuncError(0, usage+"; "+strconv.Quote(name)+" is none of them")
		}
	}
	return nil
}
