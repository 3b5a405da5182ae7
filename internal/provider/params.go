package provider

// check_params on hiera_node and hiera_nodes: a node's values against the Puppet code that reads
// them (internal/classparams), the same findings as hieraform check for that node.

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/classparams"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/provider/wire"
)

var checkParamsAttribute = schema.BoolAttribute{
	MarkdownDescription: "Also check the node's values against the Puppet code that reads them, as `hieraform check` does: " +
		"the class definitions and type aliases of every module of the modulepath and of the environment's `manifests/` " +
		"(read once per configuration, never run). The findings are in `param_problems`. Without it no manifest is read.",
	Optional: true,
}

var paramProblemsAttribute = schema.MapAttribute{
	MarkdownDescription: "With `check_params`: each of the node's keys whose value does not match the declared type of the class " +
		"parameter automatic parameter lookup binds it to (the key `ntp::servers`, the parameter `$servers` of class `ntp`), " +
		"mapped to Puppet's message with the data file and line the value came from " +
		"(`Class[Ntp]: parameter 'servers' expects an Array value, got String (hierarchy level \"common\", file: ..., line: 3). ...`); " +
		"a parameter whose type names an unknown type or an alias that cannot be resolved, with why; a key of a module that " +
		"names no parameter but is near one (\"Did you mean ntp::servers?\"). Empty when all is well, so that a `postcondition` " +
		"can stop a plan on bad data; null without `check_params`. A secret's value is never shown.",
	ElementType: types.StringType,
	Computed:    true,
}

// classParamsCache holds the Puppet code each engine's modules and environment define, read on
// the first check_params read (the manifests are not re-read during a run).
type classParamsCache struct {
	mu   sync.Mutex
	code map[*hiera.Engine]*classparams.Code
}

// get is engine's code; warnings are the manifests that could not be read, given to the read that
// read them only.
func (c *classParamsCache) get(engine *hiera.Engine) (code *classparams.Code, warnings []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if code, ok := c.code[engine]; ok {
		return code, nil
	}
	code, warnings = classparams.Read(engine)
	if c.code == nil {
		c.code = map[*hiera.Engine]*classparams.Code{}
	}
	c.code[engine] = code
	return code, warnings
}

// paramProblems checks a node's answers against its engine's Puppet code: key -> message.
func (pd *providerData) paramProblems(engine *hiera.Engine, answers []hiera.NodeAnswer, diags *diag.Diagnostics) map[string]string {
	code, warnings := pd.engines.params.get(engine)
	for _, w := range warnings {
		diags.AddWarning("Puppet Manifest Not Read", w)
	}
	problems := map[string]string{}
	for _, a := range answers {
		if e := code.Check(a); e != nil {
			problems[a.Key] = e.Error()
			continue
		}
		if unknown, near := code.UnknownKey(a.Key); unknown && len(near) > 0 && a.Err == nil && a.Result.Found {
			e := &model.Error{Message: classparams.UnknownKeyMessage(a.Key), Key: a.Key, ValueFree: true,
				Hint: fmt.Sprintf("Did you mean %s?", strings.Join(near, " or "))}
			problems[a.Key] = hiera.PlaceAt(e, a.Key, a.Result.Sources).Error()
		}
	}
	return problems
}

// appendParamProblems writes param_problems: a map in sorted key order, or null when not checked.
func appendParamProblems(problems map[string]string, checked bool) []byte {
	if !checked {
		return wire.AppendNil(nil)
	}
	keys := slices.Sorted(maps.Keys(problems))
	b := wire.AppendMapHeader(nil, len(keys))
	for _, k := range keys {
		b = wire.AppendString(wire.AppendString(b, k), problems[k])
	}
	return b
}
