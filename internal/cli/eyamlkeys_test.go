package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain runs the tests without the HIERA_* variables a user's shell may export (the eyaml keys
// of a Puppet server among them): a command that reads the process's environment (hieraform eyaml)
// sees only what a test sets with t.Setenv.
func TestMain(m *testing.M) {
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "HIERA_") {
			_ = os.Unsetenv(name)
		}
	}
	os.Exit(m.Run())
}

// serverKeysRepo is a control repository over the provider's eyaml fixture whose eyaml level names
// the keys where the Puppet server keeps them, placed in the test's directory where no key exists
// (a machine with keys at /etc/puppetlabs runs the test alike). It returns the hiera.yaml and the
// directory of the fixture's key pair.
func serverKeysRepo(t *testing.T) (config, keys string) {
	t.Helper()
	dir := t.TempDir()
	fixture := filepath.Join("..", "provider", "testdata", "eyaml")
	for _, rel := range []string{"data/common.yaml", "data/secrets.eyaml"} {
		text, err := os.ReadFile(filepath.Join(fixture, rel))
		must(t, err)
		must(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755))
		must(t, os.WriteFile(filepath.Join(dir, rel), text, 0o644))
	}
	server := filepath.Join(dir, "etc/puppetlabs/puppet/eyaml")
	config = filepath.Join(dir, "hiera.yaml")
	must(t, os.WriteFile(config, []byte("version: 5\ndefaults: {datadir: data, data_hash: yaml_data}\nhierarchy:\n"+
		"  - name: Secrets\n    lookup_key: eyaml_lookup_key\n    path: secrets.eyaml\n"+
		"    options: {pkcs7_private_key: "+server+"/private_key.pkcs7.pem, pkcs7_public_key: "+server+"/public_key.pkcs7.pem}\n"+
		"  - name: Common\n    path: common.yaml\n"), 0o644))
	keys, err := filepath.Abs(filepath.Join(fixture, "keys"))
	must(t, err)
	return config, keys
}

// runEnv runs the command with the environment variables env (and no others).
func runEnv(env map[string]string, args ...string) (rc int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	rc = Run(args, Env{Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] }})
	return rc, out.String(), errOut.String()
}

