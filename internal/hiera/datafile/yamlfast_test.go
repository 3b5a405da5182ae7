package datafile

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"math/big"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/benchgen"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"gopkg.in/yaml.v3"
)

var testSharing = &model.Sharing{}

// checkFastYAML fails t when the fast reader accepts text but reads it otherwise than yaml.v3 does
// (value, key order, types, or line of a hash). It reports whether the fast reader accepted it.
func checkFastYAML(t *testing.T, text string) bool {
	t.Helper()
	simple, e := checkYAMLText([]byte(text))
	if e != nil || !simple {
		return false
	}
	// Through one table for all texts, as an engine's files share keys and key lists.
	v, lines, ok := fastYAMLParse([]byte(text), yamlSetup{lines: true, share: testSharing})
	if !ok {
		return false
	}
	v3 := newYAMLReader(yamlSetup{lines: true})
	want, err := v3.parseYAMLv3([]byte(text))
	wantLines := v3.lines
	if err != nil {
		t.Errorf("%q: the fast reader accepts it, yaml.v3 says %v", text, err)
		return true
	}
	if !identical(v, want) {
		t.Errorf("%q: fast reader got %s, yaml.v3 %s", text, ytShow(v), ytShow(want))
		return true
	}
	if len(lines) != len(wantLines) {
		t.Errorf("%q: fast reader recorded %d hashes, yaml.v3 %d", text, len(lines), len(wantLines))
	}
	sameLines(t, text, v, want, lines, wantLines)
	return true
}

// identical reports whether a and b are the same value: same Go types, same key order, NaN equal
// to NaN, -0.0 different from 0.0.
func identical(a, b any) bool {
	if fmt.Sprintf("%T", a) != fmt.Sprintf("%T", b) {
		return false
	}
	switch x := a.(type) {
	case float64:
		y, _ := b.(float64) // same type: checked above
		return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
	case *big.Int:
		y, _ := b.(*big.Int)
		return x.Cmp(y) == 0
	case []any:
		y, _ := b.([]any)
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !identical(x[i], y[i]) {
				return false
			}
		}
		return true
	case *model.Hash:
		y, _ := b.(*model.Hash)
		if x.Len() != y.Len() {
			return false
		}
		for i := range x.RawKeys() {
			if !identical(x.RawKeys()[i], y.RawKeys()[i]) || !identical(x.Vals[i], y.Vals[i]) {
				return false
			}
		}
		return true
	case nonData:
		y, _ := b.(nonData)
		return x.typ == y.typ && (x.rest == nil) == (y.rest == nil) && (x.rest == nil || identical(x.rest, y.rest))
	}
	return a == b
}

// sameLines compares the lines of the hashes at the same places in a and b.
func sameLines(t *testing.T, text string, a, b any, la, lb map[*model.Hash]int) {
	t.Helper()
	switch x := a.(type) {
	case *model.Hash:
		y, ok := b.(*model.Hash)
		if !ok {
			t.Fatalf("%q: a hash where yaml.v3 has %T", text, b)
		}
		if la[x] != lb[y] {
			t.Errorf("%q: hash %s at line %d, yaml.v3 says %d", text, ytShow(x), la[x], lb[y])
		}
		for i := range x.Vals {
			sameLines(t, text, x.Vals[i], y.Vals[i], la, lb)
		}
	case []any:
		y, ok := b.([]any)
		if !ok {
			t.Fatalf("%q: an array where yaml.v3 has %T", text, b)
		}
		for i := range x {
			sameLines(t, text, x[i], y[i], la, lb)
		}
	}
}

