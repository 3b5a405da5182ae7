package hiera

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/glob"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/ptype"
)

// Fuzz targets (the YAML and JSON readers have theirs beside them): whatever the input, the engine returns a value or an error, never a panic or a
// hang. Seeds are below and in testdata/fuzz/<FuzzName>/; run one with
//
//	go test -run '^$' -fuzz '^datafile.FuzzParseYAML$' -fuzztime 2m ./internal/hiera/

func FuzzParseKey(f *testing.F) {
	for _, s := range []string{"a", "a.b.c", "a.'b.c'", `a."b.c"`, "a.0", "h..a", "'a'b", "a.", ".a", " h . a ", ":1", "a.-1", "\"", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		segs, err := parseKey(key)
		if err == nil && len(segs) == 0 {
			t.Fatalf("parseKey(%q) returned no segments and no error", key)
		}
	})
}

// FuzzInterpolate looks up a key whose data value is the fuzzed string, through a real engine, so
// interpolation, nested lookups and the recursion guard all run.
func FuzzInterpolate(f *testing.F) {
	for _, s := range []string{
		"%{facts.os.family}", "%{::hostname}-%{trusted.certname}", "%{lookup('b')}", "%{alias('b')}",
		"%{alias('a')}", "%{literal('%')}{x}", "%%{}{x}", "%{lookup('a')}", "%{scope('facts.h.k')}",
		"%{foo('x')}", "%{", "%{facts.'a.b'}", "x %{alias('b')}", "%{hiera(\"c\")} %{lookup('nope')}",
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	fuzzWrite(f, filepath.Join(dir, "hiera.yaml"), "version: 5\n")
	factsValue, _ := model.FromGo(map[string]any{"hostname": "web", "os": map[string]any{"family": "Debian"}, "h": map[string]any{"k": []any{"x", int64(1)}}})
	facts, isHash := factsValue.(*model.Hash)
	if !isHash {
		f.Fatalf("facts converted to %T, not a *Hash", factsValue)
	}
	f.Fuzz(func(t *testing.T, value string) {
		if !fuzzUTF8(value) {
			return
		}
		data := model.NewHash(3)
		data.Set("a", value)
		data.Set("b", []any{"x", int64(1)})
		data.Set("c", "%{lookup('a')}")
		text, err := datafile.MarshalJSON(data)
		if err != nil {
			return
		}
		common := filepath.Join(dir, "data", "common.yaml")
		_ = os.MkdirAll(filepath.Dir(common), 0o755)
		_ = os.WriteFile(common, text, 0o644) // JSON is YAML
		engine := NewEngine(filepath.Join(dir, "hiera.yaml"))
		var errA error
		for _, key := range []string{"a", "c"} {
			_, err := engine.Lookup(context.Background(), Request{Key: key, Scope: Scope{Facts: facts}, Explain: true})
			if key == "a" {
				errA = err
			}
		}
		fuzzCheckFile(t, engine, errA, strings.ContainsAny(value, "("))
	})
}

// fuzzCheckFile checks the fuzzed data file as hieraform check does, without a node: where it finds
// a problem in key a, a lookup of a fails too, at the same place, and in the same words unless the
// lookup met another problem first (in a nested lookup, which the file check does not make; nested
// says the value may call one): check reports a
// problem once, whether the file check or a node's lookup meets it.
func fuzzCheckFile(t *testing.T, engine *Engine, lookupErr error, nested bool) {
	list, err := engine.DataFiles(context.Background(), nil)
	if err != nil || len(list.Files) != 1 {
		t.Fatalf("listing: %v, %d files", err, len(list.Files))
	}
	check, err := engine.NewFileCheck(context.Background(), list.Files)
	if err != nil {
		t.Fatal(err)
	}
	problems, _ := check.Check(list.Files[0])
	for _, p := range problems {
		pe, _ := p.(*model.Error)
		le, _ := lookupErr.(*model.Error)
		switch {
		case pe == nil || strings.Contains(pe.Message, "internal error"):
			t.Fatalf("file check: %v", p)
		case pe.Key != "a":
			continue
		case le == nil:
			t.Fatalf("the file check finds %q in key a, the lookup of a succeeds", pe.Message)
		case pe.File != le.File || pe.Line != le.Line || pe.Message != le.Message && !nested:
			t.Fatalf("the file check finds %q at %s:%d, the lookup %q at %s:%d", pe.Message, pe.File, pe.Line, le.Message, le.File, le.Line)
		}
	}
}

func fuzzUTF8(s string) bool { return strings.ToValidUTF8(s, "") == s }

func fuzzWrite(tb testing.TB, path, text string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// FuzzParseValueType: any value_type text parses to a type or fails with a message, and checking
// values against the type never panics.
func FuzzParseValueType(f *testing.F) {
	for _, s := range []string{"Array[String, 1]", "Hash[String, Integer[0, 10], 1, default]", "Struct[{a => Integer, Optional[b] => String}]",
		"Variant[Enum[a, b], Pattern[/^x/], Optional[Tuple[String, 1, 2]]]", "Integer[", "Data", "RichData", "Foo[1]", "NotUndef['x']",
		"Sensitive[String]", "Iterable[Integer]", "Float[-1.5e3, default]", "Collection[2]", "[1, {a => b}]", "'x' # c"} {
		f.Add(s)
	}
	h := model.NewHash(2)
	h.Set("a", []any{int64(1), "x", nil})
	h.Set(int64(2), 1.5)
	values := []any{nil, true, int64(-3), "text", 2.5, []any{}, model.NewHash(0), h, []any{"a", h}, ptype.SensitiveValue{Value: "s"}}
	f.Fuzz(func(t *testing.T, src string) {
		typ, err := ptype.Parse(src)
		if err != nil {
			return
		}
		_ = typ.String()
		for _, v := range values {
			_ = ptype.Check("Found value", typ, v)
		}
	})
}

// FuzzInterpolationChain looks up keys whose values interpolate each other (lookup, alias, hiera,
// scope), one of them an eyaml-like secret marked by convert_to Sensitive: whatever the chain, the
// lookup ends (bounded nesting and count), never with an internal error, and no error or
// explanation shows the secret's text.
func FuzzInterpolationChain(f *testing.F) {
	f.Add("%{lookup('b')}%{lookup('b')}", "%{lookup('c')}%{alias('c')}", "%{literal('%')}{'}")
	f.Add("%{alias('b')}", "%{alias('c')}", "%{alias('a')}")
	f.Add("x%{hiera('s')}", "%{lookup('s')}", "%{scope('facts.x')}")
	f.Add("%{lookup('c.0')}", "[%{lookup('a')}]", "%{lookup('s.k')}")
	dir := f.TempDir()
	fuzzWrite(f, filepath.Join(dir, "hiera.yaml"), "version: 5\n")
	const secret = "S3CR3T-fuzz"
	f.Fuzz(func(t *testing.T, a, b, c string) {
		if !fuzzUTF8(a) || !fuzzUTF8(b) || !fuzzUTF8(c) {
			return
		}
		opts, s := model.NewHash(1), model.NewHash(1)
		s.Set("convert_to", "Sensitive")
		opts.Set("s", s)
		data := model.NewHash(5)
		data.Set("lookup_options", opts)
		data.Set("a", a)
		data.Set("b", b)
		data.Set("c", c)
		data.Set("s", "%{literal('%')}{'}"+secret+"%{lookup('c')}")
		text, err := datafile.MarshalJSON(data)
		if err != nil {
			return
		}
		fuzzWrite(t, filepath.Join(dir, "data", "common.yaml"), string(text)) // JSON is YAML
		engine := NewEngine(filepath.Join(dir, "hiera.yaml"))
		for _, key := range []string{"a", "b", "s"} { // no deadline: the engine's counts end every chain
			res, err := engine.Lookup(context.Background(), Request{Key: key, Explain: true})
			if err != nil && strings.Contains(err.Error(), "internal error") {
				t.Fatalf("lookup %s: %v", key, err)
			}
			if err != nil && strings.Contains(err.Error(), secret) || strings.Contains(res.Explanation, secret) {
				t.Fatalf("lookup %s shows the secret: %v\n%s", key, err, res.Explanation)
			}
		}
	})
}

// FuzzGlob expands fuzzed glob patterns over a small tree with a link leading outside it: no
// panic, no match outside the tree, only regular files, a bounded number of {a,b} expansions.
func FuzzGlob(f *testing.F) {
	for _, s := range []string{"**/*.yaml", "nodes/**/**/*.yaml", "{a,b}/{c,d}*", "[a-c]?.yaml", "**/out/*", "../*",
		"nodes/{x,../../*}", "\\{a}.yaml", "{{a,b},{c,{d,e}}}", "*/**/", "[!a]*", "**//**/x*"} {
		f.Add(s)
	}
	root := f.TempDir()
	outside := f.TempDir()
	dir := filepath.Join(root, "data")
	for _, p := range []string{"a.yaml", "b1.yaml", "nodes/x.yaml", "nodes/y/z.yaml", ".hidden/h.yaml", "c/d.yaml"} {
		fuzzWrite(f, filepath.Join(dir, p), "a: 1\n")
	}
	fuzzWrite(f, filepath.Join(outside, "secret.yaml"), "a: 1\n")
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		if !fuzzUTF8(pattern) || strings.ContainsRune(pattern, 0) {
			return
		}
		matches, err := glob.Expand(filepath.Join(dir, pattern), dir)
		if err != nil {
			return
		}
		for _, m := range matches {
			if _, cerr := glob.Confine(m, dir); cerr != nil {
				t.Fatalf("%q matched %s outside the tree: %v", pattern, m, cerr)
			}
			if fi, serr := os.Stat(m); serr == nil && !fi.Mode().IsRegular() {
				t.Fatalf("%q matched %s, not a regular file", pattern, m)
			}
		}
	})
}
