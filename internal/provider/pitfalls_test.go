package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// Pitfalls are warnings on the lookup, silenced by pitfall_warnings = false; the answer is the same.
func TestPitfalls_warnings(t *testing.T) {
	t.Parallel()
	facts, err := toHash(map[string]any{"os.family": "Debian", "role": "web"})
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{true, false} {
		pd := &providerData{engines: newEngineCache(), config: "testdata/site/hiera.yaml", facts: facts, pitfalls: on}
		m := lookupModel{Key: types.StringValue("greeting"), lookupArgs: lookupArgs{Facts: types.DynamicNull(), Scope: types.DynamicNull()}, DefaultValue: types.DynamicNull()}
		ds, isHiera := NewLookupDataSource().(*hieraDataSource)
		if !isHiera {
			t.Fatal("hiera_lookup is not a hieraDataSource")
		}
		diags := pd.lookup(context.Background(), ds.kind, &m, nil)
		if diags.HasError() || m.JSON.ValueString() != `"hello  from production, role web"` {
			t.Fatalf("pitfall_warnings %v: %v %s", on, diags, m.JSON)
		}
		text := mistakes(diags)
		switch {
		case !on && text != "":
			t.Errorf("pitfall_warnings = false: %s", text)
		case on && (!strings.Contains(text, `The fact "os.family" has a dot in its name`) ||
			!strings.Contains(text, `The hierarchy level "Per node"`) || !strings.Contains(text, `%{trusted.certname}`) ||
			!strings.Contains(text, `The value of "greeting" interpolates %{facts.hostname}, which is not set`) ||
			!strings.Contains(text, "Set pitfall_warnings = false in the provider block")):
			t.Errorf("pitfall warnings:\n%s", text)
		}
	}
}

// The attribute through Terraform: accepted, and the answer unchanged.
func TestPitfalls_attribute(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `provider "hiera" {
  config           = "testdata/site/hiera.yaml"
  facts            = { "os.family" = "Debian", role = "web" }
  pitfall_warnings = false
}
data "hiera_lookup" "test" { key = "greeting" }`,
		ConfigStateChecks: []statecheck.StateCheck{expect("data.hiera_lookup.test", "value", str("hello  from production, role web"))},
	})
}

// hiera_node (and so hiera_nodes, which reads each node as hiera_node) warns of the same pitfalls as
// hiera_lookup: facts as Facter 4's facter -j prints them name the node from networking.fqdn, and a
// hierarchy path or a value that interpolates a fact that does not exist is said.
func TestPitfalls_node(t *testing.T) {
	t.Parallel()
	facts, err := toHash(map[string]any{"networking": map[string]any{"fqdn": "web01.example.com"}, "os": map[string]any{"family": "Debian"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, on := range []bool{true, false} {
		pd := &providerData{engines: newEngineCache(), config: "testdata/site/hiera.yaml", facts: facts, pitfalls: on}
		m := nodeModel{lookupArgs: lookupArgs{Facts: types.DynamicNull(), Scope: types.DynamicNull()},
			Keys: types.ListNull(types.StringType), Prefixes: types.ListNull(types.StringType)}
		out, diags := pd.readNode(context.Background(), &m, nil, wholeNode)
		// the node level is read: its file's tags
		if js := string(out.attributes["json"]); diags.HasError() || !strings.Contains(js, `"tags":{"node":"web01"`) {
			t.Fatalf("pitfall_warnings %v: %v %s", on, diags, js)
		}
		text := mistakes(diags)
		switch {
		case !on && text != "":
			t.Errorf("pitfall_warnings = false: %s", text)
		case on && (!strings.Contains(text, `trusted.certname is "web01.example.com", from the fact networking.fqdn`) ||
			!strings.Contains(text, `The hierarchy level "Per role"`) || !strings.Contains(text, `%{role}`) ||
			!strings.Contains(text, "Set pitfall_warnings = false in the provider block")):
			t.Errorf("pitfall warnings:\n%s", text)
		}
	}
}

// mistakes are the pitfall warnings of diags, one a line.
func mistakes(diags diag.Diagnostics) string {
	var warnings []string
	for _, d := range diags.Warnings() {
		if d.Summary() == "Likely Hiera Mistake" {
			warnings = append(warnings, d.Detail())
		}
	}
	return strings.Join(warnings, "\n")
}