// fastYAMLCases are read by the fast reader, as yaml.v3 reads them.
var fastYAMLCases = []string{
	"a: 1\n", "a: 1", "---\na: 1\n", "--- # c\na: 1\n", "# c\n---\na: 1\n", "\n\n  a: 1\n  b: 2\n",
	"a:\n  b:\n    c: d\n  e: f\ng: h\n", "a:\n\n  # c\n\n  b: 1\n", "a: # c\n  b: 1\n",
	"a: x # c\nb: x#y\nc: 'q' # c\nd: \"q\"  # c\n", "a: b c  d  \n", "a b: 1\na : 2\n'c': 3\n\"d\"  : 4\n",
	"a:: 1\n:sym: 2\n?x: 3\n-y: 4\n", "- :sym\n", "x: [a, ':b']\n", "a: :sym\n",
	"a:\n- 1\n- 2\nb: 3\n", "a:\n  - 1\n  -   2\nb:\n-\n- x\n", "- a: 1\n  b: 2\n- c: 3\n", "- - a\n  - b\n- - c\n",
	"- a:\n  - x\n  b: 1\n", "- a:\n    b: 1\n  c: 2\n", "-\n  a: 1\n-\n- x\n", "a:\n-\n  b: 1\n", "a:\nb:\n",
	"a: [1, 2, 'x', \"y\", [z], {k: v}]\n", "a: []\nb: {}\nc: [ ]\nd: { }\n", "a: {x: 1, 'y': 2, \"z\" : 3}\n",
	"a: [a b, c  d ]\n", "a: [-1, -x, .5]\n", "a: {b: [1, {c: d}]}\n", "a: [a'b, a\"b]\n",
	"a: 'it''s'\nb: ''\nc: \"\"\nd: '\\n'\n", "a: \"\\t\\n\\\\\\\"\\x41\\u00e9\\U0001F600\\0\\a\\b\\v\\f\\r\\e\\ \\N\\_\\L\\P\"\n",
	"a: \"'\\''\"\n", "a: é\nb: 'ü'\n日本: 語\n",
	"a: |\n  x\n  y\nb: 1\n", "a: |-\n  x\n\n", "a: |+\n  x\n\n\nb: 1\n", "a: |\n  x\n\n  y\n", "a: |\n\n  x\n",
	"a: |\n  x\n    y\n  z\n", "a: |\n  x\n     \n  y\n", "a: |\n  # not a comment\n# a comment\nb: 1\n", "a: | # c\n  x\n",
	"a: >\n  x\n  y\n\n  z\n", "a: >-\n  x\n  y\n", "a: >+\n  x\n\n", "a: >\n  x", "a: |\n  x",
	"- |\n  x\n- >\n  y\n", "a:\n- |\n x\n", "- a: |\n    x\n  b: 1\n",
	"a: yes\nb: No\nc: ~\nd: null\ne: 0x1F\nf: 010\ng: 1_000\nh: 1:30\ni: .inf\nj: -.5\nk: 1.5e+3\nl: 12345678901234567890\n",
	"1: a\n1.0: b\ntrue: c\n~: d\n'1': e\n", "a: 1\na: 2\nb: 3\n", "a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6\ng: 7\nh: 8\ni: 9\nj: 10\na: 11\n",
	"a: x:y\n", "a: ---\n", "a:\n  ---x: 1\n", "- [a, b]\n- {c: d}\n",
}

// fastYAMLFallbacks are left to yaml.v3.
var fastYAMLFallbacks = []string{
	"", "# only a comment\n", "---\n", "abc\n", "[a, b]\n", "a: &x 1\nb: *x\n", "a: {<<: {b: 1}}\n", "<<: {b: 1}\n",
	"a: !!str 1\n", "a: multi\n  line\n", "a: 'multi\n  line'\n", "a: [1,\n  2]\n", "a: 1\n---\nb: 2\n", "a: 1\n...\n",
	"%YAML 1.1\n---\na: 1\n", "a:\tb\n", "a: b\r\n", "\xef\xbb\xbfa: 1\n", "a: |2\n   x\n", "a: >\n  x\n   y\n",
	"a: |\nb: 1\n", "a: b: c\n", "a:\n  b: 1\n c: 2\n", "- a\nb: 1\n", "a: 'x\n", "a: \"\\q\"\n", "? a\n: b\n",
	"a: [a, ]\n", "a: {b}\n", "a: 2001-12-14\n", "a:\n  x\n", "a: [a #c]\n", "a: 'x'y\n", "a: 'x'#c\n",
	"a: -\n", "a: [x: y]\n", "x: [:a]\n", "a: \"\\/\"\n", "a: \"\\UFFFFFFFF\"\n", "a: \"\\uD800\"\n",
}

