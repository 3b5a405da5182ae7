package eyaml

import (
	"regexp"
	"strings"
	"testing"
)

// Recrypt keeps every byte around the values and each value's layout: one line, the gem's 60
// columns, CRLF line breaks, another width and indentation, no scheme or a lower-case one.
func TestRecryptKeepsLayout(t *testing.T) {
	e := encryptor(t, "public_key.pkcs7.pem")
	token, _ := e.Encrypt([]byte("s3cret"))
	b64 := token[len("ENC[PKCS7,") : len(token)-1]
	text := "a: " + token + " # one line\r\n" +
		"b: >\r\n  " + wrap(token, 60, "\r\n  ") + "\r\n" +
		"c: |\n      " + wrap(token, 40, "\n      ") + "\n" +
		"d: ENC[" + b64 + "]\n" +
		"e: ENC[pkcs7," + b64 + "]\n"
	out, n, err := Recrypt(text, ourKey(t), encryptor(t, "other_public_key.pkcs7.pem"))
	if err != nil || n != 5 {
		t.Fatalf("%d values, %v", n, err)
	}
	layout := regexp.MustCompile(`[A-Za-z0-9+/=]+`)
	if layout.ReplaceAllString(out, "x") != layout.ReplaceAllString(text, "x") {
		t.Errorf("the layout changed:\n%s\nwas\n%s", out, text)
	}
	for _, tok := range anyTokenRe.FindAllString(out, -1) {
		if pt, err := otherKey(t).Decrypt(tok); err != nil || pt != "s3cret" {
			t.Errorf("%q: %q, %v", tok, pt, err)
		}
	}
	if !strings.Contains(out, "d: ENC[MII") || !strings.Contains(out, "e: ENC[pkcs7,MII") {
		t.Errorf("the schemes as written are not kept:\n%s", out)
	}
	if _, _, err := Recrypt(text, otherKey(t), e); KindOf(err) != KindWrongKey {
		t.Errorf("another key: %v", err)
	}
}
