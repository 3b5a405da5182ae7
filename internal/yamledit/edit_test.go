package yamledit

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// fixtures are the data files of testdata: comments, CRLF, a byte order mark, document markers, a
// directive, an indented top level without a final line break, literal blocks with comment-like
// and blank lines, anchors and merge keys within a key.
func fixtures(t *testing.T) map[string][]byte {
	names, err := filepath.Glob("testdata/*.yaml")
	if err != nil || len(names) == 0 {
		t.Fatal("no fixtures", err)
	}
	out := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(n)] = b
	}
	return out
}

// rootValues is every root key's value as the engine reads the text.
func rootValues(t *testing.T, text []byte) *model.Hash {
	t.Helper()
	v, _, err := datafile.ParseYAML(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	h, _ := v.(*model.Hash)
	if h == nil {
		h = model.NewHash(0)
	}
	return h
}

// An edit of one key changes only that key's entry: every byte before and after it is kept, and
// every other key reads as before. Replacing writes exactly the entry Encode gives, in the file's
// line breaks and at the top level's indentation; removing drops exactly the entry.
func TestEdit_keepsEveryOtherByte(t *testing.T) {
	newValue := map[string]any{"written": []any{"by", "terraform", "multi\nline\n"}}
	for name, src := range fixtures(t) {
		f, err := Parse(name, src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		before := rootValues(t, src)
		if len(f.Keys()) < 3 {
			t.Fatalf("%s: keys %v", name, f.Keys())
		}
		for _, key := range f.Keys() {
			f, _ := Parse(name, src)
			i := f.index[key]
			start, end := f.entries[i].start, f.entryEnd(i)
			entry, err := Encode(key, newValue, Options{}, lineBreak(src))
			if err != nil {
				t.Fatal(err)
			}
			entry = indentLines(entry, f.indent)
			if err := f.Set(key, newValue, Options{}); err != nil {
				t.Errorf("%s: Set %s: %v", name, key, err)
				continue
			}
			if want := slices.Concat(src[:start], entry, src[end:]); !bytes.Equal(f.Bytes(), want) {
				t.Errorf("%s: Set %s gave\n%q\nwant\n%q", name, key, f.Bytes(), want)
			}
			assertOthersKept(t, name, before, f.Bytes(), key)
			if got, _ := rootValues(t, f.Bytes()).Get(key); !sameValue(got, normalize(newValue)) {
				t.Errorf("%s: %s reads %s", name, key, model.Inspect(got))
			}

			g, _ := Parse(name, src)
			if !g.Delete(key) {
				t.Errorf("%s: Delete %s failed", name, key)
				continue
			}
			if want := slices.Concat(src[:start], src[end:]); !bytes.Equal(g.Bytes(), want) {
				t.Errorf("%s: Delete %s gave\n%q\nwant\n%q", name, key, g.Bytes(), want)
			}
			if slices.Contains(g.Keys(), key) {
				t.Errorf("%s: %s still there after Delete", name, key)
			}
			assertOthersKept(t, name, before, g.Bytes(), key)
		}

		// a new key goes at the end, before a "..." line, in the file's line breaks
		f, _ = Parse(name, src)
		at := f.docEnd
		if err := f.Set("added", "new\nvalue", Options{}); err != nil {
			t.Fatalf("%s: append: %v", name, err)
		}
		entry, _ := Encode("added", "new\nvalue", Options{}, lineBreak(src))
		sep := ""
		if at > 0 && src[at-1] != '\n' {
			sep = lineBreak(src)
		}
		if want := slices.Concat(src[:at], []byte(sep), indentLines(entry, f.indent), src[at:]); !bytes.Equal(f.Bytes(), want) {
			t.Errorf("%s: append gave\n%q\nwant\n%q", name, f.Bytes(), want)
		}
		assertOthersKept(t, name, before, f.Bytes(), "added")
		if keys := f.Keys(); keys[len(keys)-1] != "added" {
			t.Errorf("%s: keys after append %v", name, keys)
		}
	}
}

func assertOthersKept(t *testing.T, name string, before *model.Hash, after []byte, edited string) {
	t.Helper()
	now := rootValues(t, after)
	before.Each(func(k, v any) bool {
		if k == edited {
			return true
		}
		if got, ok := now.Get(k); !ok || !sameValue(got, v) {
			t.Errorf("%s: editing %s changed %v:\n%s", name, edited, k, after)
		}
		return true
	})
}

// The entries of comments.yaml end where their values end: a trailing comment on the key's line is
// the entry's, the comment lines before the next key are not, and the comment-like and blank lines
// of a literal block are its value's.
func TestEntryEnd_comments(t *testing.T) {
	src, _ := os.ReadFile("testdata/comments.yaml")
	f, err := Parse("comments.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"first":  "first: 1 # trailing comment\n",
		"block":  "block: |\n  text\n  # a line of the text, not a comment\n\n  more\n",
		"nested": "nested:\n  defaults: &defaults\n    port: 80\n  site:\n    <<: *defaults\n    name: www\n    # a comment inside\n    list:\n      - a\n      - \"b\"\n",
		"last":   "last: >-\n  folded\n  text\n",
	}
	for key, text := range want {
		if got := entryText(f, key); got != text {
			t.Errorf("%s: entry %q, want %q", key, got, text)
		}
	}
	if got := strings.Join(f.Keys(), " "); got != "first block nested last" {
		t.Errorf("keys %s", got)
	}
	for key, line := range map[string]int{"first": 4, "block": 7, "nested": 13, "last": 26} {
		if got, ok := f.Line(key); !ok || got != line {
			t.Errorf("line of %s: %d, want %d", key, got, line)
		}
	}
	if _, ok := f.Line("missing"); ok {
		t.Error("a missing key has a line")
	}
	b, _ := os.ReadFile("testdata/blocks.yaml")
	g, err := Parse("blocks.yaml", b)
	if err != nil {
		t.Fatal(err)
	}
	if got := entryText(g, "keep"); got != "keep: |+\n  x\n\n\n" {
		t.Errorf("keep: %q", got)
	}
	if got := entryText(g, "clip"); got != "clip: |\n  y\n\n   # more indented: a comment after the block\n" {
		t.Errorf("clip: %q", got)
	}
}

// What cannot be edited safely is refused, naming the file and the line.
func TestParse_refusals(t *testing.T) {
	cases := map[string]struct{ text, want string }{
		"syntax":         {"a: 1\nb: [\n", "f.yaml: line 3"},
		"flow top":       {"{a: 1, b: 2}\n", "f.yaml: line 1: the top of the file is a flow mapping"},
		"list top":       {"- a\n- b\n", "f.yaml: line 1: the top of the file is a list"},
		"scalar top":     {"just text\n", "f.yaml: line 1: the top of the file is a single value"},
		"duplicate":      {"a: 1\nb: 2\na: 3\n", `f.yaml: line 3: the key "a" is given twice (first at line 1)`},
		"symbol dup":     {"a: 1\n:a: 2\n", `line 2: the key "a" is given twice`},
		"two documents":  {"a: 1\n---\nb: 2\n", "f.yaml: line 2: the file holds several YAML documents"},
		"merge at top":   {"d: &d {x: 1}\n<<: *d\n", "f.yaml: line 2: a top-level key that is not a plain key"},
		"explicit key":   {"a: 1\n? b\n: 2\n", `f.yaml: line 2: the key "b" is an explicit key`},
		"explicit first": {"?\n 0", `f.yaml: line 1: a tag on the whole mapping, or an explicit key`},
		"tag alone":      {"# c\n---\n !\n", "f.yaml: line 3: the top of the file is a single value"},
		"bare CR":        {"a: 1\rb: 2\n", "f.yaml: line 1: a carriage return"},
		"unicode break":  {"a: \"x\u2028y\"\n", "f.yaml: line 1: a Unicode line break (U+2028)"},
		"anchor on root": {"--- &r\na: 1\n", "an anchor on the whole mapping"},
		"tag on root":    {"!0\nA:\n", "f.yaml: line 1: a tag on the whole mapping"},
		"plain tag":      {"!\nA:\n", "f.yaml: line 1: a tag on the whole mapping"},
	}
	for name, c := range cases {
		_, err := Parse("f.yaml", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

// An anchor that another key's alias names pins its key: Set refuses it (saying why), Delete
// leaves it; the key holding the alias, and anchors used within one key, edit freely.
func TestEdit_anchorsAcrossKeys(t *testing.T) {
	src := []byte("base: &b\n  port: 80\nweb:\n  <<: *b\n  name: w\nown:\n  a: &x 1\n  b: *x\n")
	f, err := Parse("f.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Set("base", 1, Options{}); err == nil || !strings.Contains(err.Error(), `f.yaml: line 1: the key "base" holds an anchor that the key web at line 3 uses`) {
		t.Errorf("Set base: %v", err)
	}
	if f.Delete("base") || !bytes.Equal(f.Bytes(), src) {
		t.Error("Delete removed a key whose anchor another key uses")
	}
	if err := f.Set("own", "x", Options{}); err != nil {
		t.Errorf("Set own: %v", err)
	}
	if !f.Delete("web") {
		t.Error("Delete web failed")
	}
	if err := f.Set("base", 2, Options{}); err != nil { // nothing uses its anchor any more
		t.Errorf("Set base once free: %v", err)
	}
	if got := string(f.Bytes()); got != "base: 2\nown: x\n" {
		t.Errorf("got %q", got)
	}
}

// Empty: no key, and only blank lines and document markers; comments are someone's.
func TestEmpty(t *testing.T) {
	for text, want := range map[string]bool{
		"": true, "\n\n": true, "---\n": true, "---\n...\n": true, "\r\n---\r\n": true, "\uFEFF---\n": true,
		"# note\n": false, "a: 1\n": false, "--- # c\n": false,
	} {
		f, err := Parse("f.yaml", []byte(text))
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if f.Empty() != want {
			t.Errorf("Empty(%q) = %v", text, !want)
		}
	}
	f, _ := Parse("f.yaml", nil)
	_ = f.Set("a", 1, Options{})
	if f.Empty() || !f.Delete("a") || !f.Empty() {
		t.Errorf("a file created and emptied again is empty: %q", f.Bytes())
	}
}

// A new value that would take in the lines after it (a literal block followed by a more indented
// comment) is written quoted instead.
func TestSet_blockWouldSwallowFollowingLines(t *testing.T) {
	src := []byte("a: 1\n   # indented note about b\nb: 2\n")
	f, _ := Parse("f.yaml", src)
	if err := f.Set("a", "two\nlines", Options{}); err != nil {
		t.Fatal(err)
	}
	if got := string(f.Bytes()); got != "a: \"two\\nlines\"\n   # indented note about b\nb: 2\n" {
		t.Errorf("got %q", got)
	}
}

// A keep block's trailing blank lines are its value's; when removing the key after it would
// lengthen it, the blank lines before the next key go too.
func TestEdit_keepBlocks(t *testing.T) {
	f, _ := Parse("f.yaml", []byte("a: |+\n  x\n\n# about b\nb: 1\n"))
	if got := entryText(f, "a"); got != "a: |+\n  x\n\n" {
		t.Errorf("a: %q", got)
	}
	g, _ := Parse("f.yaml", []byte("a: |+\n  x\nb: 1\n\nc: 2\n"))
	if !g.Delete("b") {
		t.Fatal("Delete b")
	}
	if got := string(g.Bytes()); got != "a: |+\n  x\nc: 2\n" {
		t.Errorf("after Delete b: %q", got)
	}
	h, _ := Parse("f.yaml", []byte("a: |+\n  x\n "))
	err := h.Set("b", 1, Options{})
	if err == nil || !strings.Contains(err.Error(), `f.yaml: line 1: writing the key "b" would change the value of the key a`) || string(h.Bytes()) != "a: |+\n  x\n " {
		t.Errorf("append after a keep block without a final line break: %v, %q", err, h.Bytes())
	}
}

// Removing the last key of a document that ends with "..." and has no "---" leaves an empty
// document, which needs its "---".
func TestDelete_lastKeyBeforeDocumentEnd(t *testing.T) {
	f, _ := Parse("f.yaml", []byte("# c\r\nA: 1\r\n...\r\n# tail\r\n"))
	if !f.Delete("A") {
		t.Fatal("Delete A")
	}
	if got := string(f.Bytes()); got != "# c\r\n---\r\n...\r\n# tail\r\n" {
		t.Errorf("got %q", got)
	}
}

// A comment after a one-line value on the key's line stays when the new value is one line too;
// a "#" inside a quoted value is no comment; a new block value drops it (it cannot follow "|").
func TestSet_keepsTheLineComment(t *testing.T) {
	for _, c := range []struct {
		src  string
		v    any
		want string
	}{
		{"a: 4   # keep this comment\nb: 1\n", 8, "a: 8   # keep this comment\nb: 1\n"},
		{"a: 4\t# tab\r\nb: 1\r\n", "x y", "a: x y\t# tab\r\nb: 1\r\n"},
		{"a: 'x #y' # c\n", "z", "a: z # c\n"},
		{"a: \"x #y\"\n", "z", "a: z\n"},
		{"a: x#y # c\n", []any{1}, "a:\n  - 1\n"},
		{"a: 1 # c\n", "l1\nl2\n", "a: |\n  l1\n  l2\n"},
		{"a: 1 # c\n", "yes", "a: \"yes\" # c\n"},
		{"  a: 1 # c\n  b: 2\n", 3, "  a: 3 # c\n  b: 2\n"},
	} {
		f, err := Parse("f.yaml", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Set("a", c.v, Options{}); err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		if got := string(f.Bytes()); got != c.want {
			t.Errorf("%q set to %v: got %q, want %q", c.src, c.v, got, c.want)
		}
	}
}
