package provider

import (
	"context"
	"math/big"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The server answers the data sources' Read and (when nothing is wrong) their validation itself.
// These tests send the same requests to it and to the framework's own server, configured alike,
// and require the same answers: diagnostics word for word, and equal states.

func configuredPair(t *testing.T) (direct *server, framework tfprotov6.ProviderServer, providerType tftypes.Object) {
	t.Helper()
	ctx := context.Background()
	fwp := newProvider("test")
	fw, err := providerserver.NewProtocol6WithError(fwp)()
	if err != nil {
		t.Fatal(err)
	}
	p := newProvider("test")
	inner, err := providerserver.NewProtocol6WithError(p)()
	if err != nil {
		t.Fatal(err)
	}
	direct, err = newServer(ctx, inner, p)
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := fw.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	providerType, _ = schemas.Provider.ValueType().(tftypes.Object)
	return direct, fw, providerType
}

func configure(t *testing.T, s tfprotov6.ProviderServer, typ tftypes.Object, attrs map[string]tftypes.Value) {
	t.Helper()
	cfg := encodeConfig(t, typ, attrs)
	resp, err := s.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{Config: &cfg})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("ConfigureProvider: %v %v", err, resp.Diagnostics)
	}
}

// dataConfigs are data source configurations worth comparing: valid ones, each validation error,
// and each kind of lookup failure.
func dataConfigs(typ tftypes.Object) map[string]map[string]tftypes.Value {
	mergeType, _ := typ.AttributeTypes["merge"].(tftypes.Object)
	merge := func(attrs map[string]tftypes.Value) tftypes.Value {
		vals := map[string]tftypes.Value{}
		for name, t := range mergeType.AttributeTypes {
			vals[name] = tftypes.NewValue(t, nil)
			if v, ok := attrs[name]; ok {
				vals[name] = v
			}
		}
		return tftypes.NewValue(mergeType, vals)
	}
	facts := object6(map[string]tftypes.Value{"role": str6("db"), "os": object6(map[string]tftypes.Value{"family": str6("RedHat")})})
	return map[string]map[string]tftypes.Value{
		"string":             {"key": str6("string")},
		"hash":               {"key": str6("nested")},
		"big number":         {"key": str6("big")},
		"odd keys":           {"key": str6("odd_keys")},
		"dotted subkey":      {"key": str6("nested.alpha.list.1")},
		"interpolated":       {"key": str6("greeting"), "facts": facts},
		"explain":            {"key": str6("tags"), "explain": tftypes.NewValue(tftypes.Bool, true)},
		"deep merge":         {"key": str6("profile::users"), "merge": merge(map[string]tftypes.Value{"strategy": str6("deep")})},
		"missing":            {"key": str6("no::such::key")},
		"missing, default":   {"key": str6("no::such::key"), "default_value": tftypes.NewValue(tftypes.Number, big.NewFloat(7))},
		"secret":             {"key": str6("secret_token")},
		"not a hash":         {"key": str6("string"), "facts": str6("web")},
		"facts file":         {"key": str6("greeting"), "facts_file": str6("testdata/facts/db01.json")},
		"facts over file":    {"key": str6("greeting"), "facts_file": str6("testdata/facts/db01.json"), "facts": facts},
		"missing facts file": {"key": str6("greeting"), "facts_file": str6("testdata/facts/nowhere.json")},
		"empty facts file":   {"key": str6("greeting"), "facts_file": str6("")},
		"bad config":         {"key": str6("string"), "config": str6("testdata/nowhere/hiera.yaml")},
		"empty key":          {"key": str6("")},
		"bad strategy":       {"key": str6("tags"), "merge": merge(map[string]tftypes.Value{"strategy": str6("deeper")})},
		"deep option":        {"key": str6("tags"), "merge": merge(map[string]tftypes.Value{"strategy": str6("hash"), "knockout_prefix": str6("--")})},
		"merge, no strategy": {"key": str6("tags"), "merge": merge(nil)},
		"deep, every option": {"key": str6("profile::users"), "merge": merge(map[string]tftypes.Value{"strategy": str6("deep"),
			"knockout_prefix": str6("--"), "sort_merged_arrays": tftypes.NewValue(tftypes.Bool, true), "merge_hash_arrays": tftypes.NewValue(tftypes.Bool, true)})},
		"empty knockout":    {"key": str6("tags"), "merge": merge(map[string]tftypes.Value{"strategy": str6("deep"), "knockout_prefix": str6("")})},
		"sort without deep": {"key": str6("tags"), "merge": merge(map[string]tftypes.Value{"strategy": str6("unique"), "sort_merged_arrays": tftypes.NewValue(tftypes.Bool, false)})},
		"unknown strategy":  {"key": str6("tags"), "merge": merge(map[string]tftypes.Value{"strategy": tftypes.NewValue(tftypes.String, tftypes.UnknownValue), "knockout_prefix": str6("--")})},
		"unknown key":       {"key": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)},
		// The layers (issue 10), given on the data source.
		"environment":             {"key": str6("ntp::settings"), "environment": str6(production)},
		"environment, explain":    {"key": str6("ntp::servers"), "environment": str6(production), "explain": tftypes.NewValue(tftypes.Bool, true)},
		"modulepath":              {"key": str6("ntp::service_ensure"), "modulepath": list6(str6("testdata/nowhere"), str6(productionModules))},
		"environment, modulepath": {"key": str6("ntp::servers"), "environment": str6(staging), "modulepath": list6(str6(productionModules))},
		"empty modulepath":        {"key": str6("ntp::servers"), "environment": str6(production), "modulepath": list6()},
		"module secret":           {"key": str6("profile::db::password"), "environment": str6(production)},
		"foreign lookup_options":  {"key": str6("broken::setting"), "environment": str6(production)},
		"missing environment":     {"key": str6("ntp::servers"), "environment": str6("testdata/control_repo/environments/nowhere")},
		"environment is a file":   {"key": str6("ntp::servers"), "environment": str6(production + "/hiera.yaml")},
		"empty environment":       {"key": str6("ntp::servers"), "environment": str6("")},
		"empty modulepath entry":  {"key": str6("ntp::servers"), "modulepath": list6(str6(productionModules), str6(""))},
		"null modulepath entry":   {"key": str6("ntp::servers"), "modulepath": list6(tftypes.NewValue(tftypes.String, nil))},
		"unknown modulepath":      {"key": str6("ntp::servers"), "modulepath": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, tftypes.UnknownValue)},
		// Warnings: a module's unqualified key, alone and with an error.
		"module warning":        {"key": str6("loose::setting"), "modulepath": list6(str6(warnModules))},
		"module warning, error": {"key": str6("loose::missing"), "modulepath": list6(str6(warnModules))},
	}
}

