package eyaml

import (
	"fmt"
	"strings"
)

// Edit is one `eyaml edit` of a file: the form shown in the editor, and what is needed to write the
// edited form back with only the changed values encrypted again.
type Edit struct {
	// Form is the file with every ENC token as DEC(n)::PKCS7[plaintext]!, n the token's index among
	// the gem's tokens of the file (text included), as `eyaml edit` numbers them.
	Form  string
	segs  []Segment
	plain map[int]string // plaintext by token index
}

// NewEdit decrypts every ENC token of text into the edit form.
func (d *Decryptor) NewEdit(text string) (*Edit, error) {
	return d.decryptForm(text, true)
}

// DecryptForm is text with every ENC token as DEC::PKCS7[plaintext]!, as `eyaml decrypt -e` prints it.
func (d *Decryptor) DecryptForm(text string) (string, error) {
	e, err := d.decryptForm(text, false)
	if err != nil {
		return "", err
	}
	return e.Form, nil
}

func (d *Decryptor) decryptForm(text string, numbered bool) (*Edit, error) {
	if err := checkTruncated(text); err != nil {
		return nil, err
	}
	e := &Edit{segs: ParseEncrypted(text), plain: map[int]string{}}
	var b strings.Builder
	for i, s := range e.segs {
		if s.Kind == SegText {
			b.WriteString(s.Text)
			continue
		}
		pt, err := d.decryptSegment(text, s)
		if err != nil {
			return nil, err
		}
		if numbered && strings.Contains(pt, "]!") { // the gem's edit would cut it there and save the cut value
			return nil, &Error{Kind: KindMalformedToken, Line: LineOf(text, s.Offset),
				Msg: `the value holds "]!", which ends a DEC(n)::PKCS7[...]! value: the edit form cannot show it (use decrypt and encrypt)`}
		}
		e.plain[i] = pt
		if s.Block() {
			b.WriteString(">\n" + s.Indent)
		}
		b.WriteString("DEC")
		if numbered {
			fmt.Fprintf(&b, "(%d)", i)
		}
		b.WriteString("::PKCS7[" + pt + "]!")
	}
	e.Form = b.String()
	return e, nil
}

// Apply turns the edited form back into the file: a DEC(n) whose plaintext is unchanged keeps the
// original token's bytes (its ciphertext, so a review diff shows only what changed); a changed or
// new value is encrypted with enc, in string form or, behind ">", in the gem's block form. changed
// counts the values encrypted.
func (e *Edit) Apply(edited string, enc *Encryptor) (out string, changed int, err error) {
	segs := ParseDecrypted(edited)
	seen := map[int]bool{}
	for _, s := range segs {
		if s.Kind == SegText || s.ID < 0 {
			continue
		}
		if seen[s.ID] {
			return "", 0, &Error{Kind: KindMalformedToken, Line: LineOf(edited, s.Offset),
				Msg: fmt.Sprintf("DEC(%d) appears twice (a copied value?): remove the number and its parentheses from the copy", s.ID)}
		}
		seen[s.ID] = true
		if _, ok := e.plain[s.ID]; !ok {
			return "", 0, &Error{Kind: KindMalformedToken, Line: LineOf(edited, s.Offset),
				Msg: fmt.Sprintf("DEC(%d) is not a value of the file: do not change the numbers; write a new value as DEC::PKCS7[...]!", s.ID)}
		}
	}
	return e.write(segs, edited, enc)
}

// EncryptForm encrypts every DEC::PKCS7[...]! value of text, as `eyaml encrypt -e` does.
func EncryptForm(text string, enc *Encryptor) (string, error) {
	out, _, err := (&Edit{}).write(ParseDecrypted(text), text, enc)
	return out, err
}

// write encrypts the DEC tokens of segs (the parsed text) but those e holds unchanged.
func (e *Edit) write(segs []Segment, text string, enc *Encryptor) (out string, changed int, err error) {
	var b strings.Builder
	for _, s := range segs {
		if s.Kind == SegText {
			b.WriteString(s.Text)
			continue
		}
		if pt, ok := e.plain[s.ID]; ok && pt == s.Body {
			orig := e.segs[s.ID]
			if s.Block() && !orig.Block() { // the ">\n" the DEC token took is not in a string token
				b.WriteString(">\n" + s.Indent)
			}
			b.WriteString(orig.Text)
			continue
		}
		if !strings.EqualFold(s.Scheme, "PKCS7") {
			return "", 0, &Error{Kind: KindUnknownScheme, Line: LineOf(text, s.Offset),
				Msg: "only DEC::PKCS7[...]! values can be encrypted"}
		}
		token, err := enc.Encrypt([]byte(s.Body))
		if err != nil {
			return "", 0, err
		}
		changed++
		if s.Block() {
			b.WriteString(">\n" + s.Indent + wrap(token, blockWidth, "\n"+s.Indent))
		} else {
			b.WriteString(token)
		}
	}
	return b.String(), changed, nil
}
