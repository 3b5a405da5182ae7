package yamledit

import (
	"context"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// trickyStrings are strings that YAML 1.1 (Psych) would read as something else when written
// plain, or that need care in a literal block, or that Hiera would interpolate.
var trickyStrings = []string{
	"yes", "no", "on", "off", "y", "n", "Yes", "NO", "true", "False", "~", "null", "Null", "",
	"0x1F", "0o17", "017", "0b101", "1e3", "1.5", "1_000", "1,000", "+1", ".5", "-.inf", ".nan", "-0",
	"2026-01-01", "2026-01-01 10:00:00", "1:20", "12:30:00", ":sym", ":", "-", "?", "- a", "a: b",
	"a:b", "# x", "a #b", "a#b", " lead", "trail ", " ", "\t", "tab\tin", "%{hostname}",
	"%{literal('%')}", "%%{}", "100%", "%", "%{", "{a}", "[a]", "*alias", "&anchor", "!tag", "|",
	"> x", "'q'", `"dq"`, "@x", "`x", "=", "<<", ".", "...", "---", `\back`, `c:\path`,
	"multi\nline", "multi\nline\n", "trailing\n\n\n", " indented\nline", "\n\nleading blank",
	"line\n  more\n", "trailing space \nx", "a\r\nb", "ctrl\x01\x7f", "nul\x00", "nel\u0085",
	"ls\u2028ps\u2029", "bom\ufeff", "nbsp\u00a0", "é", "日本", "emoji 😀", "# not\n# comments\n",
	"x\n\n", "\n", "\n\n",
}

// lookupEngine is an engine whose one level reads data/common.yaml, holding text.
func lookupEngine(t testing.TB, text []byte) *hiera.Engine {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hiera.yaml"), []byte("version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "common.yaml"), text, 0o644); err != nil {
		t.Fatal(err)
	}
	return hiera.NewEngine(filepath.Join(dir, "hiera.yaml"))
}

// lookupKey is what a lookup of the root key key answers, quoted as a lookup names it.
func lookupKey(t testing.TB, e *hiera.Engine, key string) (any, bool) {
	t.Helper()
	name := key
	if !strings.ContainsAny(key, `.'"`) {
		// plain: the key names itself
	} else if !strings.Contains(key, `"`) {
		name = `"` + key + `"`
	} else {
		name = `'` + key + `'`
	}
	res, err := e.Lookup(context.Background(), hiera.Request{Key: name})
	if err != nil {
		t.Fatalf("lookup %q: %v", name, err)
	}
	return res.Value, res.Found
}

// Every tricky string, written by Set into one file, is what a lookup of its key answers: in an
// LF file, a CRLF one, and with interpolation escaped.
func TestSet_trickyStringsReadBackByLookup(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n"} {
		f, err := Parse("common.yaml", []byte("# data"+nl))
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range trickyStrings {
			if err := f.Set(keyOf(i), s, Options{}); err != nil {
				t.Fatalf("Set %q: %v", s, err)
			}
		}
		engine := lookupEngine(t, f.Bytes())
		for i, s := range trickyStrings {
			got, found := lookupKey(t, engine, keyOf(i))
			if !found || got != s {
				t.Errorf("%q written as %q: lookup answers %#v (found %v)", s, entryText(f, keyOf(i)), got, found)
			}
			full, lazy := readBothWays(t, f.Bytes(), keyOf(i))
			if want := EscapeInterpolation(s); full != want || lazy != want {
				t.Errorf("%q written as %q: read as %q in full, %q lazily", s, entryText(f, keyOf(i)), full, lazy)
			}
		}
	}
}

func keyOf(i int) string { return "k" + string(rune('a'+i/26)) + string(rune('a'+i%26)) }

// entryText is the text of key's entry in f.
func entryText(f *File, key string) string {
	i, ok := f.index[key]
	if !ok {
		return "(no entry)"
	}
	return string(f.src[f.entries[i].start:f.entryEnd(i)])
}

// Values of every kind read back exactly: numbers beyond float64, nesting, nulls, empty
// collections, keys that need quoting, interpolation kept when asked for.
func TestSet_valuesReadBackByLookup(t *testing.T) {
	big1, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	values := map[string]any{
		"int":       int64(-42),
		"maxint":    int64(math.MaxInt64),
		"bigint":    big1,
		"negbig":    new(big.Int).Neg(big1),
		"float":     1.5,
		"tiny":      5e-324,
		"huge":      1.7976931348623157e308,
		"whole":     3.0,
		"fraction":  0.1,
		"exp":       1e21,
		"null":      nil,
		"true":      true,
		"false":     false,
		"emptyhash": map[string]any{},
		"emptylist": []any{},
		"nested": map[string]any{
			"yes":   []any{"no", int64(1), nil, []any{}, []any{"a", []any{"b"}}, map[string]any{"k": "v", "o": map[string]any{}}},
			"a: b":  map[string]any{"%{x}": "%{y}", "": "empty key", " ": "space", "<<": map[string]any{"not": "merged"}},
			"multi": "line one\nline two\n",
			"list":  []any{"first\nsecond", " lead\nx", map[string]any{"deep": "x\n\n"}},
		},
		"a.b":     "dotted root key",
		"it's":    "quote in key",
		"<<":      map[string]any{"root": "not merged"},
		"ordered": hashOf("z", int64(1), "a", int64(2), int64(5), "int key", 2.5, "float key"),
	}
	f, err := Parse("common.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range values {
		if err := f.Set(k, v, Options{}); err != nil {
			t.Fatalf("Set %s: %v", k, err)
		}
	}
	engine := lookupEngine(t, f.Bytes())
	for k, v := range values {
		got, found := lookupKey(t, engine, k)
		if !found || !sameValue(got, normalize(v)) {
			t.Errorf("%s written as\n%s\nlookup answers %s", k, entryText(f, k), model.Inspect(got))
		}
	}
}

