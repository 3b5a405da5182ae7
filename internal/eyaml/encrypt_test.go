package eyaml

import (
	"crypto/x509"
	"encoding/pem"
	"path/filepath"
	"strings"
	"testing"
)

func encryptor(t testing.TB, certFile string) *Encryptor {
	t.Helper()
	e, err := LoadEncryptor(filepath.Join("testdata", "keys", certFile))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestEncryptRoundTrip(t *testing.T) {
	e := encryptor(t, "public_key.pkcs7.pem")
	d := ourKey(t)
	for _, secret := range []string{"", "x", "exactly sixteen!", "line\nbreaks\r\n", "héllo ✓", strings.Repeat("z", 5000)} {
		token, err := e.Encrypt([]byte(secret))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(token, "ENC[PKCS7,MII") || strings.ContainsAny(token, " \n") {
			t.Errorf("token %q is not the gem's one-line form", token)
		}
		got, err := d.Decrypt(token)
		if err != nil || got != secret {
			t.Errorf("decrypt of %q: %q, %v", secret, got, err)
		}
		if _, err := otherKey(t).Decrypt(token); KindOf(err) != KindWrongKey {
			t.Errorf("another key: %v, want a wrong-key error", err)
		}
	}
	a, _ := e.Encrypt([]byte("same"))
	b, _ := e.Encrypt([]byte("same"))
	if a == b {
		t.Error("two encryptions of one value are the same token: the content key or IV is not random")
	}
}

func TestNewEncryptorRejects(t *testing.T) {
	priv := fixture(t, "keys/private_key.pkcs7.pem")
	cert := fixture(t, "keys/public_key.pkcs7.pem")
	block, _ := pem.Decode([]byte(cert))
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	pubDER, _ := x509.MarshalPKIXPublicKey(c.PublicKey)
	bare := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}))
	for _, tc := range []struct{ name, pem, want string }{
		{"not PEM", "hello world", "not PEM"},
		{"a private key", priv, `"RSA PRIVATE KEY", not a CERTIFICATE`},
		{"a bare public key", bare, `"PUBLIC KEY", not a CERTIFICATE`},
		{"a damaged certificate", strings.Replace(cert, "MII", "AAA", 1), "cannot parse public key certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewEncryptor([]byte(tc.pem))
			if KindOf(err) != KindCertificate || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want a certificate error with %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "MII") {
				t.Errorf("the error quotes the key: %v", err)
			}
		})
	}
	if _, err := LoadEncryptor(filepath.Join(t.TempDir(), "missing.pem")); KindOf(err) != KindKeyFile || !strings.Contains(err.Error(), "missing.pem") {
		t.Errorf("missing file: %v", err)
	}
}

