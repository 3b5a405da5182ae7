package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// hiera_node through the real terraform CLI: every attribute and every error a user can meet.

// source is one element of a sources list: a file of testdata/ as the provider names it (absolute).
func source(t *testing.T, layer, module, level, file string) knownvalue.Check {
	t.Helper()
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	return obj(map[string]knownvalue.Check{"layer": str(layer), "module": str(module), "level": str(level), "file": str(abs)})
}

func strs(list ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(list))
	for i, s := range list {
		checks[i] = str(s)
	}
	return knownvalue.ListExact(checks)
}

// The whole node: every key its hierarchy reaches, found keys in the order found, secrets left out
// of values and json, and where each value comes from.
func TestNodeDataSource_wholeNode(t *testing.T) {
	common := source(t, "global", "", "Common", "testdata/site/data/common.yaml")
	unitTest(t, resource.TestStep{
		Config: siteProvider + `data "hiera_node" "web01" {}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_node.web01", "found_keys", strs("profile::users", "tags", "packages", "string", "bool_true", "nothing",
				"int", "float", "big", "list", "nested", "odd_keys", "greeting", "single", "secret_token", "fact_types")),
			expect("data.hiera_node.web01", "secret_keys", strs("secret_token")),
			expect("data.hiera_node.web01", "missing_keys", strs()),
			// keys in the order found, each value in Hiera's order; secret_token left out
			expect("data.hiera_node.web01", "json", str(`{"profile::users":{"alice":{"uid":1001,"groups":["dev","web"],"shell":"/bin/zsh"},`+
				`"bob":{"uid":1002,"shell":"/bin/bash"},"carol":{"uid":1003}},"tags":{"node":"web01"},"packages":["nginx","git"],`+
				`"string":"hello","bool_true":true,"nothing":null,"int":42,"float":1.5,"big":12345678901234567890,"list":["a",1,true,null],`+
				`"nested":{"zulu":2,"alpha":{"list":["x","y"],"obj":{"k":"v"}}},"odd_keys":{"1":"one","2.5":"two and a half","12345678901234567890":"big"},`+
				`"greeting":"hello web01 from production, role web","single":"one","fact_types":"3 true Debian"}`)),
			expect("data.hiera_node.web01", "values", knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"string": str("hello"), "nothing": knownvalue.Null(), "int": num(42), "list": tuple(str("a"), num(1), knownvalue.Bool(true), knownvalue.Null()),
				"tags": obj(map[string]knownvalue.Check{"node": str("web01")}),
			})),
			expect("data.hiera_node.web01", "sources", knownvalue.MapPartial(map[string]knownvalue.Check{
				"string": knownvalue.ListExact([]knownvalue.Check{common}),
				// deep-merged by lookup_options: every level that has it, most specific first
				"profile::users": knownvalue.ListExact([]knownvalue.Check{
					source(t, "global", "", "Per node", "testdata/site/data/nodes/web01.example.com.yaml"),
					source(t, "global", "", "Per role", "testdata/site/data/roles/web.yaml"),
					common,
				}),
				"packages": knownvalue.ListExact([]knownvalue.Check{source(t, "global", "", "Per role", "testdata/site/data/roles/web.yaml")}),
			})),
			expect("data.hiera_node.web01", "sources", knownvalue.MapSizeExact(15)), // not the secret
		},
	})
}

// keys and prefixes select; keys no level has are missing_keys; a dotted key digs as hiera_lookup does.
func TestNodeDataSource_keysAndPrefixes(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
data "hiera_node" "keys" {
  keys = ["nested.alpha.list.1", "string", "no::such::key", "secret_token", "profile::users.alice.uid"]
}
data "hiera_node" "prefixes" {
  prefixes = ["profile::", "ni", "nothing"]
}
data "hiera_node" "both" {
  keys     = ["string", "nothing", "no::such::key"]
  prefixes = ["no"]
}
data "hiera_node" "none" {
  keys = []
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_node.keys", "found_keys", strs("nested.alpha.list.1", "string", "secret_token", "profile::users.alice.uid")),
			expect("data.hiera_node.keys", "missing_keys", strs("no::such::key")),
			expect("data.hiera_node.keys", "secret_keys", strs("secret_token")),
			expect("data.hiera_node.keys", "json", str(`{"nested.alpha.list.1":"y","string":"hello","profile::users.alice.uid":1001}`)),
			expect("data.hiera_node.keys", "values", obj(map[string]knownvalue.Check{
				"nested.alpha.list.1": str("y"), "string": str("hello"), "profile::users.alice.uid": num(1001),
			})),
			expect("data.hiera_node.prefixes", "found_keys", strs("profile::users", "nothing")),
			expect("data.hiera_node.prefixes", "missing_keys", strs()),
			expect("data.hiera_node.both", "found_keys", strs("nothing")),
			expect("data.hiera_node.both", "missing_keys", strs("no::such::key")),
			expect("data.hiera_node.none", "found_keys", strs()),
			expect("data.hiera_node.none", "json", str("{}")),
			expect("data.hiera_node.none", "values", obj(map[string]knownvalue.Check{})),
			expect("data.hiera_node.none", "sources", knownvalue.MapExact(map[string]knownvalue.Check{})),
		},
	})
}

// One data source per node, each with its own facts and scope over the provider's. (count, not
// for_each: plugin-testing's state checks cannot read for_each instances.)
func TestNodeDataSource_perNode(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: siteProvider + `
locals {
  nodes = [
    { name = "web01", role = "web", os = "Debian" },
    { name = "db01", role = "db", os = "RedHat" },
  ]
}
data "hiera_node" "fleet" {
  count = length(local.nodes)
  facts = { hostname = local.nodes[count.index].name, role = local.nodes[count.index].role, os = { family = local.nodes[count.index].os } }
  scope = { trusted = { certname = "${local.nodes[count.index].name}.example.com" } }
  keys  = ["tags", "packages", "greeting"]
}
output "packages" {
  value = { for i, n in data.hiera_node.fleet : local.nodes[i].name => n.values.packages }
}
output "json" {
  value = { for i, n in data.hiera_node.fleet : local.nodes[i].name => n.json }
}
output "missing" {
  value = { for i, n in data.hiera_node.fleet : local.nodes[i].name => n.missing_keys }
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("json", obj(map[string]knownvalue.Check{
				"web01": str(`{"tags":{"node":"web01"},"packages":["nginx","git"],"greeting":"hello web01 from production, role web"}`),
				"db01":  str(`{"packages":["vim","git"],"greeting":"hello db01 from production, role db"}`),
			})),
			statecheck.ExpectKnownOutputValue("missing", obj(map[string]knownvalue.Check{"web01": strs(), "db01": strs("tags")})),
			statecheck.ExpectKnownOutputValue("packages", obj(map[string]knownvalue.Check{
				"web01": tuple(str("nginx"), str("git")),
				"db01":  tuple(str("vim"), str("git")),
			})),
		},
	})
}

