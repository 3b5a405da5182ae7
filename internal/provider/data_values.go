package provider

// hiera_data's values: what a configuration asks for, as engine values, and what the file holds
// against it (drift).

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// desired is what a configuration asks the file to hold.
type desired struct {
	values     map[string]any // known values by root key, as engine values
	valueKeys  []string       // every key of values, sorted (known or not)
	unknown    bool           // values itself is unknown: its keys are not known yet
	secrets    map[string]string
	secretList []string // sorted
	// secretsUnknown: secret_values_wo itself is unknown; its keys are not known yet.
	secretsUnknown bool
	interpolate    bool
	publicKey      string // eyaml_public_key, "" when not given
}

// desiredOf reads m's values and secrets. planning allows unknown values (they are known at apply).
func desiredOf(ctx context.Context, m *dataModel, planning bool) (*desired, diag.Diagnostics) {
	var diags diag.Diagnostics
	d := &desired{values: map[string]any{}, secrets: map[string]string{}, interpolate: m.Interpolate.ValueBool(), publicKey: m.EyamlPublicKey.ValueString()}
	notKnown := func(at path.Path) {
		if !planning {
			diags.AddAttributeError(at, "Unknown Value at Apply", "The value is not known at apply; hiera_data cannot write it. This is a bug in Terraform or the provider.")
		}
	}
	switch {
	case m.Values.IsUnknown():
		d.unknown = true
		notKnown(path.Root("values"))
	case !m.Values.IsNull() && !m.Values.IsUnderlyingValueNull():
		elems, err := dynamicElements(ctx, m.Values)
		if err != nil {
			diags.AddAttributeError(path.Root("values"), "Invalid values", err.Error())
			return d, diags
		}
		for k, e := range elems {
			d.valueKeys = append(d.valueKeys, k)
			g, err := fromTF(e, path.Root("values").AtMapKey(k))
			switch {
			case errors.Is(err, errUnknown):
				notKnown(path.Root("values").AtMapKey(k))
				continue
			case err != nil:
				diags.AddAttributeError(path.Root("values").AtMapKey(k), "Invalid Value", err.Error())
				continue
			}
			v, err := model.FromGo(g)
			if err != nil {
				diags.AddAttributeError(path.Root("values").AtMapKey(k), "Invalid Value", err.Error())
				continue
			}
			d.values[k] = v
		}
		sort.Strings(d.valueKeys)
	}
	switch {
	case m.SecretValuesWO.IsUnknown():
		d.secretsUnknown = true
		notKnown(path.Root("secret_values_wo"))
	case !m.SecretValuesWO.IsNull():
		for k, e := range m.SecretValuesWO.Elements() {
			d.secretList = append(d.secretList, k)
			s, _ := e.(types.String)
			switch {
			case s.IsUnknown():
				notKnown(path.Root("secret_values_wo").AtMapKey(k))
			case s.IsNull():
				diags.AddAttributeError(path.Root("secret_values_wo").AtMapKey(k), "Invalid Secret",
					fmt.Sprintf("The secret %q is null: an encrypted value is a string.", k))
			default:
				d.secrets[k] = s.ValueString()
			}
		}
		sort.Strings(d.secretList)
	}
	return d, diags
}

// dynamicElements are the root keys of values: an object or a map.
func dynamicElements(ctx context.Context, v types.Dynamic) (map[string]tftypes.Value, error) {
	tv, err := v.UnderlyingValue().ToTerraformValue(ctx)
	if err != nil {
		return nil, err
	}
	if !tv.Type().Is(tftypes.Object{}) && !tv.Type().Is(tftypes.Map{}) {
		return nil, fmt.Errorf("values must be an object of root keys and their values, such as { \"profile::web::workers\" = 8 }, not %s", terraformTypeName(tv.Type()))
	}
	var elems map[string]tftypes.Value
	if err := tv.As(&elems); err != nil {
		return nil, err
	}
	return elems, nil
}

// terraformTypeName names a type as Terraform's messages do: "a tuple", "a string".
func terraformTypeName(t tftypes.Type) string {
	switch {
	case t.Is(tftypes.String):
		return "a string"
	case t.Is(tftypes.Number):
		return "a number"
	case t.Is(tftypes.Bool):
		return "a bool"
	case t.Is(tftypes.List{}):
		return "a list"
	case t.Is(tftypes.Set{}):
		return "a set"
	case t.Is(tftypes.Tuple{}):
		return "a tuple"
	}
	return "a value of type " + t.String()
}

