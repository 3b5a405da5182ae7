package datafile

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// wholeYAML reads text with the full reader in one piece, as files under maxSlowYAML are read.
func wholeYAML(t *testing.T, text string) (string, error) {
	t.Helper()
	r := newYAMLReader(yamlSetup{maxNesting: maxDataNesting})
	v, err := r.parseYAMLv3([]byte(text))
	if err != nil {
		return "", err
	}
	return jsonText(t, v), nil
}

func jsonText(t *testing.T, v any) string {
	t.Helper()
	b, err := MarshalJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// byRootDocs hold what the full reader takes and the fast one does not, cut anywhere.
var byRootDocs = map[string]string{
	"multi-line scalars":           "# a comment\n---\na: |\n  one\n  two\n\nb: >\n  folded\n  text\nc: \"a quoted\n  string\"\nd: plain\n  continued\ne: 'single\n\n  quoted'\n",
	"aliases across root keys":     "base: &base\n  x: 1\n  y: [1, 2]\nother:\n  <<: *base\n  y: 3\nlist: &l [a, b]\nuses: *l\nlater:\n  deep: {k: *base}\n",
	"an anchor redefined":          "a: &x 1\nb: *x\nc: &x 2\nd: *x\ne: [*x]\n",
	"chained anchors":              "a: &a {v: 1}\nb: &b {w: *a}\nc: &c [*b]\nd: *c\n",
	"duplicate root keys":          "a: 1\nb: 2\na: 3\nc: |\n  x\nb: 4\n",
	"tags and symbols":             ":sym: 1\nstr: !!str 12\nnum: !!int '7'\nbin: !!binary aGVsbG8=\n\"quoted key\": v\n? explicit\n: value\n",
	"sequences at column 0":        "list:\n- a\n- b:\n    c: 1\nnext: 2\n",
	"a flow collection over lines": "a: [1,\n  2]\nb: {x: 1,\n  y: 2}\nc: 3\n",
	"a merge at the root":          "defaults: &d\n  k: 1\n<<: *d\nk2: 2\n",
	"crlf":                         "a: |\r\n  x\r\nb: \"y\r\n  z\"\r\n",
	"mostly plain":                 strings.Repeat("k: v\nlist:\n  - 1\n  - {a: b}\nsym: x\n", 20) + "motd: |\n  hello\n  world\n" + strings.Repeat("k2: w\n", 20),
}

// The document read root key by root key is the document read whole, however it is cut.
func TestReadYAMLByRootSameAsWhole(t *testing.T) {
	saved := byRootGroup
	defer func() { byRootGroup = saved }()
	for name, text := range byRootDocs {
		want, werr := wholeYAML(t, text)
		for _, group := range []int{1, 8, 30, 1 << 20} {
			byRootGroup = group
			v, ok, err := readYAMLByRoot([]byte(text), yamlSetup{maxNesting: maxDataNesting})
			if !ok {
				t.Errorf("%s (groups of %d bytes): not taken", name, group)
				continue
			}
			if (err != nil) != (werr != nil) {
				t.Errorf("%s (groups of %d bytes): error %v, read whole: %v", name, group, err, werr)
				continue
			}
			if err == nil {
				if got := jsonText(t, v); got != want {
					t.Errorf("%s (groups of %d bytes):\n got  %s\n want %s", name, group, got, want)
				}
			}
		}
	}
}

// An error names the file's line, as reading the file whole does; an alias to no anchor is Psych's
// error; a document of another shape is not taken.
func TestReadYAMLByRootErrors(t *testing.T) {
	saved := byRootGroup
	defer func() { byRootGroup = saved }()
	byRootGroup = 1
	for _, text := range []string{
		"a: 1\nb: 2\nc: [1, 2\nd: 4\n",
		"a: 1\nb: *nowhere\n",
		"a: 1\nb:\n  c: 1\n   d: 2\n",
		"a: 1\nb: !ruby/object:Foo {x: 1}\n",
	} {
		_, werr := wholeYAML(t, text)
		_, ok, err := readYAMLByRoot([]byte(text), yamlSetup{maxNesting: maxDataNesting})
		if !ok || err == nil || werr == nil || err.Error() != werr.Error() {
			t.Errorf("%q: %v (taken %v), read whole: %v", text, err, ok, werr)
		}
	}
	for _, text := range []string{"- a\n- b\n", "a: 1\n---\nb: 2\n", "{a: 1,\nb: 2}\n", "just a scalar\n"} {
		if _, ok, err := readYAMLByRoot([]byte(text), yamlSetup{}); ok && err == nil {
			t.Errorf("%q: taken", text)
		}
	}
}

// bigYAML is a data file of about size bytes that only the full reader takes: root keys with
// multi-line scalars, an anchor at the top that later keys alias.
func bigYAML(size int) []byte {
	var b strings.Builder
	b.WriteString("defaults: &defaults\n  owner: ops\n  tags: [a, b]\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "profile::key%06d:\n  <<: *defaults\n  text: |\n    line one of %d\n    line two\n  list: [%d, %d]\n", i, i, i, i+1)
	}
	return []byte(b.String())
}

// A file over maxSlowYAML that only the full reader takes is read (round three's last refusal),
// with the memory of the order of the file: yaml.v3 never parses much more than byRootGroup at
// once (it takes ~100 bytes per byte parsed), and what the read keeps is a few bytes per byte.
// The bounds are scaled down 32 times (8 MiB: 256 KiB, 1 MiB: 32 KiB) to keep the test short.
func TestReadYAMLByRootLargeFile(t *testing.T) {
	savedMax, savedGroup := maxSlowYAML, byRootGroup
	maxSlowYAML, byRootGroup = 256<<10, 32<<10
	defer func() { maxSlowYAML, byRootGroup = savedMax, savedGroup }()
	data := bigYAML(5 * maxSlowYAML) // a 40 MB file, scaled down
	largest := 0
	byRootParsed = func(n int) { largest = max(largest, n) }
	defer func() { byRootParsed = nil }()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v, err := ReadYAML(data, nil)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	h, ok := v.(*model.Hash)
	if !ok || h.Len() < 1000 {
		t.Fatalf("read %T", v)
	}
	last, _ := h.Get(fmt.Sprintf("profile::key%06d", h.Len()-2))
	if lh(last) == nil || lh(last).Len() != 4 {
		t.Fatalf("the last key: %v", last)
	}
	if owner, _ := lh(last).Get("owner"); owner != "ops" {
		t.Errorf("the alias to the first root key's anchor: owner %v", owner)
	}
	if largest > byRootGroup+byRootGroup/8 {
		t.Errorf("the full reader parsed %d bytes at once, want about %d at most", largest, byRootGroup)
	}
	kept := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	if kept > int64(len(data))*16 {
		t.Errorf("the value of a %d-byte file holds %d bytes (%.1f per byte of text), want at most 16 per byte", len(data), kept, float64(kept)/float64(len(data)))
	}
	runtime.KeepAlive(v)

	// mostly plain block YAML with one multi-line scalar: the full reader parses that key's group only
	parsed := 0
	byRootParsed = func(n int) { parsed += n }
	var plain strings.Builder
	plain.WriteString("motd: \"one\n  two\"\n")
	for i := 0; plain.Len() < len(data); i++ {
		fmt.Fprintf(&plain, "profile::key%06d:\n  owner: ops\n  text: line %d\n  list: [%d, %d]\n", i, i, i, i+1)
	}
	if _, err := ReadYAML([]byte(plain.String()), nil); err != nil || parsed == 0 || parsed > byRootGroup+byRootGroup/8 {
		t.Errorf("mostly plain: %v, the full reader parsed %d bytes (want one group's)", err, parsed)
	}
}

func lh(v any) *model.Hash { h, _ := v.(*model.Hash); return h }