// The layers: a module's keys come from the module layer, and sources say so.
func TestNodeDataSource_layers(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `
provider "hiera" {
  facts = { role = "web", os = { family = "RedHat" } }
}
data "hiera_node" "staging" {
  environment = "` + staging + `"
}
data "hiera_node" "production" {
  environment = "` + production + `"
  keys        = ["ntp::servers", "ntp::service_ensure", "profile::base::packages"]
}
data "hiera_node" "modules" {
  modulepath = ["` + production + `/site"]
  prefixes   = ["profile::"]
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_node.staging", "json", str(`{"ntp::servers":["ntp.staging.example.com"]}`)),
			expect("data.hiera_node.production", "found_keys", strs("ntp::servers", "ntp::service_ensure", "profile::base::packages")),
			expect("data.hiera_node.production", "sources", knownvalue.MapExact(map[string]knownvalue.Check{
				"ntp::servers": knownvalue.ListExact([]knownvalue.Check{source(t, "environment", "", "Common data", production+"/data/common.yaml")}),
				"ntp::service_ensure": knownvalue.ListExact([]knownvalue.Check{
					source(t, "module", "ntp", "common", productionModules+"/ntp/data/common.yaml")}),
				"profile::base::packages": knownvalue.ListExact([]knownvalue.Check{
					source(t, "module", "profile", "common", production+"/site/profile/data/common.yaml")}),
			})),
			expect("data.hiera_node.modules", "found_keys", strs("profile::base::packages", "profile::db::password")),
			expect("data.hiera_node.modules", "secret_keys", strs("profile::db::password")),
		},
	})
}

// A key that fails fails the read: one error naming each failing key with its own message.
func TestNodeDataSource_failingKeys(t *testing.T) {
	many := t.TempDir()
	var data strings.Builder
	for i := range 25 {
		fmt.Fprintf(&data, "k%02d: \"%%{lookup('k%02d')}\"\n", i, i) // each looks itself up
	}
	data.WriteString("fine: 1\n\"tp::info_package_command'\": x\ninf: .inf\n") // a key no lookup can name (example42/tp 3.10.2), a number Terraform cannot hold
	for name, text := range map[string]string{"hiera.yaml": "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n", "data/common.yaml": data.String()} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(many, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(many, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	unitTest(t,
		resource.TestStep{
			Config: `
data "hiera_node" "test" {
  environment = "` + production + `"
  keys        = ["ntp::servers", "broken::setting", "typo::ok"]
}`,
			ExpectError: errorRE(`Hiera Lookup Failed.*2 of the node's keys failed to look up:` +
				`.*Looking up "broken::setting" with .* failed: all lookup_options keys must start with module name 'broken'` +
				`.*Looking up "typo::ok" with .* failed: Unable to parse .*typo/data/common.yaml.* line: 3`),
		},
		// The whole node: each failing key in failed_keys with hiera_lookup's message, the rest read.
		resource.TestStep{
			Config: `data "hiera_node" "test" { config = "` + filepath.Join(many, "hiera.yaml") + `" }`,
			ConfigStateChecks: []statecheck.StateCheck{
				expect("data.hiera_node.test", "found_keys", strs("fine")),
				expect("data.hiera_node.test", "json", str(`{"fine":1}`)),
				expect("data.hiera_node.test", "failed_keys", knownvalue.MapSizeExact(27)),
				expect("data.hiera_node.test", "failed_keys", knownvalue.MapPartial(map[string]knownvalue.Check{
					"k00":                       knownvalue.StringRegexp(regexp.MustCompile(`^Looking up "k00" with .*hiera\.yaml failed: Recursive lookup detected in \[k00\] \(hierarchy level "common", file: .*common\.yaml, line: 1\)$`)),
					"tp::info_package_command'": knownvalue.StringRegexp(regexp.MustCompile(`Syntax error in key: 'tp::info_package_command''`)),
					"inf":                       knownvalue.StringRegexp(regexp.MustCompile(`The value of "inf" cannot be returned: .*`)),
				})),
			},
		},
		// A key of keys that fails still fails the read.
		resource.TestStep{
			Config: `data "hiera_node" "test" {
  config = "` + filepath.Join(many, "hiera.yaml") + `"
  keys   = ["fine", "k03"]
}`,
			ExpectError: errorRE(`1 of the node's keys failed to look up:.*Looking up "k03" .*Recursive lookup detected in \[k03\]`),
		},
	)
}