func fastAccepts(text string) bool {
	_, _, ok := fastYAMLParse([]byte(text), yamlSetup{lines: true})
	return ok
}

func TestFastYAMLCases(t *testing.T) {
	for _, text := range fastYAMLCases {
		if !checkFastYAML(t, text) {
			t.Errorf("%q: the fast reader gave up", text)
		}
	}
	for _, text := range fastYAMLFallbacks {
		if simple, _ := checkYAMLText([]byte(text)); simple && fastAccepts(text) {
			t.Errorf("%q: the fast reader should leave it to yaml.v3", text)
		}
	}
}

// TestFastYAMLBench: the bench hierarchy's files are all read by the fast reader, as yaml.v3 reads them.
func TestFastYAMLBench(t *testing.T) {
	for _, text := range benchgenFiles(t) {
		if !checkFastYAML(t, text) {
			t.Errorf("the fast reader gave up on %.200q...", text)
		}
	}
}

// benchgenFiles returns the YAML files of a small generated bench hierarchy.
func benchgenFiles(tb testing.TB) []string {
	dir := tb.TempDir()
	if err := benchgen.Generate(dir, benchgen.Options{Keys: 100}); err != nil {
		tb.Fatal(err)
	}
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".yaml") {
			data, err := os.ReadFile(path)
			out = append(out, string(data))
			return err
		}
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// yamlTestLiterals returns the string literals of yamlread_test.go: the texts of its tables.
func yamlTestLiterals(tb testing.TB) []string {
	file, err := parser.ParseFile(token.NewFileSet(), "yamlread_test.go", nil, 0)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	ast.Inspect(file, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				out = append(out, s)
			}
		}
		return true
	})
	return out
}

func FuzzFastYAML(f *testing.F) {
	for _, s := range yamlTestLiterals(f) {
		f.Add(s)
		f.Add("k: " + s + "\n") // as TestYAMLScalars uses them
	}
	for _, s := range append(fastYAMLCases, fastYAMLFallbacks...) {
		f.Add(s)
	}
	for _, s := range benchgenFiles(f) {
		f.Add(s[:min(len(s), 3000)]) // a part: the fuzzer works better on small inputs
	}
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 200; i++ {
		var b strings.Builder
		randomYAMLBlock(r, &b, r.Intn(2), 0)
		f.Add(b.String())
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkFastYAML(t, s)
		checkLazyYAML(t, s)
	})
}

// TestHashSmallAndLarge: hashes below and above the index threshold behave alike.
func TestHashSmallAndLarge(t *testing.T) {
	for _, n := range []int{0, 1, model.HashIndexMin, model.HashIndexMin + 1, 100} {
		h := model.NewHash(0)
		for i := 0; i < n; i++ {
			h.Set(int64(i), i)
			h.Set(float64(i), -i) // 1 and 1.0 are different keys
		}
		h.Set(ytBig("123456789012345678901234567890"), "big")
		h.Set(ytBig("123456789012345678901234567890"), "big2") // by value
		if h.Len() != 2*n+1 {
			t.Fatalf("n=%d: Len %d", n, h.Len())
		}
		if v, ok := h.Get(new(big.Int).Set(ytBig("123456789012345678901234567890"))); !ok || v != "big2" {
			t.Errorf("n=%d: big key: %v %v", n, v, ok)
		}
		for i := 0; i < n; i++ {
			if v, ok := h.Get(int64(i)); !ok || v != i {
				t.Errorf("n=%d: Get(%d) = %v %v", n, i, v, ok)
			}
			if v, ok := h.Get(float64(i)); !ok || v != -i {
				t.Errorf("n=%d: Get(%d.0) = %v %v", n, i, v, ok)
			}
		}
		if _, ok := h.Get("0"); ok {
			t.Errorf("n=%d: Get(\"0\") found", n)
		}
		// delete every other key; the rest keep their order and stay reachable
		for i := 0; i < n; i += 2 {
			h.Delete(int64(i))
		}
		h.Delete(ytBig("123456789012345678901234567890"))
		want := []any{}
		for i := 0; i < n; i++ {
			if i%2 == 1 {
				want = append(want, int64(i))
			}
			want = append(want, float64(i))
		}
		if !ytSame(h.Keys(), want) {
			t.Errorf("n=%d: keys %s, want %s", n, ytShow(h.Keys()), ytShow(want))
		}
		for i, k := range h.Keys() {
			if v, ok := h.Get(k); !ok || v != h.Vals[i] {
				t.Errorf("n=%d: Get(%v) after Delete = %v %v", n, k, v, ok)
			}
		}
		h.Set("new", 1)
		if h.Keys()[h.Len()-1] != "new" {
			t.Errorf("n=%d: Set after Delete does not append", n)
		}
	}
}

