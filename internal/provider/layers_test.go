package provider

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// Puppet's layers (issue 10) through the real terraform CLI, on testdata/control_repo: a control
// repository whose production environment has a hiera.yaml, an environment.conf with
// `modulepath = site:modules`, a site module (profile) and a module that ships data (ntp), as
// `puppet lookup --environment production` answers for a web node on Debian (the values, their
// order and the two errors were checked with Puppet 7.23 through shared/oracle/expect.py).

// productionProvider points the provider at the production environment, without a global layer.
const productionProvider = `
provider "hiera" {
  environment = "testdata/control_repo/environments/production"
  facts       = { role = "web", os = { family = "Debian" } }
}
`

func TestLayers_controlRepository(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: productionProvider + `
data "hiera_lookup" "servers" {
  key = "ntp::servers"
}
data "hiera_lookup" "service_ensure" {
  key = "ntp::service_ensure"
}
data "hiera_lookup" "service_name" {
  key = "ntp::service_name"
}
data "hiera_lookup" "settings" {
  key     = "ntp::settings"
  explain = true
}
data "hiera_lookup" "restrict" {
  key = "ntp::restrict"
}
data "hiera_array" "all_servers" {
  key = "ntp::servers"
}
data "hiera_lookup" "packages" {
  key = "profile::base::packages"
}
data "hiera_lookup" "environment" {
  key = "profile::base::environment"
}
data "hiera_lookup" "environment_from_scope" {
  key   = "profile::base::environment"
  scope = { environment = "blue" }
}
`,
		ConfigStateChecks: []statecheck.StateCheck{
			// The environment's data wins over the module's default...
			expect("data.hiera_lookup.servers", "value", tuple(str("ntp1.example.com"), str("ntp2.example.com"))),
			// ...which answers where the environment has nothing, with the module's own hierarchy and facts.
			expect("data.hiera_lookup.service_ensure", "value", str("running")),
			expect("data.hiera_lookup.service_name", "value", str("ntp")),
			// The module's lookup_options (deep, unique) merge the environment's data with the module's.
			expect("data.hiera_lookup.settings", "value", obj(map[string]knownvalue.Check{
				"driftfile": str("/var/lib/ntp/drift"), "minpoll": num(6), "maxpoll": num(12), "tinker": knownvalue.Bool(true),
			})),
			expect("data.hiera_lookup.settings", "json", str(`{"driftfile":"/var/lib/ntp/drift","minpoll":6,"maxpoll":12,"tinker":true}`)),
			expect("data.hiera_lookup.restrict", "value", tuple(str("10.0.0.0/8"), str("127.0.0.1"))),
			expect("data.hiera_array.all_servers", "value", tuple(
				str("ntp1.example.com"), str("ntp2.example.com"), str("0.pool.ntp.org"), str("1.pool.ntp.org"))),
			// A site module (environment.conf's modulepath = site:modules).
			expect("data.hiera_lookup.packages", "value", tuple(str("vim"), str("curl"))),
			// %{environment} is the environment directory's name unless scope.environment says otherwise.
			expect("data.hiera_lookup.environment", "value", str("production")),
			expect("data.hiera_lookup.environment_from_scope", "value", str("blue")),
			// explain shows the layers as Puppet's explain does.
			expect("data.hiera_lookup.settings", "explanation", knownvalue.StringRegexp(regexp.MustCompile(
				`(?s)Merge strategy deep.*Environment Data Provider \(hiera configuration version 5\).*environments/production/hiera.yaml.*`+
					`Found key: "ntp::settings".*Module "ntp" Data Provider \(hiera configuration version 5\).*modules/ntp/hiera.yaml.*`+
					`modules/ntp/data/common.yaml.*Found key: "ntp::settings"`))),
		},
	})
}