// The one warning of a whole-node read with failing keys names them, at most maxListedFailures.
func TestFailedKeysWarning(t *testing.T) {
	var failed []failedKey
	for i := range maxListedFailures + 5 {
		failed = append(failed, failedKey{fmt.Sprintf("k%02d", i), "message"})
	}
	got := failedKeysWarning(failed)
	if !strings.HasPrefix(got, "25 of the node's keys failed to look up") || !strings.Contains(got, `- "k19"`) ||
		strings.Contains(got, `"k20"`) || !strings.Contains(got, "... and 5 more.") || strings.Contains(got, "message") {
		t.Errorf("warning %q: want the count, 20 keys named, the rest counted, no messages (failed_keys has them)", got)
	}
}

// The whole node cannot be listed when data it reaches cannot be read, even if no key of it would be asked.
func TestNodeDataSource_unreadableNode(t *testing.T) {
	unitTest(t,
		resource.TestStep{
			Config:      `data "hiera_node" "test" { environment = "` + production + `" }`,
			ExpectError: errorRE(`Hiera Node Read Failed.*Reading the node's keys with environment .*production failed: .*module name 'broken'`),
		},
		resource.TestStep{
			Config:      `data "hiera_node" "test" { config = "testdata/bad_yaml/hiera.yaml" }`,
			ExpectError: errorRE(`Hiera Node Read Failed.*Unable to parse .*line: \d+`),
		},
		// a config naming no file: Puppet's default configuration (data/common.yaml beside it)
		resource.TestStep{
			Config: `data "hiera_node" "test" { config = "testdata/default_config/hiera.yaml" }`,
			ConfigStateChecks: []statecheck.StateCheck{
				expect("data.hiera_node.test", "found_keys", knownvalue.ListExact([]knownvalue.Check{str("string")})),
			},
		},
		resource.TestStep{
			Config:      `data "hiera_node" "test" { environment = "testdata/control_repo/environments/nowhere" }`,
			ExpectError: errorRE(`Environment Directory Not Found`),
		},
	)
}

// keys and prefixes are checked at plan time.
func TestNodeDataSource_validation(t *testing.T) {
	unitTest(t,
		resource.TestStep{
			Config:      siteProvider + `data "hiera_node" "test" { keys = ["string", "string"] }`,
			ExpectError: errorRE(`keys.*duplicate`),
			PlanOnly:    true,
		},
		resource.TestStep{
			Config:      siteProvider + `data "hiera_node" "test" { prefixes = [""] }`,
			ExpectError: errorRE(`prefixes.*string length must be at least 1`),
			PlanOnly:    true,
		},
		resource.TestStep{
			Config:      siteProvider + `data "hiera_node" "test" { keys = ["a", null] }`,
			ExpectError: errorRE(`keys.*null`),
			PlanOnly:    true,
		},
	)
}

