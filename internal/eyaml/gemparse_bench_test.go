package eyaml

import (
	"strings"
	"testing"
)

// BenchmarkParseEncrypted: a large data file of string values (no block values: the block
// pattern, searched again from every token, finds nothing until the end).
func BenchmarkParseEncrypted(b *testing.B) {
	token := "ENC[PKCS7," + strings.Repeat("A", 400) + "]"
	var sb strings.Builder
	for i := 0; i < 2000; i++ {
		sb.WriteString("key" + strings.Repeat("x", i%7) + ": " + token + "\n")
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if n := len(ParseEncrypted(text)); n != 4001 { // a text and a token per line, the last line break
			b.Fatalf("%d segments", n)
		}
	}
}
