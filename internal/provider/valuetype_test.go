package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// value_type: a matching result is returned; a mismatch is Puppet's message on value_type; a type
// that does not parse fails the plan before any lookup.
func TestValueType_dataSources(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_lookup" "users" {
  key        = "profile::users"
  value_type = "Hash[String, Struct[{uid => Integer, Optional[shell] => String, Optional[groups] => Array[String]}]]"
}
data "hiera_array" "list" {
  key        = "list"
  value_type = "Array[Optional[Scalar]]"
}
data "hiera_hash" "users" {
  key        = "profile::users"
  value_type = "Hash[String, Hash]"
}
data "hiera_lookup" "default" {
  key           = "no::such::key"
  default_value = ["a"]
  value_type    = "Array[String, 1]"
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.users", "found", knownvalue.Bool(true)),
			expect("data.hiera_array.list", "found", knownvalue.Bool(true)),
			expect("data.hiera_hash.users", "found", knownvalue.Bool(true)),
			expect("data.hiera_lookup.default", "value", knownvalue.TupleExact([]knownvalue.Check{str("a")})),
		},
	})
}

func TestValueType_mismatch(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_lookup" "greeting" {
  key        = "greeting"
  value_type = "Enum[hi, bye]"
}`,
		// placed at the file, line and level the value came from, as hieraform check places it
		ExpectError: errorRE(`Hiera Value Has Wrong Type.*with data.hiera_lookup.greeting.*value_type.*Found value has wrong type, expects a match for Enum\['bye', 'hi'\], got 'hello web01` +
			`.*hierarchy level "Common", file: .*testdata/site/data/common.yaml, line: 24`),
	}, resource.TestStep{
		Config: siteProvider + `
data "hiera_lookup" "missing" {
  key           = "no::such::key"
  default_value = 5
  value_type    = "String"
}`,
		ExpectError: errorRE(`Default value has wrong type, expects a String value, got Integer`),
	})
}

func TestValueType_invalidAtPlanTime(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_secret" "x" {
  key        = "greeting"
  value_type = "Struct[name]"
}`,
		PlanOnly:    true,
		ExpectError: errorRE(`Invalid Puppet Type.*value_type "Struct\[name\]": The expression <Struct\[name\]> is not a valid type specification\.`),
	})
}

// A decrypted value that fails the check is never described.
func TestValueType_secretWithheld(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: eyamlProvider + `
data "hiera_secret" "pw" {
  key        = "db_password"
  value_type = "Enum[x]"
}`,
		ExpectError: errorRE(`Found value has wrong type, expects a value of type Enum\['x'\] \(details withheld: the value is secret\)`),
	})
}

func TestValueType_lookupFunction(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: `
output "uid" {
  value = provider::hiera::lookup("testdata/site/hiera.yaml", "profile::users.alice.uid", ` + siteFacts + `, tomap(null), "Integer[1000]")
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("uid", num(1001)),
		},
	}, resource.TestStep{
		Config: `
output "uid" {
  value = provider::hiera::lookup("testdata/site/hiera.yaml", "profile::users.alice.uid", ` + siteFacts + `, tomap(null), "String")
}`,
		// the fifth argument: the CLI names the variadic parameter "scope" that holds it, the message value_type
		ExpectError: errorRE(`Invalid value for "scope" parameter: value_type: Looking up "profile::users.alice.uid" .* Found value has wrong type, expects a String value, got Integer`),
	}, resource.TestStep{
		Config: `
output "uid" {
  value = provider::hiera::lookup("testdata/site/hiera.yaml", "greeting", tomap(null), tomap(null), "Array[")
}`,
		ExpectError: errorRE(`Invalid value for "scope" parameter: value_type "Array\[": Syntax error at end of input`),
	})
}
