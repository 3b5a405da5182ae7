package provider

// The eyaml blocks: key files, or key text, in place of the keys hiera.yaml names (issue 24).

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/eyaml"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// eyamlPathsModel is the eyaml block of the data sources and the ephemeral resource.
type eyamlPathsModel struct {
	PrivateKeyPath types.String `tfsdk:"private_key_path"`
	PublicKeyPath  types.String `tfsdk:"public_key_path"`
}

// providerEyamlModel is the provider's eyaml block: paths, or the keys' text.
type providerEyamlModel struct {
	PrivateKeyPath types.String `tfsdk:"private_key_path"`
	PublicKeyPath  types.String `tfsdk:"public_key_path"`
	PrivateKeyPEM  types.String `tfsdk:"private_key_pem"`
	PublicKeyPEM   types.String `tfsdk:"public_key_pem"`
}

const eyamlBlockText = "Keys for the eyaml levels (`lookup_key: eyaml_lookup_key`), in place of the `pkcs7_private_key` and " +
	"`pkcs7_public_key` that `hiera.yaml` names for every eyaml level: a control repository names them where the Puppet server " +
	"keeps them (`/etc/puppetlabs/puppet/eyaml/...`), and a laptop or a CI runner has them elsewhere."

const privatePathText = "Path to the eyaml private key (`private_key.pkcs7.pem`). A relative path is taken from Terraform's working directory. " +
	"Given without a public key, it decrypts alone (`hiera.yaml`'s public key belongs to its own private key and is not used)."

const publicPathText = "Path to the eyaml public key (`public_key.pkcs7.pem`, a certificate). Optional: the private key decrypts alone."

// eyamlBlock is the data sources' and the ephemeral resource's eyaml block: paths only, since a data
// source's arguments are stored in the state.
func eyamlBlock() dschema.SingleNestedBlock {
	return dschema.SingleNestedBlock{
		MarkdownDescription: eyamlBlockText + " Replaces the provider's `eyaml` block key by key. Key text goes in the provider's " +
			"`eyaml` block only, where it stays out of plan and state (a data source's arguments are stored in the state).",
		Attributes: map[string]dschema.Attribute{
			"private_key_path": dschema.StringAttribute{MarkdownDescription: privatePathText, Optional: true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
			"public_key_path": dschema.StringAttribute{MarkdownDescription: publicPathText, Optional: true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
		},
	}
}

// providerEyamlBlock is the provider's eyaml block: paths, or the keys' text.
func providerEyamlBlock() pschema.SingleNestedBlock {
	sibling := func(name string) path.Expression { return path.MatchRelative().AtParent().AtName(name) }
	return pschema.SingleNestedBlock{
		MarkdownDescription: eyamlBlockText + " Each attribute not set here is taken from an environment variable when it is set: " +
			"`" + hiera.EyamlKeyEnv.PrivateKeyPath + "`, `" + hiera.EyamlKeyEnv.PublicKeyPath + "`, `" + hiera.EyamlKeyEnv.PrivateKeyPEM + "` (the private key's text) and `" +
			hiera.EyamlKeyEnv.PublicKeyPEM + "`. A data source's own `eyaml` block wins over this one.",
		Attributes: map[string]pschema.Attribute{
			"private_key_path": pschema.StringAttribute{MarkdownDescription: privatePathText, Optional: true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1), stringvalidator.ConflictsWith(sibling("private_key_pem"))}},
			"public_key_path": pschema.StringAttribute{MarkdownDescription: publicPathText, Optional: true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1), stringvalidator.ConflictsWith(sibling("public_key_pem"))}},
			"private_key_pem": pschema.StringAttribute{
				MarkdownDescription: "The eyaml private key itself, PEM text (`-----BEGIN RSA PRIVATE KEY-----`), from a sensitive " +
					"variable or a secret store: `private_key_pem = var.eyaml_private_key`. Sensitive: never shown, and never written " +
					"to the state (Terraform keeps no provider arguments there). A saved plan file holds the values of the variables " +
					"it was made with; declare the variable `ephemeral = true` (Terraform 1.10 or later) to keep it out of that too.",
				Optional: true, Sensitive: true,
			},
			"public_key_pem": pschema.StringAttribute{
				MarkdownDescription: "The eyaml public key itself, PEM text (`-----BEGIN CERTIFICATE-----`). Optional: the private key decrypts alone.",
				Optional:            true,
			},
		},
	}
}

