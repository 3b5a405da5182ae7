package hiera

import (
	"math"
	"math/big"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model/modeltest"
)

func TestInspectFloat(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		f    float64
		want string
	}{
		"fraction":           {f: 1.5, want: "1.5"},
		"integral":           {f: 1.0, want: "1.0"},
		"hundred":            {f: 100.0, want: "100.0"},
		"third":              {f: 1.0 / 3, want: "0.3333333333333333"},
		"negative-zero":      {f: math.Copysign(0, -1), want: "-0.0"},
		"1e14-fixed":         {f: 1e14, want: "100000000000000.0"},
		"1e15-exponent":      {f: 1e15, want: "1.0e+15"},
		"16-digits-integral": {f: 1234567890123456.0, want: "1.234567890123456e+15"},
		"16-digits-fraction": {f: 2497182008138707.5, want: "2497182008138707.5"},
		"1e20":               {f: 1e20, want: "1.0e+20"},
		"1e100":              {f: 1e100, want: "1.0e+100"},
		"small-fixed":        {f: 0.0001, want: "0.0001"},
		"small-exponent":     {f: 0.00001, want: "1.0e-05"},
		"small-digits":       {f: 2.5e-5, want: "2.5e-05"},
		"subnormal":          {f: 5e-324, want: "5.0e-324"},
		"max":                {f: math.MaxFloat64, want: "1.7976931348623157e+308"},
		"negative":           {f: -12345.678, want: "-12345.678"},
		"infinity":           {f: math.Inf(1), want: "Infinity"},
		"minus-infinity":     {f: math.Inf(-1), want: "-Infinity"},
		"nan":                {f: math.NaN(), want: "NaN"},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := model.FloatToS(tc.f); got != tc.want {
				t.Fatalf("rubyFloat(%v) = %q, want %q", tc.f, got, tc.want)
			}
		})
	}
}

func TestInspectString(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		s    string
		want string
	}{
		"plain":              {s: "abc", want: `"abc"`},
		"quote-backslash":    {s: `a"b\c`, want: `"a\"b\\c"`},
		"interpolation":      {s: "#{x} #$ #@ # #x", want: `"\#{x} \#$ \#@ # #x"`},
		"trailing-hash":      {s: "a#", want: `"a#"`},
		"named-escapes":      {s: "\n\t\r\f\v\b\a\x1b", want: `"\n\t\r\f\v\b\a\e"`},
		"controls":           {s: "\x00\x01\x1f\x7f", want: `"\u0000\u0001\u001F\u007F"`},
		"c1-controls":        {s: "\u0080\u0085\u009f", want: "\"\\u0080\u0085\\u009F\""},
		"printable-unicode":  {s: "é日本\u00a0\u3000😀", want: "\"é日本\u00a0\u3000😀\""},
		"separators":         {s: "\u2028\u2029", want: `"\u2028\u2029"`},
		"format-and-private": {s: "\u200b\ufeff\ue000", want: "\"\u200b\ufeff\ue000\""},
		"unassigned":         {s: "\u0378\U0010FFFF", want: `"\u0378\u{10FFFF}"`},
		"invalid-utf8":       {s: "\xff\xfe", want: `"\xFF\xFE"`},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := model.Quote(tc.s); got != tc.want {
				t.Fatalf("rubyQuote(%q) = %s, want %s", tc.s, got, tc.want)
			}
		})
	}
}

