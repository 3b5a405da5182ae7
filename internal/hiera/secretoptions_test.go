package hiera_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// TestEncryptedLookupOptions: a lookup_options entry decrypted from eyaml. Its plaintext shows in no
// error, whether the key is looked up alone or in a node read after other keys (the options are
// assembled once per read); a key whose entry is encrypted is secret, one whose entry is plain or
// absent is not, the same in a lookup and in a node read, whatever the order of the keys.
func TestEncryptedLookupOptions(t *testing.T) {
	t.Parallel()
	const plaintext = "PLAINTEXT-bananas"
	ctx := context.Background()
	t.Run("bad strategy", func(t *testing.T) {
		t.Parallel()
		e, _ := eyamlEngine(t, eyamlConfig, "lookup_options:\n  users:\n    merge: "+encrypt(t, plaintext)+"\n",
			"users: {alice: 1}\nother: 2\n")
		_, err := lookup(t, e, hiera.Request{Key: "users"})
		if err == nil || strings.Contains(errorsUnwrapAll(err), plaintext) {
			t.Fatalf("lookup of users: %v", err)
		}
		for _, keys := range [][]string{nil, {"other", "users"}, {"users", "other", "users"}} {
			res, err := e.LookupNode(ctx, hiera.NodeRequest{Keys: keys})
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range res.Answers {
				if a.Err != nil && strings.Contains(errorsUnwrapAll(a.Err), plaintext) {
					t.Errorf("keys %v: %s: plaintext in the error: %v", keys, a.Key, a.Err)
				}
				if a.Key == "users" && a.Err == nil {
					t.Errorf("keys %v: users found: %v", keys, a.Result.Value)
				}
				if a.Key == "other" && (a.Err != nil || a.Result.Sensitive) {
					t.Errorf("keys %v: other: %v, Sensitive %v", keys, a.Err, a.Result.Sensitive)
				}
			}
		}
	})
	t.Run("valid strategy", func(t *testing.T) {
		t.Parallel()
		e, _ := eyamlEngine(t, eyamlConfig,
			"lookup_options:\n  users:\n    merge: "+encrypt(t, "deep")+"\n  plain:\n    merge: unique\nusers: {alice: 1}\nplain: [a]\n",
			"users: {bob: 2}\nplain: [b]\nother: 3\n")
		want := map[string]struct {
			json      string
			sensitive bool
		}{"users": {`{"bob":2,"alice":1}`, true}, "plain": {`["a","b"]`, false}, "other": {`3`, false}}
		for key, w := range want {
			res := mustFind(t, e, hiera.Request{Key: key})
			if got := jsonOf(t, res.Value); got != w.json || res.Sensitive != w.sensitive {
				t.Errorf("lookup %s = %s Sensitive %v, want %s %v", key, got, res.Sensitive, w.json, w.sensitive)
			}
		}
		for _, keys := range [][]string{nil, {"other", "users", "plain"}, {"users", "plain", "other"}} {
			res, err := e.LookupNode(ctx, hiera.NodeRequest{Keys: keys})
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range res.Answers {
				w := want[a.Key]
				if a.Err != nil || jsonOf(t, a.Result.Value) != w.json || a.Result.Sensitive != w.sensitive {
					t.Errorf("keys %v: %s = %s Sensitive %v (%v), want %s %v", keys, a.Key, jsonOf(t, a.Result.Value), a.Result.Sensitive, a.Err, w.json, w.sensitive)
				}
			}
		}
	})
}

// TestPitfallsOfSecretValues: a secret value interpolating a variable that is not set (Puppet
// interpolates a decrypted value too) gives a pitfall that does not quote the secret's text.
func TestPitfallsOfSecretValues(t *testing.T) {
	t.Parallel()
	const hidden = "Xy9-hidden"
	tests := map[string]struct{ secrets, common, key string }{
		"eyaml":                 {secrets: "db::password: " + encrypt(t, "aB3%{"+hidden+"}zz") + "\n", key: "db::password"},
		"convert_to Sensitive":  {common: "lookup_options:\n  token:\n    convert_to: Sensitive\ntoken: \"aB3%{" + hidden + "}zz\"\n", key: "token"},
		"nested secret":         {secrets: "pw: " + encrypt(t, "aB3%{"+hidden+"}zz") + "\n", common: "dsn: \"db://%{lookup('pw')}\"\n", key: "dsn"},
		"nested Sensitive":      {common: "lookup_options:\n  token:\n    convert_to: Sensitive\ntoken: \"aB3%{" + hidden + "}zz\"\nuse: \"%{lookup('token')}\"\n", key: "use"},
		"secret in a hash key":  {secrets: "h:\n  " + encrypt(t, "k") + ": \"%{lookup('pw')}\"\npw: " + encrypt(t, "%{"+hidden+"}") + "\n", key: "h"},
		"lookup_options secret": {secrets: "lookup_options:\n  u:\n    merge: " + encrypt(t, "%{"+hidden+"}deep") + "\n", common: "u: {a: 1}\n", key: "u"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, _ := eyamlEngine(t, eyamlConfig, tt.secrets+"other: 1\n", tt.common)
			res, err := lookup(t, e, hiera.Request{Key: tt.key, Pitfalls: true})
			if err != nil && strings.Contains(errorsUnwrapAll(err), hidden) {
				t.Fatalf("secret in the error: %v", err)
			}
			if len(res.Pitfalls) == 0 && err == nil {
				t.Errorf("no pitfall for the unset variable")
			}
			for _, p := range res.Pitfalls {
				if strings.Contains(p, hidden) {
					t.Errorf("secret in a pitfall: %s", p)
				}
			}
		})
	}
}

// TestFileCheckEncryptedOptions: `check` decrypts nothing, so an encrypted lookup_options entry is
// no problem of its own (a valid strategy once decrypted was reported as "Unknown merge strategy:
// 'ENC[...]'"), and a key it applies to is secret: a problem in its value is reported without it.
func TestFileCheckEncryptedOptions(t *testing.T) {
	t.Parallel()
	e, dir := eyamlEngine(t, eyamlConfig,
		"lookup_options:\n  users:\n    merge: "+encrypt(t, "deep")+"\nusers: \"PLAIN-pear-%{bad_fn('x')}\"\n",
		"lookup_options:\n  other:\n    merge: "+encrypt(t, "deep")+"\nother: 1\n")
	problems, _ := checkAll(t, dir, e)
	slices.Sort(problems)
	// in a plain YAML file the token is the strategy, as Puppet reads it
	if len(problems) != 2 || !strings.HasPrefix(problems[0], "data/common.yaml:2 common: Unknown merge strategy: 'ENC[PKCS7,") ||
		!strings.HasPrefix(problems[1], "data/secrets.eyaml:4 secrets: Lookup of key 'users' failed on a value derived from a secret") {
		t.Errorf("problems:\n%s", strings.Join(problems, "\n"))
	}
}
