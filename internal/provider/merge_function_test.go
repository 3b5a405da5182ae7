package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

func TestMergeFunction_strategies(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: `
locals {
  low  = { users = { alice = { uid = 1001, groups = ["dev"] } }, pkgs = ["vim", "git"] }
  high = { users = { alice = { groups = ["web"] }, bob = { uid = 1002 } } }
}
output "first" {
  value = provider::hiera::merge("first", local.low, local.high, tomap(null))
}
output "hash" {
  value = provider::hiera::merge("hash", local.low, local.high)
}
output "deep" {
  value = provider::hiera::merge("deep", local.low, local.high)
}
output "deep_object" {
  value = provider::hiera::merge({ strategy = "deep" }, local.low, local.high)
}
# unique lists the later arguments' values first, as Hiera lists the most specific level's first.
output "unique" {
  value = provider::hiera::merge("unique", ["vim", "git"], "curl", ["git", "nginx"])
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			output("first", obj(map[string]knownvalue.Check{
				"users": obj(map[string]knownvalue.Check{
					"alice": obj(map[string]knownvalue.Check{"groups": tuple(str("web"))}),
					"bob":   obj(map[string]knownvalue.Check{"uid": num(1002)}),
				}),
			})),
			output("hash", obj(map[string]knownvalue.Check{
				"users": obj(map[string]knownvalue.Check{
					"alice": obj(map[string]knownvalue.Check{"groups": tuple(str("web"))}),
					"bob":   obj(map[string]knownvalue.Check{"uid": num(1002)}),
				}),
				"pkgs": tuple(str("vim"), str("git")),
			})),
			output("deep", obj(map[string]knownvalue.Check{
				"users": obj(map[string]knownvalue.Check{
					"alice": obj(map[string]knownvalue.Check{"uid": num(1001), "groups": tuple(str("dev"), str("web"))}),
					"bob":   obj(map[string]knownvalue.Check{"uid": num(1002)}),
				}),
				"pkgs": tuple(str("vim"), str("git")),
			})),
			output("deep_object", obj(map[string]knownvalue.Check{
				"users": obj(map[string]knownvalue.Check{
					"alice": obj(map[string]knownvalue.Check{"uid": num(1001), "groups": tuple(str("dev"), str("web"))}),
					"bob":   obj(map[string]knownvalue.Check{"uid": num(1002)}),
				}),
				"pkgs": tuple(str("vim"), str("git")),
			})),
			output("unique", tuple(str("git"), str("nginx"), str("curl"), str("vim"))),
		},
	})
}

func TestMergeFunction_deepOptions(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: `
output "knockout" {
  value = provider::hiera::merge({ strategy = "deep", knockout_prefix = "--" },
    { pkgs = ["telnet", "vim"], users = ["alice", "bob"] },
    { pkgs = ["--telnet", "curl"], users = ["--"] })
}
output "sorted" {
  value = provider::hiera::merge({ strategy = "deep", sort_merged_arrays = true }, ["b", "z"], ["a", "y"])
}
output "hash_arrays" {
  value = provider::hiera::merge({ strategy = "deep", merge_hash_arrays = true },
    [{ name = "a", x = 1 }], [{ y = 2 }])
}
# Null attributes, as optional() object attributes give them, count as not set.
output "null_options" {
  value = provider::hiera::merge({ strategy = "hash", knockout_prefix = null, sort_merged_arrays = null }, { a = 1 }, { b = 2 })
}
output "map_options" {
  value = provider::hiera::merge(tomap({ strategy = "deep", knockout_prefix = "!" }), ["a", "b"], ["!a"])
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			output("knockout", obj(map[string]knownvalue.Check{
				"pkgs": tuple(str("vim"), str("curl")), "users": tuple(),
			})),
			output("sorted", tuple(str("a"), str("b"), str("y"), str("z"))),
			output("hash_arrays", tuple(obj(map[string]knownvalue.Check{"name": str("a"), "x": num(1), "y": num(2)}))),
			output("null_options", obj(map[string]knownvalue.Check{"a": num(1), "b": num(2)})),
			output("map_options", tuple(str("b"))),
		},
	})
}

// Bad options are errors on the options argument; a value the strategy cannot merge is an error
// naming that argument.
func TestMergeFunction_errors(t *testing.T) {
	step := func(args, want string) resource.TestStep {
		return callErrorStep("provider::hiera::merge("+args+")", want)
	}
	functionTest(t,
		step(`"deeper", {}`, `Invalid value for "options" parameter: invalid merge options: Unknown merge strategy: 'deeper'`),
		step(`"default", {}`, `strategy must be one of "first", "unique", "hash" or "deep", not "default"`),
		step(`1, {}`, `options must be a strategy name such as "deep" or an object .*not a number`),
		step(`{ knockout_prefix = "--" }`, `must contain the name of a strategy`),
		// worded as the merge block's error for the same mistake (TestLookupDataSource_validation)
		// Terraform ends the message with its own full stop: one, not two
		step(`{ strategy = "hash", knockout_prefix = "--" }, {}`, `invalid merge options: knockout_prefix only applies to the "deep" merge strategy, but the strategy is "hash". Set strategy = "deep" or remove the option\.\s`),
		step(`{ strategy = "first", sort_merged_arrays = true }, {}`, `sort_merged_arrays only applies to the "deep" merge strategy, but the strategy is "first"`),
		step(`{ strategy = "deep", sort_merged_arrays = "yes" }, {}`, `'sort_merged_arrays' expects a value of type Undef or Boolean, got String`),
		step(`{ strategy = "deep", knockout_prefix = "(" }, ["a"], ["b"]`, `invalid merge options: knockout_prefix is not a valid regular expression.*not repeated`),
		step(`tostring(null), {}`, `Invalid value for "options" parameter: argument must not be null`),
		step(`"hash", { a = 1 }, tomap(null), ["x"]`, `Invalid value for "values" parameter: the "hash" merge strategy cannot merge argument 4, which is a list: it merges objects and maps only`),
		step(`"hash", "text", { a = 1 }`, `cannot merge argument 2, which is a string`),
		step(`"unique", { a = 1 }, ["a"]`, `the "unique" merge strategy cannot merge argument 2, which is an object: it merges lists, tuples, sets and single values, not objects or maps`),
	)
}

func TestMergeFunction_unknown(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: `
resource "terraform_data" "strategy" {
  input = "deep"
}
resource "terraform_data" "pkg" {
  input = "curl"
}
output "options" {
  value = provider::hiera::merge(terraform_data.strategy.output, { a = { x = 1 } }, { a = { y = 2 } })
}
output "value" {
  value = provider::hiera::merge("unique", ["vim"], [terraform_data.pkg.output])
}`,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{
				plancheck.ExpectUnknownOutputValue("options"),
				plancheck.ExpectUnknownOutputValue("value"),
			},
		},
		ConfigStateChecks: []statecheck.StateCheck{
			output("options", obj(map[string]knownvalue.Check{"a": obj(map[string]knownvalue.Check{"x": num(1), "y": num(2)})})),
			output("value", tuple(str("curl"), str("vim"))),
		},
	})
}
