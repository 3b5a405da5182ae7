package rubyre

import (
	"testing"
)

func TestCompileRubyRegexp(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		pattern string
		match   []string
		noMatch []string
		wantErr string
	}{
		"prefix":           {pattern: "^prof::", match: []string{"prof::h"}, noMatch: []string{"xprof::h"}},
		"unanchored-end":   {pattern: "^h", match: []string{"hx", "h"}},
		"anchored":         {pattern: "^a::.*$", match: []string{"a::bc"}, noMatch: []string{"b::a"}},
		"caret-per-line":   {pattern: "^b", match: []string{"a\nb"}},
		"dollar-per-line":  {pattern: "a$", match: []string{"a\nb"}},
		"A-z":              {pattern: `\Aab\z`, match: []string{"ab"}, noMatch: []string{"ab\n", "xab"}},
		"Z":                {pattern: `^ab\Z`, match: []string{"ab", "ab\n"}, noMatch: []string{"abc"}},
		"hex":              {pattern: `^\h+$`, match: []string{"0aF"}, noMatch: []string{"g"}},
		"hex-in-class":     {pattern: `^[\h_]+$`, match: []string{"a_1"}, noMatch: []string{"x"}},
		"not-hex":          {pattern: `^\H$`, match: []string{"g"}, noMatch: []string{"a"}},
		"named-group":      {pattern: `^(?<mod>\w+)::`, match: []string{"m::k"}},
		"quote-named":      {pattern: `^(?'mod'\w+)::`, match: []string{"m::k"}},
		"ruby-m-is-dotall": {pattern: `(?m:a.b)`, match: []string{"a\nb"}},
		"case-flag":        {pattern: `^(?i)abc`, match: []string{"ABC"}},
		"posix-class":      {pattern: `^[[:alpha:]]+$`, match: []string{"abc"}, noMatch: []string{"a1"}},
		"comment":          {pattern: `^a(?#note)b`, match: []string{"ab"}},
		"open-min":         {pattern: `^a{,2}$`, match: []string{"", "aa"}, noMatch: []string{"aaa"}},
		"lazy":             {pattern: `^a+?b`, match: []string{"aab"}},
		"escape-e":         {pattern: `\e`, match: []string{"\x1b"}},
		"unicode-escape":   {pattern: `^\u00e9$`, match: []string{"é"}},
		"unicode-braces":   {pattern: `^\u{e9}$`, match: []string{"é"}},
		"literal-bracket":  {pattern: `^[]a]$`, match: []string{"a"}, wantErr: ""},
		"lookbehind":       {pattern: "^a(?<=b)", wantErr: `lookup_options pattern "^a(?<=b)" uses Ruby regexp syntax that is not supported: lookbehind`},
		"neg-lookbehind":   {pattern: "^a(?<!b)", wantErr: `lookup_options pattern "^a(?<!b)" uses Ruby regexp syntax that is not supported: lookbehind`},
		"lookahead":        {pattern: "^a(?=b)", wantErr: `lookup_options pattern "^a(?=b)" uses Ruby regexp syntax that is not supported: lookahead`},
		"neg-lookahead":    {pattern: "^a(?!b)", wantErr: `lookup_options pattern "^a(?!b)" uses Ruby regexp syntax that is not supported: negative lookahead`},
		"backref":          {pattern: `^(a)\1`, wantErr: `lookup_options pattern "^(a)\\1" uses Ruby regexp syntax that is not supported: backreference`},
		"named-backref":    {pattern: `^(?<x>a)\k<x>`, wantErr: `lookup_options pattern "^(?<x>a)\\k<x>" uses Ruby regexp syntax that is not supported: named backreference`},
		"atomic":           {pattern: "^(?>a)", wantErr: `lookup_options pattern "^(?>a)" uses Ruby regexp syntax that is not supported: atomic group`},
		"possessive":       {pattern: "^a*+", wantErr: `lookup_options pattern "^a*+" uses Ruby regexp syntax that is not supported: possessive quantifier`},
		"possessive-opt":   {pattern: "^a?+", wantErr: `lookup_options pattern "^a?+" uses Ruby regexp syntax that is not supported: possessive quantifier`},
		"extended":         {pattern: "^(?x) a", wantErr: `lookup_options pattern "^(?x) a" uses Ruby regexp syntax that is not supported: extended mode (?x)`},
		"nested-class":     {pattern: "^[a[b]]", wantErr: `lookup_options pattern "^[a[b]]" uses Ruby regexp syntax that is not supported: nested character class`},
		"unmatched-open":   {pattern: "^a(", wantErr: "end pattern with unmatched parenthesis: /^a(/"},
		"unmatched-close":  {pattern: "^a)", wantErr: "unmatched close parenthesis: /^a)/"},
		"open-class":       {pattern: "^[a", wantErr: "premature end of char-class: /^[a/"},
		"bad-repeat":       {pattern: "*a", wantErr: "target of repeat operator is not specified: /*a/"},
		"bad-range":        {pattern: "^[z-a]", wantErr: "empty range in char class: /^[z-a]/"},
		"escaped-plus":     {pattern: `^a\++`, match: []string{"a++"}},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			re, err := Compile(tc.pattern)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("Compile(%q) error = %v, want %q", tc.pattern, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Compile(%q) unexpected error %v", tc.pattern, err)
			}
			for _, s := range tc.match {
				if !re.MatchString(s) {
					t.Errorf("%q should match %q", tc.pattern, s)
				}
			}
			for _, s := range tc.noMatch {
				if re.MatchString(s) {
					t.Errorf("%q should not match %q", tc.pattern, s)
				}
			}
		})
	}
}