// valueKeys are the root keys of a values attribute (none when null or unknown).
func valueKeys(ctx context.Context, v types.Dynamic) []string {
	if v.IsNull() || v.IsUnknown() || v.IsUnderlyingValueNull() || v.IsUnderlyingValueUnknown() {
		return nil
	}
	elems, err := dynamicElements(ctx, v)
	if err != nil {
		return nil
	}
	keys := make([]string, 0, len(elems))
	for k := range elems {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (d *desired) secretKeys() []string { return d.secretList }

// keys are every root key the configuration manages.
func (d *desired) keys() []string { return append(slices.Clone(d.valueKeys), d.secretList...) }

// checkKeys refuses a key in both maps and a key no lookup can name.
func (d *desired) checkKeys() diag.Diagnostics {
	var diags diag.Diagnostics
	for _, k := range d.secretList {
		if slices.Contains(d.valueKeys, k) {
			diags.AddAttributeError(path.Root("secret_values_wo").AtMapKey(k), "Key Both Plain and Secret",
				fmt.Sprintf("The key %q is in both values and secret_values_wo: a key is written once, plain or encrypted.", k))
		}
	}
	for _, k := range d.valueKeys {
		if problem := keyNameProblem(k); problem != "" {
			diags.AddAttributeError(path.Root("values").AtMapKey(k), "Key No Lookup Can Name", problem)
		}
	}
	for _, k := range d.secretList {
		if problem := keyNameProblem(k); problem != "" {
			diags.AddAttributeError(path.Root("secret_values_wo").AtMapKey(k), "Key No Lookup Can Name", problem)
		}
	}
	return diags
}

// secretsToWrite are the secret keys an apply must encrypt and write: every one when the version
// or interpolate changed, else those new to the resource and those the file no longer holds as
// written (edited or removed by hand: state's digests are the file's, private's what was written).
// The public key alone changing writes nothing: an import does not know it (its state has none),
// and Terraform cannot tell whether the write-only secrets are the file's; the version says so.
func (d *desired) secretsToWrite(plan, state *dataModel, private dataPrivate) []string {
	if !plan.SecretValuesWOVersion.Equal(state.SecretValuesWOVersion) || plan.Interpolate.ValueBool() != state.Interpolate.ValueBool() {
		return d.secretList
	}
	had := stringsOf(context.Background(), state.SecretKeys)
	inFile := map[string]string{}
	if !state.SecretDigests.IsNull() && !state.SecretDigests.IsUnknown() {
		for k, v := range state.SecretDigests.Elements() {
			if s, ok := v.(types.String); ok {
				inFile[k] = s.ValueString()
			}
		}
	}
	var out []string
	for _, k := range d.secretList {
		written, ok := private.Digests[k]
		if !slices.Contains(had, k) || !ok || inFile[k] != written {
			out = append(out, k)
		}
	}
	return out
}

// staleValues are the value keys an update writes: those whose value differs from the state's
// (refreshed from the file, so a key edited by hand is among them), every one when all.
func staleValues(ctx context.Context, state types.Dynamic, d *desired, all bool) ([]string, diag.Diagnostics) {
	var diags diag.Diagnostics
	var had map[string]tftypes.Value
	if !all && !state.IsNull() && !state.IsUnknown() && !state.IsUnderlyingValueNull() {
		var err error
		if had, err = dynamicElements(ctx, state); err != nil {
			diags.AddAttributeError(path.Root("values"), "Invalid State", err.Error())
			return nil, diags
		}
	}
	var out []string
	for _, k := range d.valueKeys {
		prev, ok := had[k]
		if ok {
			if g, err := fromTFValue(prev); err == nil {
				if pv, err := model.FromGo(g); err == nil && model.Equal(pv, d.values[k]) {
					continue
				}
			}
		}
		out = append(out, k)
	}
	return out, diags
}

// refreshValues is prior (the state's values) as the file holds them now: a key the file holds as
// written keeps its state value (and Terraform type), a key edited by hand takes the file's value,
// a key removed by hand becomes null.
func refreshValues(ctx context.Context, prior types.Dynamic, f *dataFile, interpolate bool) (types.Dynamic, diag.Diagnostics) {
	var diags diag.Diagnostics
	if prior.IsNull() || prior.IsUnknown() || prior.IsUnderlyingValueNull() {
		return prior, diags
	}
	elems, err := dynamicElements(ctx, prior)
	if err != nil {
		diags.AddAttributeError(path.Root("values"), "Invalid State", err.Error())
		return prior, diags
	}
	want := map[string]any{}
	for k, e := range elems {
		g, err := fromTFValue(e)
		if err != nil {
			continue // not comparable: taken from the file
		}
		if v, err := model.FromGo(g); err == nil {
			want[k] = v
		}
	}
	written, err := writtenForm(want, interpolate)
	if err != nil {
		diags.AddAttributeError(path.Root("values"), "Invalid State", err.Error())
		return prior, diags
	}
	changed := false
	out := make(map[string]tftypes.Value, len(elems))
	attrTypes := make(map[string]tftypes.Type, len(elems))
	for k, e := range elems {
		now, ok := f.value(k)
		if !ok {
			// Removed by hand: a null of the same type, which the plan shows going back to the
			// configured value (dropping the attribute changes the object's type, which Terraform
			// 1.0 cannot show as drift). A key configured null and removed shows nothing.
			if !e.IsNull() {
				e, changed = tftypes.NewValue(e.Type(), nil), true
			}
			out[k], attrTypes[k] = e, e.Type()
			continue
		}
		if w, ok := written[k]; !ok || !model.Equal(w, now) {
			tv, err := toTF(now)
			if err != nil {
				diags.AddAttributeError(path.Root("values").AtMapKey(k), "Cannot Read the Data File",
					fmt.Sprintf("%s: the value of %q%s", f.where(k), k, notTerraformValue(k, now, err)))
				return prior, diags
			}
			e, changed = tv, true
		}
		out[k], attrTypes[k] = e, e.Type()
	}
	if !changed {
		return prior, diags
	}
	return types.DynamicValue(tfValue{tftypes.NewValue(tftypes.Object{AttributeTypes: attrTypes}, out)}), diags
}
