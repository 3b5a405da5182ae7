package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// lookupArgs are the arguments that say where to look up and for which node: the same on every
// data source (argumentAttributes and the eyaml block), each given one replacing the provider's.
type lookupArgs struct {
	Config       types.String     `tfsdk:"config"`
	Environment  types.String     `tfsdk:"environment"`
	Modulepath   types.List       `tfsdk:"modulepath"`
	Facts        types.Dynamic    `tfsdk:"facts"`
	FactsFile    types.String     `tfsdk:"facts_file"`
	Scope        types.Dynamic    `tfsdk:"scope"`
	Eyaml        *eyamlPathsModel `tfsdk:"eyaml"`
	PuppetDBNode types.String     `tfsdk:"puppetdb_node"`
}

// args gives the models that embed lookupArgs a common method.
func (a *lookupArgs) args() *lookupArgs { return a }

// lookupModel is the arguments and results that the hiera_* data sources, the ephemeral
// resource hiera_lookup and the lookup function share.
type lookupModel struct {
	lookupArgs
	Key          types.String  `tfsdk:"key"`
	Merge        *mergeModel   `tfsdk:"merge"`
	DefaultValue types.Dynamic `tfsdk:"default_value"`
	ValueType    types.String  `tfsdk:"value_type"`
	Explain      types.Bool    `tfsdk:"explain"`
	Value        types.Dynamic `tfsdk:"value"`
	JSON         types.String  `tfsdk:"json"`
	Found        types.Bool    `tfsdk:"found"`
	Explanation  types.String  `tfsdk:"explanation"`
	Sources      types.List    `tfsdk:"sources"` // null after lookup: see sources
	// sources are the result's, as lookup found them: the framework's Read converts them into
	// Sources (withSources), the server writes them into the state directly (appendSources).
	sources []hiera.Source
}

// withSources sets m.Sources from the sources lookup found.
func (m *lookupModel) withSources() { m.Sources = sourcesList(m.sources) }

// readLookup is the data sources' Read and the ephemeral resource's Open: it reads the arguments
// from config and looks the key up. deferred is true when the lookup waits instead: Terraform
// reads data sources at plan time even when the provider's own arguments are unknown, and rejects
// unknown results, so it defers where the client allows it (else lookup says why).
func (pd *providerData) readLookup(ctx context.Context, kind lookupVariant, config tfsdk.Config, deferralAllowed bool) (m lookupModel, deferred bool, diags diag.Diagnostics) {
	diags = config.Get(ctx, &m)
	if diags.HasError() {
		return m, false, diags
	}
	if pd != nil && pd.unknown && deferralAllowed {
		return m, true, diags
	}
	diags.Append(pd.lookup(ctx, kind, &m, nil)...)
	m.withSources()
	return m, false, diags
}

