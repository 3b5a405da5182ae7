package hiera_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
)

// rewrite replaces a file's content and sets its modification time.
func rewrite(t *testing.T, path, content string, mtime time.Time) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

func mtimeOf(t *testing.T, path string) time.Time {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime()
}

// fakeClock is an engine's clock that moves only when told.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// withClock gives e a fake clock.
func withClock(e *hiera.Engine) *fakeClock {
	c := &fakeClock{t: time.Unix(1_000_000, 0)}
	hiera.SetClock(e, c.now)
	return c
}

func wantValue(t *testing.T, e *hiera.Engine, key, want string) {
	t.Helper()
	res := mustFind(t, e, hiera.Request{Key: key})
	if got := jsonOf(t, res.Value); got != want {
		t.Errorf("%s = %s, want %s", key, got, want)
	}
}

// TestCacheDataFile observes the data file cache: a file is parsed once and re-read only when its
// size or modification time changes.
func TestCacheDataFile(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{"hiera.yaml": simpleConfig, "data/common.yaml": "a: old1\n"})
	clock := withClock(e)
	path := filepath.Join(dir, "data", "common.yaml")
	wantValue(t, e, "a", `"old1"`)
	stamp := mtimeOf(t, path)
	rewrite := func(t *testing.T, path, content string, mtime time.Time) {
		rewrite(t, path, content, mtime)
		clock.advance(hiera.StampCheckInterval)
	}

	// same size, same modification time: the cached parse is used
	rewrite(t, path, "a: new1\n", stamp)
	for i := 0; i < 3; i++ {
		wantValue(t, e, "a", `"old1"`)
	}
	// same size, new modification time: re-read
	rewrite(t, path, "a: new2\n", stamp.Add(2*time.Second))
	wantValue(t, e, "a", `"new2"`)
	// new size, same modification time: re-read
	rewrite(t, path, "a: longer\n", stamp.Add(2*time.Second))
	wantValue(t, e, "a", `"longer"`)
	// a broken file is an error, and fixing it recovers
	rewrite(t, path, "a: [broken\n", stamp.Add(4*time.Second))
	if he := mustFail(t, e, hiera.Request{Key: "a"}); he.File != path {
		t.Errorf("File %q, want %q", he.File, path)
	}
	rewrite(t, path, "a: fixed\n", stamp.Add(6*time.Second))
	wantValue(t, e, "a", `"fixed"`)
	// a removed file is simply not found any more
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	clock.advance(hiera.StampCheckInterval)
	if res, err := lookup(t, e, hiera.Request{Key: "a"}); err != nil || res.Found {
		t.Errorf("after removal: found=%v err=%v", res.Found, err)
	}
}

// TestCacheSharedAcrossScopes: the cache is per file, whatever the facts that led to it.
func TestCacheSharedAcrossScopes(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{
		"hiera.yaml":          "version: 5\nhierarchy:\n  - name: role\n    path: \"roles/%{role}.yaml\"\n",
		"data/roles/web.yaml": "a: web1\n",
	})
	path := filepath.Join(dir, "data", "roles", "web.yaml")
	web := scopeOf(t, map[string]any{"role": "web"}, nil)
	if res := mustFind(t, e, hiera.Request{Key: "a", Scope: web}); res.Value != "web1" {
		t.Fatalf("got %v", res.Value)
	}
	rewrite(t, path, "a: web2\n", mtimeOf(t, path))
	other := scopeOf(t, map[string]any{"role": "web", "unrelated": "fact"}, nil)
	if res := mustFind(t, e, hiera.Request{Key: "a", Scope: other}); res.Value != "web1" {
		t.Errorf("got %v, want the cached web1", res.Value)
	}
}

// TestCacheSameScopeSeesEdits: lookups that share one scope (the provider's facts, for every data
// source without its own) remember where their hierarchy leads, and still see a file appear at a
// level their facts name, and a file go, once StampCheckInterval is over.
func TestCacheSameScopeSeesEdits(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: role\n    path: \"roles/%{role}.yaml\"\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml": "a: common\n",
	})
	clock := withClock(e)
	web := scopeOf(t, map[string]any{"role": "web"}, nil)
	want := func(v string) {
		t.Helper()
		if res := mustFind(t, e, hiera.Request{Key: "a", Scope: web}); res.Value != v {
			t.Errorf("got %v, want %s", res.Value, v)
		}
	}
	want("common")
	role := filepath.Join(dir, "data", "roles", "web.yaml")
	if err := os.MkdirAll(filepath.Dir(role), 0o755); err != nil {
		t.Fatal(err)
	}
	rewrite(t, role, "a: web\n", time.Now())
	clock.advance(hiera.StampCheckInterval)
	want("web")
	if err := os.Remove(role); err != nil {
		t.Fatal(err)
	}
	clock.advance(hiera.StampCheckInterval)
	want("common")
}

