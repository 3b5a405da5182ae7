package eyaml

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Fixtures are made by testdata/regen.sh with the real eyaml and openssl.

func fixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func decryptor(t testing.TB, keyFile string) *Decryptor {
	t.Helper()
	d, err := LoadDecryptor(filepath.Join("testdata", "keys", keyFile))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func ourKey(t testing.TB) *Decryptor   { return decryptor(t, "private_key.pkcs7.pem") }
func otherKey(t testing.TB) *Decryptor { return decryptor(t, "other_private_key.pkcs7.pem") }

// der returns the PKCS7 bytes inside an ENC token fixture.
func der(t testing.TB, name string) []byte {
	t.Helper()
	tok := strings.TrimSpace(fixture(t, name))
	b64 := strings.TrimSuffix(tok[strings.Index(tok, ",")+1:], "]")
	b, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func token(b []byte) string { return "ENC[PKCS7," + base64.StdEncoding.EncodeToString(b) + "]" }

// wantKind checks err's Kind and that its message names no secrets.
func wantKind(t *testing.T, err error, want Kind, msgParts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %v", want)
	}
	if got := KindOf(err); got != want {
		t.Fatalf("got kind %v (%v), want %v", got, err, want)
	}
	msg := err.Error()
	for _, p := range msgParts {
		if !strings.Contains(msg, p) {
			t.Errorf("error %q does not mention %q", msg, p)
		}
	}
	for _, secret := range []string{"secret", "MII"} {
		if strings.Contains(msg, secret) {
			t.Errorf("error %q leaks %q", msg, secret)
		}
	}
}
