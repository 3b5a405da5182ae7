package provider

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/hieraform/terraform-provider-hiera/internal/eyaml"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// dataSite is a control repository in a temporary directory: hiera.yaml with an eyaml level for
// nodes and a plain common level, the eyaml keys of testdata/eyaml, and a common.yaml a person
// wrote (comments, a blank line, ---, a key).
type dataSite struct {
	dir, config, common, node, publicKey, privateKey string
}

const dataCommon = "---\n# written by hand\nntp::servers:\n  - ntp1.example.com # first\n\nother: kept\n"

func newDataSite(t *testing.T) dataSite {
	t.Helper()
	dir := t.TempDir()
	s := dataSite{dir: dir, config: filepath.Join(dir, "hiera.yaml"), common: filepath.Join(dir, "data", "common.yaml"),
		node:      filepath.Join(dir, "data", "nodes", "web01.example.com.yaml"),
		publicKey: filepath.Join(dir, "keys", "public_key.pkcs7.pem"), privateKey: filepath.Join(dir, "keys", "private_key.pkcs7.pem")}
	writeFile(t, s.config, `version: 5
defaults:
  datadir: data
hierarchy:
  - name: "Nodes"
    lookup_key: eyaml_lookup_key
    path: "nodes/%{trusted.certname}.yaml"
    options:
      pkcs7_private_key: keys/private_key.pkcs7.pem
      pkcs7_public_key: keys/public_key.pkcs7.pem
  - name: "Common"
    data_hash: yaml_data
    path: common.yaml
`)
	writeFile(t, s.common, dataCommon)
	for _, k := range []string{"public_key.pkcs7.pem", "private_key.pkcs7.pem"} {
		b, err := os.ReadFile(filepath.Join("testdata", "eyaml", "keys", k))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "keys", k), string(b))
	}
	return s
}

// lookup asks a fresh engine for key on node web01.example.com, as Puppet would answer it.
func (s dataSite) lookup(key string) (any, bool, error) {
	e := hiera.NewEngine(s.config)
	vars, err := toHash(map[string]any{"trusted": map[string]any{"certname": "web01.example.com"}})
	if err != nil {
		return nil, false, err
	}
	res, err := e.Lookup(context.Background(), hiera.Request{Key: key, Scope: hiera.Scope{Vars: vars}})
	return res.Value, res.Found, err
}

// fileIs checks the file's bytes.
func fileIs(p, want string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if string(b) != want {
			return fmt.Errorf("%s holds %q, want %q", p, b, want)
		}
		return nil
	}
}

func fileGone(p string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			return fmt.Errorf("%s still exists (%v)", p, err)
		}
		return nil
	}
}

// answers checks that Hiera answers each key with the value (engine values, compared by model.Equal).
func (s dataSite) answers(want map[string]any) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for k, w := range want {
			wv, err := model.FromGo(w)
			if err != nil {
				return err
			}
			got, found, err := s.lookup(k)
			switch {
			case err != nil:
				return fmt.Errorf("lookup %s: %v", k, err)
			case !found:
				return fmt.Errorf("lookup %s: not found", k)
			case !model.Equal(got, wv):
				return fmt.Errorf("lookup %s = %s, want %s", k, model.Inspect(got), model.Inspect(wv))
			}
		}
		return nil
	}
}

func hcl(s string) string { return fmt.Sprintf("%q", s) }

