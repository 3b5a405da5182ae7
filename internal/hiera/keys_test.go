package hiera

import (
	"errors"
	"math/big"
	"reflect"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
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

// digFixture mirrors the data of the edge-dot-* conformance cases:
// h: {a: {b: deep}, arr: [x, y, z], s: a string, n: ~, "1": string one, 2: integer two,
// "dotted.key": dv, t: true, f: 1.5, i: 5}.
func digFixture() any {
	a := model.NewHash(1)
	a.Set("b", "deep")
	h := model.NewHash(8)
	h.Set("a", a)
	h.Set("arr", []any{"x", "y", "z"})
	h.Set("s", "a string")
	h.Set("n", nil)
	h.Set("1", "string one")
	h.Set(int64(2), "integer two")
	h.Set("dotted.key", "dv")
	h.Set("t", true)
	h.Set("f", 1.5)
	h.Set("i", int64(5))
	return h
}

func TestDig(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		key     string
		want    any
		found   bool
		wantErr string
	}{
		"root":             {key: "h", found: true},
		"hash":             {key: "h.a.b", want: "deep", found: true},
		"int-key":          {key: "h.2", want: "integer two", found: true},
		"int-vs-str-key":   {key: "h.1", found: false},
		"quoted-num":       {key: "h.'1'", want: "string one", found: true},
		"quoted-dotted":    {key: `h."dotted.key"`, want: "dv", found: true},
		"array-index":      {key: "h.arr.1", want: "y", found: true},
		"array-leading-0":  {key: "h.arr.01", want: "y", found: true},
		"array-negative":   {key: "h.arr.-1", found: false},
		"array-range":      {key: "h.arr.3", found: false},
		"array-big":        {key: "h.arr.99999999999999999999", found: false},
		"missing":          {key: "h.nope", found: false},
		"into-nil":         {key: "h.n.x", found: false},
		"nil-value":        {key: "h.n", want: nil, found: true},
		"into-string":      {key: "h.s.x", wantErr: "Data Provider type mismatch: Got String when a hash-like object was expected to access value using 'x' from key 'h.s.x'"},
		"into-string-idx":  {key: "h.s.0", wantErr: "Data Provider type mismatch: Got String when a hash-like object was expected to access value using '0' from key 'h.s.0'"},
		"into-array-name":  {key: "h.arr.x", wantErr: "Data Provider type mismatch: Got Array when a hash-like object was expected to access value using 'x' from key 'h.arr.x'"},
		"into-bool":        {key: "h.t.d", wantErr: "Data Provider type mismatch: Got TrueClass when a hash-like object was expected to access value using 'd' from key 'h.t.d'"},
		"into-float":       {key: "h.f.1", wantErr: "Data Provider type mismatch: Got Float when a hash-like object was expected to access value using '1' from key 'h.f.1'"},
		"into-integer":     {key: "h.i.x", wantErr: "Data Provider type mismatch: Got Integer when a hash-like object was expected to access value using 'x' from key 'h.i.x'"},
		"colon-int-is-0":   {key: "h.arr.:1", want: "x", found: true},
		"ws-trimmed-index": {key: "h . arr . 2 ", want: "z", found: true},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			root := digFixture()
			segs, err := parseKey(tc.key)
			if err != nil {
				t.Fatal(err)
			}
			got, found, err := dig(root, segs, tc.key)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("dig(%q) error = %v, want %q", tc.key, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("dig(%q) unexpected error %v", tc.key, err)
			}
			if found != tc.found {
				t.Fatalf("dig(%q) found = %v, want %v", tc.key, found, tc.found)
			}
			if name == "root" {
				if got != root {
					t.Errorf("dig of a root key must return the value itself")
				}
				return
			}
			if found && !model.Equal(got, tc.want) {
				t.Errorf("dig(%q) = %#v, want %#v", tc.key, got, tc.want)
			}
		})
	}
}

func TestDig3(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		key     string
		want    any
		found   bool
		wantErr string
	}{
		"hash":         {key: "h.a.b", want: "deep", found: true},
		"index":        {key: "h.arr.2", want: "z", found: true},
		"quoted-index": {key: "h.arr.'0'", want: "x", found: true},
		"out-of-range": {key: "h.arr.33", found: false},
		"missing":      {key: "h.zz", found: false},
		"into-nil":     {key: "h.n.x", found: false},
		"digit-hash":   {key: "h.2", wantErr: "Hiera type mismatch: Got Hash when Array was expected to access value using '2' from key 'h.2'"},
		"into-string":  {key: "h.s.b", wantErr: "Hiera type mismatch: Got String when a hash-like object was expected to access value using 'b' from key 'h.s.b'"},
		"into-array":   {key: "h.arr.one", wantErr: "Hiera type mismatch: Got Array when a hash-like object was expected to access value using 'one' from key 'h.arr.one'"},
		"negative":     {key: "h.arr.-1", wantErr: "Hiera type mismatch: Got Array when a hash-like object was expected to access value using '-1' from key 'h.arr.-1'"},
		"no-trim":      {key: "h. a", found: false},
		"syntax":       {key: "h..a", wantErr: "Syntax error in key: h..a"},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, found, err := dig3(digFixture(), tc.key)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("dig3(%q) error = %v, want %q", tc.key, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("dig3(%q) unexpected error %v", tc.key, err)
			}
			if found != tc.found || (found && !model.Equal(got, tc.want)) {
				t.Errorf("dig3(%q) = %#v, %v; want %#v, %v", tc.key, got, found, tc.want, tc.found)
			}
		})
	}
}
