package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

var (
	_ provider.Provider                       = (*hieraProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*hieraProvider)(nil)
	_ provider.ProviderWithFunctions          = (*hieraProvider)(nil)
)

// New returns a factory for the provider; version is set at release time. NewServer serves it.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return newProvider(version) }
}

func newProvider(version string) *hieraProvider {
	return &hieraProvider{version: version, engines: newEngineCache(), factsFiles: newFactsFileCache()}
}

type hieraProvider struct {
	version string
	engines *engineCache // lives as long as the provider, across Configure calls
	// factsFiles holds the facts files read (facts_file), also across Configure calls.
	factsFiles *factsFileCache
	// configured is what the last Configure handed the data sources, for the server's direct reads.
	configured atomic.Pointer[providerData]
}

type hieraProviderModel struct {
	Config          types.String           `tfsdk:"config"`
	Environment     types.String           `tfsdk:"environment"`
	Modulepath      types.List             `tfsdk:"modulepath"`
	IgnoreFunctions types.List             `tfsdk:"ignore_functions"`
	Facts           types.Dynamic          `tfsdk:"facts"`
	FactsFile       types.String           `tfsdk:"facts_file"`
	Scope           types.Dynamic          `tfsdk:"scope"`
	ExplainPaths    types.String           `tfsdk:"explain_paths"`
	Eyaml           *providerEyamlModel    `tfsdk:"eyaml"`
	PuppetDB        *providerPuppetDBModel `tfsdk:"puppetdb"`
	PitfallWarnings types.Bool             `tfsdk:"pitfall_warnings"`
	FactsFileMerge  types.Bool             `tfsdk:"facts_file_merge"`
}

func (p *hieraProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "hiera"
	resp.Version = p.version
}

func (p *hieraProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Looks values up in Puppet Hiera data (a `hiera.yaml` and its YAML, JSON or eyaml files) " +
			"and returns them with their real types.",
		Attributes: map[string]schema.Attribute{
			"config": schema.StringAttribute{
				MarkdownDescription: configDescription("The global layer. Defaults to `hiera.yaml` when neither `environment` nor "+
					"`modulepath` is set; with either, no `config` means no global layer.") +
					" A file that does not exist is read as Puppet reads a missing global hiera.yaml: Puppet's default configuration, one level " +
					"reading `data/common.yaml` beside where the file would be, with a warning. Unset (hiera.yaml in the working directory), a " +
					"missing file is an error at the first lookup, naming the path tried." + envDescription("config"),
				Optional: true,
			},
			"environment": schema.StringAttribute{
				MarkdownDescription: environmentDescription("") + envDescription("environment"),
				Optional:            true,
				Validators:          environmentValidators,
			},
			"modulepath": schema.ListAttribute{
				MarkdownDescription: modulepathDescription("") + envDescription("modulepath") +
					" There the directories are separated by `:` (`;` on Windows), as in Puppet's `modulepath` setting.",
				ElementType: types.StringType,
				Optional:    true,
				Validators:  modulepathValidators,
			},
			"ignore_functions": schema.ListAttribute{
				MarkdownDescription: "Custom data functions (a module's or a site's own, as `wmflib::regex_data` or a Vault backend: " +
					"functions the provider does not run) whose hierarchy levels are read as holding no data, for people who know those " +
					"levels hold nothing needed here. Without it, a lookup that reaches such a level fails naming it (keys found in the " +
					"levels before it are answered). Every lookup of a hierarchy with levels read so warns, naming them.",
				ElementType: types.StringType,
				Optional:    true,
				Validators:  []validator.List{listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
			},
			"facts": schema.DynamicAttribute{MarkdownDescription: factsDescription + " Merged over the facts of `facts_file`, top-level key by key.", Optional: true},
			"facts_file": schema.StringAttribute{
				MarkdownDescription: factsFileDescription,
				Optional:            true,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"scope": schema.DynamicAttribute{MarkdownDescription: scopeDescription, Optional: true},
			"facts_file_merge": schema.BoolAttribute{
				MarkdownDescription: "What a data source's own `facts_file` does with the provider's facts (`facts_file` and `facts`). " +
					"By default it replaces them: the file names another node, whose facts are the file's alone (the provider's node's " +
					"`role` does not leak into it), and a warning says so. `true` merges the file's facts over the provider's, top-level " +
					"key by key, for a file that adds facts to the provider's node.",
				Optional: true,
			},
			"pitfall_warnings": schema.BoolAttribute{
				MarkdownDescription: "Warn about silent traps that Puppet has too, where the answer is Puppet's but likely not what was meant: " +
					"a fact with a dot in its name (`\"os.family\"`), a fact or variable that a hierarchy path or a value interpolates but " +
					"that is not set, a module with a `data` directory but no `hiera.yaml`. Defaults to `true`; `false` silences them.",
				Optional: true,
			},
			"explain_paths": schema.StringAttribute{
				MarkdownDescription: "How `explanation` (with `explain = true`) and the `file` of `sources` (of every data source, `hiera_node` and `hiera_nodes` included) name files: `\"absolute\"`, as `puppet lookup --explain` " +
					"prints them, or `\"relative\"` to the directory of the provider's `hiera.yaml` (else of its `environment`), so that " +
					"the explanation stored in the state is the same on a laptop and a CI runner whatever the checkout's path. " +
					"Defaults to `\"absolute\"`." + envDescription("explain_paths"),
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(explainPathsValues...)},
			},
		},
		Blocks: map[string]schema.Block{"eyaml": providerEyamlBlock(), "puppetdb": providerPuppetDBBlock()},
	}
}