// The control repository fixture of the layers' tests.
const (
	production        = "testdata/control_repo/environments/production"
	productionModules = production + "/modules"
	staging           = "testdata/control_repo/environments/staging"
	warnModules       = "testdata/warn_modules" // a module whose data warns
)

func list6(elems ...tftypes.Value) tftypes.Value {
	return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, elems)
}

// providerConfigs are the provider configurations the comparison runs under: a global hiera.yaml
// (with facts and scope, or with a facts file and facts over it), and the layers alone.
func providerConfigs() map[string]map[string]tftypes.Value {
	return map[string]map[string]tftypes.Value{
		"config": {
			"config": str6(filepath.Join("testdata", "site", "hiera.yaml")),
			"facts":  object6(map[string]tftypes.Value{"hostname": str6("web01"), "role": str6("web"), "os": object6(map[string]tftypes.Value{"family": str6("Debian")})}),
			"scope":  object6(map[string]tftypes.Value{"trusted": object6(map[string]tftypes.Value{"certname": str6("web01.example.com")}), "environment": str6("production")}),
		},
		"facts_file": {
			"config":     str6(filepath.Join("testdata", "site", "hiera.yaml")),
			"facts_file": str6(filepath.Join("testdata", "facts", "db01.json")),
			"facts":      object6(map[string]tftypes.Value{"role": str6("web")}),
		},
		"layers": {
			"environment": str6(production),
			"modulepath":  list6(str6(production+"/site"), str6(productionModules)),
			"facts":       object6(map[string]tftypes.Value{"role": str6("web"), "os": object6(map[string]tftypes.Value{"family": str6("RedHat")})}),
		},
	}
}

