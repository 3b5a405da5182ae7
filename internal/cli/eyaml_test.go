package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// eyamlRun runs hieraform eyaml in dir (keys in the gem's default place there) with stdin.
func eyamlRun(t *testing.T, dir, stdin string, args ...string) (rc int, stdout, stderr string) {
	t.Helper()
	t.Chdir(dir)
	var out, errOut bytes.Buffer
	rc = Run(append([]string{"eyaml"}, args...), Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut, Getenv: os.Getenv})
	return rc, out.String(), errOut.String()
}

// eyamlDir is a directory with a key pair of ours in keys/ and another in other/.
func eyamlDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"createkeys"}, {"createkeys", "--pkcs7-private-key", "other/private.pem", "--pkcs7-public-key", "other/public.pem"}} {
		if rc, _, errOut := eyamlRun(t, dir, "", args...); rc != 0 {
			t.Fatalf("%v: %s", args, errOut)
		}
	}
	return dir
}

func TestEyamlEncryptDecrypt(t *testing.T) {
	dir := eyamlDir(t)
	rc, token, errOut := eyamlRun(t, dir, "", "encrypt", "-o", "string", "-s", "hunter2")
	if rc != 0 || !strings.HasPrefix(token, "ENC[PKCS7,") {
		t.Fatalf("encrypt: %d %q %s", rc, token, errOut)
	}
	if rc, out, _ := eyamlRun(t, dir, "", "decrypt", "-s", token); rc != 0 || out != "hunter2\n" {
		t.Errorf("decrypt -s of the token and its line break: %d %q", rc, out)
	}
	// --stdin both ways: the plaintext as given (no line break added), the token as printed
	rc, piped, errOut := eyamlRun(t, dir, "two\nlines", "encrypt", "-o", "string", "--stdin")
	if rc != 0 || !strings.HasPrefix(piped, "ENC[PKCS7,") {
		t.Fatalf("encrypt --stdin: %d %q %s", rc, piped, errOut)
	}
	if rc, out, errOut := eyamlRun(t, dir, piped, "decrypt", "--stdin"); rc != 0 || out != "two\nlines\n" {
		t.Errorf("decrypt --stdin: %d %q %s", rc, out, errOut)
	}
	t.Setenv(hiera.EyamlKeyEnv.PrivateKeyPath, filepath.Join(dir, "other/private.pem"))
	if rc, _, errOut := eyamlRun(t, dir, "", "decrypt", "-s", token); rc != 1 || !strings.Contains(errOut, "other/private.pem") {
		t.Errorf("HIERA_EYAML_PRIVATE_KEY_PATH is not used: %d %s", rc, errOut)
	}
	key, err := os.ReadFile(filepath.Join(dir, defaultPrivateKey))
	must(t, err)
	t.Setenv(hiera.EyamlKeyEnv.PrivateKeyPath, "")
	t.Setenv(hiera.EyamlKeyEnv.PrivateKeyPEM, string(key))
	if rc, out, errOut := eyamlRun(t, dir, "", "decrypt", "-s", strings.TrimSpace(token), "--pkcs7-public-key", "keys/public_key.pkcs7.pem"); rc != 0 || out != "hunter2\n" {
		t.Errorf("HIERA_EYAML_PRIVATE_KEY: %d %q %s", rc, out, errOut)
	}
	if rc, _, errOut := eyamlRun(t, dir, "", "decrypt", "-s", token, "--pkcs7-private-key", "keys/private_key.pkcs7.pem"); rc != 1 ||
		!strings.Contains(errOut, "given both as text and as a path (HIERA_EYAML_PRIVATE_KEY; --pkcs7-private-key or HIERA_EYAML_PRIVATE_KEY_PATH): give one") {
		t.Errorf("a private key given twice: %d %q", rc, errOut)
	}
	// A CI job: the public key's text alone encrypts, and with the private key's text decrypts.
	cert, err := os.ReadFile(filepath.Join(dir, defaultPublicKey))
	must(t, err)
	t.Setenv(hiera.EyamlKeyEnv.PublicKeyPEM, string(cert))
	empty := t.TempDir()
	rc, token, errOut = eyamlRun(t, empty, "", "encrypt", "-o", "string", "-s", "from CI")
	if rc != 0 {
		t.Fatalf("HIERA_EYAML_PUBLIC_KEY: %s", errOut)
	}
	if rc, out, errOut := eyamlRun(t, empty, "", "decrypt", "-s", token); rc != 0 || out != "from CI\n" {
		t.Errorf("both keys' text: %d %q %s", rc, out, errOut)
	}
	if rc, _, errOut := eyamlRun(t, dir, "", "encrypt", "-s", "x", "--pkcs7-public-key", "other/public.pem"); rc != 1 || !strings.Contains(errOut, "public key is given both as text and as a path") {
		t.Errorf("a public key given twice: %d %q", rc, errOut)
	}
}

