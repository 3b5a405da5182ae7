package provider

// hiera_node's read: many keys of one node in one engine call, and its attributes built at once.

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/provider/wire"
)

// A node of a control repository has thousands of keys. Its attributes are written in msgpack
// directly (tfWriter), which the server splices into the state as they are; the framework's own
// Read (the tests' reference) decodes them into the model.

// maxListedFailures is how many failing keys the read's error names one by one.
const maxListedFailures = 20

// nodeOutput is a read's computed attributes, each in msgpack as the state holds it. A fleet's
// node's values (nodeParts.fleet) are the value alone, its type valuesType.
type nodeOutput struct {
	attributes map[string][]byte
	valuesType *tfType
}

// nodeParts is what a node's read writes: hiera_node's attributes (wholeNode), or those of a node
// of hiera_nodes (fleet: its values typed for the fleet, sources and json only when asked).
type nodeParts struct {
	fleet, sources, json bool
}

// wholeNode is hiera_node's nodeParts.
var wholeNode = nodeParts{sources: true, json: true}

// attribute is the msgpack encoding of the computed attribute name.
func (o *nodeOutput) attribute(name string) ([]byte, error) {
	b, ok := o.attributes[name]
	if !ok {
		return nil, fmt.Errorf("hiera_node has no computed attribute %q", name)
	}
	return b, nil
}

// setComputed decodes the computed attributes of out into the fields of model (a pointer to a
// struct whose tfsdk tags name them), for the framework's Read.
func setComputed(ctx context.Context, sch schema.Schema, out nodeOutput, model any) diag.Diagnostics {
	var diags diag.Diagnostics
	typ, _ := sch.Type().TerraformType(ctx).(tftypes.Object)
	m := reflect.ValueOf(model).Elem()
	for i := range m.NumField() {
		name := m.Type().Field(i).Tag.Get("tfsdk")
		a, ok := sch.Attributes[name]
		if !ok || !a.IsComputed() {
			continue
		}
		tv, err := (&tfprotov6.DynamicValue{MsgPack: out.attributes[name]}).Unmarshal(typ.AttributeTypes[name])
		var av attr.Value
		if err == nil {
			av, err = a.GetType().ValueFromTerraform(ctx, tv)
		}
		if err != nil {
			diags.AddError("Value Conversion Error", fmt.Sprintf("%s: %s", name, err))
			continue
		}
		m.Field(i).Set(reflect.ValueOf(av))
	}
	return diags
}

// readNode answers hiera_node's arguments in m with the provider's engines, writing parts. scope,
// when not nil, is m's facts and scope converted already (scopeCache).
func (pd *providerData) readNode(ctx context.Context, m *nodeModel, scope *hiera.Scope, parts nodeParts) (out nodeOutput, diags diag.Diagnostics) {
	defer func() {
		if r := recover(); r != nil {
			diags.AddError("Internal Error in the Hiera Provider",
				fmt.Sprintf("Reading the node failed with an internal error: %v. This is a bug; please report it.", r))
		}
	}()
	if diags = pd.notReady("the node's keys cannot be read"); diags.HasError() {
		return out, diags
	}
	req := hiera.NodeRequest{Pitfalls: pd.pitfalls}
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
	diags.Append(pd.factsFileReplaces(&m.lookupArgs)...)
	src, srcDiags := pd.sources(m.layerArgs())
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
	if err != nil { // the context's, or an internal error
		diags.AddError("Hiera Node Read Failed", fmt.Sprintf("Reading the node's keys with %s failed: %s", configPath, err))
		return out, diags
	}
	for _, w := range res.Warnings {
		diags.AddWarning("Hiera Warning", w)
	}
	var problems map[string]string
	if m.CheckParams.ValueBool() { // before sources are made relative: the check reads their files
		problems = pd.paramProblems(engine, res.Answers, &diags)
	}
	if base := pd.relativeBase(src); base != "" { // explain_paths, as hiera_lookup's sources
		for i := range res.Answers {
			res.Answers[i].Result.Sources = relativeSources(res.Answers[i].Result.Sources, base)
		}
	}
	addPitfalls(&diags, res.Pitfalls)
	out, failures, failed := nodeAttributes(res.Answers, req.Keys != nil, configPath, parts)
	if out.attributes != nil {
		out.attributes["param_problems"] = appendParamProblems(problems, m.CheckParams.ValueBool())
	}
	tflog.Debug(ctx, "hiera node", map[string]any{"sources": configPath, "keys": len(res.Answers), "failed": len(failures) + len(failed)})
	var listing string
	if res.ListErr != nil {
		listing = fmt.Sprintf("Reading the node's keys with %s failed: %s", configPath, res.ListErr) + eyamlKeyHint(res.ListErr)
	}
	switch {
	case len(failures) > 0 && listing != "":
		diags.AddError("Hiera Lookup Failed", failureList(failures)+"\n\n"+listing+" (the keys above are those that could be listed).")
	case len(failures) > 0:
		diags.AddError("Hiera Lookup Failed", failureList(failures))
	case listing != "":
		diags.AddError("Hiera Node Read Failed", listing)
	case len(failed) > 0:
		diags.AddWarning("Hiera Keys Failed", failedKeysWarning(failed))
	}
	return out, diags
}

