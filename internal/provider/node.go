// hiera_node's read: many keys of one node in one engine call, and its attributes built at once.
package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// A node of a control repository has thousands of keys. Its attributes are built as Terraform
// values directly (toTF, tfSources), which the server encodes as they are; only the framework's
// own Read (the tests' reference) converts them into the model's framework values.

// maxListedFailures is how many failing keys the read's error names one by one.
const maxListedFailures = 20

// nodeOutput is a read's computed attributes as Terraform values.
type nodeOutput struct {
	values, json, foundKeys, missingKeys, secretKeys, sources tftypes.Value
}

// attribute is the value of the computed attribute name.
func (o *nodeOutput) attribute(name string) (tftypes.Value, error) {
	switch name {
	case "values":
		return o.values, nil
	case "json":
		return o.json, nil
	case "found_keys":
		return o.foundKeys, nil
	case "missing_keys":
		return o.missingKeys, nil
	case "secret_keys":
		return o.secretKeys, nil
	case "sources":
		return o.sources, nil
	}
	return tftypes.Value{}, fmt.Errorf("hiera_node has no computed attribute %q", name)
}

// setModel fills in m's computed attributes, for the framework's Read.
func (o *nodeOutput) setModel(ctx context.Context, m *nodeModel) diag.Diagnostics {
	var diags diag.Diagnostics
	m.Values = types.DynamicValue(tfValue{o.values})
	m.JSON = types.StringValue(stringOf(o.json))
	for _, l := range []struct {
		out *types.List
		v   tftypes.Value
	}{{&m.FoundKeys, o.foundKeys}, {&m.MissingKeys, o.missingKeys}, {&m.SecretKeys, o.secretKeys}} {
		av, err := types.ListType{ElemType: types.StringType}.ValueFromTerraform(ctx, l.v)
		if err != nil {
			diags.AddError("Value Conversion Error", err.Error())
			return diags
		}
		*l.out, _ = av.(types.List)
	}
	av, err := types.MapType{ElemType: sourcesType}.ValueFromTerraform(ctx, o.sources)
	if err != nil {
		diags.AddError("Value Conversion Error", err.Error())
		return diags
	}
	m.Sources, _ = av.(types.Map)
	return diags
}

func stringOf(v tftypes.Value) string {
	var s string
	_ = v.As(&s) // a string value: never fails
	return s
}

// readNode answers hiera_node's arguments in m with the provider's engines. scope, when not nil,
// is m's facts and scope converted already (scopeCache).
func (pd *providerData) readNode(ctx context.Context, m *nodeModel, scope *hiera.Scope) (out nodeOutput, diags diag.Diagnostics) {
	defer func() {
		if r := recover(); r != nil {
			diags.AddError("Internal Error in the Hiera Provider",
				fmt.Sprintf("Reading the node failed with an internal error: %v. This is a bug; please report it.", r))
		}
	}()
	switch {
	case pd == nil:
		diags.AddError("Provider Not Configured", "The hiera provider was not configured. This is a provider bug, please report it.")
		return out, diags
	case pd.unknown:
		diags.Append(argumentsNotKnown("the node's keys cannot be read"))
		return out, diags
	}
	req := hiera.NodeRequest{}
	var err error
	if req.Keys, err = stringList(m.Keys); err != nil {
		diags.AddAttributeError(path.Root("keys"), "Invalid Argument", err.Error())
	}
	if req.Prefixes, err = stringList(m.Prefixes); err != nil {
		diags.AddAttributeError(path.Root("prefixes"), "Invalid Argument", err.Error())
	}
	if req.EyamlKeys, err = pd.eyamlKeys(m.Eyaml); err != nil {
		diags.AddAttributeError(path.Root("eyaml"), "Invalid eyaml Key Path", err.Error())
	}
	if scope != nil {
		req.Scope = *scope
	} else {
		var scopeDiags diag.Diagnostics
		req.Scope, scopeDiags = pd.engineScope(ctx, &m.lookupArgs)
		diags.Append(scopeDiags...)
	}
	src, srcDiags := pd.sources(&m.lookupArgs)
	if diags.Append(srcDiags...); diags.HasError() {
		return out, diags
	}
	engine, err := pd.engines.get(src)
	if err != nil {
		diags.AddAttributeError(path.Root("config"), "Invalid Hiera Config Path", err.Error())
		return out, diags
	}
	configPath := src.String()
	res, err := engine.LookupNode(ctx, req)
	if err != nil {
		diags.AddError("Hiera Node Read Failed", fmt.Sprintf("Reading the node's keys with %s failed: %s", configPath, err)+eyamlKeyHint(err))
		return out, diags
	}
	for _, w := range res.Warnings {
		diags.AddWarning("Hiera Warning", w)
	}
	out, failures := nodeAttributes(res.Answers, req.Keys != nil, configPath)
	tflog.Debug(ctx, "hiera node", map[string]any{"sources": configPath, "keys": len(res.Answers), "failed": len(failures)})
	if len(failures) > 0 {
		diags.AddError("Hiera Lookup Failed", failureList(failures))
	}
	return out, diags
}