// lookup answers m's key with the provider's engines and fills m's results. Diagnostics on an
// argument name it with path.Root(argument). scope, when not nil, is m's facts and scope converted
// already (scopeCache).
func (pd *providerData) lookup(ctx context.Context, kind lookupVariant, m *lookupModel, scope *hiera.Scope) (diags diag.Diagnostics) {
	// The engine recovers its own panics; this catches any in the provider's conversions, so a
	// bug becomes a diagnostic instead of "Plugin did not respond".
	defer func() {
		if r := recover(); r != nil {
			diags.AddError("Internal Error in the Hiera Provider",
				fmt.Sprintf("Looking up %q failed with an internal error: %v. This is a bug; please report it.", m.Key.ValueString(), r))
		}
	}()
	key := m.Key.ValueString()
	if diags = pd.notReady(fmt.Sprintf("%q cannot be looked up", key)); diags.HasError() {
		return diags
	}
	lookup, diags := pd.request(ctx, kind, m, scope)
	if diags.HasError() {
		return diags
	}
	src, srcDiags := pd.sources(m.layerArgs())
	if diags.Append(srcDiags...); diags.HasError() {
		return diags
	}
	engine, err := pd.engines.get(src)
	if err != nil {
		diags.AddAttributeError(path.Root("config"), "Invalid Hiera Config Path", err.Error())
		return diags
	}
	configPath := src.String()

	res, err := engine.Lookup(ctx, lookup)
	logLookup(ctx, key, configPath, lookup, res, err)
	for _, w := range res.Warnings {
		diags.AddAttributeWarning(path.Root("key"), "Hiera Warning", w)
	}
	addPitfalls(&diags, res.Pitfalls)
	if errors.Is(err, hiera.ErrValueType) {
		diags.AddAttributeError(path.Root("value_type"), "Hiera Value Has Wrong Type", lookupError(key, configPath, placeAtValue(ctx, engine, lookup, err)))
		return diags
	}
	if errors.Is(err, hiera.ErrConfigNotFound) {
		diags.Append(configNotFound(err))
		return diags
	}
	if err != nil {
		diags.AddAttributeError(path.Root("key"), "Hiera Lookup Failed", lookupError(key, configPath, err)+eyamlKeyHint(err))
		return diags
	}
	value := res.Value
	switch {
	case !res.Found && !lookup.HasDefault:
		miss, _ := engine.ExplainMiss(ctx, lookup) // without it, the message names the levels only
		diags.AddAttributeError(path.Root("key"), "Hiera Key Not Found", notFound(key, configPath, res, miss, kind))
		return diags
	case !res.Found:
		value = lookup.Default // returned as given, whatever the engine did with it
	case res.Sensitive && !kind.secret:
		diags.AddAttributeError(path.Root("key"), "Sensitive Hiera Value", secretRefusal(key))
		return diags
	}
	value, msg := kind.shape(value)
	if msg != "" {
		diags.AddAttributeError(path.Root("key"), "Unexpected Hiera Value Type", fmt.Sprintf("The value of %q %s.", key, msg)+foundIn(res))
		return diags
	}

	// Conversion errors name a path inside the value, never the value itself.
	if m.Value, err = toDynamic(value, path.Root("value")); err != nil {
		diags.AddAttributeError(path.Root("key"), "Unrepresentable Hiera Value", fmt.Sprintf("The value of %q cannot be returned: %s.", key, err))
		return diags
	}
	js, err := datafile.MarshalJSON(value)
	if err != nil {
		diags.AddAttributeError(path.Root("key"), "Unrepresentable Hiera Value", fmt.Sprintf("The value of %q cannot be written as JSON: %s.", key, err))
		return diags
	}
	m.JSON = types.StringValue(string(js))
	m.Found = types.BoolValue(res.Found)
	m.sources = res.Sources
	base := pd.relativeBase(src)
	if base != "" {
		m.sources = relativeSources(res.Sources, base)
	}
	m.Explanation = types.StringValue("")
	if lookup.Explain {
		text := res.Explanation
		if base != "" {
			text = relativeExplanation(text, base)
		}
		m.Explanation = types.StringValue(text)
	}
	return diags
}

// argumentsNotKnown says why nothing can be looked up while the provider's arguments are unknown;
// what says what cannot be done.
// notReady says why pd cannot answer a read (nothing when it can): it is not configured, or its
// arguments are not known during this plan, so what (the read's object) cannot be done.
func (pd *providerData) notReady(what string) diag.Diagnostics {
	switch {
	case pd == nil:
		return diag.Diagnostics{diag.NewErrorDiagnostic("Provider Not Configured",
			"The hiera provider was not configured. This is a provider bug, please report it.")}
	case pd.unknown:
		return diag.Diagnostics{argumentsNotKnown(what)}
	}
	return nil
}

func argumentsNotKnown(what string) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Provider Arguments Not Known Yet",
		"The hiera provider's config, environment, modulepath, facts, scope or eyaml keys depend on values known only after apply, so "+what+" during this plan. "+
			"Pass such facts in the data source's own facts or scope instead (the lookup then waits for apply), "+
			"or create the resources they come from first.")
}

