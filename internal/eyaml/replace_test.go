package eyaml

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestReplaceAllHiera replays testdata/hiera: values.json holds the strings
// Ruby's YAML parser makes of common.eyaml, expected.json what
// `puppet lookup` (eyaml_lookup_key) returned for each key.
func TestReplaceAllHiera(t *testing.T) {
	var values, expected map[string]string
	for f, m := range map[string]*map[string]string{"hiera/values.json": &values, "hiera/expected.json": &expected} {
		if err := json.Unmarshal([]byte(fixture(t, f)), m); err != nil {
			t.Fatal(f, err)
		}
	}
	if len(values) != len(expected) || len(values) < 20 {
		t.Fatalf("%d values, %d expected", len(values), len(expected))
	}
	// Values hiera leaves encrypted or that hold no token at all.
	noToken := map[string]bool{
		"literal_block": true, "not_token_dash": true, "not_token_tab": true,
		"no_token": true, "literal_not_token": true,
	}
	d := ourKey(t)
	for key, raw := range values {
		t.Run(key, func(t *testing.T) {
			got, found, err := d.ReplaceAll(raw)
			if err != nil {
				t.Fatal(err)
			}
			if got != expected[key] {
				t.Errorf("got  %q\nwant %q", got, expected[key])
			}
			if found != !noToken[key] || HasToken(raw) != found {
				t.Errorf("found = %v, HasToken = %v", found, HasToken(raw))
			}
		})
	}
}

func TestReplaceAllErrors(t *testing.T) {
	good := strings.TrimSpace(fixture(t, "vectors/short.enc"))
	other := strings.TrimSpace(fixture(t, "openssl/other_key.enc"))
	tests := []struct {
		name, s string
		kind    Kind
		parts   []string
	}{
		{"wrong key second", "a=" + good + " b=" + other, KindWrongKey, []string{"ENC value 2 of 2", "another key"}},
		{"GPG", "x ENC[GPG,hQEMAw==] y", KindGPG, []string{"only PKCS7"}},
		{"unknown scheme", good + " ENC[SECRETBOX,abcd]", KindUnknownScheme, []string{"SECRETBOX"}},
		{"bad base64 length", "ENC[PKCS7,abc]", KindBase64, []string{"ENC value 1 of 1 (byte offset 0)"}},
		{"not PKCS7", "ENC[PKCS7,aGVsbG8=]", KindNotPKCS7, nil},
		{"spaces only decode", "ENC[ PKCS7 ]", KindBase64, nil}, // hiera also fails here
	}
	d := ourKey(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, found, err := d.ReplaceAll(tt.s)
			if got != "" || found {
				t.Errorf("got %q, %v with error", got, found)
			}
			wantKind(t, err, tt.kind, tt.parts...) // also: no "secret" from the good token
		})
	}
}

func TestReplaceAllPlain(t *testing.T) {
	d := ourKey(t)
	for _, s := range []string{"", "plain", "line\n", "ENC[]", "ENC[PKCS7,]", "ENC[PKCS7,a_b]x", "enc[PKCS7,abcd]"} {
		got, found, err := d.ReplaceAll(s)
		if err != nil || found || HasToken(s) {
			t.Errorf("%q: found=%v HasToken=%v err=%v", s, found, HasToken(s), err)
		}
		if want := s; got != want && got != chomp(s) {
			t.Errorf("%q: got %q", s, got)
		}
	}
}

func TestChomp(t *testing.T) {
	for in, want := range map[string]string{
		"": "", "a": "a", "a\n": "a", "a\n\n": "a\n", "a\r\n": "a", "a\r": "a", "a\r\r\n": "a\r", "a\n\r": "a\n",
	} {
		if got := chomp(in); got != want {
			t.Errorf("chomp(%q) = %q, want %q", in, got, want)
		}
	}
}
