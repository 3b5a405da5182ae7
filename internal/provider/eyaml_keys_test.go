package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// serverKeysConfig writes a control repository's hiera.yaml over testdata/eyaml's data whose eyaml
// level names the keys at the Puppet server's paths, and returns its path. The server's
// /etc/puppetlabs is placed in a directory of the test's own, where no key exists: a machine that
// holds keys at /etc/puppetlabs (a Puppet server, a user's workstation) runs the test alike. Only
// the keys given to the provider or a data source make it decrypt.
func serverKeysConfig(t *testing.T) string {
	t.Helper()
	data, err := filepath.Abs("testdata/eyaml/data")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	keys := filepath.Join(dir, "etc/puppetlabs/puppet/eyaml")
	config := `version: 5
defaults:
  datadir: ` + data + `
  data_hash: yaml_data
hierarchy:
  - name: "Secrets"
    lookup_key: eyaml_lookup_key
    path: secrets.eyaml
    options:
      pkcs7_private_key: ` + keys + `/private_key.pkcs7.pem
      pkcs7_public_key: ` + keys + `/public_key.pkcs7.pem
  - name: "Common"
    path: common.yaml
`
	path := filepath.Join(dir, "hiera.yaml")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func sha256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func readKey(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata/eyaml/keys", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// keyLine is a line from the middle of the fixture's private key: no file Terraform writes may
// hold it.
func keyLine(t *testing.T) string {
	t.Helper()
	lines := strings.Split(readKey(t, "private_key.pkcs7.pem"), "\n")
	return lines[len(lines)/2]
}

// noKeyText fails when the private key's text is in the plan or state Terraform reports, or in a
// file Terraform wrote under dir.
type noKeyText struct{ dir, line string }

func (c noKeyText) check(what string, v any) error {
	if strings.Contains(fmt.Sprint(v), c.line) {
		return fmt.Errorf("the %s contains the private key", what)
	}
	found, err := scanDirFor(c.dir, func(b []byte) string {
		if strings.Contains(string(b), c.line) {
			return "the private key"
		}
		return ""
	})
	if err == nil && found != "" {
		err = fmt.Errorf("a file Terraform wrote holds the key: %s", found)
	}
	return err
}

func (c noKeyText) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = c.check("plan", req.Plan)
}

func (c noKeyText) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = c.check("state", req.State)
}

// An unmodified control repository whose keys sit at the Puppet server's paths decrypts with the
// keys given to the provider (paths, or the key's text from an ephemeral variable) or to the data
// source; without them, the error says how to give them.
func TestEyamlKeys_serverPaths(t *testing.T) {
	dir, serverConfig := t.TempDir(), serverKeysConfig(t)
	clean := noKeyText{dir: dir, line: keyLine(t)}
	secret := func(addr string) statecheck.StateCheck { return expect(addr, "value", str("pw-Kx9-db-TOPSECRET")) }
	secretTest(t, dir, ephemeralCLI,
		resource.TestStep{
			Config: `provider "hiera" { config = "` + serverConfig + `" }
data "hiera_secret" "db" { key = "db_password" }`,
			ExpectError: errorRE(`Hiera Lookup Failed.*cannot read the eyaml private key ` +
				regexp.QuoteMeta(filepath.Join(filepath.Dir(serverConfig), "etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem")) +
				`.*hierarchy level "Secrets".*give them in the provider's eyaml block: private_key_path and public_key_path, or the key itself` +
				`.*private_key_pem`),
		},
		resource.TestStep{
			Config: `provider "hiera" {
  config = "` + serverConfig + `"
  eyaml {
    private_key_path = "testdata/eyaml/keys/private_key.pkcs7.pem"
    public_key_path  = "testdata/eyaml/keys/public_key.pkcs7.pem"
  }
}
data "hiera_secret" "db" { key = "db_password" }
data "hiera_lookup" "plain" { key = "plain_in_eyaml" }`,
			ConfigStateChecks: []statecheck.StateCheck{secret("data.hiera_secret.db"), expect("data.hiera_lookup.plain", "value", str("not a secret"))},
		},
		// A data source's own paths win over the provider's (here wrong) ones.
		resource.TestStep{
			Config: `provider "hiera" {
  config = "` + serverConfig + `"
  eyaml { private_key_path = "testdata/eyaml/keys/nope.pem" }
}
data "hiera_secret" "db" {
  key = "db_password"
  eyaml { private_key_path = "testdata/eyaml/keys/private_key.pkcs7.pem" }
}`,
			ConfigStateChecks: []statecheck.StateCheck{secret("data.hiera_secret.db")},
		},
		// The key's text from an ephemeral, sensitive variable: decrypts, and no plan, state or file
		// holds it.
		resource.TestStep{
			Config: `variable "eyaml_private_key" {
  type      = string
  sensitive = true
  ephemeral = true
}
provider "hiera" {
  config = "` + serverConfig + `"
  eyaml { private_key_pem = var.eyaml_private_key }
}
ephemeral "hiera_lookup" "db" { key = "db_password" }
data "hiera_secret" "app" { key = "api_token" }
provider "echo" {
  data = { db = sha256(ephemeral.hiera_lookup.db.value) }
}
resource "echo" "test" {}`,
			ConfigVariables: config.Variables{"eyaml_private_key": config.StringVariable(readKey(t, "private_key.pkcs7.pem"))},
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{clean}, PostApplyPostRefresh: []plancheck.PlanCheck{clean},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				expect("echo.test", "data", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"db": str(sha256Hex("pw-Kx9-db-TOPSECRET")),
				})),
				expect("data.hiera_secret.app", "value", str("tok-7Qz-api-TOPSECRET")),
				clean,
			},
		},
	)
}