// Values of every kind written into a file a person wrote: Hiera answers each exactly, every other
// byte is kept; an update rewrites what changed and removes what left; destroy restores the file.
func TestData_valuesRoundTripAndDestroyRestores(t *testing.T) {
	s := newDataSite(t)
	big1 := new(big.Int)
	big1.SetString("12345678901234567890123", 10)
	config := func(values string) string {
		return fmt.Sprintf("resource \"hiera_data\" \"common\" {\n  path = %s\n  values = %s\n}\n", hcl(s.common), values)
	}
	unitTest(t,
		resource.TestStep{
			Config: config(`{
    "profile::web::workers" = 8
    "profile::web::vhosts"  = { www = { port = 443, aliases = ["w3"] } }
    "yes_string"            = "yes"
    "hex"                   = "0x1F"
    "tilde"                 = "~"
    "date"                  = "2026-01-01"
    "empty"                 = ""
    "nothing"               = null
    "percent"               = "100%%{x}"
    "multi"                 = "line one\nline two\n"
    "big"                   = 12345678901234567890123
    "ratio"                 = 0.25
    "flag"                  = false
  }`),
			Check: resource.ComposeTestCheckFunc(
				s.answers(map[string]any{
					"profile::web::workers": 8, "yes_string": "yes", "hex": "0x1F", "tilde": "~", "date": "2026-01-01", "empty": "",
					"percent": "100%{x}", "multi": "line one\nline two\n", "big": big1, "ratio": 0.25, "flag": false,
					"profile::web::vhosts": map[string]any{"www": map[string]any{"port": 443, "aliases": []any{"w3"}}},
					"other":                "kept",
				}),
				func(*terraform.State) error {
					b, _ := os.ReadFile(s.common)
					if !strings.HasPrefix(string(b), dataCommon) {
						return fmt.Errorf("the hand-written part was not kept:\n%s", b)
					}
					v, found, err := s.lookup("nothing")
					if err != nil || !found || v != nil {
						return fmt.Errorf("nothing: %v %v %v, want found null", v, found, err)
					}
					return nil
				},
			),
		},
		resource.TestStep{ // changed, removed
			Config: config(`{ "profile::web::workers" = 9 }`),
			Check: resource.ComposeTestCheckFunc(
				s.answers(map[string]any{"profile::web::workers": 9, "other": "kept"}),
				func(*terraform.State) error {
					if _, found, _ := s.lookup("yes_string"); found {
						return fmt.Errorf("yes_string was not removed")
					}
					return nil
				},
			),
		},
		resource.TestStep{Config: config(`{ "profile::web::workers" = 9 }`), PlanOnly: true},
		resource.TestStep{Config: `# destroyed`, Check: fileIs(s.common, dataCommon)},
	)
}

// Two resources write different keys of one file in one apply; destroy removes the file each
// created only when nothing is left.
func TestData_twoResourcesOneFile(t *testing.T) {
	s := newDataSite(t)
	unitTest(t,
		resource.TestStep{
			Config: fmt.Sprintf(`
resource "hiera_data" "a" {
  path   = %[1]s
  values = { "profile::a" = "a", "profile::shared_list" = [1, 2] }
}
resource "hiera_data" "b" {
  path   = %[1]s
  values = { "profile::b" = "b" }
}
resource "hiera_data" "c" {
  path   = %[2]s
  values = { "profile::c" = "c" }
}`, hcl(s.node), hcl(s.common)),
			Check: s.answers(map[string]any{"profile::a": "a", "profile::b": "b", "profile::c": "c", "profile::shared_list": []any{1, 2}}),
		},
		resource.TestStep{Config: `# destroyed`, Check: resource.ComposeTestCheckFunc(fileGone(s.node), fileIs(s.common, dataCommon))},
	)
}

// A key the file already holds is not taken over: an error naming the file and line, saying how
// to import; two resources on one key: the second names the first's.
func TestData_conflicts(t *testing.T) {
	s := newDataSite(t)
	unitTest(t,
		resource.TestStep{
			Config: fmt.Sprintf(`
resource "hiera_data" "a" {
  path   = %s
  values = { "other" = "mine" }
}`, hcl(s.common)),
			ExpectError: errorRE(`The key "other" is already in .*common.yaml line 6, not written by this resource. .*terraform import`),
		},
		resource.TestStep{
			Config: fmt.Sprintf(`
resource "hiera_data" "a" {
  path   = %[1]s
  values = { "profile::x" = 1 }
}
resource "hiera_data" "b" {
  path   = %[1]s
  values = { "profile::x" = 2 }
}`, hcl(s.node)),
			ExpectError: errorRE(`The key "profile::x" is already in .*web01.example.com.yaml line 1, written by another hiera_data resource in this apply`),
		},
	)
	b, _ := os.ReadFile(s.common)
	if string(b) != dataCommon {
		t.Errorf("the refused apply changed the file:\n%s", b)
	}
}

