package provider

import (
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// Numbers that float64 cannot hold (more digits, beyond its range) come back from the functions,
// a default_value and a fact exactly as Terraform holds them (#12).
func TestExactNumbers(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: `
provider "hiera" {
  config = "testdata/site/hiera.yaml"
  facts  = { hostname = 0.1000000000000000000001, role = "web" }
  scope  = { environment = "production" }
}
locals {
  x = {
    a = 0.1000000000000000000001
    b = [0.5, -3.14159265358979323846264338327950288, 1e-400]
    c = { d = 123456789.123456789, e = 0.1 }
  }
  huge = { a = [1e400, -1e400, 1.5e300, 1e-400], b = local.x }
}
data "hiera_lookup" "missing" {
  key           = "no::such::key"
  default_value = local.x
}
data "hiera_lookup" "fact" {
  key = "greeting"
}
output "deep_merge" {
  value = provider::hiera::deep_merge(local.huge) == local.huge
}
output "deep_merge_twice" {
  value = provider::hiera::deep_merge(local.x, local.x) == local.x
}
output "merge_unique" {
  value = provider::hiera::merge("unique", local.x.b, local.x.b) == local.x.b
}
output "merge_sorted" {
  value = provider::hiera::merge({ strategy = "deep", sort_merged_arrays = true }, [local.x.a, 0.1], [1e-400])
}
output "default_value" {
  value = data.hiera_lookup.missing.value == local.x
}
output "default_json" {
  value = data.hiera_lookup.missing.json
}
output "function_fact" {
  value = provider::hiera::lookup("testdata/site/hiera.yaml", "greeting", { hostname = local.x.c.d, role = "db" }, { environment = "staging" })
}
`,
		ConfigStateChecks: []statecheck.StateCheck{
			output("deep_merge", knownvalue.Bool(true)),
			output("deep_merge_twice", knownvalue.Bool(true)),
			output("merge_unique", knownvalue.Bool(true)),
			// compared exactly: the float64 nearest 0.1 is 0.1000000000000000055511151231257827
			output("merge_sorted", tuple(numText(t, "1e-400"), numText(t, "0.1000000000000000000001"), numText(t, "0.1"))),
			output("default_value", knownvalue.Bool(true)),
			output("default_json", str(`{"a":0.1000000000000000000001,"b":[0.5,-3.14159265358979323846264338327950288,1.0e-400],`+
				`"c":{"d":123456789.123456789,"e":0.1}}`)),
			expect("data.hiera_lookup.fact", "value", str("hello 0.1000000000000000000001 from production, role web")),
			output("function_fact", str("hello 123456789.123456789 from staging, role db")),
		},
	})
}

// numText is a check for the number Terraform reads from s (at its 512 bits).
func numText(t *testing.T, s string) knownvalue.Check {
	t.Helper()
	f, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	return knownvalue.NumberExact(f)
}