// providerEyamlKeys reads the provider's eyaml block, the environment variables already in it
// (withEnvDefaults), as the hieraform command reads its flags (hiera.EyamlKeyArgs.Resolve): paths
// made absolute, key text parsed. unknown is set when a value is not known yet. Diagnostics name
// the attribute, never the key's text.
func providerEyamlKeys(m *providerEyamlModel) (keys hiera.EyamlKeys, unknown bool, diags diag.Diagnostics) {
	if m == nil {
		m = &providerEyamlModel{}
	}
	value := func(v types.String) string {
		unknown = unknown || v.IsUnknown()
		return v.ValueString()
	}
	args := hiera.EyamlKeyArgs{PrivateKeyPath: value(m.PrivateKeyPath), PublicKeyPath: value(m.PublicKeyPath),
		PrivateKeyPEM: value(m.PrivateKeyPEM), PublicKeyPEM: value(m.PublicKeyPEM)}
	if unknown {
		return keys, true, diags
	}
	keys, err := args.Resolve(providerEyamlArgs)
	var argErr *hiera.EyamlKeyArgError
	if errors.As(err, &argErr) {
		diags.AddAttributeError(path.Root("eyaml").AtName(argErr.Arg), argErr.Summary, argErr.Detail)
	}
	return keys, false, diags
}

// providerEyamlArgs are the provider's eyaml block's attributes, by the argument each gives.
var providerEyamlArgs = hiera.EyamlKeyArgs{PrivateKeyPath: "private_key_path", PublicKeyPath: "public_key_path",
	PrivateKeyPEM: "private_key_pem", PublicKeyPEM: "public_key_pem"}

// absPath makes a path from Terraform's working directory absolute; "" stays "".
func absPath(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	return filepath.Abs(p)
}

// eyamlKeys is the provider's keys with a lookup's own eyaml block over them, path by path.
func (pd *providerData) eyamlKeys(m *eyamlPathsModel) (hiera.EyamlKeys, error) {
	keys := pd.eyaml
	if m == nil {
		return keys, nil
	}
	var err error
	if p := m.PrivateKeyPath.ValueString(); p != "" {
		if keys.PrivateKeyPath, err = absPath(p); err != nil {
			return keys, fmt.Errorf("cannot resolve the eyaml private key path %q: %w", p, err)
		}
		keys.Key = nil
	}
	if p := m.PublicKeyPath.ValueString(); p != "" {
		if keys.PublicKeyPath, err = absPath(p); err != nil {
			return keys, fmt.Errorf("cannot resolve the eyaml public key path %q: %w", p, err)
		}
	}
	return keys, nil
}

// eyamlKeyHint says how to give eyaml keys when a lookup failed on them ("" for other errors).
func eyamlKeyHint(err error) string {
	if !errors.Is(err, hiera.ErrEyamlKey) {
		return ""
	}
	return "\n\nWhere the keys are not where hiera.yaml says (a laptop, a CI runner), give them in the provider's eyaml block: " +
		"private_key_path and public_key_path, or the key itself from a sensitive variable with private_key_pem " +
		"(or the environment variables " + hiera.EyamlKeyEnv.PrivateKeyPath + ", " + hiera.EyamlKeyEnv.PrivateKeyPEM + "). " +
		"A data source's own eyaml block takes paths too."
}

// encryptor is the eyaml public key a resource encrypts for: its own key text (own) when given,
// else the provider's eyaml block (public_key_pem, then public_key_path, each else its
// environment variable). No key at all is an error saying where to give one.
func (pd *providerData) encryptor(own string) (*eyaml.Encryptor, diag.Diagnostics) {
	var diags diag.Diagnostics
	var enc *eyaml.Encryptor
	var err error
	switch {
	case own != "":
		if enc, err = eyaml.NewEncryptor([]byte(own)); err != nil {
			diags.AddAttributeError(path.Root("eyaml_public_key"), "Invalid eyaml Public Key", eyaml.Detail(err))
		}
		return enc, diags
	case pd != nil && pd.eyamlPublicKeyPEM != "":
		enc, err = eyaml.NewEncryptor([]byte(pd.eyamlPublicKeyPEM))
	case pd != nil && pd.eyaml.PublicKeyPath != "":
		enc, err = eyaml.LoadEncryptor(pd.eyaml.PublicKeyPath)
	default:
		diags.AddAttributeError(path.Root("secret_values_wo"), "No eyaml Public Key",
			"Secrets are encrypted for an eyaml public key, and none is given: set eyaml_public_key (the PEM certificate, "+
				"such as file(\"keys/public_key.pkcs7.pem\")), or the provider's eyaml block's public_key_path or public_key_pem "+
				"(or the environment variables "+hiera.EyamlKeyEnv.PublicKeyPath+", "+hiera.EyamlKeyEnv.PublicKeyPEM+").")
		return nil, diags
	}
	if err != nil {
		diags.AddError("Invalid eyaml Public Key", "The provider's eyaml public key cannot encrypt: "+eyaml.Detail(err))
	}
	return enc, diags
}
