package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// Without a merge block hiera_hash does a hash merge, lowest level's keys first.
func TestHashDataSource_basic(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_hash" "test" {
  key = "tags"
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_hash.test", "value", knownvalue.ObjectExact(map[string]knownvalue.Check{
				"os": str("debian"), "tier": str("web"), "node": str("web01"),
			})),
			expect("data.hiera_hash.test", "json", str(`{"os":"debian","tier":"web","node":"web01"}`)),
			expect("data.hiera_hash.test", "found", knownvalue.Bool(true)),
		},
	})
}

// The hash merge takes whole top-level values; a merge block asks for deep instead.
func TestHashDataSource_merge(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_hash" "hash" {
  key = "profile::users"
  merge {
    strategy = "hash"
  }
}
data "hiera_hash" "deep" {
  key = "profile::users"
  merge {
    strategy        = "deep"
    knockout_prefix = "--"
  }
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_hash.hash", "json", str(`{"alice":{"shell":"/bin/zsh"},"bob":{"uid":1002,"shell":"/bin/bash"},"carol":{"uid":1003}}`)),
			expect("data.hiera_hash.deep", "json", str(`{"alice":{"uid":1001,"groups":["dev","web"],"shell":"/bin/zsh"},`+
				`"bob":{"uid":1002,"shell":"/bin/bash"},"carol":{"uid":1003}}`)),
		},
	})
}

// A hiera_hash value feeds for_each directly, and nested values index without jsondecode.
func TestHashDataSource_forEach(t *testing.T) {
	unitTestFrom(t, terraformDataCLI,
		resource.TestStep{
			Config: siteProvider + `
data "hiera_hash" "users" {
  key = "profile::users"
  merge {
    strategy = "deep"
  }
}
resource "terraform_data" "user" {
  for_each = data.hiera_hash.users.value
  input = {
    name  = each.key
    uid   = each.value.uid
    shell = try(each.value.shell, "/bin/sh")
  }
}
output "alice_second_group" {
  value = data.hiera_hash.users.value.alice.groups[1]
}
output "carol" {
  value = terraform_data.user["carol"].output
}
output "names" {
  value = sort(keys(terraform_data.user))
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("alice_second_group", str("web")),
				statecheck.ExpectKnownOutputValue("names", knownvalue.ListExact([]knownvalue.Check{str("alice"), str("bob"), str("carol")})),
				statecheck.ExpectKnownOutputValue("carol", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"name": str("carol"), "uid": num(1003), "shell": str("/bin/sh"),
				})),
			},
		},
		// plugin-testing's final state shim cannot read string instance keys: remove them first.
		resource.TestStep{Config: siteProvider},
	)
}

// The hash merge itself rejects a list in the data; a default that is not a hash is rejected too.
func TestHashDataSource_notAHash(t *testing.T) {
	unitTest(t,
		resource.TestStep{
			Config: siteProvider + `
data "hiera_hash" "test" {
  key = "packages"
}`,
			ExpectError: errorRE(`Hiera Lookup Failed.*"packages".*expects a Hash value, got Tuple \(hierarchy level "Per role", file: .*testdata/site/data/roles/web.yaml, line: 8\)\.` +
				` The hash merge takes hashes only, and "packages" holds an array in .*roles/web.yaml, an array in .*common.yaml: hiera_hash merges hashes; use hiera_array for arrays, or hiera_lookup`),
		},
		resource.TestStep{
			Config: siteProvider + `
data "hiera_hash" "test" {
  key           = "no::such::hash"
  default_value = "x"
}`,
			ExpectError: errorRE(`Unexpected Hiera Value Type.*must be a hash for hiera_hash, but it is a string`),
		},
		resource.TestStep{
			Config: siteProvider + `
data "hiera_hash" "test" {
  key           = "no::such::hash"
  default_value = ["x"]
}`,
			// Terraform's word for the kind, as in the merge function's messages
			ExpectError: errorRE(`Unexpected Hiera Value Type.*must be a hash for hiera_hash, but it is a list`),
		},
		resource.TestStep{
			Config: siteProvider + `
data "hiera_hash" "test" {
  key = "packages"
  merge { strategy = "first" }
}`,
			ExpectError: errorRE(`Unexpected Hiera Value Type.*must be a hash for hiera_hash, but it is a list: use hiera_array for a list, or hiera_lookup` +
				`.*It was found in: global layer, level "Per role", .*testdata/site/data/roles/web.yaml\.`),
		},
	)
}

func TestHashDataSource_defaultValue(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_hash" "test" {
  key           = "no::such::hash"
  default_value = { a = 1 }
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_hash.test", "found", knownvalue.Bool(false)),
			expect("data.hiera_hash.test", "value", knownvalue.ObjectExact(map[string]knownvalue.Check{"a": num(1)})),
		},
	})
}
