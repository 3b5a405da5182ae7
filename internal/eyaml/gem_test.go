package eyaml

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The real gem decrypts what EncryptStable writes (the provider function's output), as it does
// Encrypt's (checked in internal/cli). Skips without the gem.
func TestGemDecryptsEncryptStable(t *testing.T) {
	if _, err := exec.LookPath("eyaml"); err != nil {
		t.Skip("eyaml (the hiera-eyaml gem) is not on PATH: apt-get install hiera-eyaml to check against it")
	}
	keys, _ := filepath.Abs(filepath.Join("testdata", "keys"))
	for _, secret := range []string{"s3cret", "two\nlines", strings.Repeat("x", 300)} {
		token, err := encryptor(t, "public_key.pkcs7.pem").EncryptStable([]byte(secret))
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("eyaml", "decrypt", "-s", token, "--pkcs7-private-key", filepath.Join(keys, "private_key.pkcs7.pem"),
			"--pkcs7-public-key", filepath.Join(keys, "public_key.pkcs7.pem"))
		cmd.Env = append(cmd.Environ(), "HOME="+t.TempDir(), "EYAML_CONFIG=")
		out, err := cmd.Output()
		if err != nil || string(out) != secret+"\n" {
			t.Errorf("the gem decrypts %q to %q, %v", secret, out, err)
		}
	}
}
