package datafile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model/modeltest"
)

// Expected values below were checked against Puppet 7.23's reader (Psych 4.0 safe_load with Symbol
// permitted, then symkeys_to_string) on Ruby 3.1.

// ytGet reads key k of v, which must be a hash.
func ytGet(v, k any) (any, bool) {
	h, _ := v.(*model.Hash)
	return h.Get(k)
}

func ytBig(s string) *big.Int {
	b, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return b
}

// ytSame is Equal plus the same hash key order everywhere, and the same Go type for every number.
func ytSame(a, b any) bool {
	if fa, ok := a.(float64); ok {
		fb, ok := b.(float64)
		return ok && (fa == fb && math.Signbit(fa) == math.Signbit(fb) || math.IsNaN(fa) && math.IsNaN(fb))
	}
	if fmt.Sprintf("%T", a) != fmt.Sprintf("%T", b) || !model.Equal(a, b) {
		return false
	}
	switch x := a.(type) {
	case *model.Hash:
		y, _ := b.(*model.Hash)
		for i, k := range x.Keys() {
			if !model.Equal(k, y.Keys()[i]) || fmt.Sprintf("%T", k) != fmt.Sprintf("%T", y.Keys()[i]) {
				return false
			}
			xv, _ := x.Get(k)
			yv, _ := y.Get(k)
			if !ytSame(xv, yv) {
				return false
			}
		}
	case []any:
		y, _ := b.([]any)
		for i := range x {
			if !ytSame(x[i], y[i]) {
				return false
			}
		}
	}
	return true
}

