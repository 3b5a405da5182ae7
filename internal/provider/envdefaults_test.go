package provider

import (
	"context"
	"os"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// TestMain runs the tests without the provider's environment variables, which the in-process
// provider reads: a user who exports HIERA_CONFIG or an eyaml key (as the documentation suggests)
// runs the tests as CI does. Tests that need one set it with t.Setenv.
func TestMain(m *testing.M) {
	for _, e := range providerEnv {
		_ = os.Unsetenv(e.name)
	}
	os.Exit(m.Run())
}

// serialTest is unitTest for tests that set environment variables, which the in-process provider
// reads: they cannot run in parallel with others.
func serialTest(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}

// HIERA_CONFIG, HIERA_ENVIRONMENT and HIERA_MODULEPATH give the provider's arguments when its
// configuration leaves them out; the configuration's own values win.
func TestProvider_environmentVariables(t *testing.T) {
	t.Setenv("HIERA_CONFIG", "testdata/site/hiera.yaml")
	t.Setenv("HIERA_ENVIRONMENT", "testdata/control_repo/environments/production")
	// the first directory has no ntp module: the second is searched too
	t.Setenv("HIERA_MODULEPATH", "testdata/site::testdata/control_repo/environments/production/modules")
	serialTest(t, resource.TestStep{
		Config: `
provider "hiera" {
  facts = { role = "web", os = { family = "Debian" } }
}
# the global layer (HIERA_CONFIG), searched first
data "hiera_lookup" "global" {
  key = "string"
}
# the environment layer (HIERA_ENVIRONMENT)
data "hiera_lookup" "environment" {
  key = "ntp::servers"
}
# a module found through HIERA_MODULEPATH (the environment's own modulepath would find it too:
# ntp::service_name comes only from the module)
data "hiera_lookup" "module" {
  key = "ntp::service_name"
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.global", "value", str("hello")),
			expect("data.hiera_lookup.environment", "value", tuple(str("ntp1.example.com"), str("ntp2.example.com"))),
			expect("data.hiera_lookup.module", "value", str("ntp")),
		},
	}, resource.TestStep{
		// the configuration's own value wins over HIERA_CONFIG
		Config: `
provider "hiera" {
  config = "testdata/nowhere/hiera.yaml"
}
data "hiera_lookup" "global" {
  key = "string"
}`,
		ExpectError: regexp.MustCompile(`testdata/nowhere/hiera\.yaml`),
	})
}

// HIERA_MODULEPATH is split as Puppet's modulepath setting; empty entries and an empty variable
// count as nothing, and set arguments are left alone; HIERA_EYAML_* fill the eyaml block.
func TestWithEnvDefaults(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		env  map[string]string
		in   hieraProviderModel
		want hieraProviderModel
	}{
		"unset": {
			env:  map[string]string{"HIERA_CONFIG": "", "HIERA_MODULEPATH": ":"},
			in:   nullProviderModel(),
			want: nullProviderModel(),
		},
		"all": {
			env: map[string]string{"HIERA_CONFIG": "h.yaml", "HIERA_ENVIRONMENT": "env", "HIERA_MODULEPATH": "a::b:", "HIERA_EXPLAIN_PATHS": "relative"},
			in:  nullProviderModel(),
			want: func() hieraProviderModel {
				m := nullProviderModel()
				m.Config, m.Environment, m.ExplainPaths = types.StringValue("h.yaml"), types.StringValue("env"), types.StringValue("relative")
				m.Modulepath = types.ListValueMust(types.StringType, []attr.Value{types.StringValue("a"), types.StringValue("b")})
				return m
			}(),
		},
		"eyaml": { // the block is added for the variables; its own attributes win
			env: map[string]string{"HIERA_EYAML_PRIVATE_KEY_PATH": "k.pem", "HIERA_EYAML_PUBLIC_KEY": "cert"},
			in:  nullProviderModel(),
			want: func() hieraProviderModel {
				m := nullProviderModel()
				m.Eyaml = &providerEyamlModel{PrivateKeyPath: types.StringValue("k.pem"), PublicKeyPEM: types.StringValue("cert")}
				return m
			}(),
		},
		"eyaml block wins": {
			env: map[string]string{"HIERA_EYAML_PRIVATE_KEY_PATH": "k.pem"},
			in: func() hieraProviderModel {
				m := nullProviderModel()
				m.Eyaml = &providerEyamlModel{PrivateKeyPath: types.StringValue("mine.pem")}
				return m
			}(),
			want: func() hieraProviderModel {
				m := nullProviderModel()
				m.Eyaml = &providerEyamlModel{PrivateKeyPath: types.StringValue("mine.pem")}
				return m
			}(),
		},
		"configured wins": {
			env: map[string]string{"HIERA_CONFIG": "h.yaml", "HIERA_MODULEPATH": "a"},
			in: func() hieraProviderModel {
				m := nullProviderModel()
				m.Config, m.Modulepath = types.StringValue("mine.yaml"), types.ListValueMust(types.StringType, nil)
				return m
			}(),
			want: func() hieraProviderModel {
				m := nullProviderModel()
				m.Config, m.Modulepath = types.StringValue("mine.yaml"), types.ListValueMust(types.StringType, nil)
				return m
			}(),
		},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := tc.in
			withEnvDefaults(context.Background(), &got, func(k string) string { return tc.env[k] })
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want, +got):\n%s", diff)
			}
		})
	}
}

func nullProviderModel() hieraProviderModel {
	return hieraProviderModel{
		Config: types.StringNull(), Environment: types.StringNull(), Modulepath: types.ListNull(types.StringType), IgnoreFunctions: types.ListNull(types.StringType),
		Facts: types.DynamicNull(), Scope: types.DynamicNull(), ExplainPaths: types.StringNull(),
	}
}

// explainStep looks key up with explain = true under provider and checks its explanation against
// want, and anything more.
func explainStep(provider, key, want string, more ...statecheck.StateCheck) resource.TestStep {
	return resource.TestStep{
		Config: provider + "\ndata \"hiera_lookup\" \"test\" {\n  key     = \"" + key + "\"\n  explain = true\n}\n",
		ConfigStateChecks: append([]statecheck.StateCheck{
			expect("data.hiera_lookup.test", "explanation", knownvalue.StringRegexp(regexp.MustCompile(want))),
		}, more...),
	}
}

// explain_paths = "relative" names files relative to the provider's hiera.yaml (else its
// environment), in explanation and sources, so that the state does not depend on where the
// repository is checked out; HIERA_EXPLAIN_PATHS sets it too, and a wrong value there is an error
// naming the variable.
func TestProvider_explainPaths(t *testing.T) {
	serialTest(t,
		resource.TestStep{
			Config:      `provider "hiera" {` + "\n" + `  explain_paths = "short"` + "\n}\n" + `data "hiera_lookup" "test" { key = "string" }`,
			ExpectError: regexp.MustCompile(`explain_paths value must be one of: \["absolute" "relative"\]`),
		},
		explainStep(`provider "hiera" {
  config        = "testdata/site/hiera.yaml"
  explain_paths = "relative"
}`, "string", `(?s)Using configuration "hiera.yaml".*Path "data/common.yaml"`,
			// no quoted absolute path left
			expect("data.hiera_lookup.test", "explanation", knownvalue.StringRegexp(regexp.MustCompile(`^(?s)(?:[^"]|"[^/])*$`))),
			// and sources name the same file the same way
			expect("data.hiera_lookup.test", "sources", knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
				"layer": str("global"), "module": str(""), "level": str("Common"), "file": str("data/common.yaml"),
			})}))),
		// the default: absolute, as puppet lookup --explain prints them
		explainStep(`provider "hiera" {
  config = "testdata/site/hiera.yaml"
}`, "string", `Path "/.*/internal/provider/testdata/site/data/common.yaml"`),
		// relative to the environment when there is no hiera.yaml of the provider's own
		explainStep(`provider "hiera" {
  environment   = "testdata/control_repo/environments/production"
  facts         = { role = "web" }
  explain_paths = "relative"
}`, "ntp::servers", `(?s)Using configuration "hiera.yaml".*Path "data/common.yaml"`),
		// hiera_node's sources too (they were absolute whatever explain_paths said)
		resource.TestStep{
			Config: `provider "hiera" {
  config        = "testdata/site/hiera.yaml"
  explain_paths = "relative"
}
data "hiera_node" "test" { keys = ["string"] }
`,
			ConfigStateChecks: []statecheck.StateCheck{
				expect("data.hiera_node.test", "sources", knownvalue.MapExact(map[string]knownvalue.Check{
					"string": knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
						"layer": str("global"), "module": str(""), "level": str("Common"), "file": str("data/common.yaml"),
					})}),
				})),
			},
		},
	)
}

func TestProvider_explainPathsFromEnvironment(t *testing.T) {
	t.Setenv("HIERA_EXPLAIN_PATHS", "relative")
	serialTest(t, explainStep(`provider "hiera" {
  config = "testdata/site/hiera.yaml"
}`, "string", `Path "data/common.yaml"`))
}

func TestProvider_explainPathsFromEnvironmentInvalid(t *testing.T) {
	t.Setenv("HIERA_EXPLAIN_PATHS", "short")
	serialTest(t, resource.TestStep{
		Config:      `data "hiera_lookup" "test" { key = "string" }`,
		ExpectError: regexp.MustCompile(`HIERA_EXPLAIN_PATHS must be "absolute" or "relative", not "short"`),
	})
}
