package hiera_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// serverKeysConfig is a control repository's hiera.yaml: it names the keys where the Puppet server
// keeps them, in two eyaml levels. The server's /etc/puppetlabs is placed under the test's directory
// (@ROOT@), where no key exists: a machine that holds keys at /etc/puppetlabs (a Puppet server, a
// user's workstation) runs the test alike.
const serverKeysConfig = `version: 5
defaults:
  datadir: data
hierarchy:
  - name: "Per-node secrets"
    lookup_key: eyaml_lookup_key
    path: "nodes/%{trusted.certname}.eyaml"
    options:
      pkcs7_private_key: @ROOT@/etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem
      pkcs7_public_key: @ROOT@/etc/puppetlabs/puppet/eyaml/public_key.pkcs7.pem
  - name: "Common secrets"
    lookup_key: eyaml_lookup_key
    path: secrets.eyaml
    options:
      pkcs7_private_key: @ROOT@/etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem
      pkcs7_public_key: @ROOT@/etc/puppetlabs/puppet/eyaml/public_key.pkcs7.pem
`

// The keys given in a request replace the ones every eyaml level names, as files or as text; the
// files go through the engine's decryptor cache, the text never keys a cache.
func TestEyamlKeys_override(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{
		"hiera.yaml":               serverKeysConfig,
		"data/nodes/web01.eyaml":   "node_pw: " + encrypt(t, "node-secret") + "\n",
		"data/secrets.eyaml":       "db_pw: " + encrypt(t, "db-secret") + "\n",
		"ci/private_key.pkcs7.pem": readFixture(t, "keys/private_key.pkcs7.pem"),
		"ci/public_key.pkcs7.pem":  readFixture(t, "keys/public_key.pkcs7.pem"),
		"ci/other_private.pem":     readFixture(t, "keys/other_private_key.pkcs7.pem"),
	})
	priv, pub := filepath.Join(dir, "ci/private_key.pkcs7.pem"), filepath.Join(dir, "ci/public_key.pkcs7.pem")
	scope := scopeOf(t, nil, map[string]any{"trusted": map[string]any{"certname": "web01"}})
	withCert, err := hiera.ParseEyamlKey([]byte(readFixture(t, "keys/private_key.pkcs7.pem")), []byte(readFixture(t, "keys/public_key.pkcs7.pem")))
	if err != nil {
		t.Fatal(err)
	}
	alone, err := hiera.ParseEyamlKey([]byte(readFixture(t, "keys/private_key.pkcs7.pem")), nil)
	if err != nil {
		t.Fatal(err)
	}

	// Unmodified, the lookup fails on the server's path, marked as a key problem.
	he := mustFail(t, e, hiera.Request{Key: "db_pw", Scope: scope})
	wantContains(t, "error", he.Error(), "cannot read the eyaml private key "+filepath.Join(dir, "etc/puppetlabs/puppet/eyaml/private_key.pkcs7.pem"), `hierarchy level "Common secrets"`)
	if !errors.Is(he, hiera.ErrEyamlKey) {
		t.Errorf("%v does not wrap ErrEyamlKey", he)
	}

	for name, keys := range map[string]hiera.EyamlKeys{
		"both files":            {PrivateKeyPath: priv, PublicKeyPath: pub},
		"private file alone":    {PrivateKeyPath: priv},
		"text with certificate": {Key: withCert},
		"text alone":            {Key: alone},
		"text and public file":  {Key: alone, PublicKeyPath: pub},
		"text wins over a file": {Key: withCert, PrivateKeyPath: filepath.Join(dir, "ci/other_private.pem")},
	} {
		for key, want := range map[string]string{"db_pw": "db-secret", "node_pw": "node-secret"} {
			res := mustFind(t, e, hiera.Request{Key: key, Scope: scope, EyamlKeys: keys})
			if res.Value != want || !res.Sensitive {
				t.Errorf("%s: %s = %v (sensitive %v), want %q", name, key, res.Value, res.Sensitive, want)
			}
		}
	}
	// Two key files, looked up many times: one cached decryptor (the first file pair's, and this
	// one's). Key text never enters the cache.
	if n := hiera.CachedDecryptors(e); n != 2 {
		t.Errorf("%d cached decryptors after the file overrides, want 2 (both files; the private file alone)", n)
	}

	for name, tc := range map[string]struct {
		keys hiera.EyamlKeys
		want string
	}{
		"missing override file": {hiera.EyamlKeys{PrivateKeyPath: filepath.Join(dir, "ci/nope.pem")}, "cannot read the eyaml private key " + filepath.Join(dir, "ci/nope.pem")},
		"missing public file":   {hiera.EyamlKeys{PrivateKeyPath: priv, PublicKeyPath: filepath.Join(dir, "ci/nope.pem")}, "cannot read the eyaml public key"},
		"another key pair":      {hiera.EyamlKeys{PrivateKeyPath: filepath.Join(dir, "ci/other_private.pem")}, "eyaml:"},
		"mismatched public":     {hiera.EyamlKeys{PrivateKeyPath: filepath.Join(dir, "ci/other_private.pem"), PublicKeyPath: pub}, "does not match the private key"},
	} {
		he := mustFail(t, e, hiera.Request{Key: "db_pw", Scope: scope, EyamlKeys: tc.keys})
		wantContains(t, "error", he.Error(), tc.want)
		if !errors.Is(he, hiera.ErrEyamlKey) {
			t.Errorf("%s: %v does not wrap ErrEyamlKey", name, he)
		}
	}
}

// Key text that is not a usable key is refused without being quoted.
func TestParseEyamlKey_errors(t *testing.T) {
	t.Parallel()
	priv := readFixture(t, "keys/private_key.pkcs7.pem")
	for name, tc := range map[string]struct{ private, public, want string }{
		"not PEM":             {"SECRET-TEXT-not-a-key", "", "no PEM private key found"},
		"truncated":           {priv[:200] + "\n-----END RSA PRIVATE KEY-----\n", "", "eyaml:"},
		"EC key":              {readFixture(t, "keys/ec_pkcs8.pem"), "", "not RSA"},
		"passphrase":          {readFixture(t, "keys/encrypted_pkcs8.pem"), "", "passphrase"},
		"public not PEM":      {priv, "SECRET-TEXT", "not a PEM CERTIFICATE"},
		"another pair's cert": {priv, readFixture(t, "keys/other_public_key.pkcs7.pem"), "does not match"},
	} {
		_, err := hiera.ParseEyamlKey([]byte(tc.private), []byte(tc.public))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, tc.want)
			continue
		}
		if strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "MII") {
			t.Errorf("%s: the error quotes the text: %v", name, err)
		}
	}
}
