package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// Two nodes' diff without the eyaml private key compares a secret by its ciphertext, as the fleet
// diff does, and says so: the same secret encrypted again is another ciphertext, which is not
// reported as the secret having changed.
func TestDiffSecretByCiphertext(t *testing.T) {
	keys := eyamlDir(t)
	dir := t.TempDir()
	encrypt := func() string {
		rc, out, errOut := eyamlRun(t, keys, "", "encrypt", "-o", "string", "-s", "unchanged secret", "--pkcs7-public-key", "keys/public_key.pkcs7.pem")
		if rc != 0 {
			t.Fatalf("encrypt: %s", errOut)
		}
		return strings.TrimSpace(out)
	}
	first := encrypt()
	// a and c: one ciphertext; b: the same secret encrypted again
	for side, token := range map[string]string{"a": first, "b": encrypt(), "c": first} {
		writeFile(t, filepath.Join(dir, side, "data", "common.eyaml"), "pw: "+token+"\n")
		writeFile(t, filepath.Join(dir, side, "hiera.yaml"), "version: 5\nhierarchy:\n  - name: secrets\n    lookup_key: eyaml_lookup_key\n    path: common.eyaml\n"+
			"    options:\n      pkcs7_private_key: /nonexistent/private_key.pkcs7.pem\n      pkcs7_public_key: /nonexistent/public_key.pkcs7.pem\n")
	}
	diff := func(left, right string, more ...string) (int, string) {
		rc, out, errOut := run(t, append([]string{"diff", "--config", filepath.Join(dir, left, "hiera.yaml"), "--config", filepath.Join(dir, right, "hiera.yaml")}, more...)...)
		return rc, out + errOut
	}
	if rc, out := diff("a", "c"); rc != 0 || !strings.Contains(out, "no differences") {
		t.Errorf("the same ciphertext: rc %d\n%s", rc, out)
	}
	rc, out := diff("a", "b")
	if rc != 1 || !strings.Contains(out, "(secret changed, no key to compare)") || strings.Contains(out, "unchanged secret") {
		t.Errorf("another ciphertext: rc %d\n%s", rc, out)
	}
	rc, out = diff("a", "b", "--render-as", "json")
	if rc != 1 || !strings.Contains(out, `"change":"changed","ciphertext":true`) {
		t.Errorf("another ciphertext, JSON: rc %d\n%s", rc, out)
	}
	// a value of a YAML level holding "ENC[" is plain data, shown as it is
	writeFile(t, filepath.Join(dir, "d", "data", "common.yaml"), "pw: ENC[PKCS7,plain text]\n")
	writeFile(t, filepath.Join(dir, "d", "hiera.yaml"), "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n")
	if rc, out := diff("a", "d"); rc != 1 || !strings.Contains(out, "ENC[PKCS7,plain text]") || strings.Contains(out, "no key to compare") {
		t.Errorf("plain data holding ENC[: rc %d\n%s", rc, out)
	}
	if rc, out := diff("a", "b", "--eyaml-private-key", filepath.Join(keys, "keys", "private_key.pkcs7.pem")); rc != 0 || !strings.Contains(out, "no differences") {
		t.Errorf("with the key: rc %d\n%s", rc, out)
	}
}
