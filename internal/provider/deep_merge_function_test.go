package provider

import (
	"math/big"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// functionTest runs steps on Terraform 1.8 or later, which has provider functions.
func functionTest(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	unitTestFrom(t, functionsCLI, steps...)
}

// callErrorStep is a step whose output "test" is call (a function call) and that must fail with want.
func callErrorStep(call, want string) resource.TestStep {
	return resource.TestStep{
		Config:      "output \"test\" {\n  value = " + call + "\n}",
		ExpectError: errorRE(want),
	}
}

func output(name string, want knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownOutputValue(name, want)
}

func obj(m map[string]knownvalue.Check) knownvalue.Check { return knownvalue.ObjectExact(m) }

func tuple(e ...knownvalue.Check) knownvalue.Check { return knownvalue.TupleExact(e) }

// The answer to "Terraform's merge() is shallow": defaults and overrides merged at every depth.
func TestDeepMergeFunction_defaultsAndOverrides(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: `
locals {
  defaults = {
    instance   = { type = "t3.small", disk = 20, tags = { team = "core" } }
    ports      = [22, 80]
    monitoring = true
  }
  overrides = {
    instance = { type = "t3.large", tags = { env = "prod" } }
    ports    = [443, 80]
  }
}
output "deep" {
  value = provider::hiera::deep_merge(local.defaults, local.overrides)
}
output "shallow" {
  value = merge(local.defaults, local.overrides)
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			output("deep", obj(map[string]knownvalue.Check{
				"instance": obj(map[string]knownvalue.Check{
					"type": str("t3.large"), "disk": num(20),
					"tags": obj(map[string]knownvalue.Check{"team": str("core"), "env": str("prod")}),
				}),
				"ports":      tuple(num(22), num(80), num(443)),
				"monitoring": knownvalue.Bool(true),
			})),
			// What Terraform's own merge() does: the nested object is replaced whole.
			output("shallow", knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"instance": obj(map[string]knownvalue.Check{
					"type": str("t3.large"), "tags": obj(map[string]knownvalue.Check{"env": str("prod")}),
				}),
			})),
		},
	})
}

func TestDeepMergeFunction_known(t *testing.T) {
	big20, _, _ := big.ParseFloat("12345678901234567890", 10, 512, big.ToNearestEven)
	functionTest(t, resource.TestStep{
		Config: `
output "later_wins" {
  value = provider::hiera::deep_merge({ a = 1, b = { c = 1 } }, { a = 2 }, { a = 3, b = { d = 2 } })
}
output "scalars" {
  value = provider::hiera::deep_merge("first", "second")
}
output "lists" {
  value = provider::hiera::deep_merge(["a", "b"], toset(["b", "c"]))
}
output "maps_and_objects" {
  value = provider::hiera::deep_merge(tomap({ x = "1" }), { y = 2 })
}
output "other_type_replaces" {
  value = provider::hiera::deep_merge({ a = { x = 1 } }, { a = "text" })
}
output "types_kept" {
  value = provider::hiera::deep_merge({ n = 12345678901234567890, f = 1.5, b = false }, { s = "x" })
}
output "one" {
  value = provider::hiera::deep_merge({ only = ["me"] })
}
output "expanded" {
  value = provider::hiera::deep_merge([{ a = { x = 1 } }, { a = { y = 2 } }, { b = 3 }]...)
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			output("later_wins", obj(map[string]knownvalue.Check{
				"a": num(3), "b": obj(map[string]knownvalue.Check{"c": num(1), "d": num(2)}),
			})),
			output("scalars", str("second")),
			output("lists", tuple(str("a"), str("b"), str("c"))),
			output("maps_and_objects", obj(map[string]knownvalue.Check{"x": str("1"), "y": num(2)})),
			output("other_type_replaces", obj(map[string]knownvalue.Check{"a": str("text")})),
			output("types_kept", obj(map[string]knownvalue.Check{
				"n": knownvalue.NumberExact(big20), "f": knownvalue.Float64Exact(1.5), "b": knownvalue.Bool(false), "s": str("x"),
			})),
			output("one", obj(map[string]knownvalue.Check{"only": tuple(str("me"))})),
			output("expanded", obj(map[string]knownvalue.Check{
				"a": obj(map[string]knownvalue.Check{"x": num(1), "y": num(2)}), "b": num(3),
			})),
		},
	})
}

// Null arguments are skipped like hierarchy levels without the key; a null inside an object
// changes nothing; no values at all give null.
func TestDeepMergeFunction_null(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: `
output "skipped" {
  value = provider::hiera::deep_merge(tomap(null), { a = 1 }, tomap(null))
}
output "nested_null" {
  value = provider::hiera::deep_merge({ a = 1, b = 2 }, { a = null })
}
output "all_null" {
  value = provider::hiera::deep_merge(tomap(null), tomap(null)) == null
}
output "none" {
  value = provider::hiera::deep_merge() == null
}
output "empty_expansion" {
  value = provider::hiera::deep_merge([]...) == null
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			output("skipped", obj(map[string]knownvalue.Check{"a": num(1)})),
			output("nested_null", obj(map[string]knownvalue.Check{"a": num(1), "b": num(2)})),
			output("all_null", knownvalue.Bool(true)),
			output("none", knownvalue.Bool(true)),
			output("empty_expansion", knownvalue.Bool(true)),
		},
	})
}

// An argument known only after apply makes the result unknown in the plan, and right after apply.
func TestDeepMergeFunction_unknown(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: `
resource "terraform_data" "env" {
  input = "prod"
}
output "test" {
  value = provider::hiera::deep_merge({ tags = { team = "core" } }, { tags = { env = terraform_data.env.output } })
}`,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("test")},
		},
		ConfigStateChecks: []statecheck.StateCheck{
			output("test", obj(map[string]knownvalue.Check{
				"tags": obj(map[string]knownvalue.Check{"team": str("core"), "env": str("prod")}),
			})),
		},
	})
}

// Terraform keeps a sensitive argument's mark on the result.
func TestDeepMergeFunction_sensitive(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: `
output "test" {
  value = provider::hiera::deep_merge({ user = "app" }, sensitive({ password = "hunter2" }))
}`,
		ExpectError: regexp.MustCompile(`Output refers to sensitive values`),
	})
}