// TestCacheConfigReload: hiera.yaml is re-read when it changes, also after an invalid version.
func TestCacheConfigReload(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{
		"hiera.yaml":       simpleConfig,
		"data/common.yaml": "a: common\n",
		"data/other.yaml":  "a: other\n",
	})
	clock := withClock(e)
	cfg := filepath.Join(dir, "hiera.yaml")
	wantValue(t, e, "a", `"common"`)
	stamp := mtimeOf(t, cfg)
	rewrite := func(t *testing.T, path, content string, mtime time.Time) {
		rewrite(t, path, content, mtime)
		clock.advance(hiera.StampCheckInterval)
	}

	rewrite(t, cfg, "version: 5\nhierarchy:\n  - name: other\n    path: other.yaml\n", stamp.Add(2*time.Second))
	wantValue(t, e, "a", `"other"`)

	rewrite(t, cfg, "version: 5\nhierarchy:\n  - name: other\n    pth: other.yaml\n", stamp.Add(4*time.Second))
	he := mustFail(t, e, hiera.Request{Key: "a"})
	wantContains(t, "message", he.Message, "unrecognized key 'pth'")
	// the error is cached too, and still names the key of each lookup
	he = mustFail(t, e, hiera.Request{Key: "b"})
	if he.Key != "b" {
		t.Errorf("Key %q, want b", he.Key)
	}

	rewrite(t, cfg, simpleConfig, stamp.Add(6*time.Second))
	wantValue(t, e, "a", `"common"`)

	if err := os.Remove(cfg); err != nil {
		t.Fatal(err)
	}
	clock.advance(hiera.StampCheckInterval)
	he = mustFail(t, e, hiera.Request{Key: "a"})
	wantContains(t, "message", he.Message, cfg)
}

// TestCacheStampCheckInterval: within StampCheckInterval of its last look at a file the engine
// trusts it (hiera.yaml, a data file, an absent file); an edit is seen once the interval is over.
func TestCacheStampCheckInterval(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: node\n    path: node.yaml\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml": "a: old\n",
	})
	clock := withClock(e)
	common := filepath.Join(dir, "data", "common.yaml")
	node := filepath.Join(dir, "data", "node.yaml")
	cfg := filepath.Join(dir, "hiera.yaml")
	wantValue(t, e, "a", `"old"`)
	later := mtimeOf(t, common).Add(2 * time.Second)

	// an edited data file
	rewrite(t, common, "a: new\n", later)
	clock.advance(hiera.StampCheckInterval - time.Nanosecond)
	wantValue(t, e, "a", `"old"`)
	clock.advance(time.Nanosecond)
	wantValue(t, e, "a", `"new"`)

	// a data file that appears: the absent one was remembered as absent
	rewrite(t, node, "a: node\n", later)
	wantValue(t, e, "a", `"new"`)
	clock.advance(hiera.StampCheckInterval)
	wantValue(t, e, "a", `"node"`)

	// an edited hiera.yaml (its level names a file that does not exist)
	rewrite(t, cfg, "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n", later)
	wantValue(t, e, "a", `"node"`)
	clock.advance(hiera.StampCheckInterval)
	wantValue(t, e, "a", `"new"`)

	// a removed data file
	if err := os.Remove(common); err != nil {
		t.Fatal(err)
	}
	wantValue(t, e, "a", `"new"`)
	clock.advance(hiera.StampCheckInterval)
	if res, err := lookup(t, e, hiera.Request{Key: "a"}); err != nil || res.Found {
		t.Errorf("after removal: found=%v err=%v", res.Found, err)
	}
}

// TestCacheEyamlKeyReload: a replaced private key is used at once.
func TestCacheEyamlKeyReload(t *testing.T) {
	t.Parallel()
	e, dir := eyamlEngine(t, eyamlConfig, "pw: "+encrypt(t, "hunter2")+"\n", "")
	wantValue(t, e, "pw", `"hunter2"`)
	key := filepath.Join(dir, "keys", "private_key.pkcs7.pem")
	rewrite(t, key, "not a key\n", mtimeOf(t, key).Add(2*time.Second))
	_ = mustFail(t, e, hiera.Request{Key: "pw"})
	rewrite(t, key, readFixture(t, "keys/private_key.pkcs7.pem"), mtimeOf(t, key).Add(2*time.Second))
	wantValue(t, e, "pw", `"hunter2"`)
	// the public key (certificate) counts too: another one no longer matches the private key
	cert := filepath.Join(dir, "keys", "public_key.pkcs7.pem")
	rewrite(t, cert, readFixture(t, "keys/other_public_key.pkcs7.pem"), mtimeOf(t, cert).Add(2*time.Second))
	he := mustFail(t, e, hiera.Request{Key: "pw"})
	wantContains(t, "message", he.Message, "does not match")
	if err := os.Remove(cert); err != nil {
		t.Fatal(err)
	}
	he = mustFail(t, e, hiera.Request{Key: "pw"})
	wantContains(t, "message", he.Message, "cannot read the eyaml public key")
}

