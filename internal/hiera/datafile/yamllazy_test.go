package datafile

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// parseDataYAML reads a data file as ReadYAML does, but whole: every value built at once. The
// lazy reader's reference.
func parseDataYAML(data []byte, share *model.Sharing) (any, error) {
	v, _, err := readYAMLWith(data, yamlSetup{share: share, maxNesting: maxDataNesting})
	return v, err
}

// checkLazyYAML fails t when ReadYAML reads text otherwise than parseDataYAML: the same
// error or value, or, read lazily, the same root keys in the same order whose values, built in
// any order and concurrently, are the same, with the same RichData verdicts.
func checkLazyYAML(t *testing.T, text string) {
	t.Helper()
	want, wantErr := parseDataYAML([]byte(text), testSharing)
	got, err := ReadYAML([]byte(text), testSharing)
	lz, lazy := got.(*LazyYAML)
	full, isHash := want.(*model.Hash)
	switch {
	case !lazy && (err == nil) != (wantErr == nil):
		t.Errorf("%q: read with error %v, a full read with %v", text, err, wantErr)
		return
	case !lazy && err != nil && err.Error() != wantErr.Error():
		t.Errorf("%q: error %q, a full read's %q", text, err, wantErr)
		return
	case !lazy:
		if !identical(got, want) {
			t.Errorf("%q: got %s, a full read %s", text, ytShow(got), ytShow(want))
		}
		return
	case err != nil || wantErr != nil || !isHash:
		t.Errorf("%q: read lazily (error %v), a full read gives %s, %v", text, err, ytShow(want), wantErr)
		return
	}
	if !identical(lz.Keys.Keys(), full.Keys()) {
		t.Errorf("%q: root keys %s, a full read's %s", text, ytShow(lz.Keys.Keys()), ytShow(full.Keys()))
		return
	}
	// Four goroutines build the values, each in its own order.
	type built struct {
		v   any
		bad string
		err error
	}
	n := lz.Keys.Len()
	results := make([][]built, 4)
	var wg sync.WaitGroup
	for g := range results {
		results[g] = make([]built, n)
		order := rand.New(rand.NewSource(int64(g))).Perm(n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, i := range order {
				idx, _ := lz.Keys.Get(lz.Keys.RawKeys()[i])
				at, _ := idx.(int)
				v, bad, err := lz.valueAt(at)
				results[g][i] = built{v, bad, err}
			}
		}()
	}
	wg.Wait()
	invalid := InvalidRootKeys(full)
	for i, k := range full.Keys() {
		wantV, _ := full.Get(k)
		ks, _ := k.(string)
		for _, res := range results {
			b := res[i]
			if b.err != nil || !identical(b.v, wantV) {
				t.Errorf("%q: key %s: built %s (error %v), a full read has %s", text, ytShow(k), ytShow(b.v), b.err, ytShow(wantV))
			}
			if _, isStr := k.(string); isStr && b.bad != invalid[ks] {
				t.Errorf("%q: key %s: not RichData as %q, a full read says %q", text, ytShow(k), b.bad, invalid[ks])
			}
		}
	}
}

// lazyYAMLCorpus returns texts to read lazily: FuzzFastYAML's seeds, a generated hierarchy's
// files whole, and the YAML data files of the conformance cases.
func lazyYAMLCorpus(t *testing.T) []string {
	var out []string
	for _, s := range yamlTestLiterals(t) {
		out = append(out, s, "k: "+s+"\n")
	}
	out = append(out, fastYAMLCases...)
	out = append(out, fastYAMLFallbacks...)
	out = append(out, benchgenFiles(t)...)
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "conformance", "cases", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no conformance cases: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			Files map[string]string `json:"files"`
		}
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for name, text := range c.Files {
			if strings.HasSuffix(name, ".yaml") && !strings.HasSuffix(name, "hiera.yaml") {
				out = append(out, text)
			}
		}
	}
	r := rand.New(rand.NewSource(4))
	for i := 0; i < 500; i++ {
		var b strings.Builder
		randomYAMLBlock(r, &b, r.Intn(2), 0)
		out = append(out, b.String())
	}
	return out
}

