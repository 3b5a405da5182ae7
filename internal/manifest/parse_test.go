package manifest

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func parseFixture(t *testing.T, name string) *File {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(name, src)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return f
}

// TestParseClass reads a class header as Puppet's parser does: every parameter in order, its
// type as written, its line, whether it has a default; the parent class; a class nested in it.
func TestParseClass(t *testing.T) {
	f := parseFixture(t, "ntp.pp")
	if len(f.Classes) != 2 {
		t.Fatalf("classes: got %d, want ntp and ntp::config", len(f.Classes))
	}
	ntp := f.Classes[0]
	if ntp.Name != "ntp" || ntp.Line != 3 || ntp.Inherits != "ntp::params" {
		t.Errorf("class: got %s line %d inherits %q", ntp.Name, ntp.Line, ntp.Inherits)
	}
	want := []Param{
		{"servers", "Array[Stdlib::Host]", 4, true},
		{"iburst", "Variant[\n    Boolean,           # a comment inside a type\n    Enum['auto']\n  ]", 8, true},
		{"untyped", "", 9, false},
		{"port", "Optional[Stdlib::Port]", 10, true},
		{"options", "Hash", 11, true},
		{"banner", "String", 12, true},
		{"ratio", "Integer", 15, true},
	}
	if len(ntp.Params) != len(want) {
		t.Fatalf("params: got %d, want %d", len(ntp.Params), len(want))
	}
	for i, w := range want {
		if *ntp.Params[i] != w {
			t.Errorf("param %d: got %+v, want %+v", i, *ntp.Params[i], w)
		}
	}
	config := f.Classes[1]
	if config.Name != "ntp::config" || config.Line != 29 || len(config.Params) != 1 || config.Params[0].Type != "Boolean" {
		t.Errorf("nested class: got %s line %d %+v", config.Name, config.Line, config.Params)
	}
}

// TestParseLookups finds the literal keys of explicit lookups, wherever they are, and only those.
func TestParseLookups(t *testing.T) {
	f := parseFixture(t, "ntp.pp")
	var got []string
	for _, l := range f.Lookups {
		got = append(got, l.Function+" "+l.Key+" "+strconv.Itoa(l.Line))
	}
	want := []string{
		"lookup ntp::keys 23", "lookup ntp::more 24", "lookup ntp::first 25", "lookup ntp::second 25",
		"hiera_hash ntp::legacy_hash 26", "hiera ntp::config_key 30", "hiera_include ntp::peer_classes 43",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lookups:\ngot  %q\nwant %q", got, want)
	}
}

func TestParseAliases(t *testing.T) {
	f := parseFixture(t, "ntp.pp")
	want := []Alias{
		{"Ntp::Key_id", "Integer[1, 65535]", "ntp.pp", 46},
		{"Ntp::Server", "Variant[Stdlib::Host, Struct[{ host => Stdlib::Host, Optional[key] => Ntp::Key_id }]]", "ntp.pp", 47},
	}
	if len(f.Aliases) != len(want) {
		t.Fatalf("aliases: got %d, want %d", len(f.Aliases), len(want))
	}
	for i, w := range want {
		if *f.Aliases[i] != w {
			t.Errorf("alias %d: got %+v, want %+v", i, *f.Aliases[i], w)
		}
	}
}

// TestParseProblems: a manifest the reader cannot read is one problem at the line where it stops.
func TestParseProblems(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"unclosed brace", "class a {\n  $x = 1\n", "1: '{' is never closed"},
		{"stray brace", "class a {\n}\n}\n", "3: Syntax error at '}': nothing to close"},
		{"mismatched", "class a (\n  $x = [1, 2)\n) {}\n", "2: Syntax error at ')': expected ']' to close the '[' of line 2"},
		{"unclosed string", "class a {\n  $x = 'abc\n}\n", "2: a string is never closed (its ' is never matched)"},
		{"unclosed dq string", "class a {\n  $x = \"${y}\n}\n", "2: a string is never closed (its \" is never matched)"},
		{"unclosed interpolation", "$x = \"${y\n", "1: a string is never closed (its \" is never matched)"},
		{"heredoc without end", "$x = @(END)\n  text\n", "1: heredoc @(END) never ends (no line holding only END)"},
		{"block comment", "class a {}\n/* no end\n", "2: a /* comment is never closed"},
		{"parameter without name", "class a (\n  String,\n) {}\n", "2: Syntax error at ',': a parameter needs a $name"},
		{"default missing", "class a (\n  $x =\n) {}\n", "3: Syntax error at ')': parameter $x has no default after '='"},
		{"no body", "class a ($x)\n", "2: Syntax error at end of input: class a needs a body { ... }"},
		{"type of a parameter", "class a (\n  'x' $y\n) {}\n", "2: Syntax error at 'x'"},
		{"deep", "$x = " + strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1), "1: brackets nested more than 200 deep"},
		{"deep interpolation", "$x = " + strings.Repeat("\"${", maxDepth+1), "1: brackets nested more than 200 deep"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("bad.pp", []byte(c.src))
			if err == nil {
				t.Fatal("no problem reported")
			}
			if got := err.Error(); !strings.HasPrefix(got, "bad.pp:"+c.want) {
				t.Errorf("got  %s\nwant bad.pp:%s", got, c.want)
			}
		})
	}
}

// A manifest of one-byte tokens is read in a few bytes of memory per byte: its tokens are 12
// bytes each, in one slice of their number (48-byte tokens in a growing slice took 249 bytes per
// byte: 2 GB for an 8 MB manifest).
func TestParseMemoryOneByteTokens(t *testing.T) {
	src := bytes.Repeat([]byte(",\n"), 1<<19) // 1 MiB: a million tokens and half a million lines
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := Parse("commas.pp", src)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if perByte := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(src)); perByte > 12 {
		t.Errorf("%.1f bytes allocated per byte of the manifest, want at most 12", perByte)
	}
}