func TestCreateKeys(t *testing.T) {
	priv, cert, err := CreateKeys(KeyOptions{Subject: "/CN=eyaml/O=Example/C=FR"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(priv), "-----BEGIN RSA PRIVATE KEY-----\n") {
		t.Errorf("private key is not the gem's PKCS#1 PEM: %.40q", priv)
	}
	block, _ := pem.Decode(cert)
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	if c.Subject.String() != "CN=eyaml,O=Example,C=FR" || len(c.RawIssuer) != 2 || c.SerialNumber.Int64() != 1 ||
		!c.IsCA || c.NotAfter.Sub(c.NotBefore) != keyValidity || !isRSA2048(c.PublicKey) {
		t.Errorf("certificate subject %q, issuer %x, serial %v, CA %v, validity %v", c.Subject, c.RawIssuer, c.SerialNumber, c.IsCA, c.NotAfter.Sub(c.NotBefore))
	}
	d, err := NewDecryptor(priv)
	if err == nil {
		d, err = d.WithCertificate(cert)
	}
	if err != nil {
		t.Fatal(err)
	}
	e, _ := NewEncryptor(cert)
	token, _ := e.Encrypt([]byte("s"))
	if got, err := d.Decrypt(token); err != nil || got != "s" {
		t.Errorf("the new pair does not round-trip: %q, %v", got, err)
	}
	for _, bad := range []KeyOptions{{Bits: 512}, {Subject: "/XX=y"}, {Subject: "CN"}} {
		if _, _, err := CreateKeys(bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

func TestFormatToken(t *testing.T) {
	token := "ENC[PKCS7," + strings.Repeat("A", 100) + "]"
	block := "  ENC[PKCS7," + strings.Repeat("A", 50) + "\n  " + strings.Repeat("A", 50) + "]"
	for _, tc := range []struct{ format, label, want string }{
		{"string", "", token},
		{"string", "k", "k: " + token},
		{"block", "", block},
		{"block", "k", "k: >\n" + block},
		{"examples", "", "string: " + token + "\n\nOR\n\nblock: >\n" + block},
		{"nonsense", "k", token},
	} {
		if got := FormatToken(token, tc.format, tc.label); got != tc.want {
			t.Errorf("%s %q: got %q, want %q", tc.format, tc.label, got, tc.want)
		}
	}
}

// The gem's parser: a string token, a block token behind ">", the text between; a token the
// gem's regexes do not match (">-", spaces) stays text.
func TestParseEncrypted(t *testing.T) {
	text := "ENC[PKCS7,AAAA]\na: >\n  ENC[PKCS7,BB\n  BB]\nb: >-\n  ENC[PKCS7,CC\n  CC]\n"
	var kinds []SegmentKind
	var bodies []string
	for _, s := range ParseEncrypted(text) {
		kinds = append(kinds, s.Kind)
		bodies = append(bodies, s.Text)
	}
	want := []SegmentKind{SegEncString, SegText, SegEncBlock, SegText}
	if strings.Join(bodies, "") != text || len(kinds) != len(want) {
		t.Fatalf("segments %q", bodies)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Errorf("segment %d %q: kind %v, want %v", i, bodies[i], kinds[i], want[i])
		}
	}
}

func TestDecryptFileErrors(t *testing.T) {
	e := encryptor(t, "public_key.pkcs7.pem")
	token, _ := e.Encrypt([]byte("topsecret"))
	for _, tc := range []struct {
		name, text string
		kind       Kind
		line       int
	}{
		{"another key's value", "a: 1\nb: " + mustEncrypt(t, "other_public_key.pkcs7.pem", "topsecret") + "\n", KindWrongKey, 2},
		{"cut short", "a: 1\n\nb: " + token[:80] + "\nc: 2\n", KindMalformedToken, 3},
		{"cut inside", "a: " + token[:82] + "]\n", KindNotPKCS7, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ourKey(t).DecryptFile(tc.text)
			var ee *Error
			if KindOf(err) != tc.kind || !asError(err, &ee) || ee.Line != tc.line {
				t.Fatalf("got %v, want kind %v on line %d", err, tc.kind, tc.line)
			}
			if strings.Contains(err.Error(), "topsecret") {
				t.Errorf("plaintext in the error: %v", err)
			}
		})
	}
	if out, err := ourKey(t).DecryptFile("# ENC[PKCS7,...] values\nENC[x\n"); err != nil || out != "# ENC[PKCS7,...] values\nENC[x\n" {
		t.Errorf("prose about ENC[ is text: %q, %v", out, err)
	}
}

func mustEncrypt(t *testing.T, cert, secret string) string {
	t.Helper()
	token, err := encryptor(t, cert).Encrypt([]byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	return token
}

func asError(err error, target **Error) bool {
	e, ok := err.(*Error)
	*target = e
	return ok
}

// EncryptStable: the same key and value, the same token; another value or key, another token;
// every token decrypts.
func TestEncryptStable(t *testing.T) {
	e, other := encryptor(t, "public_key.pkcs7.pem"), encryptor(t, "other_public_key.pkcs7.pem")
	a1, err := e.EncryptStable([]byte("s3cret"))
	if err != nil {
		t.Fatal(err)
	}
	a2, _ := e.EncryptStable([]byte("s3cret"))
	b, _ := e.EncryptStable([]byte("s3cres"))
	c, _ := other.EncryptStable([]byte("s3cret"))
	if a1 != a2 || a1 == b || a1 == c || b == c {
		t.Errorf("same key and value must give the same token, others another: %v %v %v", a1 == a2, a1 == b, a1 == c)
	}
	for _, tc := range []struct {
		token string
		d     *Decryptor
		want  string
	}{{a1, ourKey(t), "s3cret"}, {b, ourKey(t), "s3cres"}, {c, otherKey(t), "s3cret"}} {
		if got, err := tc.d.Decrypt(tc.token); err != nil || got != tc.want {
			t.Errorf("%q, %v; want %q", got, err, tc.want)
		}
	}
}

// isRSA2048 tells whether a certificate's public key is a 2048-bit RSA key.
func isRSA2048(key any) bool {
	k, ok := key.(interface{ Size() int })
	return ok && k.Size() == 256
}
