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
	// absolute). With a private key given and no public key, decryption tries each recipient of a
	// value (the first 16) with the private key alone; hiera.yaml's public key, which pairs with
	// its own private key, is not used then.
	PrivateKeyPath string
	PublicKeyPath  string
	// Key is a private key given as text (ParseEyamlKey); it wins over PrivateKeyPath, and over
	// PublicKeyPath when it carries its certificate.
	Key *EyamlKey
	// Ciphertext, when no private key is given and the one hiera.yaml names cannot be had, makes an
	// encrypted value its text as written, its ENC blocks left encrypted (Undecrypted), still secret
	// (Result.Sensitive): two values compare by their ciphertext instead of failing (hieraform diff
	// without the key). The same ciphertext is the same secret; another says nothing.
	Ciphertext bool
}

// Undecrypted says whether v holds an eyaml ENC block left encrypted (EyamlKeys.Ciphertext).
func Undecrypted(v any) bool { return hasEncToken(v) }

// privateGiven reports whether k replaces the private key (and so hiera.yaml's key pair).
func (k EyamlKeys) privateGiven() bool { return k.Key != nil || k.PrivateKeyPath != "" }

// EyamlKey is a private key, and optionally its certificate, given as PEM text and parsed once.
// Lookups share it by pointer, so no cache is ever keyed on the text; it holds the parsed key only.
type EyamlKey struct {
	dec     *eyaml.Decryptor
	hasCert bool
}

// Decryptor is the key's decryptor, and whether it knows its certificate (given as text beside it),
// for a caller that decrypts outside a lookup (hieraform eyaml).
func (k *EyamlKey) Decryptor() (dec *eyaml.Decryptor, hasCertificate bool) { return k.dec, k.hasCert }

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

// EyamlKeyArgs are eyaml keys as a user gives them in place of the ones hiera.yaml names: key
// files (a relative path is taken from the working directory) and key text (PEM). The provider's
// eyaml block and the hieraform command's flags give them, the same environment variables stand
// for what they leave out (WithEnv), and Resolve checks them: one way to read keys everywhere.
type EyamlKeyArgs struct {
	PrivateKeyPath, PublicKeyPath, PrivateKeyPEM, PublicKeyPEM string
}

// EyamlKeyEnv names the environment variable that stands for each argument. A CI runner's secret
// store usually hands a key over as HIERA_EYAML_PRIVATE_KEY.
var EyamlKeyEnv = EyamlKeyArgs{
	PrivateKeyPath: "HIERA_EYAML_PRIVATE_KEY_PATH", PublicKeyPath: "HIERA_EYAML_PUBLIC_KEY_PATH",
	PrivateKeyPEM: "HIERA_EYAML_PRIVATE_KEY", PublicKeyPEM: "HIERA_EYAML_PUBLIC_KEY",
}

// fields are a's arguments in a fixed order, to walk them with their names.
func (a *EyamlKeyArgs) fields() [4]*string {
	return [4]*string{&a.PrivateKeyPath, &a.PublicKeyPath, &a.PrivateKeyPEM, &a.PublicKeyPEM}
}

// WithEnv returns a with each argument not given ("") taken from its environment variable
// (getenv; an empty variable counts as unset). An argument given wins over its variable alone: a
// path given beside a variable's key text is two keys, which Resolve refuses.
func (a EyamlKeyArgs) WithEnv(getenv func(string) string) EyamlKeyArgs {
	env := EyamlKeyEnv
	names := env.fields()
	for i, f := range a.fields() {
		if *f == "" {
			*f = getenv(*names[i])
		}
	}
	return a
}

// EyamlKeyArgError is an argument that cannot be used. Arg is its name as the caller named it
// (Resolve's names); the message never quotes key text.
type EyamlKeyArgError struct {
	Arg, Summary, Detail string
}

func (e *EyamlKeyArgError) Error() string { return e.Detail }

// Resolve checks the arguments and makes them keys: paths made absolute, key text parsed. names
// are the caller's names for the arguments (attributes, or flags; "" for one it has not), which
// its errors give with the environment variables: "private_key_pem or HIERA_EYAML_PRIVATE_KEY".
func (a EyamlKeyArgs) Resolve(names EyamlKeyArgs) (EyamlKeys, error) {
	var keys EyamlKeys
	if a.PrivateKeyPath != "" {
		keys.PrivateKeyPath = absPath(a.PrivateKeyPath)
	}
	if a.PublicKeyPath != "" {
		keys.PublicKeyPath = absPath(a.PublicKeyPath)
	}
	// "private_key_pem or HIERA_EYAML_PRIVATE_KEY"; the variable alone where the caller has no name
	label := func(name, env string) string {
		if name == "" {
			return env
		}
		return name + " or " + env
	}
	privateText := label(names.PrivateKeyPEM, EyamlKeyEnv.PrivateKeyPEM)
	switch {
	case a.PrivateKeyPEM == "" && a.PublicKeyPEM != "":
		return keys, &EyamlKeyArgError{names.PublicKeyPEM, "eyaml Public Key Without Private Key",
			"The public key's text (" + label(names.PublicKeyPEM, EyamlKeyEnv.PublicKeyPEM) + ") is set but the private key's text (" +
				privateText + ") is not: the public key's text only goes with the private key's text."}
	case a.PrivateKeyPEM == "":
		return keys, nil
	case a.PrivateKeyPath != "":
		return keys, &EyamlKeyArgError{names.PrivateKeyPEM, "Two eyaml Private Keys",
			"The eyaml private key is given both as text and as a path (" + privateText + "; " +
				label(names.PrivateKeyPath, EyamlKeyEnv.PrivateKeyPath) + "): give one."}
	}
	var err error
	if keys.Key, err = ParseEyamlKey([]byte(a.PrivateKeyPEM), []byte(a.PublicKeyPEM)); err != nil {
		// eyaml's errors describe the key's form (not PEM, not RSA, ...), never its text
		return keys, &EyamlKeyArgError{names.PrivateKeyPEM, "Invalid eyaml Key",
			"The eyaml key given as text (" + privateText + ") cannot be used: " + err.Error() + "."}
	}
	return keys, nil
}