// A key edited or removed by hand shows in the plan and is written again; a file removed by hand
// is created again.
func TestData_drift(t *testing.T) {
	s := newDataSite(t)
	config := fmt.Sprintf(`
resource "hiera_data" "n" {
  path   = %s
  values = { "profile::port" = 8080, "profile::name" = "web" }
}`, hcl(s.node))
	edit := func(from, to string) func() {
		return func() {
			b, err := os.ReadFile(s.node)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), from) {
				t.Fatalf("%s does not hold %q:\n%s", s.node, from, b)
			}
			writeFile(t, s.node, strings.Replace(string(b), from, to, 1))
		}
	}
	want := s.answers(map[string]any{"profile::port": 8080, "profile::name": "web"})
	unitTest(t,
		resource.TestStep{Config: config, Check: want},
		resource.TestStep{PreConfig: edit("8080", "9090"), Config: config, PlanOnly: true, ExpectNonEmptyPlan: true},
		resource.TestStep{Config: config, Check: want,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("hiera_data.n", plancheck.ResourceActionUpdate)}}},
		resource.TestStep{PreConfig: edit("profile::name: web\n", ""), Config: config, Check: want,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("hiera_data.n", plancheck.ResourceActionUpdate)}}},
		resource.TestStep{PreConfig: func() { _ = os.Remove(s.node) }, Config: config, Check: want,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("hiera_data.n", plancheck.ResourceActionCreate)}}},
		resource.TestStep{Config: config, PlanOnly: true},
	)
}

// Import takes every root key the file holds; the same keys in the configuration then plan nothing.
func TestData_import(t *testing.T) {
	s := newDataSite(t)
	config := fmt.Sprintf(`
resource "hiera_data" "common" {
  path   = %s
  values = { "ntp::servers" = ["ntp1.example.com"], "other" = "kept" }
}`, hcl(s.common))
	unitTest(t,
		resource.TestStep{Config: config, ResourceName: "hiera_data.common", ImportState: true, ImportStateId: s.common, ImportStatePersist: true},
		resource.TestStep{Config: config, PlanOnly: true},
		resource.TestStep{Config: `# destroyed: the keys it imported go, the file stays (it did not create it)`,
			Check: fileIs(s.common, "---\n# written by hand\n\n")},
	)
}

// A value Puppet does not take as data (a Ruby symbol) is refused at import in Puppet's words.
func TestData_importRubySymbol(t *testing.T) {
	s := newDataSite(t)
	sym := filepath.Join(s.dir, "data", "sym.yaml")
	writeFile(t, sym, "ok: 1\nsym: :sym\n")
	unitTest(t, resource.TestStep{
		Config:       fmt.Sprintf("resource \"hiera_data\" \"s\" {\n  path = %s\n  values = { ok = 1 }\n}\n", hcl(sym)),
		ResourceName: "hiera_data.s", ImportState: true, ImportStateId: sym,
		ExpectError: errorRE(`sym.yaml line 2: the value of "sym" has wrong type, expects Puppet::LookupValue, got Runtime\[ruby, 'Symbol'\]`),
	})
}

// Refused with the file untouched: a file that does not parse, a symbolic link, a key no lookup
// can name.
func TestData_refusals(t *testing.T) {
	s := newDataSite(t)
	bad := filepath.Join(s.dir, "data", "bad.yaml")
	writeFile(t, bad, "a: 1\nb: [unclosed\n")
	link := filepath.Join(s.dir, "data", "link.yaml")
	if err := os.Symlink(s.common, link); err != nil {
		t.Fatal(err)
	}
	step := func(body string, re string) resource.TestStep {
		return resource.TestStep{Config: "resource \"hiera_data\" \"x\" {\n" + body + "\n}", ExpectError: errorRE(re)}
	}
	unitTest(t,
		step(`path = `+hcl(bad)+`
values = { k = 1 }`, `bad.yaml.*line`),
		step(`path = `+hcl(link)+`
values = { k = 1 }`, `link.yaml is a symbolic link`),
		step(`path = `+hcl(s.node)+`
values = { "a.'b\"c" = 1 }`, `Syntax error in key: 'a\.'b"c'`),
		step(`path = `+hcl(s.node)+`
values = ["a", "b"]`, `values must be an object of root keys.*not a tuple`),
	)
	for p, want := range map[string]string{bad: "a: 1\nb: [unclosed\n", s.common: dataCommon} {
		if b, _ := os.ReadFile(p); string(b) != want {
			t.Errorf("%s changed:\n%s", p, b)
		}
	}
	if _, err := os.Stat(s.node); !os.IsNotExist(err) {
		t.Errorf("%s was written", s.node)
	}
}