// logLookup writes the one log line of a lookup, at DEBUG whatever its outcome: a key not found or
// a failed lookup is the data source's or function's error diagnostic, which the caller may expect
// (try() around the lookup function, a default). The plugin library logs that diagnostic at ERROR
// on its own; the provider adds nothing at that level. It never logs the value: Hiera holds secrets.
func logLookup(ctx context.Context, key, sources string, lookup hiera.Request, res hiera.Result, err error) {
	outcome := "found"
	switch {
	case err != nil:
		outcome = "failed"
	case !res.Found && lookup.HasDefault:
		outcome = "not found, default returned"
	case !res.Found:
		outcome = "not found"
	}
	tflog.Debug(ctx, "hiera lookup", map[string]any{
		"key": key, "sources": sources, "merge": lookup.Merge.String(), "outcome": outcome, "found": res.Found,
		"levels_searched": res.Searched, "sensitive": res.Sensitive,
	})
}

// secretRefusal explains why a plain lookup does not return a secret, and what does.
func secretRefusal(key string) string {
	return fmt.Sprintf("The value of %q is secret: it was decrypted from eyaml, or lookup_options give it convert_to: Sensitive. "+
		"hiera_lookup, hiera_hash, hiera_array and provider::hiera::lookup refuse to return it, because it would be written "+
		"to the plan and the state in clear. Read it instead with the ephemeral resource hiera_lookup "+
		"(Terraform 1.10 or later, OpenTofu 1.11 or later; the value is never stored in plan or state), or with the hiera_secret data source "+
		"(the value is marked sensitive and hidden from plan output, but stored in the state).", key)
}

// request builds the engine request from the lookup's arguments and the provider's. scope, when
// not nil, is m's facts and scope converted already.
func (pd *providerData) request(ctx context.Context, kind lookupVariant, m *lookupModel, scope *hiera.Scope) (hiera.Request, diag.Diagnostics) {
	var diags diag.Diagnostics
	req := hiera.Request{Key: m.Key.ValueString(), Function: kind.function, Merge: m.Merge.toEngine(), Explain: m.Explain.ValueBool(),
		Pitfalls: pd.pitfalls}
	if scope != nil {
		req.Scope = *scope
	} else {
		req.Scope, diags = pd.engineScope(ctx, &m.lookupArgs)
	}
	diags.Append(pd.factsFileReplaces(&m.lookupArgs)...)
	if !m.DefaultValue.IsNull() && !m.DefaultValue.IsUnderlyingValueNull() {
		g, err := fromAttr(ctx, m.DefaultValue, path.Root("default_value"))
		if err == nil {
			req.Default, err = model.FromGo(g)
		}
		if err != nil {
			diags.AddAttributeError(path.Root("default_value"), "Invalid Argument", err.Error())
		}
		req.HasDefault = true
	}
	if !m.ValueType.IsNull() && !m.ValueType.IsUnknown() {
		req.ValueType, req.HasValueType = m.ValueType.ValueString(), true
	}
	var err error
	if req.EyamlKeys, err = pd.eyamlKeys(m.Eyaml); err != nil {
		diags.AddAttributeError(path.Root("eyaml"), "Invalid eyaml Key Path", err.Error())
	}
	return req, diags
}

// engineScope is m's facts (over its facts_file's) and scope merged over the provider's, as the
// engine takes them.
func (pd *providerData) engineScope(ctx context.Context, m *lookupArgs) (hiera.Scope, diag.Diagnostics) {
	return pd.engineScopeOver(ctx, m, pd.facts)
}

