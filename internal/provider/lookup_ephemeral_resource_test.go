package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// ephemeralTest runs steps on Terraform 1.10 or later, which has ephemeral resources. The echo
// provider surfaces an ephemeral value in echo.test's data, for the checks.
func ephemeralTest(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	secretTest(t, "", ephemeralCLI, steps...)
}

// echo passes expr to the echo provider, whose echo.test resource then holds it in data.
func echo(expr string) string {
	return "provider \"echo\" {\n  data = " + expr + "\n}\nresource \"echo\" \"test\" {}\n"
}

// Same arguments and results as the data source, values with their real types.
func TestLookupEphemeralResource_basic(t *testing.T) {
	ephemeralTest(t, resource.TestStep{
		Config: siteProvider + `
ephemeral "hiera_lookup" "users" {
  key = "profile::users"
}
ephemeral "hiera_lookup" "carol" {
  key   = "profile::users.carol.uid"
  facts = { role = "web" }
}
ephemeral "hiera_lookup" "packages" {
  key = "packages"
  merge {
    strategy = "unique"
  }
}
ephemeral "hiera_lookup" "missing" {
  key           = "no::such::key"
  default_value = { port = 123 }
}
ephemeral "hiera_lookup" "secret" {
  key = "secret_token"
}
` + echo(`{
    users          = ephemeral.hiera_lookup.users.value
    users_json     = ephemeral.hiera_lookup.users.json
    carol          = ephemeral.hiera_lookup.carol.value
    packages       = ephemeral.hiera_lookup.packages.value
    missing        = ephemeral.hiera_lookup.missing.value
    missing_found  = ephemeral.hiera_lookup.missing.found
    secret_matches = ephemeral.hiera_lookup.secret.value == "s3cr3t"
    explanation    = ephemeral.hiera_lookup.users.explanation
  }`),
		ConfigStateChecks: []statecheck.StateCheck{
			expect("echo.test", "data", obj(map[string]knownvalue.Check{
				"users": obj(map[string]knownvalue.Check{
					"alice": obj(map[string]knownvalue.Check{
						"uid": num(1001), "groups": tuple(str("dev"), str("web")), "shell": str("/bin/zsh"),
					}),
					"bob":   obj(map[string]knownvalue.Check{"uid": num(1002), "shell": str("/bin/bash")}),
					"carol": obj(map[string]knownvalue.Check{"uid": num(1003)}),
				}),
				"users_json": str(`{"alice":{"uid":1001,"groups":["dev","web"],"shell":"/bin/zsh"},` +
					`"bob":{"uid":1002,"shell":"/bin/bash"},"carol":{"uid":1003}}`),
				"carol":          num(1003),
				"packages":       tuple(str("nginx"), str("git"), str("apt-transport-https"), str("vim")),
				"missing":        obj(map[string]knownvalue.Check{"port": num(123)}),
				"missing_found":  knownvalue.Bool(false),
				"secret_matches": knownvalue.Bool(true),
				"explanation":    str(""),
			})),
		},
	})
}

// Terraform refuses to store the results: a root output or a resource argument cannot take them.
func TestLookupEphemeralResource_neverStored(t *testing.T) {
	base := siteProvider + `
ephemeral "hiera_lookup" "test" {
  key = "secret_token"
}
`
	ephemeralTest(t,
		resource.TestStep{
			Config: base + `output "test" { value = ephemeral.hiera_lookup.test.value }`,
			// Terraform's wording, then OpenTofu's
			ExpectError: errorRE(`Ephemeral value not allowed|Output does not allow ephemeral value`),
		},
		resource.TestStep{
			Config:      base + `resource "terraform_data" "test" { input = ephemeral.hiera_lookup.test.json }`,
			ExpectError: errorRE(`Invalid use of ephemeral value|Ephemeral value used in non-ephemeral context`),
		},
	)
}

// Facts known only after apply: Terraform opens the ephemeral resource during apply.
func TestLookupEphemeralResource_unknownFacts(t *testing.T) {
	ephemeralTest(t, resource.TestStep{
		Config: siteProvider + `
resource "terraform_data" "role" {
  input = "web"
}
ephemeral "hiera_lookup" "test" {
  key   = "profile::users.carol.uid"
  facts = { role = terraform_data.role.output }
}
` + echo(`ephemeral.hiera_lookup.test.value`),
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownValue("echo.test", tfjsonpath.New("data"))},
		},
		ConfigStateChecks: []statecheck.StateCheck{expect("echo.test", "data", num(1003))},
	})
}

func TestLookupEphemeralResource_errors(t *testing.T) {
	step := func(body, want string) resource.TestStep {
		return resource.TestStep{
			Config:      siteProvider + "ephemeral \"hiera_lookup\" \"test\" {\n" + body + "\n}\n" + echo(`ephemeral.hiera_lookup.test.value`),
			ExpectError: errorRE(want),
		}
	}
	ephemeralTest(t,
		step(`key = "no::such::key"`, `Hiera Key Not Found.*no::such::key.*Common`),
		step("key = \"k\"\nmerge {\n strategy = \"deeper\"\n}", `Invalid Attribute Value Match.*merge.strategy.*value must be one of`),
		step("key = \"k\"\nmerge {\n strategy = \"hash\"\n knockout_prefix = \"--\"\n}", `Merge Option Needs Deep Strategy`),
		step(`key = ""`, `key.*at least 1`),
		step(`key = "string"`+"\nconfig = \"testdata/nowhere/hiera.yaml\"", `testdata/nowhere/hiera\.yaml`),
	)
}

// The ephemeral schema is the secret data source's, attribute for attribute.
func TestEphemeralSchema(t *testing.T) {
	t.Parallel()
	ds := lookupSchema(ephemeralLookupKind)
	es, err := ephemeralSchema(ds)
	if err != nil {
		t.Fatal(err)
	}
	if len(es.Attributes) != len(ds.Attributes) || len(es.Blocks) != len(ds.Blocks) {
		t.Fatalf("got %d attributes and %d blocks, want %d and %d", len(es.Attributes), len(es.Blocks), len(ds.Attributes), len(ds.Blocks))
	}
	for name, a := range ds.Attributes {
		e, ok := es.Attributes[name]
		if !ok {
			t.Fatalf("attribute %q is missing", name)
		}
		if e.IsRequired() != a.IsRequired() || e.IsOptional() != a.IsOptional() || e.IsComputed() != a.IsComputed() ||
			e.IsSensitive() != a.IsSensitive() || e.GetMarkdownDescription() != a.GetMarkdownDescription() {
			t.Errorf("attribute %q differs", name)
		}
	}
	for _, name := range []string{"value", "json", "explanation"} {
		if !es.Attributes[name].IsSensitive() {
			t.Errorf("%s is not sensitive", name)
		}
	}
	if _, err := ephemeralSchema(schema.Schema{Attributes: map[string]schema.Attribute{"n": schema.Int64Attribute{}}}); err == nil {
		t.Error("an attribute kind without a conversion was accepted")
	}
}
