package eyaml

import (
	"encoding/base64"
	"errors"
	"strings"
)

// The three patterns of hiera-eyaml, matched by hand in one pass each: Go's regexp engine took
// about a microsecond per byte on them (a 2.7 MB value: 2.5 s per lookup, a 48 MB one: 45 s).
// token_test.go checks them against the regexps, which the comments quote.

// Gated is hiera-eyaml's encrypted? test, `ENC\[.*?\]`: "ENC[" and "]" on one line. Hiera chomps
// a value that passes it even when it holds no decryptable token. Strings failing it are returned
// untouched by ReplaceAll, even if a token spans lines (a `|` literal block of eyaml's block output).
func Gated(s string) bool {
	end := -1 // the first "]" or "\n" after the last "ENC[" looked at
	for i := 0; ; i++ {
		at := strings.Index(s[i:], "ENC[")
		if at < 0 {
			return false
		}
		i += at
		if end < i+4 {
			end = i + 4 + strings.IndexAny(s[i+4:], "]\n")
			if end < i+4 {
				return false // neither follows: no later "ENC[" has one either
			}
		}
		if s[end] == ']' {
			return true
		}
	}
}

// nextToken finds the first token of hiera's EncHieraTokenType regexp at or after from,
// `ENC\[(\w+,)?([a-zA-Z0-9+/ =\n]+?)\]` (a `>` folded block turns eyaml's line breaks into
// spaces, so spaces and newlines are allowed): the token's start and end, its scheme (start and
// end of the group with its comma, -1 when absent) and its payload's; ok false when there is none.
func nextToken(s string, from int) (loc [6]int, ok bool) {
	for i := from; ; i++ {
		at := strings.Index(s[i:], "ENC[")
		if at < 0 {
			return loc, false
		}
		i += at
		body := i + 4
		if word := body + wordRun(s[body:]); word > body && word < len(s) && s[word] == ',' {
			if end := word + 1 + payloadRun(s[word+1:]); end > word+1 && end < len(s) && s[end] == ']' {
				return [6]int{i, end + 1, body, word + 1, word + 1, end}, true
			}
		}
		if end := body + payloadRun(s[body:]); end > body && end < len(s) && s[end] == ']' {
			return [6]int{i, end + 1, -1, -1, body, end}, true
		}
	}
}

// wordRun is the length of the run of \w (ASCII letters, digits, "_") s starts with.
func wordRun(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '_' {
			return i
		}
	}
	return len(s)
}

// payloadRun is the length of the run of [a-zA-Z0-9+/ =\n] s starts with.
func payloadRun(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '+' && c != '/' && c != ' ' && c != '=' && c != '\n' {
			return i
		}
	}
	return len(s)
}

func isAlnum(c byte) bool { return c-'a' < 26 || c-'A' < 26 || c-'0' < 10 }

// splitSingle splits Decrypt's single token, `(?s)^ENC\[(?:(\w+),)?(.*)\]$`, into its scheme
// ("" when absent) and payload (any: base64 decoding validates it).
func splitSingle(s string) (scheme, payload string, ok bool) {
	if !strings.HasPrefix(s, "ENC[") || !strings.HasSuffix(s, "]") || len(s) < len("ENC[]") {
		return "", "", false
	}
	body := s[4 : len(s)-1]
	if word := wordRun(body); word > 0 && word < len(body) && body[word] == ',' {
		return body[:word], body[word+1:], true
	}
	return "", body, true
}

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
	if !Gated(s) {
		return false
	}
	_, ok := nextToken(s, 0)
	return ok
}

// Decrypt decrypts one ENC[PKCS7,<base64>] token. Surrounding whitespace
// and whitespace inside the base64 (eyaml's block form) are ignored. The
// scheme may be omitted (PKCS7 is hiera-eyaml's default) and is matched
// case-insensitively, like hiera-eyaml's plugin lookup.
func (d *Decryptor) Decrypt(token string) (string, error) {
	scheme, payload, ok := splitSingle(strings.TrimSpace(token))
	if !ok {
		return "", newErr(KindMalformedToken, nil, "value is not an ENC[PKCS7,...] token")
	}
	return d.decryptPayload(scheme, payload)
}

// ReplaceAll decrypts every ENC[...] token in s, leaving the text around
// them, and reports whether there was any. It reproduces hiera-eyaml's
// lookup (checked against `puppet lookup`): tokens are found with hiera's
// regex, and when s passes hiera's encrypted? test one trailing line
// break is removed from the result (Ruby's chomp), which drops the "\n" a
// `>` folded block adds.
func (d *Decryptor) ReplaceAll(s string) (string, bool, error) {
	if !Gated(s) {
		return s, false, nil
	}
	var locs [][6]int
	for loc, ok := nextToken(s, 0); ok; loc, ok = nextToken(s, loc[1]) {
		locs = append(locs, loc)
	}
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
