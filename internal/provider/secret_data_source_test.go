package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// hiera_secret returns eyaml and convert_to: Sensitive values, marked sensitive. Like every data
// source result they are in the state: the test checks that the state file holds them, which also
// shows that the scan used by the no-plaintext tests finds a leak.
func TestSecretDataSource_eyaml(t *testing.T) {
	dir := t.TempDir()
	checks := []statecheck.StateCheck{
		expect("data.hiera_secret.db", "value", str("pw-Kx9-db-TOPSECRET")),
		expect("data.hiera_secret.db", "found", knownvalue.Bool(true)),
		expect("data.hiera_secret.token", "value", str("tok-7Qz-api-TOPSECRET")),
		expect("data.hiera_secret.app", "value", obj(map[string]knownvalue.Check{
			"user": str("app"), "key": str("key-3Vm-nested-TOPSECRET"), "port": num(8080),
		})),
		// Hiera's order, as puppet lookup gives it.
		expect("data.hiera_secret.app", "json", str(`{"port":8080,"user":"app","key":"key-3Vm-nested-TOPSECRET"}`)),
		// explain names the levels but never prints a value once a secret is involved.
		expect("data.hiera_secret.app", "explanation", knownvalue.StringRegexp(errorRE(`Secrets.*Common`))),
		expect("data.hiera_secret.app", "explanation", notContaining(eyamlSecrets)),
		expect("data.hiera_secret.marked", "value", str("tok-5Hn-marked-TOPSECRET")),
		expect("data.hiera_secret.plain", "value", str("not a secret")),
		expect("data.hiera_secret.missing", "value", str("fallback")),
		expect("data.hiera_secret.missing", "found", knownvalue.Bool(false)),
		plaintextInFiles{dir: dir},
	}
	secretTest(t, dir, anyCLI,
		// Terraform knows the values are sensitive: an output must say so. (First: OpenTofu's
		// destroy at the end of a test checks the last step's outputs again.)
		resource.TestStep{
			Config: eyamlProvider + `
data "hiera_secret" "db" {
  key = "db_password"
}
output "leak" {
  value = data.hiera_secret.db.value
}`,
			ExpectError: errorRE(`Output refers to sensitive values`),
		},
		resource.TestStep{
			Config: eyamlProvider + `
data "hiera_secret" "db" {
  key = "db_password"
}
data "hiera_secret" "token" {
  key = "api_token"
}
data "hiera_secret" "app" {
  key     = "app"
  explain = true
}
data "hiera_secret" "marked" {
  key = "marked_token"
}
data "hiera_secret" "plain" {
  key = "plain_in_eyaml"
}
data "hiera_secret" "missing" {
  key           = "no::such::key"
  default_value = "fallback"
}`,
			ConfigStateChecks: checks,
		},
	)
}

// Every value hiera_secret returns is marked sensitive in the state, even one that was not
// encrypted.
func TestSecretDataSource_sensitiveInState(t *testing.T) {
	var checks []statecheck.StateCheck
	for _, addr := range []string{"data.hiera_secret.db", "data.hiera_secret.app", "data.hiera_secret.plain"} {
		for _, attr := range []string{"value", "json", "explanation"} {
			checks = append(checks, statecheck.ExpectSensitiveValue(addr, tfjsonpath.New(attr)))
		}
	}
	secretTest(t, t.TempDir(), sensitiveStateCLI, resource.TestStep{
		Config: eyamlProvider + `
data "hiera_secret" "db" {
  key = "db_password"
}
data "hiera_secret" "app" {
  key     = "app"
  explain = true
}
data "hiera_secret" "plain" {
  key = "plain_in_eyaml"
}`,
		ConfigStateChecks: checks,
	})
}

// The same arguments as hiera_lookup: merge block, facts, subkeys.
func TestSecretDataSource_arguments(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_secret" "token" {
  key = "secret_token"
}
data "hiera_secret" "users" {
  key   = "profile::users.carol"
  facts = { role = "web" }
  merge {
    strategy = "hash"
  }
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_secret.token", "value", str("s3cr3t")),
			expect("data.hiera_secret.users", "value", obj(map[string]knownvalue.Check{"uid": num(1003)})),
		},
	})
}