// nodeAttributes builds the attributes of a node's answers; failures words each key that failed,
// as the single-key data sources word it. missing tells whether keys were asked for by name.
func nodeAttributes(answers []hiera.NodeAnswer, named bool, configPath string) (out nodeOutput, failures []string) {
	values := make(map[string]tftypes.Value, len(answers))
	valueTypes := make(map[string]tftypes.Type, len(answers))
	sources := make(map[string]tftypes.Value, len(answers))
	var found, missing, secret []tftypes.Value
	var js strings.Builder
	js.WriteByte('{')
	for _, a := range answers {
		switch {
		case a.Err != nil:
			failures = append(failures, lookupError(a.Key, configPath, a.Err)+eyamlKeyHint(a.Err))
			continue
		case !a.Result.Found:
			if named {
				missing = append(missing, tftypes.NewValue(tftypes.String, a.Key))
			}
			continue
		case a.Result.Sensitive:
			found = append(found, tftypes.NewValue(tftypes.String, a.Key))
			secret = append(secret, tftypes.NewValue(tftypes.String, a.Key))
			continue
		}
		tv, err := toTF(a.Result.Value)
		if err != nil {
			failures = append(failures, fmt.Sprintf("The value of %q cannot be returned: %s.", a.Key, withPath(err, path.Root("values").AtMapKey(a.Key))))
			continue
		}
		vj, err := hiera.MarshalJSON(a.Result.Value)
		if err != nil {
			failures = append(failures, fmt.Sprintf("The value of %q cannot be written as JSON: %s.", a.Key, err))
			continue
		}
		kj, _ := hiera.MarshalJSON(a.Key) // a string: never fails
		if len(values) > 0 {
			js.WriteByte(',')
		}
		js.Write(kj)
		js.WriteByte(':')
		js.Write(vj)
		values[a.Key], valueTypes[a.Key] = tv, tv.Type()
		sources[a.Key] = tfSources(a.Result.Sources)
		found = append(found, tftypes.NewValue(tftypes.String, a.Key))
	}
	js.WriteByte('}')
	stringsOf := func(list []tftypes.Value) tftypes.Value {
		if list == nil {
			list = []tftypes.Value{}
		}
		return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, list)
	}
	return nodeOutput{
		values:      tftypes.NewValue(tftypes.Object{AttributeTypes: valueTypes}, values),
		json:        tftypes.NewValue(tftypes.String, js.String()),
		foundKeys:   stringsOf(found),
		missingKeys: stringsOf(missing),
		secretKeys:  stringsOf(secret),
		sources:     tftypes.NewValue(tftypes.Map{ElementType: tfSourcesType}, sources),
	}, failures
}

// failureList is the one error of a read whose keys failed: each failure, at most
// maxListedFailures of them, then how many more.
func failureList(failures []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of the node's keys failed to look up:", len(failures))
	for i, f := range failures {
		if i == maxListedFailures {
			fmt.Fprintf(&b, "\n\n... and %d more.", len(failures)-maxListedFailures)
			break
		}
		b.WriteString("\n\n")
		b.WriteString(f)
	}
	return b.String()
}

// stringList is a list of strings argument: nil when null, errUnknown when it or an entry is not
// known yet. Null and empty entries are plan-time errors (keyListValidators, modulepathValidators).
func stringList(l types.List) ([]string, error) {
	if l.IsNull() {
		return nil, nil
	}
	if l.IsUnknown() {
		return nil, errUnknown
	}
	out := make([]string, 0, len(l.Elements()))
	for i, e := range l.Elements() {
		s, ok := e.(types.String)
		switch {
		case !ok:
			return nil, fmt.Errorf("entry %d is not a string", i)
		case s.IsUnknown():
			return nil, errUnknown
		case s.IsNull():
			return nil, fmt.Errorf("entry %d is null", i)
		}
		out = append(out, s.ValueString())
	}
	return out, nil
}
