package yamledit

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fuzzValues are the values FuzzEdit writes: literal blocks of each chomping, with an indentation
// indicator, quoted strings, nesting, null.
var fuzzValues = []any{"new\nvalue", "kept\n\n", " lead\nx\n", map[string]any{"a": []any{"b\n", nil}}, nil, "", "yes"}

// FuzzEdit: whatever text Parse takes, replacing or removing any of its keys, or adding one,
// changes only that key's entry: the bytes before and after it are kept, and what lies between the
// entry's end and the next key is only blank and comment lines. Parse never panics.
func FuzzEdit(f *testing.F) {
	names, _ := filepath.Glob("testdata/*.yaml")
	for _, n := range names {
		b, _ := os.ReadFile(n)
		f.Add(b)
	}
	for _, s := range []string{"", "a: 1\n", "a: |\n  x\n # c\nb: 2", "a:\n- 1\n-  2\n# c\n\nb: &x y\nc: *x\n", "---\na: 'x\n  y'\n...\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("f.yaml", src)
		if err != nil {
			return
		}
		for _, key := range file.Keys() {
			g, _ := Parse("f.yaml", src)
			i := g.index[key]
			start, end, limit := g.entries[i].start, g.entryEnd(i), g.entries[i].limit
			for _, line := range bytes.SplitAfter(src[end:limit], []byte("\n")) {
				if len(line) > 0 && !blankOrComment(line) {
					t.Fatalf("%q: the entry of %q ends at %d, before %q", src, key, end, line)
				}
			}
			pinned := g.Editable(key) != nil
			value := fuzzValues[len(src)%len(fuzzValues)]
			if err := g.Set(key, value, Options{}); err != nil {
				if !pinned {
					t.Fatalf("%q: Set %q: %v", src, key, err)
				}
				continue
			}
			out := g.Bytes()
			if !bytes.HasPrefix(out, src[:start]) || !bytes.HasSuffix(out, src[end:]) {
				t.Fatalf("%q: Set %q gave %q: bytes outside [%d, %d) changed", src, key, out, start, end)
			}
			h, _ := Parse("f.yaml", src)
			if !h.Delete(key) {
				t.Fatalf("%q: Delete %q failed", src, key)
			}
			if out := h.Bytes(); !bytes.Equal(out, append(src[:start:start], src[end:]...)) && !bytes.Equal(out, append(src[:start:start], src[limit:]...)) &&
				!bytes.Equal(out, slices.Concat(src[:start], []byte("---"+h.nl), src[end:])) {
				t.Fatalf("%q: Delete %q gave %q", src, key, out)
			}
		}
		at := file.docEnd
		if err := file.Set("zz new", []any{"x"}, Options{}); err != nil {
			if !bytes.HasSuffix(src, []byte("\n")) && strings.Contains(err.Error(), "would change the value") {
				return // the final line break added would change the last value: refused, file kept
			}
			t.Fatalf("%q: append: %v", src, err)
		}
		out := file.Bytes()
		if !bytes.HasPrefix(out, src[:at]) || !bytes.HasSuffix(out, src[at:]) {
			t.Fatalf("%q: append gave %q", src, out)
		}
	})
}
