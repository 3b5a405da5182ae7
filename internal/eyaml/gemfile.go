package eyaml

import (
	"errors"
	"regexp"
	"strings"
)

// Whole-file operations: what `eyaml decrypt`, `edit` and `recrypt` do to a file's text.

// DecryptFile is what `eyaml decrypt -f` prints for text (before the final line break Ruby's puts
// adds): each ENC token replaced by its plaintext; a plaintext with a line break that follows other
// text becomes a YAML "|" block indented by two spaces, as the gem writes it.
func (d *Decryptor) DecryptFile(text string) (string, error) {
	if err := checkTruncated(text); err != nil {
		return "", err
	}
	var b strings.Builder
	afterText := false
	for _, s := range ParseEncrypted(text) {
		if s.Kind == SegText {
			b.WriteString(s.Text)
			afterText = true
			continue
		}
		pt, err := d.decryptSegment(text, s)
		if err != nil {
			return "", err
		}
		if afterText && strings.ContainsAny(pt, "\r\n") {
			pt = "|\n  " + lineBreaks.ReplaceAllString(pt, "$0  ")
		}
		afterText = false
		b.WriteString(pt)
	}
	return b.String(), nil
}

var lineBreaks = regexp.MustCompile(`[\r\n]+`)

// decryptSegment decrypts one ENC token; errors name its line, never its plaintext.
func (d *Decryptor) decryptSegment(text string, s Segment) (string, error) {
	pt, err := d.decryptPayload(s.Scheme, s.Body)
	if err != nil {
		return "", atLine(text, s.Offset+len(s.Text)-len(strings.TrimLeft(s.Text, ">\n \t\r\f\v")), err)
	}
	return pt, nil
}

// atLine prefixes an error of this package with the line of byte offset off in text.
func atLine(text string, off int, err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	return &Error{Kind: e.Kind, Msg: e.Msg, Err: e.Err, Line: LineOf(text, off)}
}

// LineOf is the 1-based line number of byte offset off in text.
func LineOf(text string, off int) int { return 1 + strings.Count(text[:off], "\n") }

// truncatedRe finds an ENC[ token's start and as much payload as follows it; a token is cut short
// when no "]" follows (the gem's parsers would pass it through as text, and hiera would hand the
// ciphertext to Puppet as the value).
var truncatedRe = regexp.MustCompile(`ENC\[(\w+,)?[a-zA-Z0-9+/= \t\r\n\f\v]*`)

// minTruncatedPayload is how much base64 makes an unclosed ENC[ a cut token rather than prose
// ("ENC[...] values" in a comment).
const minTruncatedPayload = 8

func checkTruncated(text string) error {
	for _, loc := range truncatedRe.FindAllStringIndex(text, -1) {
		if loc[1] < len(text) && text[loc[1]] == ']' {
			continue
		}
		payload := strings.Join(strings.Fields(text[loc[0]:loc[1]]), "")
		if len(payload) >= len("ENC[")+minTruncatedPayload {
			return &Error{Kind: KindMalformedToken, Line: LineOf(text, loc[0]), Msg: `ENC[ value is cut short (no closing "]")`}
		}
	}
	return nil
}
