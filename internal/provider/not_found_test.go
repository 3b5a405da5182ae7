package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// dbProvider is testdata/site for the node db01, whose node and role files do not exist.
const dbProvider = `
provider "hiera" {
  config = "testdata/site/hiera.yaml"
  facts  = { role = "db", os = { family = "Debian" } }
  scope  = { trusted = { certname = "db01.example.com" } }
}
`

// "Key not found" names the files it looked in (layer, level, path and why each had nothing),
// suggests a near key, says what is missing under a root key that was found, and points to explain.
func TestNotFound_saysWhereItLooked(t *testing.T) {
	unitTest(t,
		resource.TestStep{
			Config: siteProvider + `data "hiera_lookup" "test" { key = "strnig" }`,
			ExpectError: errorRE(`Hiera Key Not Found.*"strnig" was not found.*Per node, Per role, Per OS family, Common.*default_value` +
				`.*Data files looked in:` +
				`.*global layer, level "Per node", .*testdata/site/data/nodes/web01.example.com.yaml: no key "strnig"` +
				`.*global layer, level "Per role", .*testdata/site/data/roles/web.yaml: no key "strnig"` +
				`.*level "Common", .*testdata/site/data/common.yaml: no key "strnig"` +
				`.*Did you mean "string"\?.*Set explain = true to see every step`),
		},
		resource.TestStep{
			Config: dbProvider + `data "hiera_lookup" "test" { key = "list.7" }`,
			ExpectError: errorRE(`Hiera Key Not Found.*"list.7" was not found.*The root key "list" was found \(global layer, level "Common", .*testdata/site/data/common.yaml\),` +
				` but the rest of the key is not there: list is an array of 4 elements \(indexes 0 to 3\): it has no index 7\.`),
		},
		resource.TestStep{
			Config:      dbProvider + `data "hiera_lookup" "test" { key = "nested.alpah" }`,
			ExpectError: errorRE(`nested is a hash without the key "alpah" \(its keys: "zulu", "alpha"\)\. Did you mean "alpha"\?`),
		},
		resource.TestStep{
			Config:      dbProvider + `data "hiera_lookup" "test" { key = "nope" }`,
			ExpectError: errorRE(`level "Per node", .*nodes/db01.example.com.yaml: no such file.*level "Per role", .*roles/db.yaml: no such file`),
		},
	)
}

// The lookup function has no explain argument: its message does not offer one.
func TestNotFound_function(t *testing.T) {
	unitTestFrom(t, functionsCLI, resource.TestStep{
		Config:      `output "test" { value = provider::hiera::lookup("testdata/site/hiera.yaml", "strnig", { role = "web" }) }`,
		ExpectError: errorRE(`"strnig" was not found.*Wrap the call in try\(\).*Did you mean "string"\?`),
	}, resource.TestStep{
		Config:      `output "test" { value = provider::hiera::lookup("testdata/nowhere/hiera.yaml", "string", {}) }`,
		ExpectError: errorRE(`"string" was not found`), // Puppet's default configuration: nowhere/data/common.yaml
	})
}

// A merge strategy that does not exist in lookup_options: Puppet's message, then the file, the entry
// and the valid names.
func TestLookupOptions_unknownStrategyNamesTheEntry(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `provider "hiera" { config = "testdata/merge_typo/hiera.yaml" }
data "hiera_lookup" "test" { key = "ntp::servers" }`,
		ExpectError: errorRE(`Hiera Lookup Failed.*Unknown merge strategy: 'uniq' \(hierarchy level "Common", file: .*testdata/merge_typo/data/common.yaml, line: 3\)\.` +
			` In the lookup_options entry "ntp::servers": merge must be one of first, unique, hash, deep`),
	})
}
