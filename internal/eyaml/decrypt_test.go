package eyaml

import (
	"bytes"
	"encoding/pem"
	"strings"
	"testing"
)

func TestDecryptVectors(t *testing.T) {
	d := ourKey(t)
	for _, name := range []string{"short", "empty", "unicode", "multiline", "long"} {
		want := fixture(t, "vectors/"+name+".txt")
		for _, form := range []string{".enc", ".block"} {
			t.Run(name+form, func(t *testing.T) {
				got, err := d.Decrypt(fixture(t, "vectors/"+name+form))
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("got %q, want %q", got, want)
				}
			})
		}
	}
}

func TestDecryptVariants(t *testing.T) {
	d := ourKey(t)
	short := strings.TrimSpace(fixture(t, "vectors/short.enc"))
	b64 := strings.TrimSuffix(strings.TrimPrefix(short, "ENC[PKCS7,"), "]")
	tests := []struct{ name, token string }{
		{"openssl aes-128-cbc", fixture(t, "openssl/aes128.enc")},
		{"openssl aes-192-cbc", fixture(t, "openssl/aes192.enc")},
		{"openssl des-ede3-cbc", fixture(t, "openssl/des3.enc")},
		{"openssl -stream BER", fixture(t, "openssl/ber_stream.enc")},
		{"two recipients, ours second", fixture(t, "openssl/two_recipients.enc")},
		{"no scheme", "ENC[" + b64 + "]"},
		{"lower-case scheme", "ENC[pkcs7," + b64 + "]"},
		{"surrounding whitespace", "\n  " + short + " \n"},
		{"folded block spaces", "ENC[PKCS7," + b64[:60] + " " + b64[60:120] + " " + b64[120:] + "]"},
		{"CRLF and tabs", "ENC[PKCS7,\r\n\t" + b64[:60] + "\r\n\t" + b64[60:] + "\r\n]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := d.Decrypt(tt.token)
			if err != nil || got != "secret" {
				t.Fatalf("got %q, %v", got, err)
			}
		})
	}
}

func TestDecryptErrors(t *testing.T) {
	short := der(t, "vectors/short.enc")
	block, _ := pem.Decode([]byte(fixture(t, "keys/public_key.pkcs7.pem")))
	cert := block.Bytes // a DER certificate: ASN.1, but not PKCS7
	tests := []struct {
		name  string
		d     *Decryptor
		token string
		kind  Kind
		parts []string
	}{
		{"empty", nil, "", KindMalformedToken, nil},
		{"plain text", nil, "secret-ish", KindMalformedToken, []string{"not an ENC"}},
		{"unterminated", nil, "ENC[PKCS7,abc", KindMalformedToken, nil},
		{"text around token", nil, "x " + token(short), KindMalformedToken, nil},
		{"bad base64 char", nil, "ENC[PKCS7,ab!d]", KindBase64, []string{"base64"}},
		{"bad base64 length", nil, "ENC[PKCS7,abcde]", KindBase64, nil},
		{"empty payload", nil, "ENC[PKCS7,]", KindBase64, []string{"empty"}},
		{"blank payload", nil, "ENC[PKCS7, \n ]", KindBase64, []string{"empty"}},
		{"GPG", nil, "ENC[GPG,hQEMAw==]", KindGPG, []string{"ENC[GPG,...] values are not supported: only PKCS7"}},
		{"gpg lower", nil, "ENC[gpg,hQEMAw==]", KindGPG, nil},
		{"unknown scheme", nil, "ENC[FOO,abcd]", KindUnknownScheme, []string{"FOO"}},
		{"not ASN.1", nil, token([]byte("hello world")), KindNotPKCS7, nil},
		{"certificate", nil, token(cert), KindNotPKCS7, []string{"not PKCS7"}},
		{"signedData", nil, fixture(t, "openssl/signed.enc"), KindNotPKCS7, []string{"signedData"}},
		{"truncated", nil, token(short[:len(short)-5]), KindNotPKCS7, []string{"truncated"}},
		{"trailing data", nil, token(append(bytes.Clone(short), 0, 0)), KindNotPKCS7, []string{"trailing"}},
		{"other key's value", nil, fixture(t, "openssl/other_key.enc"), KindWrongKey, []string{"the value was encrypted for another key"}},
		{"decrypted with other key", otherKey(t), token(short), KindWrongKey, []string{"another key"}},
		{"zero Decryptor", &Decryptor{}, token(short), KindKeyNotPEM, nil},
		{"tampered short", nil, token(tamper(t, short)), KindTampered, []string{"bad padding"}},
		{"tampered long", nil, token(tamper(t, der(t, "vectors/long.enc"))), KindTampered, nil},
		{"camellia", nil, fixture(t, "openssl/camellia256.enc"), KindUnsupportedCipher, []string{"camellia-256-cbc (1.2.392.200011.61.1.1.1.4)"}},
		{"aes-gcm OID", nil, token(replaceOID(t, short, "2a", "2e")), KindUnsupportedCipher, []string{"aes-256-gcm"}},
		{"RSA-OAEP transport", nil, token(replaceOID(t, short, "01", "07")), KindUnsupportedCipher, []string{"rsaes-oaep"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.d
			if d == nil {
				d = ourKey(t)
			}
			got, err := d.Decrypt(tt.token)
			if got != "" {
				t.Errorf("got plaintext %q with error", got)
			}
			wantKind(t, err, tt.kind, tt.parts...)
		})
	}
}

// tamper flips the low bit of the byte that CBC XORs into the last
// padding byte, so the padding is always invalid, whatever the key.
func tamper(t *testing.T, der []byte) []byte {
	t.Helper()
	der = bytes.Clone(der)
	env, err := parseEnvelope(der) // slices alias der
	if err != nil {
		t.Fatal(err)
	}
	if n := len(env.ciphertext); n > 16 {
		env.ciphertext[n-17] ^= 1
	} else {
		env.iv[len(env.iv)-1] ^= 1
	}
	return der
}

// replaceOID swaps the last byte of the aes-256-cbc (last "2a") or
// rsaEncryption (last "01") OID for another OID of the same length.
func replaceOID(t *testing.T, der []byte, from, to string) []byte {
	t.Helper()
	oids := map[string][]byte{
		"2a": {0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x01, 0x2a},
		"01": {0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01},
	}
	old := oids[from]
	repl := append(bytes.Clone(old[:8]), map[string]byte{"2e": 0x2e, "07": 0x07}[to])
	if !bytes.Contains(der, old) {
		t.Fatal("OID not found")
	}
	return bytes.Replace(der, old, repl, 1)
}

func TestDecryptCBCLength(t *testing.T) {
	spec := ciphers["2.16.840.1.101.3.4.1.42"]
	key, iv := make([]byte, 32), make([]byte, 16)
	_, err := decryptCBC(spec, key, iv, make([]byte, 15))
	wantKind(t, err, KindTampered, "multiple of 16")
	_, err = decryptCBC(spec, key, iv, nil)
	wantKind(t, err, KindTampered)
	_, err = decryptCBC(spec, key, iv[:8], make([]byte, 16))
	wantKind(t, err, KindNotPKCS7, "IV")
}
