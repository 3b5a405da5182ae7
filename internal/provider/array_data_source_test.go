package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// Without a merge block hiera_array does a unique merge, highest level first; a single value
// comes back as a one-element list.
func TestArrayDataSource_basic(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_array" "packages" {
  key = "packages"
}
data "hiera_array" "single" {
  key = "single"
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_array.packages", "value", knownvalue.TupleExact([]knownvalue.Check{
				str("nginx"), str("git"), str("apt-transport-https"), str("vim"),
			})),
			expect("data.hiera_array.packages", "json", str(`["nginx","git","apt-transport-https","vim"]`)),
			expect("data.hiera_array.packages", "found", knownvalue.Bool(true)),
			expect("data.hiera_array.single", "value", knownvalue.TupleExact([]knownvalue.Check{str("one")})),
			expect("data.hiera_array.single", "json", str(`["one"]`)),
		},
	})
}

func TestArrayDataSource_merge(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_array" "first" {
  key = "packages"
  merge {
    strategy = "first"
  }
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_array.first", "json", str(`["nginx","git"]`)),
		},
	})
}

func TestArrayDataSource_defaultValue(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_array" "list" {
  key           = "no::such::list"
  default_value = ["a", 1]
}
data "hiera_array" "scalar" {
  key           = "no::such::list"
  default_value = "a"
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_array.list", "found", knownvalue.Bool(false)),
			expect("data.hiera_array.list", "value", knownvalue.TupleExact([]knownvalue.Check{str("a"), num(1)})),
			expect("data.hiera_array.scalar", "value", knownvalue.TupleExact([]knownvalue.Check{str("a")})),
		},
	})
}

func TestArrayDataSource_missingKey(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_array" "test" {
  key = "no::such::list"
}`,
		ExpectError: errorRE(`Hiera Key Not Found.*no::such::list.*Per node, Per role, Per OS family, Common`),
	})
}