// Every way encrypt and decrypt can fail: a clear message naming the file, the line or the key,
// exit 1, never the plaintext.
func TestEyamlEncryptDecryptErrors(t *testing.T) {
	dir := eyamlDir(t)
	_, token, _ := eyamlRun(t, dir, "", "encrypt", "-o", "string", "-s", "topsecret")
	token = strings.TrimSpace(token)
	files := map[string]string{
		"wrong.eyaml":     "a: 1\nb: " + token + "\n",
		"truncated.eyaml": "a: 1\n\nb: " + token[:90] + "\nc: 2\n",
		"notakey.pem":     "hello\n",
	}
	for name, text := range files {
		must(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	for _, tc := range []struct {
		name  string
		args  []string
		wants []string
	}{
		{"a wrong private key", []string{"decrypt", "-f", "wrong.eyaml", "--pkcs7-private-key", "other/private.pem", "--pkcs7-public-key", "other/public.pem"},
			[]string{"wrong.eyaml: line 2: ", "encrypted for another key", "private key other/private.pem"}},
		{"a truncated ENC block", []string{"decrypt", "-f", "truncated.eyaml"}, []string{"truncated.eyaml: line 3: ", "cut short"}},
		{"a public key that is not one", []string{"encrypt", "-s", "topsecret", "--pkcs7-public-key", "notakey.pem"}, []string{"public key notakey.pem", "not PEM"}},
		{"a private key as the public key", []string{"encrypt", "-s", "topsecret", "--pkcs7-public-key", "keys/private_key.pkcs7.pem"},
			[]string{"public key keys/private_key.pkcs7.pem", "not a CERTIFICATE"}},
		{"a private key that is not one", []string{"decrypt", "-f", "wrong.eyaml", "--pkcs7-private-key", "notakey.pem"}, []string{"private key notakey.pem", "no PEM private key"}},
		{"the other pair's certificate", []string{"decrypt", "-f", "wrong.eyaml", "--pkcs7-public-key", "other/public.pem"},
			[]string{"public key other/public.pem", "does not match the private key"}},
		{"a missing file", []string{"decrypt", "-f", "missing.eyaml"}, []string{"cannot read missing.eyaml"}},
		{"no source", []string{"decrypt"}, []string{"you must specify a source"}},
		{"two sources", []string{"encrypt", "-s", "x", "--stdin"}, []string{"give one source, not 2"}},
		{"an unknown subcommand", []string{"frobnicate"}, []string{`unknown subcommand "frobnicate"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc, out, errOut := eyamlRun(t, dir, "", tc.args...)
			if rc != 1 || out != "" {
				t.Errorf("exit %d, stdout %q; want 1 and nothing", rc, out)
			}
			for _, want := range tc.wants {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr %q lacks %q", errOut, want)
				}
			}
			if strings.Contains(errOut, "topsecret") || strings.Contains(errOut, "MII") {
				t.Errorf("a secret or a key in the message: %q", errOut)
			}
		})
	}
}

func TestEyamlCreatekeysNeverOverwrites(t *testing.T) {
	dir := eyamlDir(t)
	before, err := os.ReadFile(filepath.Join(dir, defaultPrivateKey))
	must(t, err)
	rc, _, errOut := eyamlRun(t, dir, "", "createkeys")
	if rc != 1 || !strings.Contains(errOut, "private_key.pkcs7.pem exists") {
		t.Errorf("exit %d, %q", rc, errOut)
	}
	after, _ := os.ReadFile(filepath.Join(dir, defaultPrivateKey))
	if !bytes.Equal(before, after) {
		t.Error("the private key was overwritten")
	}
	// The public key exists, the private key not: nothing is written.
	rc, _, _ = eyamlRun(t, dir, "", "createkeys", "--pkcs7-private-key", "new/private.pem")
	if _, err := os.Stat(filepath.Join(dir, "new/private.pem")); rc != 1 || err == nil {
		t.Errorf("exit %d, and a private key was written without its certificate", rc)
	}
}

// Keys from a hiera.yaml's eyaml level, relative to its directory; the flags win over it.
func TestEyamlKeysFromConfig(t *testing.T) {
	dir := eyamlDir(t)
	site := filepath.Join(dir, "site")
	must(t, os.MkdirAll(site, 0o755))
	level := func(name, key string) string {
		return "  - name: " + name + "\n    lookup_key: eyaml_lookup_key\n    path: common.eyaml\n    options:\n" +
			"      pkcs7_private_key: \"" + key + "/private.pem\"\n      pkcs7_public_key: \"" + key + "/public.pem\"\n"
	}
	hieraYAML := "version: 5\nhierarchy:\n" + level("secrets", "../other") + level("vault", "/nonexistent")
	must(t, os.WriteFile(filepath.Join(site, "hiera.yaml"), []byte(hieraYAML), 0o644))
	must(t, os.WriteFile(filepath.Join(site, "one.yaml"), []byte("version: 5\nhierarchy:\n"+level("secrets", "%{facts.keydir}")), 0o644))
	cfg := []string{"--config", "site/hiera.yaml", "--level", "secrets"}
	rc, token, errOut := eyamlRun(t, dir, "", append([]string{"encrypt", "-o", "string", "-s", "x"}, cfg...)...)
	if rc != 0 {
		t.Fatalf("encrypt with the level's key: %s", errOut)
	}
	if rc, out, _ := eyamlRun(t, dir, "", append([]string{"decrypt", "-s", token}, cfg...)...); rc != 0 || out != "x\n" {
		t.Errorf("decrypt with the level's key: %d %q", rc, out)
	}
	if rc, _, errOut := eyamlRun(t, dir, "", "decrypt", "-s", token); rc != 1 || !strings.Contains(errOut, "another key") {
		t.Errorf("the value was not encrypted for the level's key: %d %q", rc, errOut)
	}
	flags := append([]string{"decrypt", "-s", token, "--pkcs7-private-key", "keys/private_key.pkcs7.pem", "--pkcs7-public-key", "keys/public_key.pkcs7.pem"}, cfg...)
	if rc, _, errOut := eyamlRun(t, dir, "", flags...); rc != 1 || !strings.Contains(errOut, "private key keys/private_key.pkcs7.pem") {
		t.Errorf("the flags do not win over the level: %d %q", rc, errOut)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--config", "site/hiera.yaml"}, "has 2 eyaml levels (secrets, vault): name one with --level"},
		{[]string{"--config", "site/hiera.yaml", "--level", "common"}, `no eyaml level named "common" (its eyaml levels: secrets, vault)`},
		{[]string{"--config", "site/one.yaml"}, `pkcs7_private_key "%{facts.keydir}/private.pem" interpolates a variable`},
		{[]string{"--level", "secrets"}, "--level needs --config"},
		{[]string{"--config", "site/missing.yaml"}, "cannot read site/missing.yaml"},
	} {
		if rc, _, errOut := eyamlRun(t, dir, "", append([]string{"decrypt", "-s", token}, tc.args...)...); rc != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want %q", tc.args, rc, errOut, tc.want)
		}
	}
}