// Secrets (eyaml, convert_to: Sensitive) are named in secret_keys and never reach values, json, the
// plan, the state, any file Terraform writes or an error message.
func TestNodeDataSource_secrets(t *testing.T) {
	dir := t.TempDir()
	clean := noPlaintext{dir: dir}
	secretTest(t, dir, anyCLI,
		resource.TestStep{
			Config: eyamlProvider + `data "hiera_node" "test" {
  keys = ["db_password", "api_token", "app", "plain_in_eyaml", "dsn_password", "pin", "greeting", "marked_token", "spaced_token"]
}`,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{clean}},
			ConfigStateChecks: []statecheck.StateCheck{
				expect("data.hiera_node.test", "secret_keys", strs("db_password", "api_token", "app", "dsn_password", "pin",
					"marked_token", "spaced_token")),
				expect("data.hiera_node.test", "found_keys", strs("db_password", "api_token", "app", "plain_in_eyaml", "dsn_password", "pin",
					"greeting", "marked_token", "spaced_token")),
				expect("data.hiera_node.test", "json", str(`{"plain_in_eyaml":"not a secret","greeting":"hello"}`)),
				expect("data.hiera_node.test", "values", obj(map[string]knownvalue.Check{"plain_in_eyaml": str("not a secret"), "greeting": str("hello")})),
				expect("data.hiera_node.test", "sources", knownvalue.MapSizeExact(2)),
				clean,
			},
		},
		// The whole node: dsn and pins fail as in Puppet, which quotes the secret; here the details are
		// withheld, and the read goes on.
		resource.TestStep{
			Config:           eyamlProvider + `data "hiera_node" "test" {}`,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{clean}},
			ConfigStateChecks: []statecheck.StateCheck{
				expect("data.hiera_node.test", "failed_keys", knownvalue.MapExact(map[string]knownvalue.Check{
					"pins": knownvalue.StringRegexp(regexp.MustCompile(`^Looking up "pins" .*details withheld: the value is secret`)),
					"dsn":  knownvalue.StringRegexp(regexp.MustCompile(`^Looking up "dsn" .*details withheld: the value is secret`)),
				})),
				expect("data.hiera_node.test", "secret_keys", knownvalue.ListPartial(map[int]knownvalue.Check{0: str("db_password")})),
				clean,
			},
		},
	)
}

// The eyaml block: a hiera.yaml naming the Puppet server's key paths fails each eyaml key with the
// key error and how to give the keys; the data source's own key paths decrypt.
func TestNodeDataSource_eyamlKeys(t *testing.T) {
	serverConfig := serverKeysConfig(t)
	unitTest(t,
		resource.TestStep{
			Config: `data "hiera_node" "test" {
  config = "` + serverConfig + `"
  keys   = ["db_password", "plain_in_eyaml"]
}`,
			ExpectError: errorRE(`Hiera Lookup Failed.*Looking up "db_password" .*cannot read the eyaml private key` +
				`.*give them in the provider's eyaml block`),
		},
		resource.TestStep{
			Config: `data "hiera_node" "test" {
  config = "` + serverConfig + `"
  keys   = ["db_password", "plain_in_eyaml"]
  eyaml {
    private_key_path = "testdata/eyaml/keys/private_key.pkcs7.pem"
  }
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				expect("data.hiera_node.test", "secret_keys", strs("db_password")),
				expect("data.hiera_node.test", "json", str(`{"plain_in_eyaml":"not a secret"}`)),
			},
		},
		// A CI runner without the private key: the whole node is read, each eyaml key in failed_keys
		// saying why and how to give the keys.
		resource.TestStep{
			Config: `data "hiera_node" "test" { config = "` + serverConfig + `" }`,
			ConfigStateChecks: []statecheck.StateCheck{
				expect("data.hiera_node.test", "failed_keys", knownvalue.MapPartial(map[string]knownvalue.Check{
					"db_password": knownvalue.StringRegexp(regexp.MustCompile(`cannot read the eyaml private key(.|\n)*give them in the provider's eyaml block`)),
				})),
				expect("data.hiera_node.test", "values", knownvalue.ObjectPartial(map[string]knownvalue.Check{"plain_in_eyaml": str("not a secret")})),
			},
		},
	)
}