// The data sources' environment and modulepath override the provider's, each on its own; config
// adds the global layer, searched first.
func TestLayers_arguments(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: productionProvider + `
data "hiera_lookup" "staging_servers" {
  key         = "ntp::servers"
  environment = "testdata/control_repo/environments/staging"
  modulepath  = ["testdata/control_repo/environments/production/modules"]
}
data "hiera_lookup" "staging_module_default" {
  key         = "ntp::service_ensure"
  environment = "testdata/control_repo/environments/staging"
  modulepath  = ["testdata/control_repo/environments/production/modules"]
}
data "hiera_lookup" "staging_no_site" {
  key           = "profile::base::packages"
  environment   = "testdata/control_repo/environments/staging"
  modulepath    = ["testdata/control_repo/environments/production/modules"]
  default_value = []
}
data "hiera_lookup" "modules_only" {
  key        = "ntp::servers"
  modulepath = ["testdata/control_repo/environments/production/modules"]
}
data "hiera_lookup" "with_global" {
  key    = "ntp::settings"
  config = "testdata/control_repo/global/hiera.yaml"
}
`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.staging_servers", "value", tuple(str("ntp.staging.example.com"))),
			expect("data.hiera_lookup.staging_module_default", "value", str("running")),
			expect("data.hiera_lookup.staging_no_site", "found", knownvalue.Bool(false)),
			// The provider's environment with the data source's modulepath: the same modules, no site.
			expect("data.hiera_lookup.modules_only", "value", tuple(str("ntp1.example.com"), str("ntp2.example.com"))),
			expect("data.hiera_lookup.with_global", "value", obj(map[string]knownvalue.Check{
				"logfile": str("/var/log/ntp.log"), "driftfile": str("/var/lib/ntp/drift"), "minpoll": num(6), "maxpoll": num(12), "tinker": knownvalue.Bool(true),
			})),
		},
	})
}

// A modulepath alone (no environment, no config): only the module layer, no error.
func TestLayers_modulepathOnly(t *testing.T) {
	unitTest(t,
		resource.TestStep{
			Config: `
provider "hiera" {
  modulepath = ["testdata/control_repo/environments/production/site", "testdata/control_repo/environments/production/modules"]
  facts      = { os = { family = "RedHat" } }
}
data "hiera_lookup" "service_name" {
  key = "ntp::service_name"
}
data "hiera_lookup" "servers" {
  key = "ntp::servers"
}
data "hiera_lookup" "plain" {
  key           = "plain"
  default_value = "none"
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				expect("data.hiera_lookup.service_name", "value", str("ntpd")),
				expect("data.hiera_lookup.servers", "value", tuple(str("0.pool.ntp.org"), str("1.pool.ntp.org"))),
				expect("data.hiera_lookup.plain", "found", knownvalue.Bool(false)),
			},
		},
	)
}

// A module's secret (convert_to: Sensitive in the site module's lookup_options) is refused by the
// plain data sources and read by hiera_secret and the ephemeral resource, with environment given
// on the lookup.
func TestLayers_secrets(t *testing.T) {
	const env = `environment = "testdata/control_repo/environments/production"`
	secretTest(t, "", ephemeralCLI,
		resource.TestStep{
			Config: `
data "hiera_lookup" "password" {
  key = "profile::db::password"
  ` + env + `
}`,
			ExpectError: errorRE(`Sensitive Hiera Value.*"profile::db::password" is secret`),
		},
		resource.TestStep{
			Config: `
data "hiera_secret" "password" {
  key = "profile::db::password"
  ` + env + `
}
ephemeral "hiera_lookup" "password" {
  key = "profile::db::password"
  ` + env + `
}
` + echo(`{ matches = ephemeral.hiera_lookup.password.value == "s3cr3t-from-profile" }`),
			ConfigStateChecks: []statecheck.StateCheck{
				expect("data.hiera_secret.password", "value", str("s3cr3t-from-profile")),
				statecheck.ExpectSensitiveValue("data.hiera_secret.password", tfjsonpath.New("value")),
				expect("echo.test", "data", obj(map[string]knownvalue.Check{"matches": knownvalue.Bool(true)})),
			},
		},
	)
}

func TestLayers_errors(t *testing.T) {
	const production = `environment = "testdata/control_repo/environments/production"`
	unitTest(t,
		// A typo in the environment must not silently find nothing.
		resource.TestStep{
			Config: `
data "hiera_lookup" "test" {
  key         = "ntp::servers"
  environment = "testdata/control_repo/environments/nowhere"
}`,
			ExpectError: errorRE(`Environment Directory Not Found.*The environment "testdata/control_repo/environments/nowhere" is not a Puppet environment directory: .*no such file or directory`),
		},
		// A typo near an environment that exists: did you mean it?
		resource.TestStep{
			Config: `
data "hiera_lookup" "test" {
  key         = "ntp::servers"
  environment = "testdata/control_repo/environments/prodution"
}`,
			ExpectError: errorRE(`no such file or directory \(did you mean "testdata/control_repo/environments/production"\?\)`),
		},
		resource.TestStep{
			Config: `
provider "hiera" {
  environment = "testdata/control_repo/environments/nowhere"
}
data "hiera_lookup" "test" {
  key = "ntp::servers"
}`,
			ExpectError: errorRE(`The provider's environment "testdata/control_repo/environments/nowhere" is not a Puppet environment directory`),
		},
		// A module's lookup_options for another module's key: Puppet's error, naming the module's hiera.yaml.
		resource.TestStep{
			Config: `
data "hiera_lookup" "test" {
  key = "broken::setting"
  ` + production + `
}`,
			ExpectError: errorRE(`Hiera Lookup Failed.*"broken::setting".*all lookup_options keys must start with module name 'broken' \(hierarchy level "common", file: \S*modules/broken/data/common.yaml, line: 3\)\.` +
				` The lookup_options key "ntp::servers" is not module "broken"'s own`),
		},
		// An error in a module's data names the key, the file, the line and the level.
		resource.TestStep{
			Config: `
data "hiera_lookup" "test" {
  key = "typo::ok"
  ` + production + `
}`,
			ExpectError: errorRE(`Hiera Lookup Failed.*"typo::ok".*hierarchy level "common", file: \S*modules/typo/data/common.yaml, line: 3`),
		},
		// Plan-time checks.
		resource.TestStep{
			Config: `
data "hiera_lookup" "test" {
  key         = "ntp::servers"
  environment = ""
}`,
			ExpectError: errorRE(`Attribute environment string length must be at least 1`),
		},
		resource.TestStep{
			Config: `
data "hiera_lookup" "test" {
  key        = "ntp::servers"
  modulepath = ["testdata", ""]
}`,
			ExpectError: errorRE(`Attribute modulepath\[1\] string length must be at least 1`),
		},
		resource.TestStep{
			Config: `
provider "hiera" {
  environment = ""
}
data "hiera_lookup" "test" {
  key = "ntp::servers"
}`,
			ExpectError: errorRE(`Attribute environment string length must be at least 1`),
		},
	)
}