func TestInspectValues(t *testing.T) {
	t.Parallel()
	big70 := new(big.Int).Lsh(big.NewInt(1), 70)
	testCases := map[string]struct {
		v       any
		toS     string
		inspect string
	}{
		"nil":     {v: nil, toS: "", inspect: "nil"},
		"true":    {v: true, toS: "true", inspect: "true"},
		"integer": {v: int64(42), toS: "42", inspect: "42"},
		"bignum":  {v: big70, toS: "1180591620717411303424", inspect: "1180591620717411303424"},
		"float":   {v: 1e20, toS: "1.0e+20", inspect: "1.0e+20"},
		"string":  {v: "a\"b", toS: "a\"b", inspect: `"a\"b"`},
		"array":   {v: modeltest.A("x", int64(1), nil, 1.5), toS: `["x", 1, nil, 1.5]`, inspect: `["x", 1, nil, 1.5]`},
		"hash": {
			v:       modeltest.H("k", "v", "n", modeltest.A(int64(1))),
			toS:     `{"k"=>"v", "n"=>[1]}`,
			inspect: `{"k"=>"v", "n"=>[1]}`,
		},
		"non-string-keys": {
			v:       modeltest.H(int64(1), nil, nil, true, 1.5, modeltest.H(), false, modeltest.A()),
			toS:     `{1=>nil, nil=>true, 1.5=>{}, false=>[]}`,
			inspect: `{1=>nil, nil=>true, 1.5=>{}, false=>[]}`,
		},
		"nested-escapes": {v: modeltest.A("#{x}\n"), toS: `["\#{x}\n"]`, inspect: `["\#{x}\n"]`},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := model.ToS(tc.v); got != tc.toS {
				t.Errorf("model.ToS = %s, want %s", got, tc.toS)
			}
			if got := model.Inspect(tc.v); got != tc.inspect {
				t.Errorf("model.Inspect = %s, want %s", got, tc.inspect)
			}
		})
	}
}

func TestInspectPretty(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		v      any
		indent int
		want   string
	}{
		"scalar":      {v: "x", want: `"x"`},
		"empty-hash":  {v: modeltest.H(), want: "{}"},
		"empty-array": {v: modeltest.A(), indent: 4, want: "[]"},
		// The merged result of hiera-semantics.md §7.1's example, printed at "    Merged result: ".
		"explain-example": {
			v:      modeltest.H("m", "module", "arr", modeltest.A("m", "e", "g"), "e", "env", "g", "global"),
			indent: 4,
			want: "{\n" +
				"      \"m\" => \"module\",\n" +
				"      \"arr\" => [\n" +
				"        \"m\",\n" +
				"        \"e\",\n" +
				"        \"g\"\n" +
				"      ],\n" +
				"      \"e\" => \"env\",\n" +
				"      \"g\" => \"global\"\n" +
				"    }",
		},
		"options": {
			v:      modeltest.H("sort_merged_arrays", false, "merge_hash_arrays", false, "knockout_prefix", "--"),
			indent: 4,
			want:   "{\n      \"sort_merged_arrays\" => false,\n      \"merge_hash_arrays\" => false,\n      \"knockout_prefix\" => \"--\"\n    }",
		},
		"nested-empty-and-keys": {
			v:    modeltest.H(int64(1), modeltest.A(), nil, modeltest.H()),
			want: "{\n  1 => [],\n  nil => {}\n}",
		},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := model.PrettyInspect(tc.v, tc.indent, 1<<20); got != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestJSONOut(t *testing.T) {
	t.Parallel()
	big70 := new(big.Int).Lsh(big.NewInt(1), 70)
	testCases := map[string]struct {
		v       any
		want    string
		wantErr bool
	}{
		"key-order":          {v: modeltest.H("z", int64(1), "a", modeltest.H("m", nil, "b", true)), want: `{"z":1,"a":{"m":null,"b":true}}`},
		"non-string-key":     {v: modeltest.H(int64(1), "a", nil, "b", 1.5, "c", true, "d"), want: `{"1":"a","":"b","1.5":"c","true":"d"}`},
		"big-integer":        {v: modeltest.A(big70, int64(-3)), want: `[1180591620717411303424,-3]`},
		"floats-stay-floats": {v: modeltest.A(1.0, 2.5, 1e20, 1e-5), want: `[1.0,2.5,1.0e+20,1.0e-05]`},
		"strings":            {v: "<a & \"b\">\n\u2028é", want: `"<a & \"b\">\n\u2028é"`},
		"empty":              {v: modeltest.A(modeltest.H(), modeltest.A()), want: `[{},[]]`},
		"nan":                {v: math.NaN(), wantErr: true},
		"infinity":           {v: modeltest.A(math.Inf(1)), wantErr: true},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := datafile.MarshalJSON(tc.v)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("no error, got %s", got)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Fatalf("got %s, %v; want %s", got, err, tc.want)
			}
		})
	}
}
