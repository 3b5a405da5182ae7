package fleet

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

func write(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// names is the nodes' names and origins (a file's as its base name), "name<-origin".
func names(nodes []Node) string {
	var out []string
	for _, n := range nodes {
		origin := n.Origin
		if filepath.IsAbs(origin) {
			origin = filepath.Base(origin)
		}
		out = append(out, n.Name+"<-"+origin)
	}
	return strings.Join(out, " ")
}

func wantError(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one with %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not say %q", err, p)
		}
	}
}

func TestDirNamesEachFileAsPuppetDoes(t *testing.T) {
	dir := t.TempDir()
	// every form package facts reads, one node per file
	write(t, dir, "a.json", `{"trusted": {"certname": "trusted.example.com"}, "clientcert": "cc.example.com", "fqdn": "f.example.com"}`)
	write(t, dir, "b.yaml", "--- !ruby/object:Puppet::Node::Facts\nname: cache.example.com\nvalues:\n  fqdn: other.example.com\n"+
		"timestamp: 2024-01-02 10:00:00.123 +00:00\n")
	write(t, dir, "c.json", `[{"certname": "pdb.example.com", "name": "os", "value": {"family": "Debian"}}]`)
	write(t, dir, "d.yml", "clientcert: cc2.example.com\nfqdn: f2.example.com\n")
	write(t, dir, "e.json", `{"fqdn": "fqdn.example.com", "trusted": {"certname": ""}}`)
	write(t, dir, "web09.example.com.json", `{"os": {"family": "RedHat"}}`)
	// skipped: hidden files, other files, directories (not recursive)
	write(t, dir, ".hidden.json", `{"fqdn": "hidden.example.com"}`)
	write(t, dir, "README.md", "not facts")
	if err := os.Mkdir(filepath.Join(dir, "sub.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "sub.json"), "x.json", `{"fqdn": "nested.example.com"}`)

	nodes, err := Collect(context.Background(), Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	want := "cache.example.com<-b.yaml cc2.example.com<-d.yml fqdn.example.com<-e.json pdb.example.com<-c.json " +
		"trusted.example.com<-a.json web09.example.com<-web09.example.com.json"
	if got := names(nodes); got != want {
		t.Errorf("nodes\n%s\nwant\n%s", got, want)
	}
	for _, n := range nodes {
		if n.Origin != filepath.Join(dir, filepath.Base(n.Origin)) {
			t.Errorf("origin %q is not the file's path in %s", n.Origin, dir)
		}
	}
	js, err := datafile.MarshalJSON(nodes[len(nodes)-1].Facts)
	if err != nil || string(js) != `{"os":{"family":"RedHat"}}` {
		t.Errorf("web09's facts %s (%v)", js, err)
	}
}

func TestDirBadInput(t *testing.T) {
	ctx := context.Background()
	t.Run("empty directory", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, ".hidden.json", "{}")
		_, err := Collect(ctx, Dir(dir))
		wantError(t, err, dir, "holds no facts files")
	})
	t.Run("no such directory", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "missing")
		_, err := Collect(ctx, Dir(dir))
		wantError(t, err, dir, "no such file or directory")
	})
	t.Run("a file, not a directory", func(t *testing.T) {
		p := write(t, t.TempDir(), "a.json", "{}")
		_, err := Collect(ctx, Dir(p))
		wantError(t, err, p, "not a directory")
	})
	t.Run("a file that does not parse: file and line", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, "a.yaml", "fqdn: a.example.com\n")
		p := write(t, dir, "b.yaml", "fqdn: b.example.com\nos:\n  family: [Debian\n")
		_, err := Collect(ctx, Dir(dir))
		wantError(t, err, "facts file "+p+", line 3")
	})
	t.Run("two files naming one node", func(t *testing.T) {
		dir := t.TempDir()
		a := write(t, dir, "a.json", `{"clientcert": "web01.example.com"}`)
		b := write(t, dir, "web01.example.com.yaml", "os: {}\n")
		_, err := Collect(ctx, Dir(dir))
		wantError(t, err, `two nodes are named "web01.example.com": `+a+" and "+b)
	})
	t.Run("a symlink out of the directory", func(t *testing.T) {
		outside := write(t, t.TempDir(), "secret.json", `{"fqdn": "outside.example.com"}`)
		dir := t.TempDir()
		write(t, dir, "a.json", `{"fqdn": "a.example.com"}`)
		link := filepath.Join(dir, "b.json")
		if err := os.Symlink(outside, link); err != nil {
			t.Fatal(err)
		}
		_, err := Collect(ctx, Dir(dir))
		wantError(t, err, link, "symlink leading out of the directory")
		if err != nil && strings.Contains(err.Error(), "outside.example.com") {
			t.Errorf("error %q shows the outside file's content", err)
		}
	})
	t.Run("a relative symlink out through ..", func(t *testing.T) {
		parent := t.TempDir()
		write(t, parent, "x.json", `{"fqdn": "x.example.com"}`)
		dir := filepath.Join(parent, "facts")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../x.json", filepath.Join(dir, "x.json")); err != nil {
			t.Fatal(err)
		}
		_, err := Collect(ctx, Dir(dir))
		wantError(t, err, filepath.Join(dir, "x.json"), "symlink leading out of the directory")
	})
	t.Run("a symlink that leads nowhere", func(t *testing.T) {
		dir := t.TempDir()
		link := filepath.Join(dir, "a.json")
		if err := os.Symlink(filepath.Join(dir, "missing"), link); err != nil {
			t.Fatal(err)
		}
		_, err := Collect(ctx, Dir(dir))
		wantError(t, err, link, "leads nowhere")
	})
	t.Run("a directory of more files than a fleet has nodes", func(t *testing.T) {
		// MaxNodes+1 files: a directory of 100,000 is refused the same way, its listing stopping there
		dir := t.TempDir()
		for i := range MaxNodes + 1 {
			f, err := os.Create(filepath.Join(dir, fmt.Sprintf("n%06d.json", i)))
			if err != nil {
				t.Fatal(err)
			}
			_ = f.Close()
		}
		// the files are empty: read, they would fail as "holds no facts"; the count is refused first
		_, err := Collect(ctx, Dir(dir))
		wantError(t, err, dir, fmt.Sprintf("more than %d files", MaxNodes))
	})
}

