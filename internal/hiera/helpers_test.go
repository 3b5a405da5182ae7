package hiera_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Shared helpers of the engine's black-box tests (package hiera_test): fixtures are small file trees
// written into t.TempDir(), and every assertion goes through NewEngine and Engine.Lookup.

// files maps a path relative to the fixture root to its content. "@ROOT@" in a content is replaced
// by the fixture root, so hiera.yaml can name absolute paths.
type files map[string]string

// writeFiles creates the files below a fresh temporary directory and returns that directory.
func writeFiles(t *testing.T, fs files) string {
	t.Helper()
	dir := t.TempDir()
	addFiles(t, dir, fs)
	return dir
}

// addFiles writes (or overwrites) files below dir.
func addFiles(t *testing.T, dir string, fs files) {
	t.Helper()
	for rel, text := range fs {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(text, "@ROOT@", dir)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// newEngine writes the fixture and returns an engine for its hiera.yaml, and the fixture root.
func newEngine(t *testing.T, fs files) (*hiera.Engine, string) {
	t.Helper()
	dir := writeFiles(t, fs)
	return hiera.NewEngine(filepath.Join(dir, "hiera.yaml")), dir
}

// hashOf converts plain Go data to an engine hash (keys sorted).
func hashOf(t *testing.T, m map[string]any) *model.Hash {
	t.Helper()
	if m == nil {
		return nil
	}
	v, err := model.FromGo(m)
	if err != nil {
		t.Fatal(err)
	}
	h, isHash := v.(*model.Hash)
	if !isHash {
		t.Fatalf("FromGo(%v) returned %T, not a *model.Hash", m, v)
	}
	return h
}

// scopeOf builds a lookup scope from facts and other top-scope variables.
func scopeOf(t *testing.T, facts, vars map[string]any) hiera.Scope {
	t.Helper()
	return hiera.Scope{Facts: hashOf(t, facts), Vars: hashOf(t, vars)}
}

// lookup runs one lookup. The engine bounds its work by counting (nested lookups, steps, sizes), and
// the tests assert those counts: there is no deadline on the lookup, only a guard against a hang, far
// above what a busy machine needs.
func lookup(t *testing.T, e *hiera.Engine, req hiera.Request) (hiera.Result, error) {
	t.Helper()
	type answer struct {
		res hiera.Result
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := e.Lookup(context.Background(), req)
		done <- answer{res, err}
	}()
	select {
	case a := <-done:
		return a.res, a.err
	case <-time.After(hangGuard):
		t.Fatalf("lookup of %q did not finish in %v: a hang", req.Key, hangGuard)
		return hiera.Result{}, nil
	}
}

// hangGuard is how long a test waits for something that must end before calling it a hang.
const hangGuard = 5 * time.Minute

// mustFind runs a lookup that must succeed and find the key.
func mustFind(t *testing.T, e *hiera.Engine, req hiera.Request) hiera.Result {
	t.Helper()
	res, err := lookup(t, e, req)
	if err != nil {
		t.Fatalf("lookup %q: %v", req.Key, err)
	}
	if !res.Found {
		t.Fatalf("lookup %q: not found (searched %v)", req.Key, res.Searched)
	}
	return res
}

// mustFail runs a lookup that must fail with a *model.Error and returns that error.
func mustFail(t *testing.T, e *hiera.Engine, req hiera.Request) *model.Error {
	t.Helper()
	res, err := lookup(t, e, req)
	if err == nil {
		t.Fatalf("lookup %q: want an error, got found=%v value=%s", req.Key, res.Found, jsonOf(t, res.Value))
	}
	return hieraError(t, err)
}

// hieraError asserts that err is (or wraps) a *model.Error.
func hieraError(t *testing.T, err error) *model.Error {
	t.Helper()
	var he *model.Error
	if !errors.As(err, &he) {
		t.Fatalf("error %v (%T) is not a *model.Error", err, err)
	}
	return he
}

// jsonOf renders a value as JSON with Hiera's key order, so that tests can compare order too.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := datafile.MarshalJSON(v)
	if err != nil {
		t.Fatalf("cannot render %#v: %v", v, err)
	}
	return string(b)
}

// wantContains fails unless s contains every part.
func wantContains(t *testing.T, what, s string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(s, p) {
			t.Errorf("%s %q does not contain %q", what, s, p)
		}
	}
}

// simpleConfig is a one-level hiera.yaml over data/common.yaml.
const simpleConfig = `version: 5
hierarchy:
  - name: common
    path: common.yaml
`