func ytShow(v any) string {
	switch t := v.(type) {
	case *model.Hash:
		var parts []string
		t.Each(func(k, e any) bool {
			parts = append(parts, ytShow(k)+": "+ytShow(e))
			return true
		})
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		var parts []string
		for _, e := range t {
			parts = append(parts, ytShow(e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case string:
		return fmt.Sprintf("%q", t)
	}
	return fmt.Sprintf("%v(%T)", v, v)
}

// TestYAMLScalars reads "k: <text>" and checks the value of k: Psych's YAML 1.1 scalar rules.
func TestYAMLScalars(t *testing.T) {
	tests := []struct {
		text string
		want any
	}{
		// booleans: yes/no/on/off/true/false in any case; y and n stay strings
		{"yes", true}, {"Yes", true}, {"YES", true}, {"yEs", true}, {"no", false}, {"No", false}, {"NO", false},
		{"on", true}, {"On", true}, {"ON", true}, {"off", false}, {"Off", false}, {"OFF", false},
		{"true", true}, {"True", true}, {"TRUE", true}, {"false", false}, {"False", false}, {"FALSE", false},
		{"y", "y"}, {"n", "n"}, {"Y", "Y"}, {"N", "N"}, {"yesyes", "yesyes"}, {"nil", "nil"},
		// null
		{"~", nil}, {"null", nil}, {"Null", nil}, {"NULL", nil}, {"", nil},
		// integers
		{"0", int64(0)}, {"-0", int64(0)}, {"123", int64(123)}, {"-42", int64(-42)}, {"+12", int64(12)},
		{"1_000", int64(1000)}, {"1,000", int64(1000)}, {"1__000", "1__000"}, {"1_", "1_"}, {"_1", "_1"},
		{"0x1F", int64(31)}, {"0x1f", int64(31)}, {"-0x1F", int64(-31)}, {"0X1F", "0X1F"},
		{"0b101", int64(5)}, {"-0b101", int64(-5)}, {"0B101", "0B101"},
		{"010", int64(8)}, {"0755", int64(493)}, {"-010", int64(-8)}, {"0_7", int64(7)}, {"00", int64(0)},
		{"08", "08"}, {"0o10", "0o10"}, {"0o17", "0o17"},
		{"9223372036854775807", int64(math.MaxInt64)},
		{"9223372036854775808", ytBig("9223372036854775808")},
		{"12345678901234567890", ytBig("12345678901234567890")},
		{"-12345678901234567890", ytBig("-12345678901234567890")},
		// sexagesimal, with Psych's weighting (1:30 is 5400)
		{"1:30", int64(5400)}, {"1:30:00", int64(5400)}, {"190:20:30", int64(685230)}, {"-1:30", int64(-1800)},
		{"1:60", "1:60"}, {"1:30:30:30", "1:30:30:30"}, {"1:30.5", 5430.0}, {"1:30:00.25", 5400.25},
		// floats need a dot; an exponent needs a sign
		{"1.5", 1.5}, {"1.10", 1.1}, {".5", 0.5}, {"-.5", -0.5}, {"+.5", 0.5}, {"1.", 1.0}, {"-1.", -1.0},
		{"0.0", 0.0}, {"-0.0", math.Copysign(0, -1)}, {"1_000.5", 1000.5}, {"1,000.5", 1000.5}, {"09.5", 9.5},
		{"1.5e+3", 1500.0}, {"1.5E+3", 1500.0}, {"1.5e-3", 0.0015}, {"1.e+3", 1000.0},
		{"1e3", "1e3"}, {"1.5e3", "1.5e3"}, {"1e+3", "1e+3"}, {"1E3", "1E3"},
		{".", "."}, {"-.", "-."}, {"1.2.3", "1.2.3"}, {"1._5", "1._5"}, {"192.168.1.1", "192.168.1.1"},
		{"1.5e+400", math.Inf(1)},
		{".inf", math.Inf(1)}, {".Inf", math.Inf(1)}, {".INF", math.Inf(1)}, {"+.inf", math.Inf(1)},
		{"-.inf", math.Inf(-1)}, {"-.Inf", math.Inf(-1)}, {".nan", math.NaN()}, {".NaN", math.NaN()},
		{"inf", "inf"}, {"nan", "nan"}, {"-.nan", "-.nan"},
		// strings
		{"abc", "abc"}, {"a b", "a b"}, {"x#y", "x#y"}, {"12abc", "12abc"}, {"1-2", "1-2"}, {"-abc", "-abc"},
		{"2001-12-14x", "2001-12-14x"}, {"12001-12-14", "12001-12-14"}, {"é", "é"},
		{"'yes'", "yes"}, {`"1"`, "1"}, {`""`, ""}, {"''", ""}, {`"a\tb"`, "a\tb"}, {"'it''s'", "it's"},
		{"|\n  line1\n  line2", "line1\nline2\n"}, {">\n  a\n  b", "a b\n"}, {"|-\n  x", "x"},
		{"'multi\n  line'", "multi line"}, {"a\n  b", "a b"}, {"a\n\n  b", "a\nb"},
		{"y\n\n  no", false}, // Psych's checks see every line of a short multi-line scalar
		{"':sym'", ":sym"}, {"<<", "<<"},
		// explicit tags: honoured as Psych does (the scalar is re-read, quoting ignored)
		{"!!str 12", "12"}, {"!!str yes", "yes"}, {`!!int "12"`, int64(12)}, {"!!int abc", "abc"},
		{"!!int 0x1F", int64(31)}, {"!!int 1:30", int64(5400)}, {"!!float 1", 1.0}, {"!!float 1e3", 1000.0},
		{"!!float '1_0'", 10.0}, {"!!bool yes", true}, {`!!bool "yes"`, true}, {"!!null ''", nil},
		{"!!null foo", "foo"}, {"!!timestamp abc", "abc"}, {"!foo bar", "bar"}, {"!foo 12", int64(12)},
		{"!str 12", "12"}, {"!ruby/string 12", "12"},
		{"!!binary aGVsbG8=", "hello"}, {`!!binary "aGVsbG8="`, "hello"}, {"!binary aGVsbG8", "hello"},
		{"!!binary |\n  aGVs\n  bG8=", "hello"}, {"!!binary a", ""},
	}
	for _, tc := range tests {
		v, _, err := ParseYAML([]byte("k: " + tc.text + "\n"))
		if err != nil {
			t.Errorf("k: %s: unexpected error %v", tc.text, err)
			continue
		}
		got, ok := ytGet(v, "k")
		if !ok || !ytSame(got, tc.want) {
			t.Errorf("k: %s: got %s, want %s", tc.text, ytShow(got), ytShow(tc.want))
		}
	}
}

// TestYAMLKeys: keys are scalars read with the same rules; symbol keys become strings.
func TestYAMLKeys(t *testing.T) {
	tests := []struct {
		text string
		want *model.Hash
	}{
		{"1: one\n\"2\": two\n", modeltest.H(int64(1), "one", "2", "two")},
		{"1.5: f\ntrue: t\n~: n\nyes: y\n", modeltest.H(1.5, "f", true, "t", nil, "n", true, "y")},
		{"12345678901234567890: big\n", modeltest.H(ytBig("12345678901234567890"), "big")},
		{"0x1F: hex\n1:30: sexa\n", modeltest.H(int64(31), "hex", int64(5400), "sexa")},
		{"\"\": empty key\n", modeltest.H("", "empty key")},
		{":sym: symbol value\n", modeltest.H("sym", "symbol value")},
		{":1: v\n", modeltest.H("1", "v")},
		{":'quoted': v\n", modeltest.H("quoted", "v")},
		{"x:\n  :a: 1\n  :b:\n    :c: 2\n", modeltest.H("x", modeltest.H("a", int64(1), "b", modeltest.H("c", int64(2))))},
		{"l:\n- :a: 1\n", modeltest.H("l", modeltest.A(modeltest.H("a", int64(1))))},
		{"!ruby/sym foo: 1\n", modeltest.H("foo", int64(1))},
		{":version: 5\n:hierarchy:\n  - :name: c\n    :path: c.yaml\n",
			modeltest.H("version", int64(5), "hierarchy", modeltest.A(modeltest.H("name", "c", "path", "c.yaml")))},
		// a symbol and a string with the same name: one key, as symkeys_to_string does it
		{":a: 1\na: 2\n", modeltest.H("a", int64(2))},
		{"a: 1\n:a: 2\n", modeltest.H("a", int64(2))},
		{":a: 1\na: 2\n:a: 3\n", modeltest.H("a", int64(2))},
		{"1: int\n1.0: float\n", modeltest.H(int64(1), "int", 1.0, "float")},
	}
	for _, tc := range tests {
		v, _, err := ParseYAML([]byte(tc.text))
		if err != nil {
			t.Errorf("%q: unexpected error %v", tc.text, err)
			continue
		}
		if !ytSame(v, tc.want) {
			t.Errorf("%q: got %s, want %s", tc.text, ytShow(v), ytShow(tc.want))
		}
	}
}

// TestYAMLDocuments: whole documents, key order included.
func TestYAMLDocuments(t *testing.T) {
	tests := []struct {
		name, text string
		want       any
	}{
		{"empty file", "", nil},
		{"only a marker", "---\n", nil},
		{"only comments", "# nothing\n", nil},
		{"null document", "~\n", nil},
		{"list", "- a\n- b\n", modeltest.A("a", "b")},
		{"scalar", "abc\n", "abc"},
		{"top-level symbol", ":sym\n", "sym"},
		{"symbol in a top-level list", "- :sym\n", modeltest.A("sym")},
		{"multi-document: first only", "a: 1\n---\nb: 2\n", modeltest.H("a", int64(1))},
		{"bad second document ignored", "a: 1\n---\nb: [\n", modeltest.H("a", int64(1))},
		{"byte order mark", "\ufeffk: v\n", modeltest.H("k", "v")},
		{"duplicate keys: last wins, first position", "a: 1\nb: 2\na: 3\n", modeltest.H("a", int64(3), "b", int64(2))},
		{"nested", "a:\n  b: [1, {c: d}]\n  e: {}\n  f: []\n", modeltest.H("a", modeltest.H("b", modeltest.A(int64(1), modeltest.H("c", "d")), "e", modeltest.H(), "f", modeltest.A()))},
		{"anchors and aliases", "base: &b {x: 1}\nref: *b\nl: &l [1, 2]\nm: *l\ns: &s str\nt: *s\n",
			modeltest.H("base", modeltest.H("x", int64(1)), "ref", modeltest.H("x", int64(1)), "l", modeltest.A(int64(1), int64(2)), "m", modeltest.A(int64(1), int64(2)), "s", "str", "t", "str")},
		{"alias as a key", "a: &a x\n*a : y\n", modeltest.H("a", "x", "x", "y")},
		{"anchor redefined", "a: &x 1\nb: *x\nc: &x 2\nd: *x\n", modeltest.H("a", int64(1), "b", int64(1), "c", int64(2), "d", int64(2))},
		// merge keys, as Psych's revive_hash does them: merged where "<<" stands
		{"merge", "base: &b {x: 1}\nderived:\n  <<: *b\n  y: 2\n", modeltest.H("base", modeltest.H("x", int64(1)), "derived", modeltest.H("x", int64(1), "y", int64(2)))},
		{"merge then override", "base: &base {a: 1, b: 2}\nderived:\n  <<: *base\n  b: 3\n",
			modeltest.H("base", modeltest.H("a", int64(1), "b", int64(2)), "derived", modeltest.H("a", int64(1), "b", int64(3)))},
		{"merge after a key overwrites it", "b: 3\n<<: {a: 1, b: 2}\n", modeltest.H("b", int64(2), "a", int64(1))},
		{"merge list: earlier wins", "<<: [{x: 1}, {y: 2, x: 3}]\nz: 1\n", modeltest.H("y", int64(2), "x", int64(1), "z", int64(1))},
		{"merge list of aliases", "a: &a {x: 1}\nb: &b {x: 2, y: 2}\nc:\n  <<: [*a, *b]\n",
			modeltest.H("a", modeltest.H("x", int64(1)), "b", modeltest.H("x", int64(2), "y", int64(2)), "c", modeltest.H("x", int64(1), "y", int64(2)))},
		{"several merges", "x: &x {a: 1}\n<<: [*x, {b: 2}]\n<<: {c: 3}\n", modeltest.H("x", modeltest.H("a", int64(1)), "b", int64(2), "a", int64(1), "c", int64(3))},
		{"merge of a list alias is a plain key", "a: &a [1]\nb:\n  <<: *a\n", modeltest.H("a", modeltest.A(int64(1)), "b", modeltest.H("<<", modeltest.A(int64(1))))},
		{"merge of a scalar is a plain key", "<<: 5\n", modeltest.H("<<", int64(5))},
		{"merge of a mixed list is a plain key", "<<: [1, {a: 1}]\n", modeltest.H("<<", modeltest.A(int64(1), modeltest.H("a", int64(1))))},
		{"merge of null", "<<: ~\n", modeltest.H("<<", nil)},
		{"merge of an empty list", "<<: []\n", modeltest.H()},
		{"quoted merge key still merges", "\"<<\": {a: 1}\n", modeltest.H("a", int64(1))},
		{"!!str merge key does not", "!!str <<: {a: 1}\n", modeltest.H("<<", modeltest.H("a", int64(1)))},
		{"merged symbol keys", "a: 1\n<<:\n  :a: 2\n", modeltest.H("a", int64(2))},
		// tags on collections
		{"!!omap", "k: !!omap [{a: 1}, {b: 2}]\n", modeltest.H("k", modeltest.H("a", int64(1), "b", int64(2)))},
		{"!!map and !!seq", "k: !!map {a: !!seq [1]}\n", modeltest.H("k", modeltest.H("a", modeltest.A(int64(1))))},
		{"unknown tags are ignored", "k: !foo {a: !bar [1, 2]}\n", modeltest.H("k", modeltest.H("a", modeltest.A(int64(1), int64(2))))},
		{"!!pairs is a list", "k: !!pairs [{a: 1}]\n", modeltest.H("k", modeltest.A(modeltest.H("a", int64(1))))},
		{"!ruby/object:Hash is a hash", "k: !ruby/object:Hash {a: 1}\n", modeltest.H("k", modeltest.H("a", int64(1)))},
		// a symbol value overwritten by a later duplicate is gone, so it is no error
		{"overwritten symbol", "a: :sym\na: 1\n", modeltest.H("a", int64(1))},
	}
	for _, tc := range tests {
		v, lines, err := ParseYAML([]byte(tc.text))
		if err != nil {
			t.Errorf("%s: unexpected error %v", tc.name, err)
			continue
		}
		if lines == nil {
			t.Errorf("%s: nil lines map", tc.name)
		}
		if !ytSame(v, tc.want) {
			t.Errorf("%s: got %s, want %s", tc.name, ytShow(v), ytShow(tc.want))
		}
	}
}

// TestYAMLErrors: what makes a whole file unreadable, and where.
func TestYAMLErrors(t *testing.T) {
	tests := []struct {
		name, text string
		msg        string // a part of the message
		line, col  int
	}{
		{"date", "d: 2001-12-14\n", "Tried to load unspecified class: Date", 1, 4},
		{"short date", "d: 2001-1-1\n", "Tried to load unspecified class: Date", 1, 4},
		{"date as key", "a: 1\n2001-12-14: v\n", "Tried to load unspecified class: Date", 2, 1},
		{"time", "t: 2001-12-14T21:59:43Z\n", "Tried to load unspecified class: Time", 1, 4},
		{"spaced time", "t: 2001-12-14 21:59:43.10 -5\n", "Tried to load unspecified class: Time", 1, 4},
		{"!!timestamp", "t: !!timestamp 2001-12-14\n", "Tried to load unspecified class: Date", 1, 4},
		{"date in a list", "l:\n  - ok\n  - 2024-01-02\n", "Tried to load unspecified class: Date", 3, 5},
		{"ruby object", "k: !ruby/object:Foo {a: 1}\n", "Tried to load unspecified class: Foo", 1, 4},
		{"ruby object without class", "k: !ruby/object {a: 1}\n", "Tried to load unspecified class: Object", 1, 4},
		{"ruby struct", "k: !ruby/struct:Foo {a: 1}\n", "Tried to load unspecified class: Foo", 1, 4},
		{"set", "k: !!set {a: 1}\n", "Tried to load unspecified class: Psych::Set", 1, 4},
		{"omap on a mapping", "k: !!omap {a: 1}\n", "Tried to load unspecified class: Psych::Omap", 1, 4},
		{"ruby hash subclass", "k: !ruby/hash:Foo {a: 1}\n", "Tried to load unspecified class: Foo", 1, 4},
		{"ruby array subclass", "k: !ruby/array:Foo [1]\n", "Tried to load unspecified class: Foo", 1, 4},
		{"ruby string subclass", "k: !ruby/string:Foo x\n", "Tried to load unspecified class: Foo", 1, 4},
		{"range", "k: !ruby/range 1..2\n", "Tried to load unspecified class: Range", 1, 4},
		{"regexp", "k: !ruby/regexp /a/\n", "Tried to load unspecified class: Regexp", 1, 4},
		{"bigdecimal", "k: !ruby/object:BigDecimal 1.5\n", "Tried to load unspecified class: BigDecimal", 1, 4},
		{"class", "k: !ruby/class String\n", "Tried to load unspecified class: String", 1, 4},
		{"exception", "k: !ruby/exception {message: x}\n", "Tried to load unspecified class: Exception", 1, 4},
		{"bad integer", "k: 0x_\n", `invalid value for Integer(): "0x"`, 1, 4},
		{"bad float", "k: -.e+3\n", `invalid value for Float(): "-e+3"`, 1, 4},
		{"!!float of a word", "k: !!float abc\n", `invalid value for Float(): "abc"`, 1, 4},
		{"!!float of null", "k: !!float ~\n", "can't convert nil into Float", 1, 4},
		{"unknown alias", "a: 1\nb: *nope\n", "Unknown alias: nope", 2, 4},
		{"recursive alias", "a: &a [*a]\n", "recursive", 1, 8},
		{"unclosed flow sequence", "a: [unclosed\n", "did not find expected ',' or ']' while parsing a flow sequence", 2, 0},
		{"unclosed flow mapping", "x: 1\na: {b: 1\n", "did not find expected ',' or '}'", 2, 0},
		{"mapping value in a scalar", "a: b: c\n", "mapping values are not allowed in this context", 1, 0},
		{"bad indentation", "a:\n  b: 1\n c: 2\n", "did not find expected key", 3, 0},
		{"bad indentation 2", "a: 1\n  b: 2\n", "mapping values are not allowed in this context", 2, 0},
		{"list then map", "- a\nb: 1\n", "did not find expected '-' indicator", 2, 0},
		{"unterminated quote", "a: 'x\n", "found unexpected end of stream", 2, 0},
		{"reserved character", "a: 1\nb: @x\n", "found character that cannot start any token", 2, 0},
		{"tab indentation", "\tk: v\n", "found character that cannot start any token", 1, 0},
		{"unknown escape", "a: \"\\q\"\n", "found unknown escape character", 1, 0},
		{"lone document end", "...\n", "did not find expected node content", 1, 0},
		{"invalid UTF-8", "a: 1\nb: \xff\xfe\n", "invalid UTF-8", 2, 4},
		{"UTF-16", "\xff\xfea\x00:\x00 \x001\x00", "invalid UTF-8", 1, 1},
		{"control character", "a: 1\nb: x\x00y\n", "control characters are not allowed", 2, 5},
		{"binary file", "\x7fELF\x02\x01\x01\x00", "control characters are not allowed", 1, 1},
		{"control character after wide ones", "a: 1\nb: \"é\tö\x01\"\n", "control characters are not allowed", 2, 8},
	}
	for _, tc := range tests {
		v, _, err := ParseYAML([]byte(tc.text))
		if err == nil {
			t.Errorf("%s: no error, got %s", tc.name, ytShow(v))
			continue
		}
		ye, ok := err.(*YAMLError)
		if !ok {
			t.Errorf("%s: error %T %v is not a *YAMLError", tc.name, err, err)
			continue
		}
		if !strings.Contains(ye.Msg, tc.msg) || ye.Line != tc.line || ye.Column != tc.col {
			t.Errorf("%s: got line %d, column %d, %q; want line %d, column %d, %q", tc.name, ye.Line, ye.Column, ye.Msg, tc.line, tc.col, tc.msg)
		}
	}
}

func TestYAMLErrorText(t *testing.T) {
	for _, tc := range []struct {
		err  *YAMLError
		want string
	}{
		{&YAMLError{Line: 3, Column: 5, Msg: "did not find expected key"}, "line 3, column 5: did not find expected key"},
		{&YAMLError{Line: 3, Msg: "did not find expected key"}, "line 3: did not find expected key"},
		{&YAMLError{Msg: "Tried to load unspecified class: Date"}, "Tried to load unspecified class: Date"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// TestYAMLLines: every hash built is mapped to the line where its mapping starts.
func TestYAMLLines(t *testing.T) {
	// line returns where hash v starts, -1 if v is no hash.
	line := func(lines map[*model.Hash]int, v any) int {
		h, ok := v.(*model.Hash)
		if !ok {
			return -1
		}
		return lines[h]
	}
	text := "# comment\na: 1\nb:\n  c: {d: 1}\n  e:\n    - f: 2\nbase: &b {x: 1}\nref: *b\n"
	v, lines, err := ParseYAML([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ytGet(v, "b")
	c, _ := ytGet(b, "c")
	e, _ := ytGet(b, "e")
	item := any(nil)
	if l, ok := e.([]any); ok && len(l) == 1 {
		item = l[0]
	}
	base, _ := ytGet(v, "base")
	ref, _ := ytGet(v, "ref")
	for _, tc := range []struct {
		name string
		h    any
		line int
	}{
		{"root", v, 2}, {"b", b, 4}, {"c", c, 4}, {"list item", item, 6}, {"base", base, 7}, {"alias", ref, 7},
	} {
		if got := line(lines, tc.h); got != tc.line {
			t.Errorf("%s: line %d, want %d", tc.name, got, tc.line)
		}
	}

	// hashes rebuilt to turn symbol keys into strings keep their line
	v, lines, err = ParseYAML([]byte("a: 1\nx:\n  :y: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	x, _ := ytGet(v, "x")
	if line(lines, v) != 1 || line(lines, x) != 3 {
		t.Errorf("symbol keys: lines %d and %d, want 1 and 3", line(lines, v), line(lines, x))
	}
}

// TestYAMLConformance replays the data files of the conformance cases that test YAML reading.
func TestYAMLConformance(t *testing.T) {
	// yaml-scalars: data/common.yaml
	common := "b_yes: yes\nb_no: no\nb_on: on\nb_off: off\nb_y: y\nb_True: True\nb_FALSE: FALSE\nn_tilde: ~\nn_Null: Null\nn_empty:\n" +
		"i_octal: 0755\ni_octal12: 0o17\ni_hex: 0x1F\ni_under: 1_000\ni_big: 12345678901234567890\ni_neg: -42\nf_exp: 1.5e3\n" +
		"f_inf: .inf\nf_dot: .5\ns_colon: ':sym'\ns_quoted_yes: 'yes'\ns_version: 1.10\ns_multi: |\n  line1\n  line2\n" +
		"anchors:\n  base: &base {a: 1, b: 2}\n  derived:\n    <<: *base\n    b: 3\n  ref: *base\nint_keys: {1: one, 2: two}\nbool_keys: {true: t}\n"
	v, _, err := ParseYAML([]byte(common))
	if err != nil {
		t.Fatal(err)
	}
	want := modeltest.H("b_yes", true, "b_no", false, "b_on", true, "b_off", false, "b_y", "y", "b_True", true, "b_FALSE", false,
		"n_tilde", nil, "n_Null", nil, "n_empty", nil, "i_octal", int64(493), "i_octal12", "0o17", "i_hex", int64(31),
		"i_under", int64(1000), "i_big", ytBig("12345678901234567890"), "i_neg", int64(-42), "f_exp", "1.5e3",
		"f_inf", math.Inf(1), "f_dot", 0.5, "s_colon", ":sym", "s_quoted_yes", "yes", "s_version", 1.1,
		"s_multi", "line1\nline2\n",
		"anchors", modeltest.H("base", modeltest.H("a", int64(1), "b", int64(2)), "derived", modeltest.H("a", int64(1), "b", int64(3)), "ref", modeltest.H("a", int64(1), "b", int64(2))),
		"int_keys", modeltest.H(int64(1), "one", int64(2), "two"), "bool_keys", modeltest.H(true, "t"))
	if !ytSame(v, want) {
		t.Errorf("yaml-scalars: got %s\nwant %s", ytShow(v), ytShow(want))
	}

	// yaml-scalars-11 (hiera-semantics.md §1.2)
	v, _, err = ParseYAML([]byte("k: [yes, no, on, off, y, n, True, NULL, 0x1F, 010, 0o10, 1_000, 1e3, 1.5e3, 'yes', 1:30, 0b101, +12]\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := ytGet(v, "k")
	wantList := modeltest.A(true, false, true, false, "y", "n", true, nil, int64(31), int64(8), "0o10", int64(1000), "1e3", "1.5e3", "yes", int64(5400), int64(5), int64(12))
	if !ytSame(got, wantList) {
		t.Errorf("yaml-scalars-11: got %s", ytShow(got))
	}

	for _, tc := range []struct {
		name, text string
		want       any
		err        string
	}{
		{"edge-yaml-anchors", "base: &b {x: 1}\nderived:\n  <<: *b\n  y: 2\n", modeltest.H("base", modeltest.H("x", int64(1)), "derived", modeltest.H("x", int64(1), "y", int64(2))), ""},
		{"edge-yaml-binary-tag", "b: !!binary aGVsbG8=\n", modeltest.H("b", "hello"), ""},
		{"edge-yaml-date", "d: 2001-12-14\n", nil, "Tried to load unspecified class: Date"},
		{"yaml-date-file", "d: 2024-01-02\nother: fine\n", nil, "Tried to load unspecified class: Date"},
		{"edge-yaml-dup-keys", "a: 1\na: 2\n", modeltest.H("a", int64(2)), ""},
		{"edge-yaml-empty-root-key", "\"\": empty key\n", modeltest.H("", "empty key"), ""},
		{"edge-yaml-multi-doc", "a: 1\n---\nb: 2\n", modeltest.H("a", int64(1)), ""},
		{"edge-yaml-string-num-root-key", "1: one\n\"2\": two\n", modeltest.H(int64(1), "one", "2", "two"), ""},
		{"edge-cfg-symbol-keys-v5", ":version: 5\n:hierarchy:\n  - :name: c\n    :path: c.yaml\n",
			modeltest.H("version", int64(5), "hierarchy", modeltest.A(modeltest.H("name", "c", "path", "c.yaml"))), ""},
		{"yaml-empty-file", "", nil, ""},
		{"yaml-toplevel-list", "- a\n- b\n", modeltest.A("a", "b"), ""},
		{"yaml-bad-file", "a: [unclosed\n", nil, "did not find expected ',' or ']' while parsing a flow sequence"},
	} {
		v, _, err := ParseYAML([]byte(tc.text))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || !ytSame(v, tc.want) {
			t.Errorf("%s: got %s, %v; want %s", tc.name, ytShow(v), err, ytShow(tc.want))
		}
	}
}

// TestYAMLAliasBomb: "billion laughs" is refused without building the expansion (counted in
// allocations, not in time: the suite runs on busy machines).
func TestYAMLAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 10), ", "))
	}
	for _, tc := range []struct{ name, text string }{
		{"billion laughs", b.String()},
		{"nested aliases of hashes", func() string {
			var s strings.Builder
			s.WriteString("h0: &h0 {a: 1, b: 2, c: 3, d: 4}\n")
			for i := 1; i <= 30; i++ {
				fmt.Fprintf(&s, "h%d: &h%d {a: *h%d, b: *h%d, c: *h%d}\n", i, i, i-1, i-1, i-1)
			}
			return s.String()
		}()},
	} {
		var err error
		allocs := testing.AllocsPerRun(1, func() { _, _, err = ParseYAML([]byte(tc.text)) })
		if err == nil || !strings.Contains(err.Error(), "document too large after alias expansion") {
			t.Errorf("%s: got %v, want the alias expansion error", tc.name, err)
		}
		if allocs > 100000 { // about 1,000 without the expansion
			t.Errorf("%s: %.0f allocations", tc.name, allocs)
		}
	}

	// reasonable alias use stays fine
	var s strings.Builder
	s.WriteString("base: &b {a: 1, b: [1, 2, 3]}\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&s, "k%d: {<<: *b, c: *b}\n", i)
	}
	if _, _, err := ParseYAML([]byte(s.String())); err != nil {
		t.Errorf("moderate aliasing: %v", err)
	}
}

// TestYAMLDeepNesting: deep documents give a value or an error, never a crash, with work of the
// order of the text (allocations counted: about two per byte today).
func TestYAMLDeepNesting(t *testing.T) {
	deepBlock := func(n int) string {
		var s strings.Builder
		for i := 0; i < n; i++ {
			s.WriteString(strings.Repeat(" ", i) + "a:\n")
		}
		return s.String()
	}
	for _, tc := range []struct {
		name, text string
		ok         bool
	}{
		{"flow sequences 10000 deep", strings.Repeat("[", 10000) + strings.Repeat("]", 10000), true},
		{"flow mappings 9999 deep", "k: " + strings.Repeat("{a: ", 9998) + "1" + strings.Repeat("}", 9998), true},
		{"block sequences 10000 deep", strings.Repeat("- ", 10000) + "x\n", true},
		{"block mappings 2000 deep", deepBlock(2000), true},
		{"flow sequences 100000 deep", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), false},
		{"block sequences 50000 deep", strings.Repeat("- ", 50000) + "x\n", false},
		{"unclosed 200000 deep", strings.Repeat("[", 200000), false},
	} {
		var err error
		allocs := testing.AllocsPerRun(1, func() { _, _, err = ParseYAML([]byte(tc.text)) })
		if tc.ok && err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		if !tc.ok && err == nil {
			t.Errorf("%s: no error", tc.name)
		}
		if limit := 20 * float64(len(tc.text)); allocs > limit {
			t.Errorf("%s: %.0f allocations for %d bytes", tc.name, allocs, len(tc.text))
		}
	}
}

// TestYAMLNoPanic feeds damaged and odd inputs: each gives a value or a *YAMLError that is not an
// internal failure.
func TestYAMLNoPanic(t *testing.T) {
	seeds := []string{
		"a: 1\n", "a: [1, {b: c}]\n", "- &x [*x]\n", "&a a: &b b\n*a : *b\n", "? a\n? b\n", "{? a}\n", "[a: b]\n",
		"a: |\n x\n  y\n", "a: >-\n\n\n", "%YAML 1.1\n---\na: 1\n", "%TAG !e! tag:e.com,2000:\n---\na: !e!foo 1\n",
		"a: !<tag:yaml.org,2002:str> 1\n", "!!map\n", "--- !!omap\n- a: 1\n- 2\n", "<<: *a\n", "a: &a\n<<: *a\n",
		"# c\n  # d\n", "a: 1 # c\n# d\n", "a:\n  # c\n  b: 1\n  # d\n", "-\n-\n", ": x\n", "? \n", "'\n", "\"\\\n",
		"\x00", "\xef\xbb\xbf", "\r\n\r\n", "a: b\r\nc: d\r\n", ":\n", "::\n", "-", "!\n", "&\n", "*\n", "|\n", ">\n",
	}
	for _, s := range seeds {
		for cut := 0; cut <= len(s); cut++ {
			_, _, err := ParseYAML([]byte(s[:cut]))
			if err != nil {
				if _, ok := err.(*YAMLError); !ok {
					t.Errorf("%q: error %T", s[:cut], err)
				}
				if strings.HasPrefix(err.Error(), "cannot read YAML") && !strings.Contains(err.Error(), "internal error") {
					t.Errorf("%q: %v", s[:cut], err)
				}
			}
		}
	}
}

func FuzzParseYAML(f *testing.F) {
	for _, s := range []string{"a: 1\n", "a: &a {b: [1, 2]}\nc: {<<: *a}\n", ":s: :v\n", "k: !!binary aGk=\n", "x: 1:30\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, lines, err := ParseYAML([]byte(s))
		if err == nil {
			if h, ok := v.(*model.Hash); ok && lines[h] == 0 {
				t.Errorf("%q: no line for the root hash", s)
			}
		}
	})
}

// TestSlowYAMLBound: a file that the fast reader does not take is read by yaml.v3, at about 100
// bytes of memory per byte; over 8 MiB that is refused before yaml.v3 runs, naming the line where
// the fast reader stops. Windows line ends alone keep a file on the fast reader.
func TestSlowYAMLBound(t *testing.T) {
	var big strings.Builder
	for i := 0; big.Len() < 9<<20; i++ {
		fmt.Fprintf(&big, "  key%d: %s\n", i, strings.Repeat("v", 1000))
	}
	lines := strings.Count(big.String(), "\n")
	// one root key of more than 8 MiB: read root key by root key, it is still one piece
	for _, tc := range []struct {
		name, text string
		line       int
		what       string
	}{
		{"alias at the end", "one:\n" + big.String() + "  a: &a [1]\n  b: *a\n", lines + 2, "an anchor or alias"},
		{"tag", "t: !!str 5\none:\n" + big.String(), 1, "a tag"},
		{"tab in quotes", "one:\n" + big.String() + "  q: \"a\tb\"\n", lines + 2, "a tab"},
		{"two documents", "a: &a 1\n---\none:\n" + big.String(), 1, "an anchor or alias"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadYAML([]byte(tc.text), nil)
			var ye *YAMLError
			if !errors.As(err, &ye) || ye.Line != tc.line || !strings.Contains(ye.Msg, tc.what) || !strings.Contains(ye.Msg, "for files of at most 8 MiB") {
				t.Errorf("error %v, want one at line %d naming %q", err, tc.line, tc.what)
			}
		})
	}
	crlf := strings.ReplaceAll(strings.ReplaceAll(big.String(), "\n", "\r\n"), "  key", "key")
	v, err := ReadYAML([]byte(crlf), nil)
	if lz, isLazy := v.(*LazyYAML); err != nil || !isLazy || lz.Keys.Len() != lines {
		t.Errorf("Windows line ends: %T, %v", v, err)
	}
	if _, err := ReadYAML([]byte("a: &a [1]\nb: *a\n"), nil); err != nil {
		t.Errorf("a small file with an alias: %v", err)
	}
	// many root keys: read root key by root key (bounds scaled down: TestReadYAMLByRootLargeFile)
	savedMax, savedGroup := maxSlowYAML, byRootGroup
	maxSlowYAML, byRootGroup = 64<<10, 8<<10
	defer func() { maxSlowYAML, byRootGroup = savedMax, savedGroup }()
	plain := strings.ReplaceAll(big.String()[:256<<10], "  key", "key")
	plain = plain[:strings.LastIndexByte(plain, '\n')+1]
	for _, tc := range []struct{ text, key, want string }{
		{plain + "a: &a [1]\nb: *a\n", "b", "[1]"},
		{"t: !!str 5\n" + plain, "t", `"5"`},
		{plain + "q: \"a\tb\"\n", "q", `"a\tb"`},
	} {
		v, err := ReadYAML([]byte(tc.text), nil)
		h, _ := v.(*model.Hash)
		if err != nil || h == nil {
			t.Errorf("%s: %T, %v", tc.key, v, err)
			continue
		}
		if got, _ := h.Get(tc.key); jsonText(t, got) != tc.want || h.Len() < 250 {
			t.Errorf("%s: %s (%d keys), want %s", tc.key, jsonText(t, got), h.Len(), tc.want)
		}
	}
}

// TestPrintableASCII8: the word-at-a-time test agrees with the byte-at-a-time one for every byte
// at every position, and for every pair of neighbouring bytes (where a carry would show).
func TestPrintableASCII8(t *testing.T) {
	byteWise := func(w [8]byte) bool {
		for _, c := range w {
			if (c < 0x20 || c > 0x7E) && c != '\n' {
				return false
			}
		}
		return true
	}
	check := func(w [8]byte) {
		if got, want := printableASCII8(binary.LittleEndian.Uint64(w[:])), byteWise(w); got != want {
			t.Fatalf("% x: %v, byte by byte %v", w, got, want)
		}
	}
	for at := 0; at < 7; at++ {
		for a := 0; a < 256; a++ {
			for b := 0; b < 256; b++ {
				w := [8]byte{'a', 'b', ' ', '\n', '~', 'z', '0', ':'}
				w[at], w[at+1] = byte(a), byte(b)
				check(w)
			}
		}
	}
}
