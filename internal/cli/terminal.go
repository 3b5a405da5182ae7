package cli

// Text from data printed to a terminal: its control characters escaped, so that data cannot move
// the cursor, clear the screen or forge lines (a key "k\r\x1b[2Kall good" erased its own problem
// line in check's output).

import (
	"fmt"
	"io"
	"strings"
)

// escapeControl escapes the control characters of one line of text from data (a line break as \n,
// a tab as \t, others as \xNN or \uNNNN); a backslash is left as it is.
func escapeControl(s string) string { return escapeText(s, false) }

// escapeText is escapeControl, leaving line breaks and tabs as they are when multiline is set.
func escapeText(s string, multiline bool) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return isControl(r) && (!multiline || r != '\n' && r != '\t') }) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case multiline && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x80 && isControl(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case isControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isControl reports whether r is a control character, or one that reorders text (bidirectional
// overrides and isolates).
func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// terminalWriter escapes the control characters of everything written to a terminal but line
// breaks and tabs: every command's output and messages (Run puts it on stdout and stderr when they
// are terminals), whichever text from data they hold. check's progress line writes past it.
type terminalWriter struct{ w io.Writer }

func (t terminalWriter) Write(p []byte) (int, error) {
	s := string(p)
	if escaped := escapeText(s, true); escaped != s {
		_, err := io.WriteString(t.w, escaped)
		return len(p), err
	}
	return t.w.Write(p)
}
