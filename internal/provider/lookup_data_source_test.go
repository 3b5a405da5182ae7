package provider

import (
	"math/big"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// Every kind of value comes back with its real type.
func TestLookupDataSource_basic(t *testing.T) {
	big20, _, _ := big.ParseFloat("12345678901234567890", 10, 512, big.ToNearestEven)
	lookups := ""
	for _, k := range []string{"string", "bool_true", "nothing", "int", "float", "big", "list", "nested", "odd_keys"} {
		lookups += `data "hiera_lookup" "` + k + `" { key = "` + k + "\" }\n"
	}
	unitTest(t, resource.TestStep{
		Config: siteProvider + lookups,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.string", "value", str("hello")),
			expect("data.hiera_lookup.string", "json", str(`"hello"`)),
			expect("data.hiera_lookup.string", "found", knownvalue.Bool(true)),
			expect("data.hiera_lookup.string", "explanation", str("")),
			expect("data.hiera_lookup.bool_true", "value", knownvalue.Bool(true)),
			expect("data.hiera_lookup.nothing", "value", knownvalue.Null()),
			expect("data.hiera_lookup.nothing", "json", str("null")),
			expect("data.hiera_lookup.nothing", "found", knownvalue.Bool(true)),
			expect("data.hiera_lookup.int", "value", num(42)),
			expect("data.hiera_lookup.float", "value", knownvalue.Float64Exact(1.5)),
			expect("data.hiera_lookup.big", "value", knownvalue.NumberExact(big20)),
			expect("data.hiera_lookup.big", "json", str("12345678901234567890")),
			expect("data.hiera_lookup.list", "value", knownvalue.TupleExact([]knownvalue.Check{
				str("a"), num(1), knownvalue.Bool(true), knownvalue.Null(),
			})),
			expect("data.hiera_lookup.nested", "value", knownvalue.ObjectExact(map[string]knownvalue.Check{
				"zulu": num(2),
				"alpha": knownvalue.ObjectExact(map[string]knownvalue.Check{
					"list": knownvalue.TupleExact([]knownvalue.Check{str("x"), str("y")}),
					"obj":  knownvalue.ObjectExact(map[string]knownvalue.Check{"k": str("v")}),
				}),
			})),
			// json keeps Hiera's key order; Terraform objects sort theirs.
			expect("data.hiera_lookup.nested", "json", str(`{"zulu":2,"alpha":{"list":["x","y"],"obj":{"k":"v"}}}`)),
			// Non-string hash keys become strings, as Ruby's to_s writes them.
			expect("data.hiera_lookup.odd_keys", "value", knownvalue.ObjectExact(map[string]knownvalue.Check{
				"1": str("one"), "2.5": str("two and a half"), "12345678901234567890": str("big"),
			})),
			expect("data.hiera_lookup.odd_keys", "json", str(`{"1":"one","2.5":"two and a half","12345678901234567890":"big"}`)),
		},
	})
}

// Dotted keys dig into the result.
func TestLookupDataSource_subkey(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_lookup" "uid" {
  key = "profile::users.alice.uid"
}
data "hiera_lookup" "index" {
  key = "nested.alpha.list.1"
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.uid", "value", num(1001)),
			expect("data.hiera_lookup.index", "value", str("y")),
		},
	})
}

// Without a merge block, lookup_options in the data decide: profile::users is deep-merged.
func TestLookupDataSource_lookupOptions(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_lookup" "users" {
  key = "profile::users"
}
data "hiera_lookup" "packages" {
  key = "packages"
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.users", "json", str(`{"alice":{"uid":1001,"groups":["dev","web"],"shell":"/bin/zsh"},`+
				`"bob":{"uid":1002,"shell":"/bin/bash"},"carol":{"uid":1003}}`)),
			expect("data.hiera_lookup.users", "value", knownvalue.ObjectExact(map[string]knownvalue.Check{
				"alice": knownvalue.ObjectExact(map[string]knownvalue.Check{
					"uid": num(1001), "groups": knownvalue.TupleExact([]knownvalue.Check{str("dev"), str("web")}), "shell": str("/bin/zsh"),
				}),
				"bob":   knownvalue.ObjectExact(map[string]knownvalue.Check{"uid": num(1002), "shell": str("/bin/bash")}),
				"carol": knownvalue.ObjectExact(map[string]knownvalue.Check{"uid": num(1003)}),
			})),
			// No lookup_options for packages: the first level that has it wins.
			expect("data.hiera_lookup.packages", "json", str(`["nginx","git"]`)),
		},
	})
}

// A merge block wins over lookup_options; every strategy.
func TestLookupDataSource_mergeStrategies(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_lookup" "first" {
  key = "profile::users"
  merge {
    strategy = "first"
  }
}
data "hiera_lookup" "hash" {
  key = "profile::users"
  merge {
    strategy = "hash"
  }
}
data "hiera_lookup" "deep" {
  key = "tags"
  merge {
    strategy = "deep"
  }
}
data "hiera_lookup" "unique" {
  key = "packages"
  merge {
    strategy = "unique"
  }
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.first", "json", str(`{"alice":{"shell":"/bin/zsh"}}`)),
			expect("data.hiera_lookup.hash", "json", str(`{"alice":{"shell":"/bin/zsh"},"bob":{"uid":1002,"shell":"/bin/bash"},"carol":{"uid":1003}}`)),
			expect("data.hiera_lookup.deep", "json", str(`{"os":"debian","tier":"web","node":"web01"}`)),
			expect("data.hiera_lookup.unique", "value", knownvalue.TupleExact([]knownvalue.Check{
				str("nginx"), str("git"), str("apt-transport-https"), str("vim"),
			})),
		},
	})
}