func TestServer_sameAnswersAsFramework(t *testing.T) {
	ctx := context.Background()
	for providerName, providerConfig := range providerConfigs() {
		direct, fw, providerType := configuredPair(t)
		configure(t, direct, providerType, providerConfig)
		configure(t, fw, providerType, providerConfig)
		for typeName, ds := range direct.dataSources {
			if !ds.validate.Handled {
				t.Errorf("%s: the quick validation does not cover the schema; extend handled() and validatorsPass()", typeName)
			}
			for name, attrs := range configsFor(typeName, ds.typ) {
				t.Run(providerName+"/"+typeName+"/"+name, func(t *testing.T) {
					compareServers(ctx, t, direct, fw, typeName, ds, attrs)
				})
			}
		}
	}
}

// compareServers sends one data source configuration to both servers: validation, then (when
// Terraform would) the read.
func compareServers(ctx context.Context, t *testing.T, direct *server, fw tfprotov6.ProviderServer, typeName string, ds *directDataSource, attrs map[string]tftypes.Value) {
	t.Helper()
	typ := ds.typ
	cfg := encodeConfig(t, typ, attrs)
	gotV, err1 := direct.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: typeName, Config: &cfg})
	wantV, err2 := fw.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: typeName, Config: &cfg})
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if diff := cmp.Diff(wantV.Diagnostics, gotV.Diagnostics); diff != "" {
		t.Errorf("validation diagnostics differ (-framework +direct):\n%s", diff)
	}
	if len(wantV.Diagnostics) == 0 {
		var config map[string]tftypes.Value
		if v, err := cfg.Unmarshal(typ); err != nil || v.As(&config) != nil || !ds.validate.Valid(ctx, config) {
			t.Errorf("the quick validation left a valid configuration to the framework (%v)", err)
		}
	}
	if len(wantV.Diagnostics) > 0 || !attrs["key"].IsKnown() || !attrs["keys"].IsKnown() {
		return // Terraform does not read an invalid or unknown configuration
	}
	got, err1 := direct.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: &cfg})
	want, err2 := fw.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: &cfg})
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if diff := cmp.Diff(want.Diagnostics, got.Diagnostics); diff != "" {
		t.Errorf("read diagnostics differ (-framework +direct):\n%s", diff)
	}
	gotState, err1 := got.State.Unmarshal(typ)
	wantState, err2 := want.State.Unmarshal(typ)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if !gotState.Equal(wantState) {
		t.Errorf("states differ:\nframework: %s\ndirect:    %s", wantState, gotState)
	}
}

// Before Configure (Terraform never reads then, but the answer must not be a panic) both say the
// provider is not configured.
func TestServer_unconfigured(t *testing.T) {
	ctx := context.Background()
	direct, fw, _ := configuredPair(t)
	ds := direct.dataSources["hiera_lookup"]
	cfg := encodeConfig(t, ds.typ, map[string]tftypes.Value{"key": str6("x")})
	got, _ := direct.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: "hiera_lookup", Config: &cfg})
	want, _ := fw.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: "hiera_lookup", Config: &cfg})
	if len(want.Diagnostics) == 0 {
		t.Fatal("the framework read an unconfigured provider without complaint")
	}
	if diff := cmp.Diff(want.Diagnostics, got.Diagnostics); diff != "" {
		t.Errorf("diagnostics differ (-framework +direct):\n%s", diff)
	}
}

