package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/hieraform/terraform-provider-hiera/internal/eyaml"
)

var _ function.Function = (*eyamlEncryptFunction)(nil)

// NewEyamlEncryptFunction returns provider::hiera::eyaml_encrypt(public_key_pem, value).
func NewEyamlEncryptFunction() function.Function { return &eyamlEncryptFunction{} }

type eyamlEncryptFunction struct{}

func (f *eyamlEncryptFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "eyaml_encrypt"
}

func (f *eyamlEncryptFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Encrypts a value for an eyaml public key, as `eyaml encrypt` does",
		MarkdownDescription: "Encrypts a string for an eyaml public key and returns it as `ENC[PKCS7,...]` on one line, as " +
			"`eyaml encrypt -o string` writes it: hiera-eyaml, Puppet and this provider's data sources decrypt it with the " +
			"matching private key, which Terraform never needs. The same key and value always give the same result (Terraform " +
			"requires a function to return at apply what it returned at plan, and a file written from it then plans no change " +
			"until the value or the key changes); the gem's `eyaml encrypt` draws new randomness each time instead. So whoever " +
			"has the public key can check a guess of the value against the result, and equal values give equal results: " +
			"encrypt generated secrets (`random_password`), and a value a person chose with `hieraform eyaml encrypt`.",
		Parameters: []function.Parameter{
			function.StringParameter{
				Name: "public_key_pem",
				MarkdownDescription: "The eyaml public key: the PEM certificate `eyaml createkeys` (or `hieraform eyaml createkeys`) " +
					"writes to `public_key.pkcs7.pem`, such as `file(\"${path.module}/keys/public_key.pkcs7.pem\")`.",
			},
			function.StringParameter{
				Name: "value",
				MarkdownDescription: "The value to encrypt. When it is sensitive or ephemeral, so is the result, as Terraform " +
					"marks a function's result with its arguments' marks.",
			},
		},
		Return: function.StringReturn{},
	}
}

func (f *eyamlEncryptFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var publicKey, value string
	resp.Error = req.Arguments.Get(ctx, &publicKey, &value)
	if resp.Error != nil {
		return
	}
	enc, err := eyaml.NewEncryptor([]byte(publicKey))
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, eyaml.Detail(err))
		return
	}
	token, err := enc.EncryptStable([]byte(value))
	if err != nil { // the key's own problem (a modulus too small for the content key): the value is not in it
		resp.Error = function.NewArgumentFuncError(0, eyaml.Detail(err))
		return
	}
	resp.Error = resp.Result.Set(ctx, token)
}