// The command is keyed as the provider is: --eyaml-private-key and --eyaml-public-key, else the
// provider's HIERA_EYAML_* variables (files, or the keys' text), in place of the keys hiera.yaml
// names. Without them, every command says how to give them.
func TestEyamlKeyFlagsAndVariables(t *testing.T) {
	config, keys := serverKeysRepo(t)
	private, public := filepath.Join(keys, "private_key.pkcs7.pem"), filepath.Join(keys, "public_key.pkcs7.pem")
	privateText, err := os.ReadFile(private)
	must(t, err)
	publicText, err := os.ReadFile(public)
	must(t, err)
	lookup := []string{"lookup", "db_password", "--config", config, "--reveal"}
	const secret = "pw-Kx9-db-TOPSECRET"

	for name, tc := range map[string]struct {
		env  map[string]string
		args []string
	}{
		"both flags":                 {nil, []string{"--eyaml-private-key", private, "--eyaml-public-key", public}},
		"the private key flag alone": {nil, []string{"--eyaml-private-key", private}},
		"path variables":             {map[string]string{"HIERA_EYAML_PRIVATE_KEY_PATH": private, "HIERA_EYAML_PUBLIC_KEY_PATH": public}, nil},
		"key text":                   {map[string]string{"HIERA_EYAML_PRIVATE_KEY": string(privateText), "HIERA_EYAML_PUBLIC_KEY": string(publicText)}, nil},
		"a flag over its variable":   {map[string]string{"HIERA_EYAML_PRIVATE_KEY_PATH": "/nonexistent.pem"}, []string{"--eyaml-private-key", private}},
	} {
		rc, out, errOut := runEnv(tc.env, append(lookup, tc.args...)...)
		if rc != 0 || out != "--- "+secret+"\n" {
			t.Errorf("%s: exit %d, stdout %q, stderr %s", name, rc, out, errOut)
		}
	}

	// Without keys: each command fails on the server's path (node leaves the keys out, as
	// hiera_node's failed_keys) and says how to give the keys.
	hint := "give them with --eyaml-private-key and --eyaml-public-key, or the environment variables HIERA_EYAML_PRIVATE_KEY_PATH"
	for _, tc := range []struct {
		args []string
		rc   int
	}{
		{lookup, 1},
		{[]string{"node", "--config", config}, 0},
		{[]string{"check", "--config", config}, 1},
		{[]string{"diff", "--config", config, "--node", "a.example.com", "--node", "b.example.com"}, 2},
	} {
		rc, out, errOut := runEnv(nil, tc.args...)
		args := tc.args
		if rc != tc.rc || !strings.Contains(out+errOut, "cannot read the eyaml private key") || !strings.Contains(errOut, hint) {
			t.Errorf("%s without keys: exit %d, stdout %s, stderr %s", args[0], rc, out, errOut)
		}
	}
	// the same secret encrypted again: a fleet's diff looks it up on both sides, and finds it equal
	reencrypted, _ := serverKeysRepo(t)
	var token bytes.Buffer
	if rc := Run([]string{"eyaml", "encrypt", "-o", "string", "-s", secret, "--pkcs7-public-key", public}, Env{Stdout: &token, Stderr: &token}); rc != 0 {
		t.Fatal(token.String())
	}
	must(t, os.WriteFile(filepath.Join(filepath.Dir(reencrypted), "data/secrets.eyaml"), []byte("db_password: "+token.String()+"\n"), 0o644))
	factsDir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(factsDir, "web01.json"), []byte(`{"clientcert": "web01.example.com"}`), 0o644))
	// With keys, node, check and diff decrypt (the secret stays out of their output; check finds
	// only the fixture's two keys that fail in Puppet too).
	for _, tc := range []struct {
		args []string
		rc   int
	}{
		{[]string{"node", "--config", config, "--keys", "db_password,plain_in_eyaml"}, 0},
		{[]string{"check", "--config", config}, 1},
		{[]string{"diff", "--config", config, "--node", "a.example.com", "--node", "b.example.com", "--prefix", "db_"}, 0},
		{[]string{"diff", "--config", config, "--config", reencrypted, "--facts", factsDir, "--prefix", "db_"}, 0}, // a fleet
	} {
		rc, out, errOut := runEnv(map[string]string{"HIERA_EYAML_PRIVATE_KEY": string(privateText)}, tc.args...)
		args := tc.args
		if rc != tc.rc || strings.Contains(out+errOut, secret) || strings.Contains(out+errOut, "eyaml private key") {
			t.Errorf("%s with keys: exit %d, stdout %s, stderr %s", args[0], rc, out, errOut)
		}
	}

	// Keys that cannot be used: the argument named, the key's text never quoted.
	for name, tc := range map[string]struct {
		env  map[string]string
		args []string
		want string
	}{
		"text that is no key": {map[string]string{"HIERA_EYAML_PRIVATE_KEY": "SECRET-not-a-key"}, nil,
			"The eyaml key given as text (HIERA_EYAML_PRIVATE_KEY) cannot be used: eyaml: no PEM private key found"},
		"a path and text": {map[string]string{"HIERA_EYAML_PRIVATE_KEY": string(privateText)}, []string{"--eyaml-private-key", private},
			"given both as text and as a path (HIERA_EYAML_PRIVATE_KEY; --eyaml-private-key or HIERA_EYAML_PRIVATE_KEY_PATH): give one"},
		"public text alone": {map[string]string{"HIERA_EYAML_PUBLIC_KEY": string(publicText)}, nil,
			"The public key's text (HIERA_EYAML_PUBLIC_KEY) is set but the private key's text (HIERA_EYAML_PRIVATE_KEY) is not"},
		"a missing file": {nil, []string{"--eyaml-private-key", "nope.pem"}, "cannot read the eyaml private key " + filepath.Join(mustGetwd(t), "nope.pem")},
	} {
		rc, out, errOut := runEnv(tc.env, append(lookup, tc.args...)...)
		if rc != 1 || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "SECRET-not") || strings.Contains(errOut, "MII") {
			t.Errorf("%s: exit %d, stdout %q, stderr %s", name, rc, out, errOut)
		}
	}
}

func mustGetwd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	must(t, err)
	return wd
}