// With a provider argument unknown at plan time, both defer the read where Terraform allows it,
// and otherwise say why they cannot look up.
func TestServer_unknownProviderArguments(t *testing.T) {
	ctx := context.Background()
	for name, unknown := range map[string]tftypes.Value{
		"facts":            tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue),
		"environment":      tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		"modulepath":       tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, tftypes.UnknownValue),
		"modulepath entry": list6(str6(productionModules), tftypes.NewValue(tftypes.String, tftypes.UnknownValue)),
	} {
		t.Run(name, func(t *testing.T) {
			direct, fw, providerType := configuredPair(t)
			attr := name
			if name == "modulepath entry" {
				attr = "modulepath"
			}
			cfg := encodeConfig(t, providerType, map[string]tftypes.Value{attr: unknown})
			for _, s := range []tfprotov6.ProviderServer{direct, fw} {
				resp, err := s.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &cfg})
				if err != nil || len(resp.Diagnostics) > 0 {
					t.Fatal(err, resp.Diagnostics)
				}
			}
			compareUnknown(ctx, t, direct, fw)
		})
	}
}

// compareUnknown reads data sources from both servers configured with an unknown argument: both
// defer where Terraform allows it, and otherwise say why they cannot look up.
func compareUnknown(ctx context.Context, t *testing.T, direct *server, fw tfprotov6.ProviderServer) {
	t.Helper()
	for _, typeName := range []string{"hiera_lookup", "hiera_node"} {
		ds := direct.dataSources[typeName]
		data := encodeConfig(t, ds.typ, map[string]tftypes.Value{"key": str6("x")})
		for _, deferral := range []bool{true, false} {
			compareDeferral(ctx, t, direct, fw, &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: &data,
				ClientCapabilities: &tfprotov6.ReadDataSourceClientCapabilities{DeferralAllowed: deferral}})
		}
	}
}

// compareDeferral sends one read to both servers, configured with an unknown argument.
func compareDeferral(ctx context.Context, t *testing.T, direct *server, fw tfprotov6.ProviderServer, req *tfprotov6.ReadDataSourceRequest) {
	t.Helper()
	deferral := req.ClientCapabilities.DeferralAllowed
	got, _ := direct.ReadDataSource(ctx, req)
	want, _ := fw.ReadDataSource(ctx, req)
	if (want.Deferred != nil) != deferral || (len(want.Diagnostics) > 0) == deferral {
		t.Fatalf("%s, deferral allowed %v: the framework answered %+v", req.TypeName, deferral, want)
	}
	if diff := cmp.Diff(want.Deferred, got.Deferred); diff != "" {
		t.Errorf("%s, deferral allowed %v: deferral differs (-framework +direct):\n%s", req.TypeName, deferral, diff)
	}
	if diff := cmp.Diff(want.Diagnostics, got.Diagnostics); diff != "" {
		t.Errorf("%s, deferral allowed %v: diagnostics differ (-framework +direct):\n%s", req.TypeName, deferral, diff)
	}
}

// OpenTofu sends a null argument as an empty DynamicValue: deep_merge(null, {a = 1}) must answer
// as it does for Terraform's msgpack null, not fail to decode the argument.
func TestServer_emptyArgumentIsNull(t *testing.T) {
	ctx := context.Background()
	direct, _, _ := configuredPair(t)
	obj := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": tftypes.Number}}
	one, err := tfprotov6.NewDynamicValue(tftypes.DynamicPseudoType, tftypes.NewValue(obj, map[string]tftypes.Value{"a": tftypes.NewValue(tftypes.Number, 1)}))
	if err != nil {
		t.Fatal(err)
	}
	call := func(null *tfprotov6.DynamicValue) *tfprotov6.CallFunctionResponse {
		resp, err := direct.CallFunction(ctx, &tfprotov6.CallFunctionRequest{Name: "deep_merge", Arguments: []*tfprotov6.DynamicValue{null, &one}})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	want := call(&tfprotov6.DynamicValue{MsgPack: msgpackNull}) // as Terraform sends it
	if want.Error != nil {
		t.Fatalf("deep_merge(null, {a = 1}) failed: %s", want.Error.Text)
	}
	for name, null := range map[string]*tfprotov6.DynamicValue{"empty": {}, "absent": nil} {
		got := call(null)
		if got.Error != nil {
			t.Errorf("%s argument: %s", name, got.Error.Text)
			continue
		}
		if diff := cmp.Diff(want.Result, got.Result); diff != "" {
			t.Errorf("%s argument: result differs (-msgpack null +%s):\n%s", name, name, diff)
		}
	}
}