// With config, a file no level of the hierarchy reads is refused at plan.
func TestData_outsideHierarchy(t *testing.T) {
	s := newDataSite(t)
	unitTest(t,
		resource.TestStep{
			Config: fmt.Sprintf(`
resource "hiera_data" "x" {
  path   = %s
  config = %s
  values = { k = 1 }
}`, hcl(filepath.Join(s.dir, "data", "roles", "web.yaml")), hcl(s.config)),
			ExpectError: errorRE(`No level of the hierarchy of .*hiera.yaml reads .*roles/web.yaml`),
		},
		resource.TestStep{
			Config: fmt.Sprintf(`
resource "hiera_data" "x" {
  path   = %s
  config = %s
  values = { k = 1 }
}`, hcl(filepath.Join(s.dir, "data", "nodes", "db01.example.com.yaml")), hcl(s.config)),
		},
	)
}

// Secrets: encrypted for the public key (decrypted by the private key, as Puppet reads them),
// never in the state; a ciphertext edited by hand shows in the plan and is written again.
func TestData_secrets(t *testing.T) {
	s := newDataSite(t)
	const secret = "pw-Zx81-hiera_data-TOPSECRET %{not_interpolated}"
	cfg := fmt.Sprintf(`
variable "pw" {
  type      = string
  sensitive = true
  ephemeral = true # kept out of the saved plan: what is checked is that the provider stores none
}
resource "hiera_data" "n" {
  path                     = %s
  values                   = { "profile::db::user" = "app" }
  secret_values_wo         = { "profile::db::password" = var.pw }
  secret_values_wo_version = 1
  eyaml_public_key         = file(%s)
}`, hcl(s.node), hcl(s.publicKey))
	vars := config.Variables{"pw": config.StringVariable(secret)}
	decrypts := func(*terraform.State) error {
		b, err := os.ReadFile(s.node)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), "TOPSECRET") {
			return fmt.Errorf("the plaintext is in the file:\n%s", b)
		}
		m := regexp.MustCompile(`ENC\[PKCS7,[^\]]+\]`).FindString(string(b))
		dec, err := eyaml.LoadDecryptor(s.privateKey)
		if err != nil {
			return err
		}
		plain, err := dec.Decrypt(m)
		if err != nil {
			return err
		}
		if want := "pw-Zx81-hiera_data-TOPSECRET %{literal('%')}{not_interpolated}"; plain != want {
			return fmt.Errorf("decrypted %q, want %q", plain, want)
		}
		if err := gemDecrypts(s, m, plain); err != nil {
			return err
		}
		return s.answers(map[string]any{"profile::db::password": secret})(nil)
	}
	dir := t.TempDir()
	clean := noPlaintext{dir}
	secretTest(t, dir, writeOnlyCLI,
		resource.TestStep{Config: cfg, ConfigVariables: vars, Check: decrypts,
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{clean}},
			ConfigStateChecks: []statecheck.StateCheck{clean}},
		resource.TestStep{Config: cfg, ConfigVariables: vars, PlanOnly: true},
		resource.TestStep{
			PreConfig: func() {
				b, _ := os.ReadFile(s.node)
				writeFile(t, s.node, regexp.MustCompile(`ENC\[PKCS7,[^\]]+\]`).ReplaceAllString(string(b), "hand-edited"))
			},
			Config: cfg, ConfigVariables: vars, Check: decrypts,
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("hiera_data.n", plancheck.ResourceActionUpdate), clean}},
			ConfigStateChecks: []statecheck.StateCheck{clean},
		},
	)
}

// writeOnlyCLI: write-only attributes need Terraform 1.11.
var writeOnlyCLI = needsCLI{"write-only attributes", version.Must(version.NewVersion("1.11.0")), version.Must(version.NewVersion("1.11.0"))}

var _ tfversion.TerraformVersionCheck = writeOnlyCLI

