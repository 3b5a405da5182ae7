package eyaml

import "strings"

// The gem's output forms of an ENC token (EncToken#to_encrypted, `eyaml encrypt -o`).

// blockWidth is the gem's line length of a block token: `.scan(/.{1,60}/)`.
const blockWidth = 60

// FormatToken renders token (ENC[PKCS7,...] on one line) as `eyaml encrypt -o format -l label`
// prints it: "string", "block" (indented two spaces, 60 characters a line, behind "label: >" when
// labelled), or "examples" (both, labelled "string" and "block" unless a label is given). Any other
// format is the bare string form, as the gem's.
func FormatToken(token, format, label string) string {
	labelled := func(l string) string {
		if l == "" {
			return ""
		}
		return l + ": "
	}
	switch format {
	case "string":
		return labelled(label) + token
	case "block":
		chevron := ""
		if label != "" {
			chevron = ">\n"
		}
		return labelled(label) + chevron + "  " + wrap(token, blockWidth, "\n  ")
	case "examples":
		s, b := label, label
		if label == "" {
			s, b = "string", "block"
		}
		return FormatToken(token, "string", s) + "\n\nOR\n\n" + FormatToken(token, "block", b)
	}
	return token
}

// wrap cuts s into lines of width bytes (s is base64 and ASCII) joined by sep.
func wrap(s string, width int, sep string) string {
	var b strings.Builder
	for len(s) > width {
		b.WriteString(s[:width])
		b.WriteString(sep)
		s = s[width:]
	}
	b.WriteString(s)
	return b.String()
}
