package hiera

// Key overrides for eyaml_lookup_key: the keys a hiera.yaml names where the Puppet server keeps them.

import (
	"errors"

	"github.com/hieraform/terraform-provider-hiera/internal/eyaml"
)

// EyamlKeys replace the pkcs7_private_key and pkcs7_public_key options of every eyaml_lookup_key
// entry in every layer. A control repository names its keys where the Puppet server has them
// (/etc/puppetlabs/puppet/eyaml/...); a laptop or a CI runner has them elsewhere, or in a secret
// store. The zero value replaces nothing.
type EyamlKeys struct {
	// PrivateKeyPath and PublicKeyPath are key files, taken as given (the caller makes them
	// absolute). With a private key given and no public key, decryption tries every recipient of a
	// value with the private key alone; hiera.yaml's public key, which pairs with its own private
	// key, is not used then.
	PrivateKeyPath string
	PublicKeyPath  string
	// Key is a private key given as text (ParseEyamlKey); it wins over PrivateKeyPath, and over
	// PublicKeyPath when it carries its certificate.
	Key *EyamlKey
}

// privateGiven reports whether k replaces the private key (and so hiera.yaml's key pair).
func (k EyamlKeys) privateGiven() bool { return k.Key != nil || k.PrivateKeyPath != "" }

// EyamlKey is a private key, and optionally its certificate, given as PEM text and parsed once.
// Lookups share it by pointer, so no cache is ever keyed on the text; it holds the parsed key only.
type EyamlKey struct {
	dec     *eyaml.Decryptor
	hasCert bool
}

// ErrEyamlKey is wrapped by the errors of eyaml keys that cannot be found, read or used, so that
// callers can say how to give the keys another way (errors.Is(err, ErrEyamlKey)).
var ErrEyamlKey = errors.New("eyaml key")

// ParseEyamlKey parses a private key in PEM (as `eyaml createkeys` writes it) and, when publicPEM
// is not empty, its certificate. Errors never quote the text.
func ParseEyamlKey(privatePEM, publicPEM []byte) (*EyamlKey, error) {
	dec, err := eyaml.NewDecryptor(privatePEM)
	if err != nil {
		return nil, err
	}
	k := &EyamlKey{dec: dec}
	if len(publicPEM) > 0 {
		if k.dec, err = dec.WithCertificate(publicPEM); err != nil {
			return nil, err
		}
		k.hasCert = true
	}
	return k, nil
}
