package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// testAccProtoV6ProviderFactories serves the provider in-process to the real terraform CLI.
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"hiera": NewServer("test"),
}

// siteProvider configures the provider for testdata/site: the node web01.example.com, role web, on Debian.
const siteProvider = `
provider "hiera" {
  config = "testdata/site/hiera.yaml"
  facts  = { hostname = "web01", role = "web", os = { family = "Debian" }, count = 3, enabled = true }
  scope  = { trusted = { certname = "web01.example.com" }, environment = "production" }
}
`

// unitTest runs steps against the in-process provider; nothing is downloaded.
func unitTest(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}

// unitTestFrom is unitTest for newer Terraform versions only (functions need 1.8, ephemeral
// resources 1.10): older versions skip the test.
func unitTestFrom(t *testing.T, check tfversion.TerraformVersionCheck, steps ...resource.TestStep) {
	t.Helper()
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{check},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

func expect(addr, attr string, want knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue(addr, tfjsonpath.New(attr), want)
}

// errorRE matches a diagnostic that Terraform may have wrapped: spaces match any white space.
func errorRE(s string) *regexp.Regexp {
	return regexp.MustCompile("(?s)" + strings.ReplaceAll(s, " ", `\s+`))
}

func str(s string) knownvalue.Check { return knownvalue.StringExact(s) }

func num(i int64) knownvalue.Check { return knownvalue.Int64Exact(i) }

// A config naming no file is read as Puppet reads a missing global hiera.yaml: its default
// configuration, one level reading data/common.yaml beside it (a warning says so); the default
// config nobody named must exist.
func TestProvider_missingConfigFile(t *testing.T) {
	unitTest(t,
		resource.TestStep{
			Config: `
provider "hiera" {
  config = "testdata/default_config/hiera.yaml"
}
data "hiera_lookup" "test" {
  key = "string"
}
data "hiera_lookup" "own" {
  key    = "string"
  config = "testdata/default_config/hiera.yaml"
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				expect("data.hiera_lookup.test", "value", str("from Puppet's default configuration")),
				expect("data.hiera_lookup.own", "value", str("from Puppet's default configuration")),
			},
		},
		// The default is hiera.yaml in the working directory, named in full in the error.
		resource.TestStep{
			Config: `data "hiera_lookup" "test" { key = "string" }`,
			ExpectError: errorRE(`Hiera Config Not Found.*internal/provider/hiera\.yaml\. Neither config nor environment nor modulepath is set, so config` +
				` defaults to hiera.yaml in Terraform's working directory.*or environment to`),
		},
	)
}

// Configure points at the provider's config attribute with a warning when it names no file (the
// lookups' errors are on their data sources).
func TestProvider_missingConfigWarning(t *testing.T) {
	t.Parallel()
	diags := providerConfigMissing("testdata/nowhere/hiera.yaml")
	if len(diags) != 1 {
		t.Fatalf("diagnostics %v", diags)
	}
	withPath, ok := diags[0].(diag.DiagnosticWithPath)
	if diags.HasError() || !strings.Contains(diags[0].Detail(), "testdata/nowhere/hiera.yaml") || !ok || withPath.Path().String() != "config" {
		t.Errorf("diagnostics %v", diags)
	}
	if diags := providerConfigMissing("testdata/site/hiera.yaml"); len(diags) != 0 {
		t.Errorf("an existing file: %v", diags)
	}
	if diags := providerConfigMissing(""); len(diags) != 0 {
		t.Errorf("no config: %v", diags)
	}
}

// Facts and scope keep their types, reach interpolation as %{facts.x}, %{x} and %{::x}, and a
// data source's own facts win over the provider's key by key.
func TestProvider_factsAndScope(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `
provider "hiera" {
  config = "testdata/site/hiera.yaml"
  facts  = tomap({ hostname = "web01", role = "db" })
  scope  = { trusted = { certname = "nobody" }, environment = "staging" }
}
data "hiera_lookup" "greeting" {
  key   = "greeting"
  facts = { role = "web" }
  scope = { environment = "production" }
}
data "hiera_lookup" "types" {
  key   = "fact_types"
  facts = { count = 3, enabled = true, os = { family = "Debian" } }
}
# role and OS from the data source: the role level now supplies carol
data "hiera_hash" "users" {
  key   = "profile::users"
  facts = { role = "web" }
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.greeting", "value", str("hello web01 from production, role web")),
			expect("data.hiera_lookup.types", "value", str("3 true Debian")),
			expect("data.hiera_hash.users", "value", knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"carol": knownvalue.ObjectExact(map[string]knownvalue.Check{"uid": num(1003)}),
			})),
		},
	})
}

func TestProvider_invalidFacts(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `
provider "hiera" {
  config = "testdata/site/hiera.yaml"
  facts  = "web01"
}
data "hiera_lookup" "test" {
  key = "string"
}`,
		ExpectError: regexp.MustCompile(`Invalid Provider Argument`),
	})
}

// Provider arguments unknown at plan cannot be deferred by Terraform without the deferral
// experiment: the data source says so clearly instead of looking up with missing facts.
func TestProvider_unknownFacts(t *testing.T) {
	unitTestFrom(t, terraformDataCLI, resource.TestStep{
		Config: `
resource "terraform_data" "role" {
  input = "web"
}
provider "hiera" {
  config = "testdata/site/hiera.yaml"
  facts  = { role = terraform_data.role.output }
}
data "hiera_lookup" "test" {
  key = "string"
}`,
		ExpectError: regexp.MustCompile(`Provider Arguments Not Known Yet`),
	})
}
