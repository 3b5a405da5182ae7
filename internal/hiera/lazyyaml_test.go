package hiera

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// TestLazyYAMLWhole: what decides whether a file can be read at all is still decided over the
// whole file, so a lookup of a key before a syntax error fails as before, while a key whose value
// is not RichData fails only its own lookups.
func TestLazyYAMLWhole(t *testing.T) {
	good := "first: 1\nsecond:\n  a: [1, 2]\n"
	tests := map[string]struct {
		data, key, err string
	}{
		"syntax error late":        {data: good + "third:\n  - x\n  y: 1\n", key: "first", err: "line 5: did not find expected '-' indicator"},
		"bad scalar late":          {data: good + "third: \"\\q\"\n", key: "first", err: "Unable to parse"},
		"tab late":                 {data: good + "third:\n\t- x\n", key: "first", err: "Unable to parse"},
		"not RichData":             {data: good + "third:\n  true: 1\n", key: "third", err: "got Hash[Boolean[true], Integer[1, 1], 1, 1]"},
		"not RichData, other keys": {data: good + "third:\n  true: 1\n", key: "second"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
				t.Fatal(err)
			}
			write := func(name, text string) {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("hiera.yaml", "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n")
			write("data/common.yaml", tt.data)
			res, err := NewEngine(filepath.Join(dir, "hiera.yaml")).Lookup(context.Background(), Request{Key: tt.key})
			if tt.err == "" {
				if err != nil || !res.Found {
					t.Fatalf("got %v, %v", res, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), "common.yaml") {
				t.Fatalf("error %v, want one naming common.yaml with %q", err, tt.err)
			}
		})
	}
}

// TestLazyYAMLConcurrentLookups: lookups of the same file's keys from many goroutines (under -race).
func TestLazyYAMLConcurrentLookups(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 50; i++ {
		b.WriteString("key" + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + ":\n  list: [1, 2]\n  h:\n    x: y\n")
	}
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hiera.yaml"), []byte("version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "common.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	e := NewEngine(filepath.Join(dir, "hiera.yaml"))
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				key := "key" + string(rune('a'+(i+g)%26)) + strings.Repeat("x", ((i+g)%50)/26) + ".h.x"
				res, err := e.Lookup(context.Background(), Request{Key: key})
				if err != nil || !res.Found || res.Value != "y" {
					t.Errorf("%s: %v, %v", key, res.Value, err)
				}
			}
		}()
	}
	wg.Wait()
}

// TestLazyYAMLWindowsLineEnds: a data file with Windows line ends (as a control repository edited
// on Windows has them) is read lazily from its text with "\n" line ends, not from the file's bytes:
// a nested value answered as in a file with "\n" ones (puppetlabs-seteam/control-repo's
// data/sce/Ubuntu/20.04.yaml answered a broken scalar).
func TestLazyYAMLWindowsLineEnds(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml": strings.ReplaceAll("sce_linux::config:\n  profile: 'server'\n  level: '1'\n  ignore:\n    - a\n    - b\nother: x\n", "\n", "\r\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := NewEngine(filepath.Join(dir, "hiera.yaml"))
	for range 2 { // the second read from the engine's caches
		res, err := e.Lookup(context.Background(), Request{Key: "sce_linux::config"})
		if err != nil {
			t.Fatal(err)
		}
		if got := model.Inspect(res.Value); got != `{"profile"=>"server", "level"=>"1", "ignore"=>["a", "b"]}` {
			t.Errorf("value %s", got)
		}
	}
}

// A data file that starts with a byte order mark (Windows editors write one) is read as if it had
// none, whatever its first line and line ends: a deliberate deviation (README: puppet lookup on MRI
// Ruby counts the mark as a column, so that `---` then fails and a first key hides the others).
func TestLazyYAMLByteOrderMark(t *testing.T) {
	body := "a:\n  x: '1'\n  y:\n    - p\n    - q\nb: 2\n"
	for name, text := range map[string]string{
		"key first":                 "\ufeff" + body,
		"document marker":           "\ufeff---\n" + body,
		"comment":                   "\ufeff# data\n" + body,
		"marker, Windows line ends": strings.ReplaceAll("\ufeff---\n"+body, "\n", "\r\n"),
	} {
		e := commonEngine(t, text)
		for range 2 { // the second read from the engine's caches
			for key, want := range map[string]string{"a": `{"x"=>"1", "y"=>["p", "q"]}`, "b": "2"} {
				res, err := e.Lookup(context.Background(), Request{Key: key})
				if err != nil {
					t.Fatalf("%s: %s: %v", name, key, err)
				}
				if got := model.Inspect(res.Value); !res.Found || got != want {
					t.Errorf("%s: %s = %s (found %v), want %s", name, key, got, res.Found, want)
				}
			}
		}
	}
}
