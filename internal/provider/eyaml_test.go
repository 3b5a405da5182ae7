package provider

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/echoprovider"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// End-to-end secrets: testdata/eyaml holds keys and data that the real eyaml made (regen.sh, which
// also checks that puppet lookup decrypts them). These tests read them through Terraform and look
// for the plaintext in everything Terraform wrote.

// eyamlSecrets are the plaintexts regen.sh encrypted; every one contains "TOPSECRET", so a part of
// one is caught too.
var eyamlSecrets = []string{
	"pw-Kx9-db-TOPSECRET",      // db_password, an eyaml string token
	"tok-7Qz-api-TOPSECRET",    // api_token, an eyaml block
	"key-3Vm-nested-TOPSECRET", // app.key, a token inside a hash deep-merged with plain data
	"tok-5Hn-marked-TOPSECRET", // marked_token, plain YAML with convert_to: Sensitive
	"tok-8Rw-spaced-TOPSECRET", // spaced_token.value, plain YAML with convert_to: 'Sensitive '
	"pw-Dq4-dsn-TOPSECRET",     // dsn_password, interpolated again by dsn: a syntax error
	"736251",                   // pin, an eyaml integer that pins sorts beside a string
	"TOPSECRET",
}

const eyamlProvider = `
provider "hiera" {
  config = "testdata/eyaml/hiera.yaml"
}
`

// secretTest runs steps in a working directory under dir, with the echo provider beside hiera to
// carry ephemeral values into the state where a test needs them.
func secretTest(t *testing.T, dir string, check tfversion.TerraformVersionCheck, steps ...resource.TestStep) {
	t.Helper()
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{check},
		ProtoV6ProviderFactories: map[string]func() (tfprotov6.ProviderServer, error){
			"hiera": testAccProtoV6ProviderFactories["hiera"],
			"echo":  echoprovider.NewProviderServer(),
		},
		WorkingDir: dir,
		Steps:      steps,
	})
}

// findPlaintext returns the first secret in b, or "".
func findPlaintext(b []byte) string { return findPlaintextIn(string(b), eyamlSecrets) }

// scanDir looks for a plaintext in every file Terraform wrote under dir (state files, saved plans,
// and the files inside those that are zip archives). Symbolic links (the testdata directory) are
// not followed, nor is the variables file plugin-testing writes to pass ConfigVariables in.
func scanDir(dir string) (string, error) { return scanDirFor(dir, findPlaintext) }

// scanDirFor is scanDir with another finder (it returns what it found in a file's bytes, or "").
func scanDirFor(dir string, findPlaintext func([]byte) string) (string, error) {
	var found string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 || found != "" || strings.HasSuffix(p, ".auto.tfvars.json") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if s := findPlaintext(b); s != "" {
			found = fmt.Sprintf("%s contains %q", p, s)
			return nil
		}
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return nil //nolint:nilerr // not a zip archive: scanned above as it is
		}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				return err
			}
			content, err := io.ReadAll(rc)
			_ = rc.Close()
			if err != nil {
				return err
			}
			if s := findPlaintext(content); s != "" {
				found = fmt.Sprintf("%s (zip entry %s) contains %q", p, f.Name, s)
				return nil
			}
		}
		return nil
	})
	return found, err
}

// noPlaintext fails when a plaintext is in the plan or state Terraform reports (JSON, which holds
// sensitive values in clear) or in any file of the working directories under dir.
type noPlaintext struct{ dir string }

func (c noPlaintext) check(what string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if s := findPlaintext(b); s != "" {
		return fmt.Errorf("the %s contains the plaintext %q", what, s)
	}
	found, err := scanDir(c.dir)
	if err == nil && found != "" {
		err = fmt.Errorf("a file Terraform wrote leaks a secret: %s", found)
	}
	return err
}

func (c noPlaintext) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = c.check("plan", req.Plan)
}

func (c noPlaintext) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = c.check("state", req.State)
}

// plaintextInFiles passes only when a file under dir holds a plaintext: it shows that scanDir finds
// what it looks for, and records that hiera_secret does store its value in the state.
type plaintextInFiles struct{ dir string }

