package eyaml

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// hiera-eyaml's patterns, as regexps: the reference the hand scanners of token.go must agree with.
var (
	gateRe   = regexp.MustCompile(`ENC\[.*?\]`)
	tokenRe  = regexp.MustCompile(`ENC\[(\w+,)?([a-zA-Z0-9+/ =\n]+?)\]`)
	singleRe = regexp.MustCompile(`(?s)^ENC\[(?:(\w+),)?(.*)\]$`)
)

// agreeWithRegexps fails t when a scanner of token.go answers s otherwise than its regexp.
func agreeWithRegexps(t *testing.T, s string) {
	t.Helper()
	if got, want := Gated(s), gateRe.MatchString(s); got != want {
		t.Fatalf("Gated(%q) = %v, the regexp says %v", s, got, want)
	}
	var got [][]int
	for loc, ok := nextToken(s, 0); ok; loc, ok = nextToken(s, loc[1]) {
		got = append(got, loc[:])
	}
	want := tokenRe.FindAllStringSubmatchIndex(s, -1)
	if len(got) != len(want) {
		t.Fatalf("%q: tokens %v, the regexp finds %v", s, got, want)
	}
	for i := range want {
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Fatalf("%q: tokens %v, the regexp finds %v", s, got, want)
			}
		}
	}
	scheme, payload, ok := splitSingle(s)
	m := singleRe.FindStringSubmatch(s)
	if ok != (m != nil) || (m != nil && (scheme != m[1] || payload != m[2])) {
		t.Fatalf("splitSingle(%q) = %q, %q, %v; the regexp says %q", s, scheme, payload, ok, m)
	}
}

func TestTokenScannersAgreeWithRegexps(t *testing.T) {
	for _, s := range []string{
		"", "ENC[", "ENC[]", "ENC[PKCS7,]", "ENC[PKCS7,abc]", "ENC[abc]", "ENC[_x,abc]", "ENC[_x]", "x ENC[PKCS7,a b\nc=] y",
		"ENC[PKCS7,abc\n]", "ENC[\n]", "ENC[ENC[abc]", "ENC[a,b,c]", "ENC[a,ENC[b]]", "ENC[PKCS7,ab]ENC[GPG,cd]", "ENC[é]",
		"ENC[PKCS7,a\n b]\nENC[x", "ENCENC[[a]", "ENC[a;ENC[b]", "ENC[ab\nENC[cd]", "ENC[\n\n]]", "ENC[,a]", "ENC[a,]",
	} {
		agreeWithRegexps(t, s)
	}
	pieces := []string{"ENC[", "PKCS7,", "GPG", "]", "[", "\n", " ", "a", "Z9", "_", ",", "=", "+/", "é", "\r", "E", "NC["}
	r := rand.New(rand.NewPCG(41, 6))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		agreeWithRegexps(t, b.String())
	}
}

func FuzzTokenScanners(f *testing.F) {
	f.Add("a ENC[PKCS7,aGVsbG8=] b ENC[GPG,abc=]\n")
	f.Add("ENC[x\nENC[y]")
	f.Fuzz(agreeWithRegexps)
}