// BenchmarkParseYAML reads the default bench hierarchy's data files: ParseYAML (the fast reader),
// ReadYAML (the skim of a lazy read, as the engine reads data files) and, for comparison, the
// yaml.v3 path alone.
func BenchmarkParseYAML(b *testing.B) {
	dir := b.TempDir()
	if err := benchgen.Generate(dir, benchgen.Options{}); err != nil {
		b.Fatal(err)
	}
	var files [][]byte
	var size int64
	err := filepath.WalkDir(filepath.Join(dir, "data"), func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".yaml") {
			data, err := os.ReadFile(path)
			files = append(files, data)
			size += int64(len(data))
			return err
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name  string
		parse func([]byte) (any, error)
	}{{"fast", func(data []byte) (any, error) { return parseDataYAML(data, nil) }}, {"lazy", func(data []byte) (any, error) {
		return ReadYAML(data, nil)
	}}, {"yaml.v3", func(data []byte) (any, error) {
		return newYAMLReader(yamlSetup{}).parseYAMLv3(data)
	}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for _, f := range files {
					if _, err := bc.parse(f); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// TestFastYAMLRandom compares the two readers on random documents made of the pieces the fast
// reader handles, and of some it must refuse, at random (sometimes wrong) indentations.
// FAST_YAML_RANDOM=n runs n documents instead of 3000.
func TestFastYAMLRandom(t *testing.T) {
	n := 3000
	if s := os.Getenv("FAST_YAML_RANDOM"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	r := rand.New(rand.NewSource(1))
	accepted := 0
	for i := 0; i < n; i++ {
		var b strings.Builder
		if r.Intn(4) == 0 {
			b.WriteString("---\n")
		}
		randomYAMLBlock(r, &b, r.Intn(2), 0)
		text := b.String()
		if checkFastYAML(t, text) {
			accepted++
		}
		if t.Failed() {
			t.Fatalf("document %d", i)
		}
	}
	t.Logf("accepted %d of %d", accepted, n)
	if accepted < n/4 {
		t.Errorf("the fast reader accepted only %d of %d documents", accepted, n)
	}
}

var randomYAMLScalars = []string{
	"a", "b c", "x:y", "a #c", "a#b", "-a", ":s", "?q", "'q'", "'it''s'", `"e\n\t\u00e9\x41"`, `""`, "''", "yes", "No",
	"~", "null", "1", "-1", "1.5", "0x1F", "010", "1_000", "1:30", ".inf", "12345678901234567890", "é", "a, b", "a]",
	"[a, b]", "{a: 1, b: [c]}", "[]", "{}", "['x', \"y\"]", "[a: b]", "{a}", "[a,]", "&x a", "*x", "!!str 1", "<<",
	`"\UFFFFFFFF"`, `"\x4"`, `"\q"`, `"a\"b"`, "'a\\'", "[-1, -a, - a]",
	"%a", "@a", "`a", "a: b", "'a' b", "\"a\"#c", "[a] b", "2001-01-01", ".5", "-", "|", ">",
}

// randomYAMLBlock writes a block mapping (or, kind 1, sequence) at column ind.
func randomYAMLBlock(r *rand.Rand, b *strings.Builder, kind, depth int) {
	ind := 0
	if depth > 0 {
		ind = depth*2 + r.Intn(2)
	}
	entries := 1 + r.Intn(4)
	for e := 0; e < entries; e++ {
		pad := strings.Repeat(" ", max(0, ind+randomYAMLSkew(r)))
		switch r.Intn(8) {
		case 0:
			b.WriteString(strings.Repeat(" ", r.Intn(6)) + "# comment\n")
		case 1:
			b.WriteString(strings.Repeat(" ", r.Intn(3)) + "\n")
		}
		if kind == 1 {
			b.WriteString(pad + "-")
		} else {
			b.WriteString(pad + randomYAMLScalars[r.Intn(20)] + ":")
		}
		randomYAMLValue(r, b, ind, depth)
	}
}

func randomYAMLSkew(r *rand.Rand) int {
	if r.Intn(30) == 0 {
		return r.Intn(3) - 1
	}
	return 0
}

// randomYAMLValue writes what follows "key:" or "-" of an entry at column ind.
func randomYAMLValue(r *rand.Rand, b *strings.Builder, ind, depth int) {
	switch c := r.Intn(10); {
	case c < 5 || depth > 3:
		b.WriteString(" " + randomYAMLScalars[r.Intn(len(randomYAMLScalars))])
		if r.Intn(5) == 0 {
			b.WriteString(" # c")
		}
		b.WriteString("\n")
	case c < 7:
		b.WriteString("\n")
		randomYAMLBlock(r, b, r.Intn(2), depth+1)
	case c < 8: // a compact or indentless collection
		if r.Intn(2) == 0 {
			b.WriteString(" ")
			randomYAMLBlockInline(r, b, ind+2, depth+1)
		} else {
			b.WriteString("\n")
			for i := 0; i < 1+r.Intn(3); i++ {
				b.WriteString(strings.Repeat(" ", ind) + "- " + randomYAMLScalars[r.Intn(30)] + "\n")
			}
		}
	default: // a block scalar
		b.WriteString(" " + []string{"|", ">", "|-", ">-", "|+", ">+", "|2"}[r.Intn(7)])
		if r.Intn(4) == 0 {
			b.WriteString(" # c")
		}
		b.WriteString("\n")
		content := ind + 1 + r.Intn(3)
		for i := 0; i < 1+r.Intn(4); i++ {
			switch r.Intn(6) {
			case 0:
				b.WriteString(strings.Repeat(" ", r.Intn(content+3)) + "\n")
			case 1:
				b.WriteString(strings.Repeat(" ", content+1+r.Intn(2)) + "more\n")
			case 2:
				b.WriteString(strings.Repeat(" ", content) + "# text\n")
			default:
				b.WriteString(strings.Repeat(" ", content) + "text " + strconv.Itoa(i) + "\n")
			}
		}
		if r.Intn(3) == 0 {
			b.WriteString("\n")
		}
	}
}

// randomYAMLBlockInline writes a collection that starts on the line of its "-" or key, at column ind.
func randomYAMLBlockInline(r *rand.Rand, b *strings.Builder, ind, depth int) {
	for e := 0; e < 1+r.Intn(3); e++ {
		if e > 0 {
			b.WriteString(strings.Repeat(" ", ind+randomYAMLSkew(r)))
		}
		if r.Intn(3) == 0 {
			b.WriteString("-")
		} else {
			b.WriteString(randomYAMLScalars[r.Intn(20)] + ":")
		}
		randomYAMLValue(r, b, ind, depth)
	}
}

// TestPsychSimpleNumber: the shortcut for common numbers agrees with Psych's patterns.
func TestPsychSimpleNumber(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	reader := newYAMLReader(yamlSetup{lines: true})
	fast := 0
	for i := 0; i < 200000; i++ {
		var b strings.Builder
		for j := 0; j < 1+r.Intn(22); j++ {
			b.WriteByte("0123456789012345678901234567890123456789+-._,:e"[r.Intn(47)])
		}
		s := b.String()
		v, ok := psychSimpleNumber(s)
		if !ok {
			continue
		}
		fast++
		want, err := reader.tokenizePatterns(&yaml.Node{}, s)
		if err != nil || !identical(v, want) {
			t.Errorf("%q: shortcut %s, patterns %s (%v)", s, ytShow(v), ytShow(want), err)
		}
	}
	if fast < 10000 {
		t.Errorf("only %d numbers took the shortcut", fast)
	}
}
