package provider

import (
	"context"
	"strings"
	"testing"

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
		var warnings []string
		for _, d := range diags.Warnings() {
			if d.Summary() == "Likely Hiera Mistake" {
				warnings = append(warnings, d.Detail())
			}
		}
		text := strings.Join(warnings, "\n")
		switch {
		case !on && len(warnings) > 0:
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
