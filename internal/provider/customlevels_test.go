package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// A hierarchy with a level served by a function the provider does not run (issue 43): the key the
// node's own file has is answered, the node read succeeds with the keys that reach the level in
// failed_keys, and ignore_functions reads the level as holding no data.
func TestProvider_customLevels(t *testing.T) {
	const node = `
data "hiera_lookup" "role" {
  config = "testdata/custom_levels/hiera.yaml"
  key    = "profile::mariadb::mysql_role"
  facts  = { hostname = "db1", fqdn = "db1.eqiad.wmnet" }
}
data "hiera_node" "db1" {
  config = "testdata/custom_levels/hiera.yaml"
  facts  = { hostname = "db1", fqdn = "db1.eqiad.wmnet" }
}`
	unitTest(t,
		resource.TestStep{
			Config: node,
			ConfigStateChecks: []statecheck.StateCheck{
				expect("data.hiera_lookup.role", "value", str("master")),
				expect("data.hiera_node.db1", "found_keys", strs("profile::mariadb::mysql_role")),
				expect("data.hiera_node.db1", "failed_keys", knownvalue.MapExact(map[string]knownvalue.Check{
					"profile::role_key": knownvalue.StringRegexp(regexp.MustCompile(`lookup_key function 'wmflib::regex_data' .*hierarchy level "Regex lookup"`)),
				})),
			},
		},
		resource.TestStep{
			Config: `data "hiera_lookup" "past" {
  config = "testdata/custom_levels/hiera.yaml"
  key    = "profile::role_key"
  facts  = { hostname = "db1", fqdn = "db1.eqiad.wmnet" }
}`,
			ExpectError: errorRE(`lookup_key function 'wmflib::regex_data' .* custom code, which hieraform does not run .*ignore_functions`),
		},
		resource.TestStep{
			Config: `provider "hiera" {
  ignore_functions = ["wmflib::regex_data"]
}
data "hiera_lookup" "past" {
  config = "testdata/custom_levels/hiera.yaml"
  key    = "profile::role_key"
  facts  = { hostname = "db1", fqdn = "db1.eqiad.wmnet" }
}` + node,
			ConfigStateChecks: []statecheck.StateCheck{
				expect("data.hiera_lookup.past", "value", str("r")),
				expect("data.hiera_node.db1", "found_keys", strs("profile::mariadb::mysql_role", "profile::role_key")),
				expect("data.hiera_node.db1", "failed_keys", knownvalue.MapSizeExact(0)),
			},
		},
	)
}