// nodeAttributes builds the attributes of a node's answers, those parts says. named tells whether
// keys were asked for by name. A key that failed to look up: when named, failures words it as the single-key
// data sources word it and the read fails (no attributes then); else it is one of the node's
// failed keys (failed_keys: the node's other keys are answered still), with the same words.
func nodeAttributes(answers []hiera.NodeAnswer, named bool, configPath string, parts nodeParts) (out nodeOutput, failures []string, failed []failedKey) {
	var foundKeys, missing, secret []string
	var plain []hiera.NodeAnswer // found and not secret, in the order found
	for _, a := range answers {
		switch {
		case a.Err != nil && named:
			failures = append(failures, lookupError(a.Key, configPath, a.Err)+eyamlKeyHint(a.Err))
		case a.Err != nil:
			failed = append(failed, failedKey{a.Key, lookupError(a.Key, configPath, a.Err) + eyamlKeyHint(a.Err)})
		case !a.Result.Found:
			if named {
				missing = append(missing, a.Key)
			}
		case a.Result.Sensitive:
			foundKeys, secret = append(foundKeys, a.Key), append(secret, a.Key)
		default:
			foundKeys, plain = append(foundKeys, a.Key), append(plain, a)
		}
	}
	if len(failures) > 0 {
		return out, failures, nil
	}
	values, sources, bad := writeValues(plain, parts)
	if len(bad) > 0 { // a value Terraform cannot hold (a number JSON has no word for: Infinity)
		if named {
			for _, f := range bad {
				failures = append(failures, f.message)
			}
			return out, failures, nil
		}
		failed = append(failed, bad...)
		isBad := func(key string) bool { return slices.ContainsFunc(bad, func(f failedKey) bool { return f.key == key }) }
		plain = slices.DeleteFunc(plain, func(a hiera.NodeAnswer) bool { return isBad(a.Key) })
		foundKeys = slices.DeleteFunc(foundKeys, isBad)
		values, sources, _ = writeValues(plain, parts)
	}
	out = nodeOutput{valuesType: values.typ, attributes: map[string][]byte{
		"values":       values.msgpack,
		"json":         wire.AppendNil(nil),
		"found_keys":   writeStrings(foundKeys),
		"missing_keys": writeStrings(missing),
		"secret_keys":  writeStrings(secret),
		"sources":      sources,
		"failed_keys":  appendFailedKeys(nil, failed),
	}}
	if parts.json {
		doc := model.NewHash(len(plain)) // json: the order found
		for _, a := range plain {
			doc.Set(a.Key, a.Result.Value)
		}
		// room for about as much as values (the type and the msgpack) takes: no growing
		js, err := datafile.AppendJSON(make([]byte, 0, len(values.msgpack)), doc)
		if err != nil { // never: what JSON cannot hold, Terraform cannot either (above)
			return nodeOutput{}, []string{fmt.Sprintf("The node's values cannot be written as JSON: %s.", err)}, nil
		}
		out.attributes["json"] = wire.AppendString(nil, js)
	}
	return out, nil, failed
}

// writtenValues is a node's values written: hiera_node's a dynamic value ([its type as JSON, the
// object]); a fleet's node's the object alone, its type typ.
type writtenValues struct {
	msgpack []byte
	typ     *tfType
}

