package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// sources on the lookup data sources, hiera_secret and the ephemeral hiera_lookup: the files that
// gave the value, most specific first; empty when default_value answered.
func TestSources_lookupDataSources(t *testing.T) {
	node := source(t, "global", "", "Per node", "testdata/site/data/nodes/web01.example.com.yaml")
	role := source(t, "global", "", "Per role", "testdata/site/data/roles/web.yaml")
	os := source(t, "global", "", "Per OS family", "testdata/site/data/os/Debian.yaml")
	common := source(t, "global", "", "Common", "testdata/site/data/common.yaml")
	list := func(checks ...knownvalue.Check) knownvalue.Check { return knownvalue.ListExact(checks) }
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_lookup" "string" {
  key = "string"
}
data "hiera_lookup" "users" {
  key = "profile::users.alice"
}
data "hiera_lookup" "first" {
  key = "packages"
}
data "hiera_lookup" "default" {
  key           = "no::such::key"
  default_value = 1
}
data "hiera_hash" "tags" {
  key = "tags"
}
data "hiera_array" "packages" {
  key = "packages"
}
data "hiera_secret" "token" {
  key = "secret_token"
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.string", "sources", list(common)),
			expect("data.hiera_lookup.users", "sources", list(node, role, common)), // deep by lookup_options, then dug
			expect("data.hiera_lookup.first", "sources", list(role)),
			expect("data.hiera_lookup.default", "sources", list()),
			expect("data.hiera_hash.tags", "sources", list(node, role, os)),
			expect("data.hiera_array.packages", "sources", list(role, os, common)),
			expect("data.hiera_secret.token", "sources", list(common)),
		},
	})
}

func TestSources_ephemeral(t *testing.T) {
	ephemeralTest(t, resource.TestStep{
		Config: siteProvider + `
ephemeral "hiera_lookup" "token" {
  key = "secret_token"
}
ephemeral "hiera_lookup" "missing" {
  key           = "no::such::key"
  default_value = 1
}
` + echo(`{
    token   = ephemeral.hiera_lookup.token.sources
    missing = ephemeral.hiera_lookup.missing.sources
  }`),
		ConfigStateChecks: []statecheck.StateCheck{
			expect("echo.test", "data", obj(map[string]knownvalue.Check{
				"token":   knownvalue.ListExact([]knownvalue.Check{source(t, "global", "", "Common", "testdata/site/data/common.yaml")}),
				"missing": knownvalue.ListExact([]knownvalue.Check{}),
			})),
		},
	})
}