func TestDirSymlinkInsideIsRead(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "store"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "store"), "real.json", `{"os": {"family": "Debian"}}`)
	if err := os.Symlink("store/real.json", filepath.Join(dir, "web01.json")); err != nil {
		t.Fatal(err)
	}
	nodes, err := Collect(context.Background(), Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if got := names(nodes); got != "web01<-web01.json" {
		t.Errorf("nodes %s, want web01 named by the link's name", got)
	}
}

func hash(kv ...any) *model.Hash {
	h := model.NewHash(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

func TestCollectSources(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write(t, dir, "db01.json", `{"role": "db"}`)
	m := Map{Origin: "nodes", Facts: map[string]*model.Hash{"web02": hash("role", "web"), "app01": nil}}
	puppetdb := SourceFunc(func(context.Context) ([]Node, error) {
		return []Node{{Name: "web01", Facts: hash(), Origin: "PuppetDB https://pdb:8081"}}, nil
	})
	nodes, err := Collect(ctx, Dir(dir), m, puppetdb)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(nodes), `app01<-nodes["app01"] db01<-db01.json web01<-PuppetDB https://pdb:8081 web02<-nodes["web02"]`; got != want {
		t.Errorf("nodes %s, want %s", got, want)
	}
	if nodes[0].Facts == nil || nodes[0].Facts.Len() != 0 {
		t.Errorf("a node given no facts has %v, want an empty hash", nodes[0].Facts)
	}

	twice := SourceFunc(func(context.Context) ([]Node, error) {
		return []Node{{Name: "db01", Facts: hash(), Origin: "PuppetDB https://pdb:8081"}}, nil
	})
	_, err = Collect(ctx, Dir(dir), twice)
	wantError(t, err, `two nodes are named "db01": `+filepath.Join(dir, "db01.json")+" and PuppetDB https://pdb:8081")

	failing := SourceFunc(func(context.Context) ([]Node, error) { return nil, fmt.Errorf("PuppetDB https://pdb:8081: 503") })
	_, err = Collect(ctx, m, failing)
	wantError(t, err, "PuppetDB https://pdb:8081: 503")

	_, err = Collect(ctx, Map{Origin: "nodes", Facts: map[string]*model.Hash{"": nil}})
	wantError(t, err, "nodes: a node's name is empty")

	many := make([]Node, MaxNodes+1)
	_, err = Collect(ctx, SourceFunc(func(context.Context) ([]Node, error) { return many, nil }))
	wantError(t, err, fmt.Sprintf("more than %d nodes", MaxNodes))
}

func TestSelect(t *testing.T) {
	var nodes []Node
	for _, n := range []string{"app01.example.com", "db01.example.com", "web01.example.com", "web02.example.com"} {
		nodes = append(nodes, Node{Name: n})
	}
	for _, tc := range []struct {
		globs           []string
		want, unmatched string
	}{
		{nil, "app01.example.com db01.example.com web01.example.com web02.example.com", ""},
		{[]string{"web*"}, "web01.example.com web02.example.com", ""},
		{[]string{"db01.example.com", "web0[2-9].*"}, "db01.example.com web02.example.com", ""},
		{[]string{"*01.example.com", "web01*"}, "app01.example.com db01.example.com web01.example.com", ""},
		{[]string{"web*", "mail*", "db?"}, "web01.example.com web02.example.com", "mail* db?"},
		{[]string{"nothing"}, "", "nothing"},
	} {
		got, unmatched, err := Select(nodes, tc.globs)
		if err != nil {
			t.Fatal(err)
		}
		var gotNames []string
		for _, n := range got {
			gotNames = append(gotNames, n.Name)
		}
		if g := strings.Join(gotNames, " "); g != tc.want {
			t.Errorf("select %q: %s, want %s", tc.globs, g, tc.want)
		}
		if u := strings.Join(unmatched, " "); u != tc.unmatched {
			t.Errorf("select %q: unmatched %q, want %q", tc.globs, u, tc.unmatched)
		}
	}
	_, _, err := Select(nodes, []string{"web[", "*"})
	wantError(t, err, `"web[" is not a valid glob`)
}

func TestEachCallsEveryIndexOnceWithBoundedConcurrency(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	const count = 1000
	calls := make([]atomic.Int32, count)
	var inFlight, most atomic.Int32
	Each(context.Background(), count, func(i int) {
		n := inFlight.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		calls[i].Add(1)
		runtime.Gosched()
		inFlight.Add(-1)
	})
	for i := range calls {
		if c := calls[i].Load(); c != 1 {
			t.Fatalf("index %d called %d times", i, c)
		}
	}
	if m := int(most.Load()); m > runtime.NumCPU() {
		t.Errorf("%d calls at once, more than the %d cores", m, runtime.NumCPU())
	}
	if after := runtime.GOMAXPROCS(0); after != before {
		t.Errorf("GOMAXPROCS %d after Each, %d before", after, before)
	}
	Each(context.Background(), 0, func(int) { t.Error("called with count 0") })
}

func TestEachStopsWhenCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int32
	Each(ctx, 100000, func(i int) {
		if calls.Add(1) == 10 {
			cancel()
		}
	})
	if c := calls.Load(); c >= 100000 || c < 10 {
		t.Errorf("%d calls after a cancel at the 10th of 100000", c)
	}
}

func TestEachRaisesAPanicInTheCaller(t *testing.T) {
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want the call's panic", r)
		}
	}()
	Each(context.Background(), 100, func(i int) {
		if i == 50 {
			panic("boom")
		}
	})
}