// writeValues writes values (objects and maps in sorted key order, as terraform-plugin-go writes
// them) and, when parts asks for them, sources (a map; else null). bad are the keys whose value
// Terraform cannot hold, each with why (values is then of no use).
func writeValues(plain []hiera.NodeAnswer, parts nodeParts) (values writtenValues, sources []byte, bad []failedKey) {
	sorted := slices.SortedFunc(slices.Values(plain), func(a, b hiera.NodeAnswer) int { return strings.Compare(a.Key, b.Key) })
	w := newTFWriter(parts.fleet)
	defer w.release()
	w.val = wire.AppendMapHeader(w.val, len(sorted))
	var names []string
	var elems []*tfType
	if parts.fleet {
		names, elems = make([]string, len(sorted)), make([]*tfType, len(sorted))
	} else {
		w.typ = append(w.typ, `["object",{`...)
	}
	sources = wire.AppendNil(nil)
	if parts.sources {
		sources = wire.AppendMapHeader(make([]byte, 0, 160*len(sorted)), len(sorted)) // a source takes 100-200 bytes
	}
	for i, a := range sorted {
		if !parts.fleet {
			if i > 0 {
				w.typ = append(w.typ, ',')
			}
			w.typ = append(appendJSONName(w.typ, a.Key), ':')
		}
		w.val = wire.AppendString(w.val, a.Key)
		t, err := w.value(a.Result.Value)
		if err != nil {
			bad = append(bad, failedKey{a.Key, fmt.Sprintf("The value of %q cannot be returned: %s.", a.Key, withPath(err, path.Root("values").AtMapKey(a.Key)))})
		}
		if parts.fleet {
			names[i], elems[i] = a.Key, t
		}
		if parts.sources {
			sources = appendSources(wire.AppendString(sources, a.Key), a.Result.Sources)
		}
	}
	if parts.fleet { // a node's values are an object, as hiera_node's, whatever their types
		return writtenValues{msgpack: slices.Clone(w.val), typ: &tfType{kind: kindObject, names: names, elems: elems}}, sources, bad
	}
	w.typ = append(w.typ, "}]"...)
	b := wire.AppendBinary(wire.AppendArrayHeader(make([]byte, 0, 8+len(w.typ)+len(w.val)), 2), w.typ)
	return writtenValues{msgpack: append(b, w.val...)}, sources, bad
}

// failedKey is a key of a whole-node read whose lookup failed, and the message hiera_lookup
// would give for it (never a secret: the engine's errors hold no decrypted value).
type failedKey struct{ key, message string }

// appendFailedKeys writes failed_keys, a map in sorted key order as terraform-plugin-go writes maps.
func appendFailedKeys(b []byte, failed []failedKey) []byte {
	sorted := slices.SortedFunc(slices.Values(failed), func(a, b failedKey) int { return strings.Compare(a.key, b.key) })
	b = wire.AppendMapHeader(b, len(sorted))
	for _, f := range sorted {
		b = wire.AppendString(wire.AppendString(b, f.key), f.message)
	}
	return b
}

// failedKeysWarning is the one warning of a whole-node read some of whose keys failed: the keys,
// at most maxListedFailures of them, then how many more; their messages are in failed_keys.
func failedKeysWarning(failed []failedKey) string {
	keys := make([]string, len(failed))
	for i, f := range failed {
		keys[i] = fmt.Sprintf("- %q", f.key)
	}
	return boundedList(fmt.Sprintf("%d of the node's keys failed to look up and are left out of values; failed_keys holds each one's error:", len(failed)), "\n", keys) +
		"\n\nThe node's other keys are read as usual. (With `keys`, a key that fails fails the read.)"
}

// writeStrings writes a list of strings.
func writeStrings(list []string) []byte {
	b := wire.AppendArrayHeader(nil, len(list))
	for _, s := range list {
		b = wire.AppendString(b, s)
	}
	return b
}

// failureList is the one error of a read whose keys failed: each failure, at most
// maxListedFailures of them, then how many more.
func failureList(failures []string) string {
	return boundedList(fmt.Sprintf("%d of the node's keys failed to look up:", len(failures)), "\n\n", failures)
}

// boundedList is head, then each item after sep, at most maxListedFailures of them, then how many more.
func boundedList(head, sep string, items []string) string {
	var b strings.Builder
	b.WriteString(head)
	for i, item := range items {
		if i == maxListedFailures {
			fmt.Fprintf(&b, "%s... and %d more.", sep, len(items)-maxListedFailures)
			break
		}
		b.WriteString(sep)
		b.WriteString(item)
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