// The secret is in no log line at TRACE, the provider's or Terraform's.
func TestData_secretNotInTraceLog(t *testing.T) { //nolint:paralleltest // sets the log variables of the process
	s := newDataSite(t)
	logFile := filepath.Join(t.TempDir(), "trace.log")
	t.Setenv("TF_LOG", "trace")
	t.Setenv("TF_ACC_LOG_PATH", logFile)
	t.Setenv("TF_LOG_SDK", "trace")
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{writeOnlyCLI},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
variable "pw" {
  type      = string
  sensitive = true
}
resource "hiera_data" "n" {
  path             = %s
  secret_values_wo = { "profile::db::password" = var.pw }
  eyaml_public_key = file(%s)
}`, hcl(s.node), hcl(s.publicKey)),
			ConfigVariables: config.Variables{"pw": config.StringVariable("pw-Lg7-trace-TOPSECRET")},
			Check:           s.answers(map[string]any{"profile::db::password": "pw-Lg7-trace-TOPSECRET"}),
		}},
	})
	b, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "hiera_data") {
		t.Fatalf("the trace log (%d bytes) does not show the resource's calls: not a test", len(b))
	}
	if i := strings.Index(string(b), "TOPSECRET"); i >= 0 {
		t.Errorf("the trace log holds the secret: ...%s...", b[max(0, i-200):i])
	}
}

// Terraform before 1.11 has no write-only attributes: a secret is refused with the version named,
// before anything is written.
func TestData_secretsNeedTerraform111(t *testing.T) {
	s := newDataSite(t)
	unitTestFrom(t, belowCLI{writeOnlyCLI},
		resource.TestStep{
			Config: fmt.Sprintf(`
resource "hiera_data" "n" {
  path             = %s
  secret_values_wo = { "profile::db::password" = "x" }
  eyaml_public_key = file(%s)
}`, hcl(s.node), hcl(s.publicKey)),
			ExpectError: errorRE(`Write-only attributes are only supported in Terraform 1.11 and later`),
		},
	)
	if _, err := os.Stat(s.node); !os.IsNotExist(err) {
		t.Errorf("%s was written", s.node)
	}
}

// belowCLI runs a test only on CLIs older than n's feature (what they do without it).
type belowCLI struct{ n needsCLI }

func (b belowCLI) CheckTerraformVersion(ctx context.Context, req tfversion.CheckTerraformVersionRequest, resp *tfversion.CheckTerraformVersionResponse) {
	var has tfversion.CheckTerraformVersionResponse
	b.n.CheckTerraformVersion(ctx, req, &has)
	if has.Skip == "" && has.Error == nil {
		resp.Skip = fmt.Sprintf("%s: this run's %s has them; the test is of older versions", b.n.feature, req.TerraformVersion)
	}
}

// check_params: a key near a class parameter is refused with did-you-mean, a value of the wrong
// type in Puppet's words, at plan.
func TestData_checkParams(t *testing.T) {
	s := newDataSite(t)
	site := filepath.Join(s.dir, "site")
	writeFile(t, filepath.Join(site, "profile", "manifests", "web.pp"),
		"class profile::web (\n  Integer $workers = 4,\n  String $backend,\n) {\n}\n")
	step := func(values, re string) resource.TestStep {
		return resource.TestStep{
			Config: fmt.Sprintf(`
resource "hiera_data" "x" {
  path         = %s
  modulepath   = [%s]
  check_params = true
  values       = %s
}`, hcl(s.node), hcl(site), values),
			ExpectError: errorRE(re),
		}
	}
	unitTest(t,
		step(`{ "profile::web::wrokers" = 8 }`, `Did you mean profile::web::workers\?`),
		step(`{ "profile::web::workers" = "eight" }`, `Class\[Profile::Web\]: parameter 'workers' expects an Integer value, got String`),
		resource.TestStep{
			Config: fmt.Sprintf(`
resource "hiera_data" "x" {
  path         = %s
  modulepath   = [%s]
  check_params = true
  values       = { "profile::web::workers" = 8, "profile::web::backend" = "10.0.0.1" }
}`, hcl(s.node), hcl(site)),
			Check: s.answers(map[string]any{"profile::web::workers": 8}),
		},
	)
}

// A CRLF file whose last line has no line break: the key is written in CRLF, and destroy gives
// back the file byte for byte (the line break the write added at its end goes too).
func TestData_destroyRestoresUnterminatedCRLF(t *testing.T) {
	s := newDataSite(t)
	const original = "---\r\n# people's\r\nother: kept # no line break after this"
	writeFile(t, s.common, original)
	unitTest(t,
		resource.TestStep{
			Config: fmt.Sprintf(`
resource "hiera_data" "c" {
  path   = %s
  values = { "profile::x" = "multi\nline\n" }
}`, hcl(s.common)),
			Check: resource.ComposeTestCheckFunc(
				s.answers(map[string]any{"profile::x": "multi\nline\n", "other": "kept"}),
				func(*terraform.State) error {
					b, _ := os.ReadFile(s.common)
					if strings.Count(string(b), "\n") != strings.Count(string(b), "\r\n") {
						return fmt.Errorf("a bare line break in a CRLF file: %q", b)
					}
					return nil
				},
			),
		},
		resource.TestStep{Config: `# destroyed`, Check: fileIs(s.common, original)},
	)
}