// Key text that is not a key is an error on the attribute that never quotes it; a key given twice
// is refused at plan time.
func TestEyamlKeys_badKeyText(t *testing.T) {
	serverConfig := serverKeysConfig(t)
	unitTest(t,
		resource.TestStep{
			Config: `variable "k" {
  type      = string
  sensitive = true
}
provider "hiera" {
  config = "` + serverConfig + `"
  eyaml { private_key_pem = var.k }
}
data "hiera_lookup" "plain" { key = "plain_in_eyaml" }`,
			ConfigVariables: config.Variables{"k": config.StringVariable("SECRET-not-a-key")},
			ExpectError:     errorRE(`Invalid eyaml Key.*private_key_pem or HIERA_EYAML_PRIVATE_KEY.*no PEM private key found`),
		},
		resource.TestStep{
			Config: `provider "hiera" {
  config = "` + serverConfig + `"
  eyaml {
    private_key_path = "testdata/eyaml/keys/private_key.pkcs7.pem"
    private_key_pem  = "x"
  }
}
data "hiera_lookup" "plain" { key = "plain_in_eyaml" }`,
			ExpectError: errorRE(`Invalid Attribute Combination`),
		},
	)
}

// The environment variables stand for the block's attributes that are not set; the block wins.
func TestEyamlKeys_environmentVariables(t *testing.T) {
	// The provider's Configure: the environment variables first, then the keys.
	configured := func(m *providerEyamlModel) (hiera.EyamlKeys, bool, diag.Diagnostics) {
		pm := hieraProviderModel{Eyaml: m}
		withEnvDefaults(context.Background(), &pm, os.Getenv)
		return providerEyamlKeys(pm.Eyaml)
	}
	t.Setenv(hiera.EyamlKeyEnv.PrivateKeyPEM, readKey(t, "private_key.pkcs7.pem"))
	t.Setenv(hiera.EyamlKeyEnv.PublicKeyPath, "testdata/eyaml/keys/public_key.pkcs7.pem")
	keys, unknown, diags := configured(nil)
	if diags.HasError() || unknown || keys.Key == nil || !filepath.IsAbs(keys.PublicKeyPath) {
		t.Fatalf("from the environment: %+v unknown=%v %v", keys, unknown, diags)
	}
	keys, _, diags = configured(&providerEyamlModel{PrivateKeyPEM: types.StringNull(), PublicKeyPEM: types.StringNull(),
		PrivateKeyPath: types.StringValue("k.pem"), PublicKeyPath: types.StringNull()})
	if !diags.HasError() || !strings.Contains(fmt.Sprint(diags), "both as text and as a path") {
		t.Errorf("a path beside the environment's text: %v", diags)
	}
	t.Setenv(hiera.EyamlKeyEnv.PrivateKeyPEM, "SECRET-garbage")
	_, _, diags = configured(nil)
	withPath, ok := diags[0].(diag.DiagnosticWithPath)
	if !diags.HasError() || strings.Contains(fmt.Sprint(diags), "SECRET") || !ok || withPath.Path().String() != "eyaml.private_key_pem" {
		t.Errorf("bad text from the environment: %v", diags)
	}
	t.Setenv(hiera.EyamlKeyEnv.PrivateKeyPEM, "")
	_, _, diags = configured(&providerEyamlModel{PrivateKeyPEM: types.StringNull(), PublicKeyPEM: types.StringValue(readKey(t, "public_key.pkcs7.pem")),
		PrivateKeyPath: types.StringNull(), PublicKeyPath: types.StringNull()})
	if !diags.HasError() || diags[0].Summary() != "eyaml Public Key Without Private Key" {
		t.Errorf("a public key's text alone: %v", diags)
	}
	_, unknown, _ = configured(&providerEyamlModel{PrivateKeyPEM: types.StringUnknown(), PublicKeyPEM: types.StringNull(),
		PrivateKeyPath: types.StringNull(), PublicKeyPath: types.StringNull()})
	if !unknown {
		t.Error("unknown key text: not unknown")
	}
}