// engineScopeOver is engineScope over providerFacts in place of the provider's facts (nil: none,
// for hiera_nodes' nodes of a facts file).
func (pd *providerData) engineScopeOver(ctx context.Context, m *lookupArgs, providerFacts *model.Hash) (hiera.Scope, diag.Diagnostics) {
	var diags diag.Diagnostics
	fileFacts, err := pd.factsFileArg(m.FactsFile)
	if err != nil {
		diags.AddAttributeError(path.Root("facts_file"), "Invalid Facts File", err.Error())
	}
	nodeFacts, err := pd.puppetdbNodeArg(ctx, m.PuppetDBNode)
	switch {
	case err != nil:
		diags.AddAttributeError(path.Root("puppetdb_node"), "PuppetDB Node Not Read", err.Error())
	case nodeFacts != nil:
		fileFacts = nodeFacts // in facts_file's place (they conflict)
	}
	var s hiera.Scope
	var ownScope map[string]any
	if fileFacts != nil && !pd.factsFileMerge { // the file names the node: its facts alone (factsFileReplaces)
		providerFacts = nil
	}
	for _, a := range []struct {
		name     string
		val      types.Dynamic
		provider *model.Hash
		file     *model.Hash
		out      **model.Hash
	}{{"facts", m.Facts, providerFacts, fileFacts, &s.Facts}, {"scope", m.Scope, pd.scope, nil, &s.Vars}} {
		own, err := objectArg(ctx, a.val, path.Root(a.name))
		if a.name == "scope" {
			ownScope = own
		}
		if err == nil {
			*a.out, err = withOwn(a.provider, a.file, own)
		}
		if err != nil {
			diags.AddAttributeError(path.Root(a.name), "Invalid Argument", err.Error())
		}
	}
	// trusted.certname is the node's, over the provider's scope's (a provider set up for one node,
	// as the quickstart's, names it), unless this data source's own scope sets it
	if nodeFacts != nil && !setsCertname(ownScope) {
		s.Vars = withCertname(s.Vars, m.PuppetDBNode.ValueString())
	}
	return s, diags
}

// placeAtValue places a value_type mismatch at the data file, line and level the value came from,
// as hieraform check does: the lookup again without value_type says where (hiera.PlaceAt).
func placeAtValue(ctx context.Context, engine *hiera.Engine, req hiera.Request, err error) error {
	var he *model.Error
	if !errors.As(err, &he) || he.File != "" {
		return err
	}
	req.ValueType, req.HasValueType, req.Explain, req.Pitfalls = "", false, false, false
	res, lerr := engine.Lookup(ctx, req)
	if lerr != nil || !res.Found {
		return err
	}
	return hiera.PlaceAt(he, req.Key, res.Sources)
}

// factsFileReplaces warns that a data source's facts_file replaces the provider's facts (unless
// facts_file_merge): one provider answering for many nodes would otherwise give each the
// provider's node's facts where its file has none.
func (pd *providerData) factsFileReplaces(m *lookupArgs) diag.Diagnostics {
	var diags diag.Diagnostics
	if m.FactsFile.IsNull() || m.FactsFile.IsUnknown() || pd.facts == nil || pd.factsFileMerge {
		return diags
	}
	diags.AddAttributeWarning(path.Root("facts_file"), "Provider Facts Replaced",
		fmt.Sprintf("The facts of %s replace the provider's facts (its facts_file and facts) for this data source: the file names "+
			"its own node, and no fact of the provider's node (a role, a datacenter) leaks into it. Set facts_file_merge = true "+
			"in the provider block to merge the file's facts over the provider's instead.", m.FactsFile.ValueString()))
	return diags
}

// toHash converts an object argument for the engine; nil stays nil (the argument is not set).
func toHash(m map[string]any) (*model.Hash, error) {
	if m == nil {
		return nil, nil
	}
	v, err := model.FromGo(m)
	if err != nil {
		return nil, err
	}
	h, _ := v.(*model.Hash)
	return h, nil
}

// lookupError words an engine failure; *model.Error already names its level, file and line.
func lookupError(key, configPath string, err error) string {
	var he *model.Error
	if errors.As(err, &he) && he.Key != "" && he.Key != key {
		return fmt.Sprintf("Looking up %q with %s failed while looking up %q: %s", key, configPath, he.Key, err)
	}
	return fmt.Sprintf("Looking up %q with %s failed: %s", key, configPath, err)
}

// addPitfalls adds a warning for each pitfall a lookup or a node read met (hiera_lookup, hiera_node,
// hiera_nodes, the functions).
func addPitfalls(diags *diag.Diagnostics, pitfalls []string) {
	for _, p := range pitfalls {
		diags.AddWarning("Likely Hiera Mistake", p+" Set pitfall_warnings = false in the provider block to silence these warnings.")
	}
}