// gemDecrypts checks that the hiera-eyaml gem decrypts token to plain, when the gem is on PATH
// (apt-get install hiera-eyaml); without it, internal/eyaml's Decryptor alone has checked it.
func gemDecrypts(s dataSite, token, plain string) error {
	if _, err := exec.LookPath("eyaml"); err != nil {
		return nil //nolint:nilerr // no gem here
	}
	out, err := exec.Command("eyaml", "decrypt", "-s", token, "--pkcs7-private-key", s.privateKey, "--pkcs7-public-key", s.publicKey).Output()
	if err != nil {
		return fmt.Errorf("eyaml decrypt: %v", err)
	}
	if got := strings.TrimSuffix(string(out), "\n"); got != plain {
		return fmt.Errorf("the gem decrypts %d bytes, not the %d written", len(got), len(plain))
	}
	return nil
}

// Refused before anything is written: a key both plain and secret, a secret without a public key.
func TestData_secretRefusals(t *testing.T) {
	s := newDataSite(t)
	step := func(body string, re string) resource.TestStep {
		return resource.TestStep{Config: "resource \"hiera_data\" \"x\" {\n  path = " + hcl(s.node) + "\n" + body + "\n}", ExpectError: errorRE(re)}
	}
	unitTestFrom(t, writeOnlyCLI,
		step(`values = { k = 1 }
secret_values_wo = { k = "x" }`, `The key "k" is in both values and secret_values_wo`),
		step(`secret_values_wo = { k = "x" }`, `No eyaml Public Key`),
	)
	if _, err := os.Stat(s.node); !os.IsNotExist(err) {
		t.Errorf("%s was written", s.node)
	}
}