// The deep options, on a data source that names its own hiera.yaml (no provider config at all).
func TestLookupDataSource_deepOptions(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `
data "hiera_lookup" "plain" {
  key    = "knock"
  config = "testdata/merge/hiera.yaml"
  merge {
    strategy = "deep"
  }
}
data "hiera_lookup" "knockout" {
  key    = "knock"
  config = "testdata/merge/hiera.yaml"
  merge {
    strategy        = "deep"
    knockout_prefix = "--"
  }
}
data "hiera_lookup" "sorted" {
  key    = "sorted"
  config = "testdata/merge/hiera.yaml"
  merge {
    strategy           = "deep"
    sort_merged_arrays = true
  }
}
data "hiera_lookup" "hash_arrays" {
  key    = "hasharr"
  config = "testdata/merge/hiera.yaml"
  merge {
    strategy          = "deep"
    merge_hash_arrays = true
  }
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.plain", "json", str(`["a","b","--b","c"]`)),
			expect("data.hiera_lookup.knockout", "json", str(`["a","c"]`)),
			expect("data.hiera_lookup.sorted", "json", str(`["a","b","y","z"]`)),
			expect("data.hiera_lookup.hash_arrays", "json", str(`[{"name":"a","y":2,"x":1}]`)),
		},
	})
}

func TestLookupDataSource_defaultValue(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_lookup" "missing" {
  key           = "no::such::key"
  default_value = { servers = ["pool.ntp.org"], port = 123, enabled = true }
}
data "hiera_lookup" "present" {
  key           = "string"
  default_value = "unused"
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.missing", "found", knownvalue.Bool(false)),
			expect("data.hiera_lookup.missing", "value", knownvalue.ObjectExact(map[string]knownvalue.Check{
				"servers": knownvalue.TupleExact([]knownvalue.Check{str("pool.ntp.org")}),
				"port":    num(123),
				"enabled": knownvalue.Bool(true),
			})),
			expect("data.hiera_lookup.missing", "json", str(`{"enabled":true,"port":123,"servers":["pool.ntp.org"]}`)),
			expect("data.hiera_lookup.present", "found", knownvalue.Bool(true)),
			expect("data.hiera_lookup.present", "value", str("hello")),
		},
	})
}

func TestLookupDataSource_explain(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_lookup" "test" {
  key     = "profile::users"
  explain = true
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.test", "explanation", knownvalue.StringRegexp(regexp.MustCompile(`(?s)Per node.*Common`))),
		},
	})
}

// Facts computed at apply time: the read waits for apply, the plan does not fail.
func TestLookupDataSource_unknownFacts(t *testing.T) {
	unitTestFrom(t, terraformDataCLI, resource.TestStep{
		Config: `
resource "terraform_data" "role" {
  input = "web"
}
provider "hiera" {
  config = "testdata/site/hiera.yaml"
  scope  = { trusted = { certname = "web01.example.com" } }
}
data "hiera_lookup" "test" {
  key   = "packages"
  facts = { role = terraform_data.role.output }
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.test", "value", knownvalue.TupleExact([]knownvalue.Check{str("nginx"), str("git")})),
		},
	})
}

// Bad arguments fail at plan time, on the attribute.
func TestLookupDataSource_validation(t *testing.T) {
	step := func(body, want string) resource.TestStep {
		return resource.TestStep{
			Config:      siteProvider + "data \"hiera_lookup\" \"test\" {\n" + body + "\n}",
			ExpectError: errorRE(want),
			PlanOnly:    true,
		}
	}
	unitTest(t,
		step(`key = ""`, `Invalid Attribute Value Length.*key.*at least 1`),
		step("key = \"k\"\nmerge {\n strategy = \"deeper\"\n}", `Invalid Attribute Value Match.*merge.strategy.*value must be one of`),
		step("key = \"k\"\nmerge {\n strategy = \"hash\"\n knockout_prefix = \"--\"\n}", `Merge Option Needs Deep Strategy.*merge.knockout_prefix only applies to the "deep" merge strategy, but the strategy is "hash". Set strategy = "deep" or remove the option.`),
		step("key = \"k\"\nmerge {\n strategy = \"first\"\n sort_merged_arrays = true\n}", `Merge Option Needs Deep Strategy.*merge.sort_merged_arrays`),
		step("key = \"k\"\nmerge {\n strategy = \"unique\"\n merge_hash_arrays = false\n}", `Merge Option Needs Deep Strategy.*merge.merge_hash_arrays`),
		step("key = \"k\"\nmerge {\n strategy = \"deep\"\n knockout_prefix = \"\"\n}", `merge.knockout_prefix.*at least 1`),
		step("key = \"k\"\nmerge {\n knockout_prefix = \"--\"\n}", `merge.strategy.*must be specified`),
	)
}

func TestLookupDataSource_missingKey(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_lookup" "test" {
  key = "no::such::key"
}`,
		ExpectError: errorRE(`Hiera Key Not Found.*no::such::key.*Common`),
	})
}

// A data file that does not parse is an error naming the file and the line.
func TestLookupDataSource_badYAML(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `
data "hiera_lookup" "test" {
  key    = "ok"
  config = "testdata/bad_yaml/hiera.yaml"
}`,
		ExpectError: errorRE(`Hiera Lookup Failed.*broken\.yaml.*line:? 3`),
	})
}

// A secret (here convert_to: Sensitive) is refused, with a pointer to what returns it.
func TestLookupDataSource_sensitive(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_lookup" "test" {
  key = "secret_token"
}`,
		ExpectError: errorRE(`Sensitive Hiera Value.*"secret_token" is secret.*ephemeral resource hiera_lookup .*hiera_secret data source`),
	})
}
