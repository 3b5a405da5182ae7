package eyaml

import (
	"encoding/base64"
	"errors"
	"regexp"
	"strings"
)

var (
	// hiera's encrypted? test (eyaml_lookup_key.rb): "ENC[" and "]" on one
	// line. Strings failing it are returned untouched, even if a token
	// spans lines, e.g. a `|` literal block of eyaml's block output.
	gateRe = regexp.MustCompile(`ENC\[.*?\]`)
	// hiera's EncHieraTokenType regex, verbatim: a `>` folded block turns
	// eyaml's line breaks into spaces, so spaces and newlines are allowed.
	tokenRe = regexp.MustCompile(`ENC\[(\w+,)?([a-zA-Z0-9+/ =\n]+?)\]`)
	// Decrypt's single token: any payload, validated by base64 decoding.
	singleRe = regexp.MustCompile(`(?s)^ENC\[(?:(\w+),)?(.*)\]$`)
)

// Gated is hiera-eyaml's encrypted? test: "ENC[" and "]" on one line. Hiera chomps a value that
// passes it even when it holds no decryptable token.
func Gated(s string) bool { return gateRe.MatchString(s) }

// ChompGated is what hiera-eyaml does to a string without a decryptable token: one that passes
// its encrypted? test (Gated) still loses one trailing line break, as the parser's result is
// chomped. Other strings are returned as they are.
func ChompGated(s string) string {
	if (strings.HasSuffix(s, "\n") || strings.HasSuffix(s, "\r")) && Gated(s) {
		return chomp(s)
	}
	return s
}

// HasToken reports whether ReplaceAll would decrypt anything in s.
func HasToken(s string) bool {
	return gateRe.MatchString(s) && tokenRe.MatchString(s)
}

// Decrypt decrypts one ENC[PKCS7,<base64>] token. Surrounding whitespace
// and whitespace inside the base64 (eyaml's block form) are ignored. The
// scheme may be omitted (PKCS7 is hiera-eyaml's default) and is matched
// case-insensitively, like hiera-eyaml's plugin lookup.
func (d *Decryptor) Decrypt(token string) (string, error) {
	m := singleRe.FindStringSubmatch(strings.TrimSpace(token))
	if m == nil {
		return "", newErr(KindMalformedToken, nil, "value is not an ENC[PKCS7,...] token")
	}
	return d.decryptPayload(m[1], m[2])
}

// ReplaceAll decrypts every ENC[...] token in s, leaving the text around
// them, and reports whether there was any. It reproduces hiera-eyaml's
// lookup (checked against `puppet lookup`): tokens are found with hiera's
// regex, and when s passes hiera's encrypted? test one trailing line
// break is removed from the result (Ruby's chomp), which drops the "\n" a
// `>` folded block adds.
func (d *Decryptor) ReplaceAll(s string) (string, bool, error) {
	if !gateRe.MatchString(s) {
		return s, false, nil
	}
	locs := tokenRe.FindAllStringSubmatchIndex(s, -1)
	var b strings.Builder
	last := 0
	for i, loc := range locs {
		scheme := ""
		if loc[2] >= 0 {
			scheme = s[loc[2] : loc[3]-1] // drop the comma
		}
		pt, err := d.decryptPayload(scheme, s[loc[4]:loc[5]])
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				return "", false, err
			}
			return "", false, newErr(e.Kind, e.Err, "ENC value %d of %d (byte offset %d): %s", i+1, len(locs), loc[0], e.Msg)
		}
		b.WriteString(s[last:loc[0]])
		b.WriteString(pt)
		last = loc[1]
	}
	b.WriteString(s[last:])
	return chomp(b.String()), len(locs) > 0, nil
}

func (d *Decryptor) decryptPayload(scheme, payload string) (string, error) {
	switch {
	case scheme == "" || strings.EqualFold(scheme, "PKCS7"):
	case strings.EqualFold(scheme, "GPG"):
		return "", newErr(KindGPG, nil, "ENC[GPG,...] values are not supported: only PKCS7")
	default:
		if len(scheme) > 32 {
			scheme = scheme[:32] + "..."
		}
		return "", newErr(KindUnknownScheme, nil, "unknown encryption scheme ENC[%s,...]: only PKCS7 is supported", scheme)
	}
	der, err := decodeBase64(payload)
	if err != nil {
		return "", err
	}
	pt, err := d.open(der)
	if err != nil {
		return "", err
	}
	return string(pt), nil
}

// decodeBase64 drops whitespace, as hiera does, and decodes.
func decodeBase64(payload string) ([]byte, error) {
	compact := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			return -1
		}
		return r
	}, payload)
	if compact == "" {
		return nil, newErr(KindBase64, nil, "ENC value has an empty payload")
	}
	der, err := base64.StdEncoding.DecodeString(compact)
	if err != nil {
		return nil, newErr(KindBase64, err, "ENC value is not valid base64")
	}
	return der, nil
}

// chomp removes one trailing "\r\n", "\n" or "\r", like Ruby's String#chomp.
func chomp(s string) string {
	if strings.HasSuffix(s, "\r\n") {
		return s[:len(s)-2]
	}
	return strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r")
}