// Import of a file holding values the gem encrypted (one-line and block form): their keys are
// secret_keys; the configuration naming them in secret_values_wo (the public key in the provider's
// eyaml block) then plans nothing, and the gem's ciphertexts stay as they are.
func TestData_importSecrets(t *testing.T) {
	s := newDataSite(t)
	b, err := os.ReadFile(filepath.Join("testdata", "eyaml", "data", "secrets.eyaml"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	end := 3
	for end < len(lines) && strings.HasPrefix(lines[end], "  ") { // the block's lines
		end++
	}
	original := "# made by the gem\n" + strings.Join(lines[1:end], "") + "plain: 1\n"
	if !strings.HasPrefix(lines[1], "db_password: ENC[") || !strings.HasPrefix(lines[2], "api_token: >") {
		t.Fatalf("testdata/eyaml/data/secrets.eyaml changed: %q", lines[:3])
	}
	writeFile(t, s.common, original)
	cfg := fmt.Sprintf(`
provider "hiera" {
  eyaml {
    public_key_path = %s
  }
}
resource "hiera_data" "c" {
  path             = %s
  values           = { plain = 1 }
  secret_values_wo = { db_password = "unknown to Terraform", api_token = "likewise" }
}`, hcl(s.publicKey), hcl(s.common))
	unitTestFrom(t, writeOnlyCLI,
		resource.TestStep{Config: cfg, ResourceName: "hiera_data.c", ImportState: true, ImportStateId: s.common, ImportStatePersist: true,
			ImportStateCheck: func(states []*terraform.InstanceState) error {
				if got := states[0].Attributes["secret_keys.#"]; got != "2" {
					return fmt.Errorf("secret_keys has %s keys, want 2 (%v)", got, states[0].Attributes)
				}
				return nil
			}},
		resource.TestStep{Config: cfg, PlanOnly: true},
		resource.TestStep{Config: cfg, Check: fileIs(s.common, original)},
	)
}

// With config, secrets go only into a file an eyaml level reads: elsewhere Puppet would answer the
// ENC[PKCS7,...] text itself.
func TestData_secretsNeedAnEyamlLevel(t *testing.T) {
	s := newDataSite(t)
	step := func(file string) resource.TestStep {
		return resource.TestStep{Config: fmt.Sprintf(`
resource "hiera_data" "x" {
  path             = %s
  config           = %s
  secret_values_wo = { "profile::db::password" = "pw-Qe2-level-TOPSECRET" }
  eyaml_public_key = file(%s)
}`, hcl(file), hcl(s.config), hcl(s.publicKey))}
	}
	refused := step(s.common)
	refused.ExpectError = errorRE(`common.yaml is read by the level "Common" \(yaml_data\) of .*hiera.yaml, not by an eyaml level`)
	written := step(s.node)
	written.Check = s.answers(map[string]any{"profile::db::password": "pw-Qe2-level-TOPSECRET"})
	unitTestFrom(t, writeOnlyCLI, refused, written)
	if b, _ := os.ReadFile(s.common); string(b) != dataCommon {
		t.Errorf("the refused plan changed %s:\n%s", s.common, b)
	}
}

// Import with an id spelled otherwise than path (relative vs absolute, "./" and ".."): the same
// file, so no replacement and no "already in the data file" conflict; the plan only respells
// path, the apply writes nothing, and then nothing is left to plan.
func TestData_importOtherSpelling(t *testing.T) {
	s := newDataSite(t)
	cwd, err := os.Getwd() // the provider runs in the test's process: relative paths are from here
	if err != nil {
		t.Fatal(err)
	}
	id, err := filepath.Rel(cwd, s.common)
	if err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`
resource "hiera_data" "common" {
  path   = %s
  values = { "ntp::servers" = ["ntp1.example.com"], "other" = "kept" }
}`, hcl(filepath.Join(s.dir, "data", "nodes")+"/../././common.yaml"))
	unitTest(t,
		resource.TestStep{Config: config, ResourceName: "hiera_data.common", ImportState: true, ImportStateId: id, ImportStatePersist: true},
		resource.TestStep{Config: config, Check: fileIs(s.common, dataCommon),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("hiera_data.common", plancheck.ResourceActionUpdate)}}},
		resource.TestStep{Config: config, PlanOnly: true},
	)
}

// Import of a gem-encrypted value with the public key given on the resource (the import cannot
// know it): the plan keeps the digests known and the apply leaves the ciphertext as it was; only
// secret_values_wo_version would write the secret again.
func TestData_importSecretsResourceKey(t *testing.T) {
	s := newDataSite(t)
	b, err := os.ReadFile(filepath.Join("testdata", "eyaml", "data", "secrets.eyaml"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if !strings.HasPrefix(lines[1], "db_password: ENC[") {
		t.Fatalf("testdata/eyaml/data/secrets.eyaml changed: %q", lines[:2])
	}
	original := "# made by the gem\n" + lines[1] + "plain: 1\n"
	writeFile(t, s.common, original)
	cfg := fmt.Sprintf(`
resource "hiera_data" "c" {
  path             = %s
  values           = { plain = 1 }
  secret_values_wo = { db_password = "not the file's secret" }
  eyaml_public_key = file(%s)
}`, hcl(s.common), hcl(s.publicKey))
	unitTestFrom(t, writeOnlyCLI,
		resource.TestStep{Config: cfg, ResourceName: "hiera_data.c", ImportState: true, ImportStateId: s.common, ImportStatePersist: true},
		resource.TestStep{Config: cfg, Check: fileIs(s.common, original),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("hiera_data.c", plancheck.ResourceActionUpdate),
				plancheck.ExpectKnownValue("hiera_data.c", tfjsonpath.New("secret_digests").AtMapKey("db_password"), knownvalue.StringExact(digest(strings.TrimSpace(strings.TrimPrefix(lines[1], "db_password:"))))),
			}}},
		resource.TestStep{Config: cfg, PlanOnly: true},
	)
}

