package datafile

import (
	"math"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model/modeltest"
)

// Expected values were checked against Ruby 3.1's JSON.parse (json 2.6), which Puppet's json_data uses.
func TestJSONValues(t *testing.T) {
	tests := []struct {
		name, text string
		want       any
	}{
		{"object order kept", `{"b": 1, "a": 2, "c": 3}`, modeltest.H("b", int64(1), "a", int64(2), "c", int64(3))},
		{"duplicate keys: last wins, first position", `{"a": 1, "b": 2, "a": 3}`, modeltest.H("a", int64(3), "b", int64(2))},
		{"edge-json-dup-keys", `{"a": 1, "a": 2}`, modeltest.H("a", int64(2))},
		{"nested", `{"a": {"b": [1, "x", true, false, null, {}, []]}}`,
			modeltest.H("a", modeltest.H("b", modeltest.A(int64(1), "x", true, false, nil, modeltest.H(), modeltest.A())))},
		{"top-level array", `[1, 2]`, modeltest.A(int64(1), int64(2))},
		{"top-level scalar", `"s"`, "s"},
		{"top-level number", ` 2 `, int64(2)},
		{"top-level null", `null`, nil},
		{"integers", `[0, -0, 42, -42, 9223372036854775807, 9223372036854775808, -9223372036854775809, 12345678901234567890]`,
			modeltest.A(int64(0), int64(0), int64(42), int64(-42), int64(math.MaxInt64), ytBig("9223372036854775808"), ytBig("-9223372036854775809"), ytBig("12345678901234567890"))},
		{"floats", `[1.0, -0.0, 1.5, 1e5, 1E5, 1.0E+2, 2e-3, 1e400, -1e400]`,
			modeltest.A(1.0, math.Copysign(0, -1), 1.5, 100000.0, 100000.0, 100.0, 0.002, math.Inf(1), math.Inf(-1))},
		{"strings", `["a\tb", "\u00e9", "\u0000", "\"\\\/", "é"]`, modeltest.A("a\tb", "é", "\x00", `"\/`, "é")},
		{"empty key", `{"": 1}`, modeltest.H("", int64(1))},
		{"escapes", `["\"\\\/\b\f\n\r\t", "\u00e9\u20AC", "\ud83d\ude00", "a\qb"]`, modeltest.A("\"\\/\b\f\n\r\t", "é€", "😀", "aqb")},
		{"block comment", "{\"a\": 1 /* c */, /* d */ \"b\": 2}", modeltest.H("a", int64(1), "b", int64(2))},
		{"line comment", "{\"a\": // x\n 1}", modeltest.H("a", int64(1))},
		{"comment markers in strings", `{"a": "/* not */ // a comment"}`, modeltest.H("a", "/* not */ // a comment")},
		{"escaped quote before a slash", `{"a\"//": "b\\"}`, modeltest.H("a\"//", `b\`)},
	}
	for _, tc := range tests {
		v, err := ParseJSON([]byte(tc.text))
		if err != nil {
			t.Errorf("%s: unexpected error %v", tc.name, err)
			continue
		}
		if !ytSame(v, tc.want) {
			t.Errorf("%s: got %s, want %s", tc.name, ytShow(v), ytShow(tc.want))
		}
	}

	// Ruby's max_nesting is 100: that many levels still read
	var want any = modeltest.A()
	for i := 1; i < 100; i++ {
		want = modeltest.A(want)
	}
	v, err := ParseJSON([]byte(strings.Repeat("[", 100) + strings.Repeat("]", 100)))
	if err != nil || !ytSame(v, want) {
		t.Errorf("100 levels: %v", err)
	}
}

func TestJSONErrors(t *testing.T) {
	tests := []struct {
		name, text string
		msg        string
		line, col  int
	}{
		{"edge-cfg-json-invalid", `{"a": `, "unexpected end of input, expecting a value", 1, 7},
		{"empty", ``, "unexpected end of input", 1, 1},
		{"blank", "  \n ", "unexpected end of input", 2, 2},
		{"trailing comma in object", `{"a":1,}`, "unexpected character '}', expecting a string key", 1, 8},
		{"trailing comma in array", "[1,\n]", "unexpected character ']', expecting a value", 2, 1},
		{"missing comma", `[1 2]`, "unexpected character '2', expecting ',' or ']'", 1, 4},
		{"missing colon", `{"a" 1}`, "expecting ':' after an object key", 1, 6},
		{"unclosed object", `{"a": 1`, "unexpected end of input, expecting ',' or '}'", 1, 8},
		{"second value", `{} {}`, "unexpected character '{' after the JSON value", 1, 4},
		{"leading zero", `[01]`, "invalid number", 1, 2},
		{"lone minus", `[-]`, "invalid number", 1, 3},
		{"NaN", `NaN`, "unexpected character 'N', expecting a value", 1, 1},
		{"Infinity", `[-Infinity]`, "invalid number", 1, 3},
		{"bare word", "{\"a\":\n  nope}", "unexpected character 'n', expecting a value", 2, 3},
		{"truncated literal", `[tru]`, "unexpected character 't', expecting a value", 1, 2},
		{"leading dot", `[.5]`, "unexpected character '.', expecting a value", 1, 2},
		{"trailing dot", `[1.]`, "expecting a digit after '.'", 1, 4},
		{"bad exponent", `[1e+]`, "expecting a digit in the exponent", 1, 5},
		{"tab in string", "[\"a\tb\"]", `invalid control character '\t' in a string`, 1, 4},
		{"escaped line break", "[\"a\\\nb\"]", `invalid control character '\n' in a string`, 1, 5},
		{"incomplete surrogate pair", `["\ud800x"]`, "incomplete surrogate pair", 1, 9},
		{"line comment at the end", "[1] // c", "unterminated // comment", 1, 5},
		{"bad unicode escape", `["\u12G4"]`, `invalid \u escape`, 1, 3},
		{"unterminated string", `["abc`, "unexpected end of input in a string", 1, 6},
		{"non-string key", `{1: 2}`, "expecting a string key", 1, 2},
		{"byte order mark", "\ufeff{}", "unexpected character", 1, 1},
		{"invalid UTF-8", "{\"a\":\n \"\xff\"}", "invalid UTF-8", 2, 3},
		{"unterminated comment", "{\"a\": 1 /* x", "unterminated /* comment", 1, 9},
		{"101 levels", strings.Repeat("[", 101) + strings.Repeat("]", 101), "nesting of 101 is too deep", 1, 101},
		{"deep objects", strings.Repeat(`{"a":`, 200) + "1" + strings.Repeat("}", 200), "nesting of 101 is too deep", 1, 501},
		{"huge depth", strings.Repeat("[", 1000000), "nesting of 101 is too deep", 1, 101},
	}
	for _, tc := range tests {
		v, err := ParseJSON([]byte(tc.text))
		if err == nil {
			t.Errorf("%s: no error, got %s", tc.name, ytShow(v))
			continue
		}
		je, ok := err.(*JSONError)
		if !ok {
			t.Errorf("%s: error %T %v is not a *JSONError", tc.name, err, err)
			continue
		}
		if !strings.Contains(je.Msg, tc.msg) || je.Line != tc.line || je.Column != tc.col {
			t.Errorf("%s: got line %d, column %d, %q; want line %d, column %d, %q", tc.name, je.Line, je.Column, je.Msg, tc.line, tc.col, tc.msg)
		}
	}
	if got := (&JSONError{Line: 2, Column: 3, Msg: "x"}).Error(); got != "line 2, column 3: x" {
		t.Errorf("Error() = %q", got)
	}
}

// TestJSONLarge: a big flat document reads with work of the order of its text (allocations counted,
// not time: the suite runs on busy machines).
func TestJSONLarge(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 100000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `": [1, 2.5, "s"]`)
	}
	b.WriteString("}")
	var err error
	allocs := testing.AllocsPerRun(1, func() { _, err = ParseJSON([]byte(b.String())) })
	if err != nil {
		t.Fatal(err)
	}
	if limit := 2 * float64(b.Len()); allocs > limit { // about 0.4 per byte today
		t.Errorf("%.0f allocations for %d bytes", allocs, b.Len())
	}
}

func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{"a": 1}`, `[1, 2.5, "x", null, true]`, "{\"a\": /* c */ 1}", `{"a": {"b": [1e400]}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseJSON([]byte(s))
		if err != nil {
			if _, ok := err.(*JSONError); !ok {
				t.Errorf("%q: error %T", s, err)
			}
			if strings.HasPrefix(err.Error(), "cannot read JSON") {
				t.Errorf("%q: %v", s, err)
			}
		} else if _, ok := v.(model.Symbol); ok {
			t.Errorf("%q: symbol", s)
		}
	})
}