// TestConcurrentLookups shares one engine between 1000 goroutines with different facts, keys and
// strategies; run it with -race. Every answer must be the one a lone lookup gives.
func TestConcurrentLookups(t *testing.T) {
	t.Parallel()
	fs := files{
		"hiera.yaml": `version: 5
hierarchy:
  - name: node
    path: "nodes/%{trusted.certname}.yaml"
  - name: role
    path: "roles/%{role}.yaml"
  - name: secrets
    lookup_key: eyaml_lookup_key
    path: secrets.eyaml
    options:
      pkcs7_private_key: keys/private_key.pkcs7.pem
      pkcs7_public_key: keys/public_key.pkcs7.pem
  - name: common
    path: common.yaml
`,
		"keys/private_key.pkcs7.pem": readFixture(t, "keys/private_key.pkcs7.pem"),
		"keys/public_key.pkcs7.pem":  readFixture(t, "keys/public_key.pkcs7.pem"),
		"data/secrets.eyaml":         "pw: " + encrypt(t, "hunter2") + "\n",
		"data/common.yaml": `lookup_options:
  h:
    merge: deep
h: {common: 1, list: [c]}
greeting: "hello %{hostname} in %{lookup('site')}"
site: pdx
`,
	}
	const roles, nodes = 5, 20
	for r := 0; r < roles; r++ {
		fs[fmt.Sprintf("data/roles/r%d.yaml", r)] = fmt.Sprintf("h: {role: %d, list: [r%d]}\nsite: site-r%d\n", r, r, r)
	}
	for n := 0; n < nodes; n++ {
		fs[fmt.Sprintf("data/nodes/n%d.yaml", n)] = fmt.Sprintf("h: {node: %d, list: [n%d]}\n", n, n)
	}
	e, _ := newEngine(t, fs)
	type job struct {
		req  hiera.Request
		want string
	}
	jobs := make([]job, 1000)
	for i := range jobs {
		n, r := i%nodes, i%roles
		scope := scopeOf(t, map[string]any{"hostname": fmt.Sprintf("host%d", i), "role": fmt.Sprintf("r%d", r)},
			map[string]any{"trusted": map[string]any{"certname": fmt.Sprintf("n%d", n)}})
		switch i % 4 {
		case 0:
			jobs[i] = job{hiera.Request{Key: "h", Scope: scope},
				fmt.Sprintf(`{"common":1,"list":["c","r%d","n%d"],"role":%d,"node":%d}`, r, n, r, n)}
		case 1:
			vt := []string{`Pattern[/\Ahello host\d+ in site-r\d\z/]`, "String[1]"}[i%8/4] // parsed once, shared
			jobs[i] = job{hiera.Request{Key: "greeting", Scope: scope, ValueType: vt, HasValueType: true}, fmt.Sprintf(`"hello host%d in site-r%d"`, i, r)}
		case 2:
			jobs[i] = job{hiera.Request{Key: "pw", Scope: scope}, `"hunter2"`}
		case 3:
			jobs[i] = job{hiera.Request{Key: "h.list", Function: hiera.FuncHash, Scope: scope, Explain: true},
				fmt.Sprintf(`["n%d"]`, n)}
		}
	}
	errs := make([]string, len(jobs))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range jobs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			res, err := e.Lookup(t.Context(), jobs[i].req)
			switch {
			case err != nil:
				errs[i] = err.Error()
			case !res.Found:
				errs[i] = "not found"
			default:
				if got, jerr := datafile.MarshalJSON(res.Value); jerr != nil || string(got) != jobs[i].want {
					errs[i] = fmt.Sprintf("got %s, want %s", got, jobs[i].want)
				}
			}
		}(i)
	}
	close(start)
	wg.Wait()
	failures := 0
	for i, msg := range errs {
		if msg != "" {
			failures++
			if failures <= 10 {
				t.Errorf("job %d (%s): %s", i, jobs[i].req.Key, msg)
			}
		}
	}
	if failures > 0 {
		t.Errorf("%d of %d concurrent lookups failed", failures, len(jobs))
	}
}