// Puppet's eyaml_lookup_key chomps a decrypted value (one trailing "\r\n", "\n" or "\r"): a secret
// ending in a line break (a PEM read by file()) is still answered exactly as configured.
func TestData_secretLineBreaksSurviveChomp(t *testing.T) {
	s := newDataSite(t)
	secrets := map[string]string{"lf": "a\n", "crlf": "a\r\n", "cr": "a\r", "two": "a\n\n", "none": "a", "empty": ""}
	var entries []string
	want := map[string]any{}
	for k, v := range secrets {
		entries = append(entries, fmt.Sprintf("%s = %s", k, hcl(v)))
		want[k] = v
	}
	secretTest(t, t.TempDir(), writeOnlyCLI, resource.TestStep{
		Config: fmt.Sprintf("resource \"hiera_data\" \"n\" {\n  path = %s\n  secret_values_wo = { %s }\n  eyaml_public_key = file(%s)\n}\n",
			hcl(s.node), strings.Join(entries, ", "), hcl(s.publicKey)),
		Check: s.answers(want),
	})
}

// Keys Puppet cannot look up as written are refused at plan, in values and in secret_values_wo,
// with Puppet's words naming the key; the file is not written.
func TestData_keysPuppetCannotLookUp(t *testing.T) {
	s := newDataSite(t)
	step := func(attr, key, re string) resource.TestStep {
		return resource.TestStep{Config: fmt.Sprintf(`
resource "hiera_data" "x" {
  path             = %s
  %s = { %s = "v" }
  eyaml_public_key = file(%s)
}`, hcl(s.node), attr, hcl(key), hcl(s.publicKey)), PlanOnly: true, ExpectError: errorRE(re)}
	}
	var steps []resource.TestStep
	for _, k := range []string{"a..b", "a.", ".a", "a.'b", `a."b`} {
		re := regexp.QuoteMeta("Syntax error in key: '" + k + "'")
		steps = append(steps, step("values", k, re), step("secret_values_wo", k, re))
	}
	steps = append(steps, step("values", "", `The empty key ""`), step("secret_values_wo", "", `The empty key ""`))
	unitTestFrom(t, writeOnlyCLI, steps...)
	if _, err := os.Stat(s.node); !os.IsNotExist(err) {
		t.Errorf("%s was written", s.node)
	}
}

// exactBigIntegersCLI: a whole number beyond 2^63 that a float64 holds exactly (2^64) comes back
// from a provider's plan equal to the configuration's from Terraform 1.11 on; Terraform 1.8.5 and
// 1.0.11 report "Provider produced invalid plan" for any provider (their own encoding rounds it).
// Measured passing: Terraform 1.11.4, 1.15.9, 1.16.4 and OpenTofu 1.12.6.
var exactBigIntegersCLI = needsCLI{"a whole number beyond 2^63 kept exact through a plan",
	version.Must(version.NewVersion("1.11.0")), version.Must(version.NewVersion("1.12.0"))}

// Numbers are written as Terraform holds them: 1e300 at Terraform's 512 bits (not 10^300) and
// pow(2, 64) + 0, the resource docs' way around Terraform's rounding of pow(2, 64); Hiera answers
// each exactly, and the plan after apply is empty.
func TestData_numbersAsTerraformHoldsThem(t *testing.T) {
	s := newDataSite(t)
	two64, _ := new(big.Int).SetString("18446744073709551616", 10)
	f300, _, err := big.ParseFloat("1e300", 10, 512, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	i300, _ := f300.Int(nil)
	cfg := fmt.Sprintf("resource \"hiera_data\" \"n\" {\n  path = %s\n  values = { v = pow(2, 64) + 0, w = 1e300 }\n}\n", hcl(s.node))
	unitTestFrom(t, exactBigIntegersCLI,
		resource.TestStep{Config: cfg, Check: s.answers(map[string]any{"v": two64, "w": i300})},
		resource.TestStep{Config: cfg, PlanOnly: true},
	)
}