// EachInOrder keeps every result once, in order, while few wait: a slow call holds up at most the
// window's results, not the rest of the fleet's.
func TestEachInOrderKeepsResultsInOrderHoldingFew(t *testing.T) {
	const count = 2000
	window := 2 * runtime.NumCPU()
	var mu sync.Mutex
	done, kept, most := 0, 0, 0 // calls returned, results kept, most results waiting at once
	EachInOrder(context.Background(), count, func(i int) int {
		if i%100 == 0 {
			time.Sleep(2 * time.Millisecond) // a slow node: the ones after it finish first
		}
		mu.Lock()
		defer mu.Unlock()
		done++
		most = max(most, done-kept)
		return i * i
	}, func(i, r int) {
		mu.Lock()
		defer mu.Unlock()
		if i != kept || r != i*i {
			t.Fatalf("kept %d (%d) after %d results", i, r, kept)
		}
		kept++
	})
	if kept != count {
		t.Errorf("%d results kept, want %d", kept, count)
	}
	if most > window {
		t.Errorf("%d results waited at once, more than the window of %d", most, window)
	}
	EachInOrder(context.Background(), 0, func(int) int { t.Error("called with count 0"); return 0 }, func(int, int) { t.Error("kept with count 0") })
}

// A canceled EachInOrder returns (no call waits for a window that no longer moves), and a panic
// in a call reaches the caller.
func TestEachInOrderStopsAndPanics(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	var calls atomic.Int32
	EachInOrder(ctx, 100000, func(i int) int {
		calls.Add(1)
		if i == 0 {
			<-ctx.Done() // the first node finishes after the cancel only: the calls after it wait on it
		}
		return i
	}, func(int, int) {})
	if c := int(calls.Load()); c > 2*runtime.NumCPU() {
		t.Errorf("%d calls, more than the window's, while the first waited for the cancel", c)
	}
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want the call's panic", r)
		}
	}()
	EachInOrder(context.Background(), 1000, func(i int) int {
		if i == 5 {
			panic("boom")
		}
		return i
	}, func(int, int) {})
}

