package provider

// The environment and modulepath arguments: Puppet's environment and module layers (issue 10).

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// The arguments' checks, shared by the provider, the data sources and the ephemeral resource.
var (
	environmentValidators = []validator.String{stringvalidator.LengthAtLeast(1)}
	modulepathValidators  = []validator.List{listvalidator.NoNullValues(), listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))}
)

// environmentDescription and modulepathDescription describe the arguments; what says how this one is used.
func environmentDescription(what string) string {
	return "Path to a Puppet environment directory, such as a control repository's `environments/production`, " +
		"as `puppet lookup --environment` uses it: its `hiera.yaml` is the environment layer, its directory name is " +
		"`%{environment}` (unless `scope.environment` is set), and its `environment.conf` `modulepath` names the module " +
		"directories (else `modules/` inside it). A key `name::rest` is also looked up in module `name`'s own " +
		"`hiera.yaml` and data, after the global and environment layers." + sentence(what) +
		" A relative path is taken from Terraform's working directory; a directory that does not exist is an error at the first lookup."
}

func modulepathDescription(what string) string {
	return "Directories whose subdirectories are Puppet modules; the first directory holding a module of a name wins. " +
		"Replaces the environment's `environment.conf` `modulepath`, and works without `environment`." + sentence(what) +
		" A directory that does not exist is skipped, as Puppet does."
}

// sentence is " "+s, or "" for no sentence.
func sentence(s string) string {
	if s == "" {
		return ""
	}
	return " " + s
}

// dataSources is where one lookup's data comes from: the global hiera.yaml ("" for none) and the
// environment and module layers. It keys the engine cache.
type dataSources struct {
	config string
	layers hiera.Layers
}

// layerArgs are a data source's or resource's own config, environment and modulepath arguments,
// each replacing the provider's when given (null when not).
type layerArgs struct {
	Config      types.String
	Environment types.String
	Modulepath  types.List
}

// layerArgs are the lookup's own config, environment and modulepath.
func (a *lookupArgs) layerArgs() layerArgs {
	return layerArgs{Config: a.Config, Environment: a.Environment, Modulepath: a.Modulepath}
}

// sources resolves a data source's or resource's arguments over the provider's: each of config,
// environment and modulepath given replaces the provider's. With no environment and no modulepath,
// config defaults to hiera.yaml in the working directory; with either, no config means no global
// layer. Every user of those arguments resolves them here.
func (pd *providerData) sources(m layerArgs) (dataSources, diag.Diagnostics) {
	src := dataSources{config: pd.config, layers: hiera.Layers{Environment: pd.environment, Modulepath: pd.modulepath, IgnoreFunctions: pd.ignoreFunctions}}
	var diags diag.Diagnostics
	if v := m.Config.ValueString(); v != "" {
		src.config = v
	}
	own := false
	if v := m.Environment.ValueString(); v != "" {
		src.layers.Environment, own = v, true
	}
	if !m.Modulepath.IsNull() {
		mp, err := modulepathArg(m.Modulepath)
		if err != nil {
			diags.AddAttributeError(path.Root("modulepath"), "Invalid Argument", err.Error())
			return src, diags
		}
		src.layers.Modulepath = mp
	}
	// A hiera.yaml the user named that does not exist is read as Puppet reads it (its default
	// configuration, with a warning); the default one nobody named is an error.
	src.layers.DefaultConfig = src.config != ""
	if src.config == "" && src.layers.Environment == "" && src.layers.Modulepath == nil {
		src.config = defaultConfig
	}
	// The engine takes a missing environment for one without data, as Puppet takes an unknown
	// environment name; here it is a path the user typed, so a typo must not silently find nothing.
	if env := src.layers.Environment; env != "" {
		if reason := pd.engines.environmentProblem(env); reason != "" {
			const summary = "Environment Directory Not Found"
			if own {
				diags.AddAttributeError(path.Root("environment"), summary,
					fmt.Sprintf("The environment %q is not a Puppet environment directory: %s.", env, reason))
			} else {
				diags.AddError(summary, fmt.Sprintf("The provider's environment %q is not a Puppet environment directory: %s.", env, reason))
			}
		}
	}
	return src, diags
}

// String names the sources in messages: the hiera.yaml alone as before layers existed, else each part given.
func (s dataSources) String() string {
	if s.layers.Environment == "" && s.layers.Modulepath == nil {
		return s.config
	}
	var parts []string
	if s.config != "" {
		parts = append(parts, s.config)
	}
	if s.layers.Environment != "" {
		parts = append(parts, "environment "+s.layers.Environment)
	}
	if s.layers.Modulepath != nil {
		parts = append(parts, "modulepath ["+strings.Join(s.layers.Modulepath, ", ")+"]")
	}
	return strings.Join(parts, ", ")
}

// modulepathArg is a modulepath argument as directories: nil when null, errUnknown when it or an
// entry is not known yet. Null and empty entries are plan-time errors (modulepathValidators).
func modulepathArg(l types.List) ([]string, error) {
	dirs, err := stringList(l)
	if err != nil {
		if errors.Is(err, errUnknown) {
			return nil, err
		}
		return nil, errors.New("modulepath " + err.Error())
	}
	for i, d := range dirs {
		if d == "" {
			return nil, fmt.Errorf("modulepath entry %d is empty", i)
		}
	}
	return dirs, nil
}
