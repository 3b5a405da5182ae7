package eyaml

import (
	"regexp"
	"strings"
)

// anyTokenRe finds every ENC token hiera would decrypt in a file's text, in any layout (the gem's
// parser misses a token behind ">-" or "|", which Puppet still decrypts).
var anyTokenRe = regexp.MustCompile(`ENC\[(\w+,)?([a-zA-Z0-9+/= \t\r\n\f\v]+?)\]`)

// Recrypt re-encrypts every ENC token of text from d's key to enc's, in the layout it had (the same
// line length and indentation); every other byte is kept. It returns the new text and how many
// tokens it re-encrypted; on any error (a token d cannot decrypt, one cut short) nothing is
// returned. No plaintext outlives the call.
func Recrypt(text string, d *Decryptor, enc *Encryptor) (string, int, error) {
	if err := checkTruncated(text); err != nil {
		return "", 0, err
	}
	var b strings.Builder
	last, n := 0, 0
	for _, loc := range anyTokenRe.FindAllStringSubmatchIndex(text, -1) {
		scheme := ""
		if loc[2] >= 0 {
			scheme = text[loc[2] : loc[3]-1]
		}
		pt, err := d.decryptPayload(scheme, text[loc[4]:loc[5]])
		if err != nil {
			return "", 0, atLine(text, loc[0], err)
		}
		token, err := enc.Encrypt([]byte(pt))
		if err != nil {
			return "", 0, err
		}
		if scheme != "" { // keep the scheme as written (ENC[pkcs7,...] is valid too)
			token = "ENC[" + scheme + token[len("ENC[PKCS7"):]
		} else {
			token = "ENC[" + token[len("ENC[PKCS7,"):]
		}
		b.WriteString(text[last:loc[0]])
		b.WriteString(layoutLike(text[loc[0]:loc[1]], token))
		last = loc[1]
		n++
	}
	b.WriteString(text[last:])
	return b.String(), n, nil
}

// layoutLike lays token out as orig was: on one line, or cut at orig's first line's length with
// orig's first line break and indentation between the lines.
func layoutLike(orig, token string) string {
	first := strings.IndexAny(orig, "\r\n")
	if first < 0 {
		return token
	}
	rest := orig[first:]
	sep := rest[:len(rest)-len(strings.TrimLeft(rest, " \t\r\n\f\v"))]
	return wrap(token, first, sep)
}
