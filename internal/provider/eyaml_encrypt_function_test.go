package provider

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/hieraform/terraform-provider-hiera/internal/eyaml"
)

const eyamlPublicKey = `file("testdata/eyaml/keys/public_key.pkcs7.pem")`

// decryptsTo is a check that a value is an ENC token the test private key decrypts to want.
type decryptsTo struct{ want string }

func (c decryptsTo) CheckValue(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("%T, want a string", v)
	}
	dec, err := eyaml.LoadDecryptor(filepath.Join("testdata", "eyaml", "keys", "private_key.pkcs7.pem"))
	if err != nil {
		return err
	}
	got, err := dec.Decrypt(s)
	if err != nil {
		return err
	}
	if got != c.want {
		return fmt.Errorf("decrypts to %q, want %q", got, c.want)
	}
	return nil
}

func (c decryptsTo) String() string { return "decrypts to " + c.want }

// The function in a resource: the value it returns at plan is the one at apply, and the next plan
// is empty (plugin-testing checks both); a value known only at apply gives an unknown result at
// plan; Puppet's key decrypts the result.
func TestEyamlEncryptFunction_inAResource(t *testing.T) {
	unitTestFrom(t, functionsCLI, resource.TestStep{
		Config: `
resource "terraform_data" "password" {
  input = "generated-at-apply"
}
resource "terraform_data" "hieradata" {
  input = {
    known = provider::hiera::eyaml_encrypt(` + eyamlPublicKey + `, "db-password")
    later = provider::hiera::eyaml_encrypt(` + eyamlPublicKey + `, terraform_data.password.output)
  }
}
output "again" {
  value = provider::hiera::eyaml_encrypt(` + eyamlPublicKey + `, "db-password") == terraform_data.hieradata.output.known
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("terraform_data.hieradata", tfjsonpath.New("output").AtMapKey("known"), decryptsTo{"db-password"}),
			statecheck.ExpectKnownValue("terraform_data.hieradata", tfjsonpath.New("output").AtMapKey("later"), decryptsTo{"generated-at-apply"}),
			statecheck.ExpectKnownOutputValue("again", knownvalue.Bool(true)),
		},
	})
}

// A sensitive value gives a sensitive result, which a plain output refuses.
func TestEyamlEncryptFunction_sensitive(t *testing.T) {
	functionTest(t, callErrorStep(`provider::hiera::eyaml_encrypt(`+eyamlPublicKey+`, sensitive("s3cret"))`, "Output refers to sensitive values"))
}

// An ephemeral value (Terraform 1.10) gives an ephemeral result, which a plain output refuses
// (in Terraform's words, then OpenTofu's).
func TestEyamlEncryptFunction_ephemeral(t *testing.T) {
	unitTestFrom(t, ephemeralCLI, resource.TestStep{
		Config: `
variable "password" {
  type      = string
  ephemeral = true
  default   = "s3cret"
}
output "test" {
  value = provider::hiera::eyaml_encrypt(` + eyamlPublicKey + `, var.password)
}`,
		ExpectError: errorRE("Ephemeral value not allowed|Output does not allow ephemeral value"),
	})
}

func TestEyamlEncryptFunction_badKey(t *testing.T) {
	functionTest(t,
		callErrorStep(`provider::hiera::eyaml_encrypt("not a key", "s3cret")`, `public_key_pem.*public key is not PEM`),
		callErrorStep(`provider::hiera::eyaml_encrypt(file("testdata/eyaml/keys/private_key.pkcs7.pem"), "s3cret")`,
			`public_key_pem.*public key is a PEM "RSA PRIVATE KEY", not a CERTIFICATE`),
		callErrorStep(`provider::hiera::eyaml_encrypt(replace(`+eyamlPublicKey+`, "MII", "AAA"), "s3cret")`, `cannot parse public key certificate`),
	)
}