func hashOf(kv ...any) *model.Hash {
	h := model.NewHash(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

// With Interpolate, strings are written as given and Hiera interpolates them.
func TestSet_interpolate(t *testing.T) {
	f, _ := Parse("common.yaml", nil)
	if err := f.Set("target", "value", Options{}); err != nil {
		t.Fatal(err)
	}
	if err := f.Set("ref", "<%{lookup('target')}> %{literal('%')}{x}", Options{Interpolate: true}); err != nil {
		t.Fatal(err)
	}
	if err := f.Set("raw", "<%{lookup('target')}>", Options{}); err != nil {
		t.Fatal(err)
	}
	engine := lookupEngine(t, f.Bytes())
	if got, _ := lookupKey(t, engine, "ref"); got != "<value> %{x}" {
		t.Errorf("interpolated: %q\n%s", got, f.Bytes())
	}
	if got, _ := lookupKey(t, engine, "raw"); got != "<%{lookup('target')}>" {
		t.Errorf("escaped: %q\n%s", got, f.Bytes())
	}
}

// Under the root key "%", "%{" is escaped with an empty token: literal('%') there is a lookup of
// "%" within "%" to Hiera's recursion guard.
func TestSet_percentKey(t *testing.T) {
	f, _ := Parse("common.yaml", nil)
	for _, key := range []string{"%", "a"} {
		if err := f.Set(key, map[string]any{"%{k}": "%{hostname}"}, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	engine := lookupEngine(t, f.Bytes())
	for _, key := range []string{"%", "a"} {
		got, _ := lookupKey(t, engine, key)
		if want := normalize(map[string]any{"%{k}": "%{hostname}"}); !sameValue(got, want) {
			t.Errorf("%s: %s in\n%s", key, model.Inspect(got), f.Bytes())
		}
	}
}

// Values the engine cannot hold exactly, and keys no lookup can name, are errors.
func TestEncode_refusals(t *testing.T) {
	third := new(big.Float).SetPrec(200).Quo(big.NewFloat(1), big.NewFloat(3))
	cases := map[string]struct {
		key  string
		v    any
		want string
	}{
		"inexact decimal": {"k", map[string]any{"x": []any{third}}, "k.x.0: the number 0.333"},
		"not UTF-8":       {"k", "\xff", "not UTF-8"},
		"key not UTF-8":   {"k", map[string]any{"\xff": 1}, "not UTF-8"},
		"unnameable key":  {`a'b"c.d`, "v", `Syntax error in key`},
		"unsupported":     {"k", struct{}{}, "cannot be written"},
		"bool hash key":   {"k", hashOf(true, "v"), "k: a hash key that is true"},
		"long hash key":   {"k", map[string]any{strings.Repeat("x", 1001): 1}, "longer than YAML allows"},
		"too deep":        {"k", deepList(1001), "k: the value nests more than 1000 levels deep"},
	}
	for name, c := range cases {
		_, err := Encode(c.key, c.v, Options{}, "\n")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, c.want)
		}
	}
	if _, err := Encode("a.b", "v", Options{}, "\n"); err != nil {
		t.Errorf("a dotted key is named by quoting it: %v", err)
	}
}

// ReadYAML (the data files' reader, with its lazy skim) reads what Encode writes as ParseYAML does.
func readBothWays(t testing.TB, text []byte, key string) (full, lazy any) {
	t.Helper()
	v, _, err := datafile.ParseYAML(text)
	if err != nil {
		t.Fatalf("ParseYAML: %v\n%s", err, text)
	}
	h, ok := v.(*model.Hash)
	if !ok {
		t.Fatalf("ParseYAML gave %T", v)
	}
	full, _ = h.Get(key)
	r, err := datafile.ReadYAML(text, nil)
	if err != nil {
		t.Fatalf("ReadYAML: %v\n%s", err, text)
	}
	switch x := r.(type) {
	case *datafile.LazyYAML:
		lazy, _, _, err = x.Value(key)
		if err != nil {
			t.Fatalf("LazyYAML.Value: %v\n%s", err, text)
		}
	case *model.Hash:
		lazy, _ = x.Get(key)
	default:
		t.Fatalf("ReadYAML gave %T", r)
	}
	return full, lazy
}

// Multi-line strings are literal blocks wherever they stand: a hash's value, a list's item, with
// an indentation indicator when the first line starts with a space.
func TestEncode_literalBlocksNested(t *testing.T) {
	v := map[string]any{"h": " lead\nx\n", "l": []any{"a\nb", []any{"c\nd\n\n"}}}
	got, err := Encode("k", v, Options{}, "\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "k:\n  h: |2\n     lead\n    x\n  l:\n    - |-\n      a\n      b\n    -\n      - |+\n        c\n        d\n\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// deepList is a list nested n levels deep.
func deepList(n int) any {
	var v any = "leaf"
	for range n {
		v = []any{v}
	}
	return v
}

// The deepest value the engine reads is written.
func TestSet_deepestValue(t *testing.T) {
	f, _ := Parse("common.yaml", nil)
	if err := f.Set("deep", deepList(999), Options{}); err != nil {
		t.Fatal(err)
	}
	if got, found := lookupKey(t, lookupEngine(t, f.Bytes()), "deep"); !found || !sameValue(got, deepList(999)) {
		t.Errorf("lookup answers %.80s", model.Inspect(got))
	}
}
