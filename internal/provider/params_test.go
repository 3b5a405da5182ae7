package provider

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// check_params through the real terraform CLI, on the command's fixture (../cli/testdata/puppetcode:
// planted mistakes, Puppet 7.23's messages): the same findings as hieraform check for each node,
// null without check_params, and a postcondition that stops a plan on them.
func TestCheckParams(t *testing.T) {
	env, err := filepath.Abs(filepath.Join("..", "cli", "testdata", "puppetcode", "environments", "production"))
	if err != nil {
		t.Fatal(err)
	}
	provider := `
provider "hiera" {
  environment = "` + env + `"
}
`
	web01 := `{ clientcert = "web01", role = "web", ntp_port = "123" }`
	db01 := `{ clientcert = "db01", role = "db" }`
	ntpInit := filepath.Join(env, "modules", "ntp", "manifests", "init.pp")
	at := func(level, rel, line string) string {
		return regexp.QuoteMeta(`(hierarchy level "` + level + `", file: ` + filepath.Join(env, "data", rel) + `, line: ` + line + `)`)
	}
	unitTestFrom(t, postconditionCLI, resource.TestStep{
		Config: provider + `
data "hiera_node" "web01" {
  facts        = ` + web01 + `
  check_params = true
}
data "hiera_node" "unchecked" {
  facts = ` + web01 + `
}
data "hiera_nodes" "fleet" {
  nodes        = { web01 = ` + web01 + `, db01 = ` + db01 + ` }
  check_params = true
}
data "hiera_nodes" "unchecked" {
  nodes = { web01 = ` + web01 + ` }
}
`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_node.web01", "param_problems", knownvalue.MapExact(map[string]knownvalue.Check{
				"ntp::servers": knownvalue.StringRegexp(regexp.MustCompile(`^` + regexp.QuoteMeta(`Class[Ntp]: parameter 'servers' expects size to be between 1 and 2, got 3 `) +
					at("roles", "roles/web.yaml", "2") + regexp.QuoteMeta(`. The parameter is declared at `+ntpInit+`:3; the value merges 2 files`) + `$`)),
				"ntp::port": knownvalue.StringRegexp(regexp.MustCompile(`^` + regexp.QuoteMeta(`Class[Ntp]: parameter 'port' expects a Stdlib::Port = Integer[0, 65535] value, got String `) +
					at("roles", "roles/web.yaml", "4"))),
				"ntp::service_ensure": knownvalue.StringRegexp(regexp.MustCompile(regexp.QuoteMeta(`Class[Ntp]: parameter 'service_ensure' expects a match for Enum['running', 'stopped'], got 'runing'`))),
				"ntp::sever": knownvalue.StringRegexp(regexp.MustCompile(regexp.QuoteMeta(`key ntp::sever names no parameter of a class of module ntp and no key its manifests look up `) +
					at("common", "common.yaml", "10") + regexp.QuoteMeta(`. Did you mean ntp::servers?`))),
				"profile::web::api_token": knownvalue.StringRegexp(regexp.MustCompile(regexp.QuoteMeta(`Class[Profile::Web]: parameter 'api_token' expects a Sensitive[String] value, got String`))),
				"profile::odd::looping":   knownvalue.StringRegexp(regexp.MustCompile(regexp.QuoteMeta(`Class[Profile::Odd]: parameter 'looping': Type alias 'Profile::Loop' cannot be resolved to a real type`))),
				"profile::odd::unknown":   knownvalue.StringRegexp(regexp.MustCompile(regexp.QuoteMeta(`Class[Profile::Odd]: parameter 'unknown': Resource type not found: Profile::Nope`))),
			})),
			expect("data.hiera_node.unchecked", "param_problems", knownvalue.Null()),
			expect("data.hiera_nodes.fleet", "param_problems", knownvalue.MapPartial(map[string]knownvalue.Check{
				"db01": knownvalue.MapPartial(map[string]knownvalue.Check{
					"ntp::keys_controlkey": knownvalue.StringRegexp(regexp.MustCompile(regexp.QuoteMeta(`Class[Ntp]: parameter 'keys_controlkey' expects a Ntp::Key_id = Integer[1, 65534] value, got Integer[70000, 70000]`) +
						` ` + at("roles", "roles/db.yaml", "2"))),
					"profile::base::verbose": knownvalue.StringRegexp(regexp.MustCompile(regexp.QuoteMeta(`Class[Profile::Base]: parameter 'verbose' expects a Boolean value, got Undef`))),
				}),
				"web01": knownvalue.MapSizeExact(7),
			})),
			expect("data.hiera_nodes.fleet", "param_problems", knownvalue.MapSizeExact(2)),
			expect("data.hiera_nodes.unchecked", "param_problems", knownvalue.Null()),
		},
	}, resource.TestStep{
		// a plan stops on bad data
		Config: provider + `
data "hiera_node" "web01" {
  facts        = ` + web01 + `
  check_params = true
  lifecycle {
    postcondition {
      condition     = length(self.param_problems) == 0
      error_message = join("\n", values(self.param_problems))
    }
  }
}
`,
		ExpectError: regexp.MustCompile(`parameter 'servers' expects size to be between 1 and 2, got 3`),
	})
}