func (p *hieraProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m hieraProviderModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	withEnvDefaults(ctx, &m, os.Getenv)
	pd := &providerData{engines: p.engines, factsFiles: p.factsFiles, config: m.Config.ValueString(), environment: m.Environment.ValueString(),
		pitfalls: m.PitfallWarnings.IsNull() || m.PitfallWarnings.ValueBool(), factsFileMerge: m.FactsFileMerge.ValueBool()}
	pd.unknown = m.Config.IsUnknown() || m.Environment.IsUnknown() || m.ExplainPaths.IsUnknown()
	switch pd.explainPaths = m.ExplainPaths.ValueString(); pd.explainPaths {
	case "", explainAbsolute, explainRelative:
	default: // from HIERA_EXPLAIN_PATHS: the configuration's own value was validated
		resp.Diagnostics.AddAttributeError(path.Root("explain_paths"), "Invalid Provider Argument",
			fmt.Sprintf("HIERA_EXPLAIN_PATHS must be %q or %q, not %q.", explainAbsolute, explainRelative, pd.explainPaths))
	}
	var err error
	switch pd.modulepath, err = modulepathArg(m.Modulepath); {
	case errors.Is(err, errUnknown):
		pd.unknown = true
	case err != nil:
		resp.Diagnostics.AddAttributeError(path.Root("modulepath"), "Invalid Provider Argument", err.Error())
	}
	switch pd.ignoreFunctions, err = stringList(m.IgnoreFunctions); {
	case errors.Is(err, errUnknown):
		pd.unknown = true
	case err != nil:
		resp.Diagnostics.AddAttributeError(path.Root("ignore_functions"), "Invalid Provider Argument", "ignore_functions "+err.Error())
	}
	for _, a := range []struct {
		name string
		val  types.Dynamic
		out  **model.Hash
	}{{"facts", m.Facts, &pd.facts}, {"scope", m.Scope, &pd.scope}} {
		given, err := objectArg(ctx, a.val, path.Root(a.name))
		if err == nil {
			*a.out, err = toHash(given)
		}
		switch {
		case errors.Is(err, errUnknown):
			pd.unknown = true
		case err != nil:
			resp.Diagnostics.AddAttributeError(path.Root(a.name), "Invalid Provider Argument", err.Error())
		}
	}
	switch fileFacts, err := pd.factsFileArg(m.FactsFile); {
	case errors.Is(err, errUnknown):
		pd.unknown = true
	case err != nil:
		resp.Diagnostics.AddAttributeError(path.Root("facts_file"), "Invalid Facts File", err.Error())
	default:
		pd.facts = overlay(fileFacts, pd.facts)
	}
	if !pd.unknown {
		resp.Diagnostics.Append(providerConfigMissing(pd.config)...)
	}
	eyamlKeys, unknown, diags := providerEyamlKeys(m.Eyaml)
	resp.Diagnostics.Append(diags...)
	pd.eyaml, pd.unknown = eyamlKeys, pd.unknown || unknown
	if m.Eyaml != nil {
		pd.eyamlPublicKeyPEM = m.Eyaml.PublicKeyPEM.ValueString()
	}
	pdb, unknown, diags := providerPuppetDB(m.PuppetDB)
	resp.Diagnostics.Append(diags...)
	pd.puppetdb, pd.unknown = pdb, pd.unknown || unknown
	resp.DataSourceData = pd
	resp.EphemeralResourceData = pd
	resp.ResourceData = pd
	p.configured.Store(pd)
}

func (p *hieraProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{NewLookupDataSource, NewHashDataSource, NewArrayDataSource, NewSecretDataSource, NewNodeDataSource, NewNodesDataSource}
}

func (p *hieraProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{NewLookupEphemeralResource}
}

// Functions are not configured by Terraform: lookup gets the provider's engine cache directly.
func (p *hieraProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{
		NewDeepMergeFunction,
		NewMergeFunction,
		func() function.Function { return NewLookupFunction(p.engines) },
		NewEyamlEncryptFunction,
	}
}

func (p *hieraProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{NewDataResource}
}