func TestWidenRaisesCoresOnlyWhileRunning(t *testing.T) {
	if os.Getenv("GOMAXPROCS") != "" || runtime.NumCPU() < 2 {
		t.Skip("needs two cores and GOMAXPROCS unset")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var during atomic.Int32
	Each(context.Background(), 4, func(int) { during.Store(int32(runtime.GOMAXPROCS(0))) })
	if d := int(during.Load()); d != runtime.NumCPU() {
		t.Errorf("GOMAXPROCS %d during Each, want %d", d, runtime.NumCPU())
	}
	if g := runtime.GOMAXPROCS(0); g != 1 {
		t.Errorf("GOMAXPROCS %d after Each, want 1 back", g)
	}
}

func TestOverlay(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "db01.json", `{"role": "db", "os": {"family": "RedHat"}}`)
	fromDir, err := Collect(context.Background(), Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	m := Map{Origin: "nodes", Facts: map[string]*model.Hash{"db01": hash("role", "web"), "app01": nil}}
	nodes, err := Overlay(fromDir, m)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(nodes), `app01<-nodes["app01"] db01<-db01.json with nodes["db01"]`; got != want {
		t.Errorf("nodes %s, want %s", got, want)
	}
	if got := model.Inspect(nodes[1].Facts); got != `{"role"=>"web", "os"=>{"family"=>"RedHat"}}` {
		t.Errorf("db01's facts %s: want its role replaced, its other facts kept", got)
	}
	if got := model.Inspect(fromDir[0].Facts); got != `{"role"=>"db", "os"=>{"family"=>"RedHat"}}` {
		t.Errorf("the source's node changed: %s", got)
	}
}