// examples/control-repository answers what its guide (templates/guides/control-repository.md.tmpl)
// says it does. Its terraform block, which names the Registry source, is left out: the test
// serves the provider itself.
func TestLayers_controlRepositoryExample(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples", "control-repository"))
	if err != nil {
		t.Fatal(err)
	}
	main, err := os.ReadFile(filepath.Join(dir, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	config := regexp.MustCompile(`(?s)terraform \{.*?\n\}\n`).ReplaceAllString(string(main), "")
	config = strings.ReplaceAll(config, "${path.module}", dir)
	unitTestFrom(t, postconditionCLI, resource.TestStep{ // the example stops on param_problems with a postcondition
		Config: config,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.ntp_servers", "value", tuple(str("ntp1.example.com"), str("ntp2.example.com"))),
			expect("data.hiera_lookup.ntp_service", "value", str("ntp")),
			expect("data.hiera_lookup.ntp_config", "json", str(`{"driftfile":"/var/lib/ntp/drift","minpoll":6,"maxpoll":12}`)),
			expect("data.hiera_lookup.packages", "value", tuple(str("htop"), str("vim"), str("curl"))),
			expect("data.hiera_lookup.motd", "value", str("Managed by Puppet (production environment)")),
			expect("data.hiera_lookup.ntp_config", "explanation", knownvalue.StringRegexp(errorRE(
				`Environment Data Provider .* Module "ntp" Data Provider .* Merged result`))),
			expect("data.hiera_node.web01", "param_problems", knownvalue.MapExact(map[string]knownvalue.Check{})),
		},
	})
}

// An environment directory is looked at again only after hiera.StampCheckInterval, and then its
// change is seen: removed, it is reported; a file is not a directory.
func TestEnvironmentProblemInterval(t *testing.T) {
	c := newEngineCache()
	now := time.Unix(1_000_000, 0)
	c.now = func() time.Time { return now }
	env := filepath.Join(t.TempDir(), "production")
	if err := os.Mkdir(env, 0o755); err != nil {
		t.Fatal(err)
	}
	if p := c.environmentProblem(env); p != "" {
		t.Fatalf("existing directory: %q", p)
	}
	if err := os.Remove(env); err != nil {
		t.Fatal(err)
	}
	if p := c.environmentProblem(env); p != "" {
		t.Errorf("looked at again within the interval: %q", p)
	}
	now = now.Add(hiera.StampCheckInterval)
	if p := c.environmentProblem(env); !strings.Contains(p, "no such file or directory") {
		t.Errorf("removed directory: %q", p)
	}
	if err := os.WriteFile(env, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	now = now.Add(hiera.StampCheckInterval)
	if p := c.environmentProblem(env); p != "it is a file" {
		t.Errorf("a file: %q", p)
	}
}
