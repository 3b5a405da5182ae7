package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// siteFacts are testdata/site's node as function facts; trusted.certname comes from clientcert,
// as with puppet lookup.
const siteFacts = `{ clientcert = "web01.example.com", role = "web", os = { family = "Debian" }, hostname = "web01" }`

func TestLookupFunction_known(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: `
locals {
  facts = ` + siteFacts + `
}
output "users" {
  value = provider::hiera::lookup("testdata/site/hiera.yaml", "profile::users", local.facts)
}
output "uid" {
  value = provider::hiera::lookup("testdata/site/hiera.yaml", "profile::users.alice.uid", local.facts) + 1
}
output "greeting" {
  value = provider::hiera::lookup("testdata/site/hiera.yaml", "greeting", local.facts)
}
output "scope" {
  value = provider::hiera::lookup("testdata/site/hiera.yaml", "greeting", { hostname = "db01", role = "db" }, { environment = "staging" })
}
output "trusted" {
  value = provider::hiera::lookup("testdata/site/hiera.yaml", "profile::users.alice.shell", {}, { trusted = { certname = "web01.example.com" } })
}
output "no_facts" {
  value = provider::hiera::lookup("testdata/site/hiera.yaml", "list", tomap(null))
}
output "fallback" {
  value = try(provider::hiera::lookup("testdata/site/hiera.yaml", "no::such::key", tomap(null)), "default")
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			// lookup_options in the data make profile::users a deep merge.
			output("users", obj(map[string]knownvalue.Check{
				"alice": obj(map[string]knownvalue.Check{
					"uid": num(1001), "groups": tuple(str("dev"), str("web")), "shell": str("/bin/zsh"),
				}),
				"bob":   obj(map[string]knownvalue.Check{"uid": num(1002), "shell": str("/bin/bash")}),
				"carol": obj(map[string]knownvalue.Check{"uid": num(1003)}),
			})),
			output("uid", num(1002)),
			output("greeting", str("hello web01 from production, role web")),
			output("scope", str("hello db01 from staging, role db")),
			output("trusted", str("/bin/zsh")),
			output("no_facts", tuple(str("a"), num(1), knownvalue.Bool(true), knownvalue.Null())),
			output("fallback", str("default")),
		},
	})
}

// Facts known only after apply make the result unknown in the plan.
func TestLookupFunction_unknown(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: `
resource "terraform_data" "role" {
  input = "web"
}
output "test" {
  value = provider::hiera::lookup("testdata/site/hiera.yaml", "packages", { role = terraform_data.role.output, trusted = {} })
}`,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("test")},
		},
		ConfigStateChecks: []statecheck.StateCheck{output("test", tuple(str("nginx"), str("git")))},
	})
}

// Every failure is a function error, on the argument at fault where there is one.
func TestLookupFunction_errors(t *testing.T) {
	step := func(args, want string) resource.TestStep {
		return callErrorStep("provider::hiera::lookup("+args+")", want)
	}
	functionTest(t,
		step(`"testdata/site/hiera.yaml", "no::such::key", tomap(null)`,
			`Invalid value for "key" parameter: The key "no::such::key" was not found .* Common. Wrap the call in try\(\)`),
		step(`"testdata/site/hiera.yaml", "secret_token", tomap(null)`,
			`Invalid value for "key" parameter: The value of "secret_token" is secret.*ephemeral resource hiera_lookup.*hiera_secret data source`),
		step(`"testdata/nowhere/hiera.yaml", "string", tomap(null)`, `testdata/nowhere/hiera\.yaml`),
		step(`"testdata/site/hiera.yaml", "string", "web01"`, `Invalid value for "facts" parameter: facts must be an object`),
		step(`"testdata/site/hiera.yaml", "", tomap(null)`, `Invalid value for "key" parameter: the key must not be empty`),
		step(`"testdata/site/hiera.yaml", tostring(null), tomap(null)`, `Invalid value for "key" parameter: argument must not be null`),
		step(`"testdata/bad_yaml/hiera.yaml", "ok", tomap(null)`, `broken\.yaml.*line:? 3`),
		step(`"testdata/site/hiera.yaml", "string", tomap(null), {}, {}`, `Invalid value for "scope" parameter: value_type must be a string`),
		step(`"testdata/site/hiera.yaml", "string", tomap(null), {}, "String", 1`, `Invalid value for "scope" parameter: give at most a scope object and a value_type`),
		step(`"testdata/site/hiera.yaml", "string", tomap(null), []`, `Invalid value for "scope" parameter: scope must be an object`),
	)
}

// Without a config, hiera.yaml in the working directory is used, named in full in the error.
func TestLookupFunction_defaultConfig(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config:      `output "test" { value = provider::hiera::lookup(tostring(null), "string", tomap(null)) }`,
		ExpectError: errorRE(`internal/provider/hiera\.yaml`),
	})
}

// The config argument may be an object naming a Puppet environment and a modulepath, as the
// provider's arguments of those names (testdata/control_repo; see layers_test.go).
func TestLookupFunction_layers(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: `
locals {
  production = { environment = "testdata/control_repo/environments/production" }
  facts      = { role = "web", os = { family = "Debian" } }
}
output "servers" {
  value = provider::hiera::lookup(local.production, "ntp::servers", local.facts)
}
output "settings" {
  value = provider::hiera::lookup(local.production, "ntp::settings", local.facts)
}
output "with_global" {
  value = provider::hiera::lookup(merge(local.production, { config = "testdata/control_repo/global/hiera.yaml" }), "ntp::settings.logfile", local.facts)
}
output "modulepath" {
  value = provider::hiera::lookup({ modulepath = ["testdata/control_repo/environments/production/modules"] }, "ntp::service_name", { os = { family = "RedHat" } })
}
output "path" {
  value = provider::hiera::lookup({ config = "testdata/site/hiera.yaml" }, "string", tomap(null))
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			output("servers", tuple(str("ntp1.example.com"), str("ntp2.example.com"))),
			output("settings", obj(map[string]knownvalue.Check{
				"driftfile": str("/var/lib/ntp/drift"), "minpoll": num(6), "maxpoll": num(12), "tinker": knownvalue.Bool(true),
			})),
			output("with_global", str("/var/log/ntp.log")),
			output("modulepath", str("ntpd")),
			output("path", str("hello")),
		},
	})
}

func TestLookupFunction_layersErrors(t *testing.T) {
	step := func(config, want string) resource.TestStep {
		return callErrorStep("provider::hiera::lookup("+config+`, "ntp::servers", tomap(null))`, want)
	}
	functionTest(t,
		step(`{ environment = "testdata/control_repo/environments/nowhere" }`,
			`Invalid value for "config" parameter: The environment "testdata/control_repo/environments/nowhere" is not a Puppet environment directory`),
		step(`{ environment = "" }`, `Invalid value for "config" parameter: environment must be a non-empty string`),
		step(`{ modulepath = ["testdata", ""] }`, `Invalid value for "config" parameter: modulepath must be a list of non-empty strings`),
		step(`{ modulepath = "testdata" }`, `Invalid value for "config" parameter: modulepath must be a list of non-empty strings`),
		step(`{ env = "testdata" }`, `Invalid value for "config" parameter: config must be a path to a hiera.yaml, or an object .* "env" is none of them`),
		step(`["testdata/site/hiera.yaml"]`, `Invalid value for "config" parameter: config must be a path to a hiera.yaml, or an object`),
	)
}
