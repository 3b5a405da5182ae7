package hiera

import (
	"errors"
	"math/big"
	"reflect"
	"testing"
)

func TestParseKey(t *testing.T) {
	t.Parallel()
	big20, _ := new(big.Int).SetString("99999999999999999999", 10)
	testCases := map[string]struct {
		key     string
		want    []any
		wantErr string
	}{
		"plain":                {key: "a", want: []any{"a"}},
		"plain-number":         {key: "1", want: []any{"1"}},
		"empty":                {key: "", want: []any{""}},
		"module":               {key: "mod::k", want: []any{"mod::k"}},
		"spaces-no-dot":        {key: " a ", want: []any{" a "}},
		"dotted":               {key: "h.a.b", want: []any{"h", "a", "b"}},
		"int-seg":              {key: "h.2", want: []any{"h", int64(2)}},
		"leading-zero":         {key: "arr.01", want: []any{"arr", int64(1)}},
		"plus":                 {key: "a.+1", want: []any{"a", int64(1)}},
		"negative":             {key: "h.arr.-1", want: []any{"h", "arr", int64(-1)}},
		"colon-quirk":          {key: "a.:1", want: []any{"a", int64(0)}},
		"big":                  {key: "a.99999999999999999999", want: []any{"a", big20}},
		"float-split":          {key: "h.1.5", want: []any{"h", int64(1), int64(5)}},
		"quoted-num":           {key: "h.'1'", want: []any{"h", "1"}},
		"quoted-sub":           {key: `h."dotted.key"`, want: []any{"h", "dotted.key"}},
		"quoted-root":          {key: "'top.dot'", want: []any{"top.dot"}},
		"quoted-root-only":     {key: `"lookup_options"`, want: []any{"lookup_options"}},
		"double-in-single":     {key: `h."it's"`, want: []any{"h", "it's"}},
		"single-in-double":     {key: `h.'say "x"'`, want: []any{"h", `say "x"`}},
		"whitespace-trim":      {key: " h . a . b ", want: []any{"h", "a", "b"}},
		"ws-around-quotes":     {key: ` h . ' a ' `, want: []any{"h", " a "}},
		"root-int-kept-string": {key: "1.a", want: []any{"1", "a"}},
		"root-int-trimmed":     {key: " 01 .a", want: []any{"01", "a"}},
		"ws-only-segment":      {key: "h. .a", want: []any{"h", "", "a"}},
		"empty-seg":            {key: "h..a", wantErr: "Syntax error in key: 'h..a'"},
		"partial-quote":        {key: "h.'a'b", wantErr: "Syntax error in key: 'h.'a'b'"},
		"quote-then-text":      {key: "h.a'b'", wantErr: "Syntax error in key: 'h.a'b''"},
		"trailing-dot":         {key: "h.", wantErr: "Syntax error in key: 'h.'"},
		"leading-dot":          {key: ".h", wantErr: "Syntax error in key: '.h'"},
		"unbalanced":           {key: "h.'a", wantErr: "Syntax error in key: 'h.'a'"},
		"empty-quotes":         {key: "h.''", wantErr: "Syntax error in key: 'h.'''"},
		"lone-quote":           {key: `"`, wantErr: `Syntax error in key: '"'`},
		"only-dot":             {key: ".", wantErr: "Syntax error in key: '.'"},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := parseKey(tc.key)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("parseKey(%q) error = %v, want %q", tc.key, err, tc.wantErr)
				}
				if !errors.Is(err, errKeySyntax) {
					t.Errorf("error does not wrap errKeySyntax")
				}
				return
			}
			if err != nil {
				t.Fatalf("parseKey(%q) unexpected error %v", tc.key, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("parseKey(%q) = %#v, want %#v", tc.key, got, tc.want)
			}
			if keyRoot(got) != tc.want[0] {
				t.Errorf("keyRoot = %q", keyRoot(got))
			}
		})
	}
}

func TestSplitKey3(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		key     string
		want    []string
		wantErr string
	}{
		"plain":        {key: "a", want: []string{"a"}},
		"empty":        {key: "", want: []string{""}},
		"dotted":       {key: "h.a.b", want: []string{"h", "a", "b"}},
		"no-trim":      {key: " h . a", want: []string{" h ", " a"}},
		"quoted":       {key: `h."a.b".'0'`, want: []string{"h", "a.b", "0"}},
		"empty-seg":    {key: "h..a", wantErr: "Syntax error in key: h..a"},
		"ws-quote":     {key: `h. "a"`, wantErr: `Syntax error in key: h. "a"`},
		"trailing-dot": {key: "h.", wantErr: "Syntax error in key: h."},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := splitKey3(tc.key)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("splitKey3(%q) error = %v, want %q", tc.key, err, tc.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("splitKey3(%q) = %#v, %v; want %#v", tc.key, got, err, tc.want)
			}
		})
	}
}

func TestKeyRubyToI(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		in   string
		want any
	}{
		"plain":      {in: "12", want: int64(12)},
		"colon":      {in: ":1", want: int64(0)},
		"sign":       {in: "-3", want: int64(-3)},
		"underscore": {in: "1_000", want: int64(1000)},
		"trailing":   {in: "12abc", want: int64(12)},
		"ws":         {in: "  7", want: int64(7)},
		"multi-line": {in: "a\n1", want: int64(0)},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := keyRubyToI(tc.in); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("keyRubyToI(%q) = %#v, want %#v", tc.in, got, tc.want)
			}
		})
	}
}
