package provider

// hiera_data's checks before anything is written (at plan when the values are known, again at
// apply): the file can be edited, the keys can be named and are not someone else's, secrets have
// a public key, the hierarchy reads the file (with config), the keys match the Puppet code (with
// check_params).

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/hieraform/terraform-provider-hiera/internal/classparams"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/yamledit"
)

// check runs the checks of a create or update; owned are the keys the resource holds already.
// Values not known yet are not checked (the apply checks them).
func (r *dataResource) check(ctx context.Context, m *dataModel, want *desired, owned []string) diag.Diagnostics {
	diags := want.checkKeys()
	name := m.Path.ValueString()
	f, err := openDataFileLocked(name) // locked: a resource writing the file now has noted its keys
	if err != nil {
		diags.AddAttributeError(path.Root("path"), "Cannot Edit the Data File", err.Error())
		return diags
	}
	diags.Append(f.conflicts(want.keys(), owned)...)
	if len(want.secretKeys()) > 0 && !m.EyamlPublicKey.IsUnknown() {
		_, encDiags := r.data.encryptor(want.publicKey)
		diags.Append(encDiags...)
	}
	if m.Config.IsUnknown() || m.Environment.IsUnknown() || m.Modulepath.IsUnknown() {
		return diags
	}
	checkLevels := !m.Config.IsNull() || !m.Environment.IsNull()
	if !checkLevels && !m.CheckParams.ValueBool() {
		return diags
	}
	src, srcDiags := r.data.sources(m.layerArgs())
	if diags.Append(srcDiags...); diags.HasError() {
		return diags
	}
	engine, err := r.data.engines.get(src)
	if err != nil {
		diags.AddAttributeError(path.Root("config"), "Invalid Hiera Config Path", err.Error())
		return diags
	}
	if checkLevels {
		diags.Append(checkLevel(ctx, engine, f, src, len(want.secretKeys()) > 0)...)
	}
	if m.CheckParams.ValueBool() {
		diags.Append(r.checkParams(engine, want)...)
	}
	return diags
}

// keyNameProblem is why a key is refused ("" when it is not): a key Puppet cannot look up as written: one its key parser refuses
// ("a..b", "a.", "a.'b": Puppet's "Syntax error in key", the words hiera.ParseKey gives) and the
// empty key (the eyaml function refuses it). Such a key is reachable at most by a quoted lookup
// ('"a..b"'), never by a class parameter, so writing it is taken for a mistake. Else the keys
// yamledit cannot write so that some lookup names them.
func keyNameProblem(key string) string {
	if key == "" {
		return `The empty key "": no class parameter is named so, and an eyaml level refuses to look it up ` +
			`('eyaml_lookup_key' parameter 'key' expects a String[1] value).`
	}
	if _, err := hiera.ParseKey(key); err != nil {
		return fmt.Sprintf("%v: Puppet answers that to a lookup of the key %q, and no class parameter is named so. "+
			"Write the key as a lookup names it.", err, key)
	}
	if err := yamledit.CheckKey(key); err != nil {
		return upperFirst(err.Error()) + "."
	}
	return ""
}

// checkLevel refuses a file that no level of the hierarchy reads, and secrets in a file that no
// eyaml level reads (Puppet would answer the ENC[...] text itself).
func checkLevel(ctx context.Context, engine *hiera.Engine, f *dataFile, src dataSources, secrets bool) diag.Diagnostics {
	var diags diag.Diagnostics
	levels, err := engine.LevelsReading(ctx, f.abs)
	switch {
	case err != nil:
		diags.AddAttributeError(path.Root("config"), "Invalid Hiera Configuration", err.Error())
	case len(levels) == 0:
		diags.AddAttributeError(path.Root("path"), "Data File Outside the Hierarchy",
			fmt.Sprintf("No level of the hierarchy of %s reads %s (%s): Puppet would never see what is written there. "+
				"Check the path against the levels' datadir and paths.", src, f.name, filepath.Clean(f.abs)))
	case secrets && !slices.ContainsFunc(levels, func(l hiera.LevelReading) bool { return l.Function == eyamlFunction }):
		var names []string
		for _, l := range levels {
			names = append(names, fmt.Sprintf("%q (%s)", l.Level, l.Function))
		}
		diags.AddAttributeError(path.Root("secret_values_wo"), "Secret in a File No eyaml Level Reads",
			fmt.Sprintf("%s is read by the level %s of %s, not by an eyaml level (lookup_key: %s): Puppet would answer "+
				"the ENC[PKCS7,...] text itself, not the secret. Write the secrets into a file an eyaml level reads.",
				f.name, strings.Join(names, ", "), src, eyamlFunction))
	}
	return diags
}

// eyamlFunction is the data function that decrypts eyaml values.
const eyamlFunction = "eyaml_lookup_key"

// checkParams checks each known value against the class parameter its key binds to, and each key
// of a module against the module's parameters, as hieraform check does.
func (r *dataResource) checkParams(engine *hiera.Engine, want *desired) diag.Diagnostics {
	var diags diag.Diagnostics
	code, warnings := r.data.engines.params.get(engine)
	for _, w := range warnings {
		diags.AddWarning("Puppet Manifest Not Read", w)
	}
	check := func(at path.Path, key string, value any, known, secret bool) {
		if unknown, near := code.UnknownKey(key); unknown && len(near) > 0 {
			diags.AddAttributeError(at, "Key Names No Class Parameter",
				fmt.Sprintf("%s. Did you mean %s?", upperFirst(classparams.UnknownKeyMessage(key)), strings.Join(near, " or ")))
			return
		}
		if !known {
			return
		}
		a := hiera.NodeAnswer{Key: key, Result: hiera.Result{Found: true, Value: value, Sensitive: secret}}
		if e := code.Check(a); e != nil {
			diags.AddAttributeError(at, "Value Does Not Match the Class Parameter", e.Error())
		}
	}
	for _, k := range want.valueKeys {
		v, known := want.values[k]
		check(path.Root("values").AtMapKey(k), k, v, known, false)
	}
	for _, k := range want.secretKeys() {
		v, known := want.secrets[k]
		check(path.Root("secret_values_wo").AtMapKey(k), k, v, known, true)
	}
	return diags
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