func TestLazyYAMLAsFullRead(t *testing.T) {
	lazily := 0
	for _, text := range lazyYAMLCorpus(t) {
		checkLazyYAML(t, text)
		if v, _ := ReadYAML([]byte(text), testSharing); v != nil {
			if _, ok := v.(*LazyYAML); ok {
				lazily++
			}
		}
	}
	if lazily < 500 {
		t.Errorf("only %d texts read lazily", lazily)
	}
}

// TestSkimFastPaths: lines the skim's fast paths take or leave to the full reader (words,
// numbers, comments, ": " inside a value, keys with spaces or quotes, a line without its line
// break), below the root and in sequences, read lazily as a full read reads them: the same keys,
// values and errors.
func TestSkimFastPaths(t *testing.T) {
	values := []string{"word", "two words", "w # comment", "w#not", "a: b", "a:b", "http://x", "1", "-1", "1.5", "012",
		"1:30", "2001-01-01", "12345678901234567890", ".5", "~", "yes", "No", "null", "é", "x é", "a,b]", "'q'", `"d"`,
		"[a]", "{a: 1}", "|", "&a x", "*a", "!!str 1", "%x", "@x", "`x", "-", "- x", "?x", ":x", "5 # c", "5 #", "5  "}
	keys := []string{"k", "k k", "k#x", "k::m", "'q'", "1", "2001-01-01", ":s", "<<", "-k", "k.x"}
	for _, v := range values {
		for _, k := range keys {
			for _, text := range []string{
				"root:\n  " + k + ": " + v + "\n  other: x\n",
				"root:\n  " + k + ": " + v,
				"root:\n  - " + v + "\n  - x\n",
				"root:\n  - " + v,
				"root: " + v + "\nnext: 1\n",
				k + ": " + v + "\n",
			} {
				checkLazyYAML(t, text)
			}
		}
	}
}

// TestSkimPlainFirst: a byte that starts a fast-path scalar starts a plain scalar whatever
// follows, and one that tokenize reads as a word.
func TestSkimPlainFirst(t *testing.T) {
	for c := 0; c < 256; c++ {
		if !skimPlainFirst[c] {
			continue
		}
		for next := 0; next < 256; next++ {
			p := &fastYAML{src: []byte{byte(c), byte(next)}}
			if !p.plainStart(0, false) || !plainReadsPlainly(byte(c)) {
				t.Errorf("%q then %q: plainStart %v, plainReadsPlainly %v", c, next, p.plainStart(0, false), plainReadsPlainly(byte(c)))
			}
		}
	}
}

// TestWordScans: the word-at-a-time scans agree with byte loops on random texts of the bytes they
// look for and their neighbours, at every start.
func TestWordScans(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	alphabet := []byte(" \n:#!\x00\x01\x09\x0b\x1f\x20\x21\x22\x23\x3a\x3b\x7f\x80\xffa")
	for n := 0; n < 2000; n++ {
		text := make([]byte, r.Intn(40))
		for i := range text {
			text[i] = alphabet[r.Intn(len(alphabet))]
			if r.Intn(3) == 0 {
				text[i] = ' '
			}
		}
		for i := 0; i <= len(text); i++ {
			spaces := 0
			for i+spaces < len(text) && text[i+spaces] == ' ' {
				spaces++
			}
			if got := countSpaces(text, i); got != spaces {
				t.Fatalf("countSpaces(%q, %d) = %d, want %d", text, i, got, spaces)
			}
			want := len(text)
			if j := bytes.IndexAny(text[i:], "\n:#"); j >= 0 {
				want = i + j
			}
			if got := indexAny3(text, i, '\n', ':', '#'); got != want {
				t.Fatalf("indexAny3(%q, %d) = %d, want %d", text, i, got, want)
			}
		}
	}
}