func (c plaintextInFiles) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	found, err := scanDir(c.dir)
	if err == nil && found == "" {
		err = fmt.Errorf("no plaintext found in the files under %s", c.dir)
	}
	resp.Error = err
}

// The secrets, read through the ephemeral resource, reach another provider intact (their sha256
// does), while the plan, the state and every file in the working directory stay free of them.
// A plain data source or the lookup function refuses them, pointing to what to use instead.
func TestEyaml_noPlaintextInPlanOrState(t *testing.T) {
	dir := t.TempDir()
	clean := noPlaintext{dir: dir}
	sum := func(s string) knownvalue.Check {
		h := sha256.Sum256([]byte(s))
		return str(hex.EncodeToString(h[:]))
	}
	secretTest(t, dir, ephemeralCLI,
		resource.TestStep{
			Config: eyamlProvider + `
ephemeral "hiera_lookup" "db" {
  key = "db_password"
}
ephemeral "hiera_lookup" "token" {
  key = "api_token"
}
ephemeral "hiera_lookup" "app" {
  key     = "app"
  explain = true
}
ephemeral "hiera_lookup" "marked" {
  key = "marked_token"
}
provider "echo" {
  data = {
    db          = sha256(ephemeral.hiera_lookup.db.value)
    token       = sha256(ephemeral.hiera_lookup.token.value)
    app_key     = sha256(ephemeral.hiera_lookup.app.value.key)
    app_json    = sha256(ephemeral.hiera_lookup.app.json)
    app_port    = ephemeral.hiera_lookup.app.value.port
    explanation = length(ephemeral.hiera_lookup.app.explanation) > 0
    marked      = sha256(ephemeral.hiera_lookup.marked.value)
  }
}
resource "echo" "test" {}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{clean},
				PostApplyPreRefresh:  []plancheck.PlanCheck{clean},
				PostApplyPostRefresh: []plancheck.PlanCheck{clean},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				expect("echo.test", "data", obj(map[string]knownvalue.Check{
					"db":          sum("pw-Kx9-db-TOPSECRET"),
					"token":       sum("tok-7Qz-api-TOPSECRET"),
					"app_key":     sum("key-3Vm-nested-TOPSECRET"),
					"app_json":    sum(`{"port":8080,"user":"app","key":"key-3Vm-nested-TOPSECRET"}`),
					"app_port":    num(8080),
					"explanation": knownvalue.Bool(true),
					"marked":      sum("tok-5Hn-marked-TOPSECRET"),
				})),
				clean,
			},
		},
		resource.TestStep{
			Config:      eyamlProvider + `data "hiera_lookup" "test" { key = "db_password" }`,
			ExpectError: errorRE(`Sensitive Hiera Value.*"db_password" is secret.*ephemeral resource hiera_lookup.*hiera_secret data source`),
		},
		resource.TestStep{
			Config:      eyamlProvider + `data "hiera_hash" "test" { key = "app" }`,
			ExpectError: errorRE(`Sensitive Hiera Value.*"app" is secret`),
		},
		resource.TestStep{
			Config:      eyamlProvider + `data "hiera_lookup" "test" { key = "marked_token" }`,
			ExpectError: errorRE(`Sensitive Hiera Value.*"marked_token" is secret`),
		},
		resource.TestStep{
			Config:      `output "test" { value = provider::hiera::lookup("testdata/eyaml/hiera.yaml", "api_token", tomap(null)) }`,
			ExpectError: errorRE(`"api_token" is secret`),
		},
		// The failed steps left nothing behind either.
		resource.TestStep{
			Config:            eyamlProvider + `data "hiera_lookup" "test" { key = "plain_in_eyaml" }`,
			ConfigStateChecks: []statecheck.StateCheck{expect("data.hiera_lookup.test", "value", str("not a secret")), clean},
		},
	)
}

// notContaining is a knownvalue check for a string that contains none of the given strings.
type notContaining []string

func (c notContaining) CheckValue(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("expected a string, got %T", v)
	}
	if found := findPlaintextIn(s, c); found != "" {
		return fmt.Errorf("the string contains %q", found)
	}
	return nil
}

func (c notContaining) String() string { return fmt.Sprintf("a string without any of %q", []string(c)) }

func findPlaintextIn(s string, secrets []string) string {
	for _, x := range secrets {
		if strings.Contains(s, x) {
			return x
		}
	}
	return ""
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(to), 0o755)
	}
	if err == nil {
		err = os.WriteFile(to, b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// eyamlFixture is a copy of testdata/eyaml that a test may change.
func eyamlFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"hiera.yaml", "data/secrets.eyaml", "data/common.yaml", "keys/private_key.pkcs7.pem", "keys/public_key.pkcs7.pem"} {
		copyFile(t, filepath.Join("testdata/eyaml", f), filepath.Join(dir, f))
	}
	return dir
}

// Bad keys and tokens are errors that name the level, never a crash.
func TestEyaml_badInput(t *testing.T) {
	testCases := map[string]struct {
		edit func(t *testing.T, dir string)
		want string
	}{
		"another key pair": {
			edit: func(t *testing.T, dir string) {
				copyFile(t, "../eyaml/testdata/keys/other_private_key.pkcs7.pem", filepath.Join(dir, "keys/private_key.pkcs7.pem"))
				copyFile(t, "../eyaml/testdata/keys/other_public_key.pkcs7.pem", filepath.Join(dir, "keys/public_key.pkcs7.pem"))
			},
			want: `Hiera Lookup Failed.*"db_password".*hierarchy level "Secrets"`,
		},
		"no private key": {
			edit: func(t *testing.T, dir string) {
				if err := os.Remove(filepath.Join(dir, "keys/private_key.pkcs7.pem")); err != nil {
					t.Fatal(err)
				}
			},
			want: `Hiera Lookup Failed.*private_key\.pkcs7\.pem.*hierarchy level "Secrets"`,
		},
		"corrupt token": {
			edit: func(t *testing.T, dir string) {
				p := filepath.Join(dir, "data/secrets.eyaml")
				b, err := os.ReadFile(p)
				if err == nil {
					err = os.WriteFile(p, bytes.Replace(b, []byte("db_password: ENC[PKCS7,MIIB"), []byte("db_password: ENC[PKCS7,XXXX"), 1), 0o644)
				}
				if err != nil {
					t.Fatal(err)
				}
			},
			want: `Hiera Lookup Failed.*not PKCS7 encrypted data.*hierarchy level "Secrets"`,
		},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			dir := eyamlFixture(t)
			tc.edit(t, dir)
			unitTest(t, resource.TestStep{
				Config:      `data "hiera_secret" "test" {` + "\n" + `  key = "db_password"` + "\n" + `  config = "` + filepath.ToSlash(dir) + `/hiera.yaml"` + "\n}",
				ExpectError: errorRE(tc.want),
			})
		})
	}
}

// Values derived from a secret fail later (a second interpolation, a sorted merge) or are
// explained (convert_to 'Sensitive '): no error, warning, explanation or attribute of any lookup
// variant may show them. Puppet fails dsn and pins quoting the secret (regen.sh checks that).
func TestEyaml_secretsNeverInDiagnostics(t *testing.T) {
	t.Parallel()
	kinds := map[string]lookupVariant{"ephemeral": ephemeralLookupKind, "function": lookupFunctionKind}
	for name, ds := range map[string]func() datasource.DataSource{
		"hiera_lookup": NewLookupDataSource, "hiera_hash": NewHashDataSource, "hiera_secret": NewSecretDataSource,
	} {
		hds, ok := ds().(*hieraDataSource)
		if !ok {
			t.Fatalf("%s is not a hieraDataSource", name)
		}
		kinds[name] = hds.kind
	}
	pd := &providerData{engines: newEngineCache(), config: "testdata/eyaml/hiera.yaml"}
	for name, kind := range kinds {
		for _, key := range []string{"dsn", "pins", "spaced_token", "spaced_token.missing", "app"} {
			m := lookupModel{Key: types.StringValue(key), lookupArgs: lookupArgs{Facts: types.DynamicNull(), Scope: types.DynamicNull()},
				DefaultValue: types.DynamicNull(), Explain: types.BoolValue(true)}
			diags := pd.lookup(context.Background(), kind, &m, nil)
			if !diags.HasError() && !kind.secret {
				t.Errorf("%s %q: no error", name, key)
			}
			outputs := []string{m.Explanation.ValueString(), m.JSON.ValueString()}
			for _, d := range diags {
				outputs = append(outputs, d.Summary(), d.Detail())
			}
			if !kind.secret && diags.HasError() && !strings.Contains(fmt.Sprint(diags), "withheld") &&
				!strings.Contains(fmt.Sprint(diags), "is secret") && !strings.Contains(fmt.Sprint(diags), "not found") {
				t.Errorf("%s %q: unexpected diagnostics %v", name, key, diags)
			}
			for _, out := range outputs {
				if s := findPlaintext([]byte(out)); s != "" && (!kind.secret || out != m.JSON.ValueString()) {
					t.Errorf("%s %q: %q in an output:\n%s", name, key, s, out)
				}
			}
		}
	}
	// The merge functions cannot tell a sensitive argument: their errors quote no value.
	spec, err := model.FromGo(map[string]any{"strategy": "deep", "sort_merged_arrays": true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := merge.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	var args []types.Dynamic
	for _, v := range []any{[]any{"abc"}, []any{int64(736251)}} {
		d, err := toDynamic(v, path.Empty())
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, d)
	}
	if _, ferr := mergeArguments(context.Background(), m, args, 1); ferr == nil || findPlaintext([]byte(ferr.Error())) != "" ||
		!strings.Contains(ferr.Error(), "details withheld") {
		t.Errorf("merge error: %v", ferr)
	}
	ko := types.DynamicValue(types.ObjectValueMust(map[string]attr.Type{"strategy": types.StringType, "knockout_prefix": types.StringType},
		map[string]attr.Value{"strategy": types.StringValue("deep"), "knockout_prefix": types.StringValue("(TOPSECRET")}))
	if _, err := mergeOptions(context.Background(), ko); err == nil || findPlaintext([]byte(err.Error())) != "" {
		t.Errorf("knockout_prefix error: %v", err)
	}
}

// The same through Terraform: what the user sees names the key and withholds the details, and
// the explanation of a 'Sensitive ' key carried into the state holds no value.
func TestEyaml_derivedSecretsThroughTerraform(t *testing.T) {
	dir := t.TempDir()
	clean := noPlaintext{dir: dir}
	withheld := func(key string) *regexp.Regexp {
		return errorRE(`Lookup of key '` + key + `' failed on a value derived from a secret \(details withheld: the value is secret\)`)
	}
	secretTest(t, dir, ephemeralCLI,
		resource.TestStep{Config: eyamlProvider + `ephemeral "hiera_lookup" "test" { key = "dsn" }`, ExpectError: withheld("dsn")},
		resource.TestStep{Config: eyamlProvider + `data "hiera_secret" "test" { key = "pins" }`, ExpectError: withheld("pins")},
		resource.TestStep{Config: eyamlProvider + `data "hiera_lookup" "test" {
  key     = "spaced_token"
  explain = true
}`, ExpectError: errorRE(`Sensitive Hiera Value.*"spaced_token" is secret`)},
		resource.TestStep{
			Config:      `output "test" { value = provider::hiera::lookup("testdata/eyaml/hiera.yaml", "dsn", tomap(null)) }`,
			ExpectError: withheld("dsn"),
		},
		resource.TestStep{
			Config:      `output "test" { value = provider::hiera::merge({ strategy = "deep", sort_merged_arrays = true }, ["abc"], sensitive([736251])) }`,
			ExpectError: errorRE(`sort_merged_arrays could not order the merged lists.*details withheld`),
		},
		// the last step succeeds, so that the test's final destroy can run
		resource.TestStep{
			Config: eyamlProvider + `
ephemeral "hiera_lookup" "spaced" {
  key     = "spaced_token"
  explain = true
}
provider "echo" {
  data = {
    explanation = ephemeral.hiera_lookup.spaced.explanation
    value       = sha256(ephemeral.hiera_lookup.spaced.value.value)
  }
}
resource "echo" "test" {}
`,
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{clean}},
			ConfigStateChecks: []statecheck.StateCheck{clean},
		},
	)
}
