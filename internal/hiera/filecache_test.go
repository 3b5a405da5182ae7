package hiera_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/fleet"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// A fleet's read (every node's whole data, many nodes at once, as hiera_nodes reads them) keeps the
// engine's caches within their bounds in bytes, however many nodes it reads: each node's own large
// data file is let go once others come, while the files every node reads stay parsed. Each file is
// parsed once, and every node answers as an engine that keeps everything does.
func TestFleetReadCachesBoundedByBytes(t *testing.T) {
	const nodes, roles, nodeKeys = 120, 3, 200
	fs := files{
		"hiera.yaml": `version: 5
hierarchy:
  - name: node
    path: "nodes/%{trusted.certname}.yaml"
  - name: role
    path: "roles/%{role}.yaml"
  - name: common
    path: common.yaml
`,
		"data/common.yaml": "lookup_options:\n  site::h:\n    merge: deep\nsite::h: {common: 1, list: [c]}\n" +
			"site::greeting: \"hello %{hostname} of %{lookup('site::name')}\"\nsite::name: pdx\n",
	}
	for r := range roles {
		fs[fmt.Sprintf("data/roles/r%d.yaml", r)] = fmt.Sprintf("site::h: {role: %d, list: [r%d]}\nsite::name: site-r%d\n", r, r, r)
	}
	nodeBytes := 0 // the node files' sizes, all told
	for n := range nodes {
		var b strings.Builder
		fmt.Fprintf(&b, "site::h: {node: %d, list: [n%d]}\n", n, n)
		for k := range nodeKeys { // about 14 KB a node
			fmt.Fprintf(&b, "node::k%03d: [\"value %d of node %d, long enough to weigh\", {n: %d}]\n", k, k, n, n)
		}
		fs[fmt.Sprintf("data/nodes/n%03d.example.com.yaml", n)] = b.String()
		nodeBytes += b.Len()
	}
	dir := writeFiles(t, fs)
	scopes := make([]hiera.Scope, nodes)
	for n := range nodes {
		scopes[n] = scopeOf(t, map[string]any{"role": fmt.Sprintf("r%d", n%roles), "hostname": fmt.Sprintf("n%03d", n)},
			map[string]any{"trusted": map[string]any{"certname": fmt.Sprintf("n%03d.example.com", n)}})
	}
	// read reads every node whole, as many at once as the fleet reads them, each answer as text.
	read := func(e *hiera.Engine) []string {
		out := make([]string, nodes)
		fleet.Each(context.Background(), nodes, func(n int) {
			res, err := e.LookupNode(context.Background(), hiera.NodeRequest{Scope: scopes[n]})
			if err != nil || res.ListErr != nil {
				t.Errorf("node %d: %v %v", n, err, res.ListErr)
				return
			}
			var b strings.Builder
			for _, a := range res.Answers { // everything a node's answer gives but its values' Go types, which JSON shows
				fmt.Fprintf(&b, "%s found=%v %s %v %v %v\n", a.Key, a.Result.Found, jsonOf(t, a.Result.Value), a.Result.Searched, a.Result.Sources, a.Err)
			}
			fmt.Fprintf(&b, "files %v warnings %v", res.Files, res.Warnings)
			out[n] = b.String()
		})
		return out
	}

	const probation, protected, results = 256 << 10, 512 << 10, 64 << 10
	bounded := hiera.NewEngine(filepath.Join(dir, "hiera.yaml"))
	var got []string
	withCacheBounds(probation, protected, results, func() { got = read(bounded) })
	files, held := hiera.CachePeaks(bounded)
	if files > probation+protected || files < probation { // below: the node files did not reach the bound, the test proves nothing
		t.Errorf("the data-file cache held up to %d bytes, want at most %d (and the fleet's node files, %d bytes, past it)", files, probation+protected, nodeBytes)
	}
	if held > results || held < results/2 {
		t.Errorf("the result cache held up to %d bytes, want at most %d (and near it)", held, results)
	}
	if n, want := hiera.FileParses(bounded), int64(nodes+roles+1); n != want {
		t.Errorf("%d data files parsed, want %d: each once", n, want)
	}

	unbounded := hiera.NewEngine(filepath.Join(dir, "hiera.yaml"))
	var want []string
	withCacheBounds(1<<40, 1<<40, 1<<40, func() { want = read(unbounded) })
	if files, _ := hiera.CachePeaks(unbounded); files < int64(nodeBytes) {
		t.Errorf("the unbounded engine held %d bytes of files, want every node's (%d)", files, nodeBytes)
	}
	for n := range nodes {
		if got[n] != want[n] {
			t.Fatalf("node %d answers\n%s\nwith bounded caches, want\n%s", n, got[n], want[n])
		}
	}

	// Read again, the node files let go are parsed again, the shared ones not.
	before := hiera.FileParses(bounded)
	withCacheBounds(probation, protected, results, func() { got = read(bounded) })
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Error("a second read of the fleet answers otherwise")
	}
	if n := hiera.FileParses(bounded) - before; n > nodes || n < nodes/2 {
		t.Errorf("%d data files parsed again at a second read, want most node files (%d) and no shared one", n, nodes)
	}
}

// withCacheBounds runs do with the engine's cache bounds set (hiera.SetCacheBounds).
func withCacheBounds(probation, protected, results int64, do func()) {
	defer hiera.SetCacheBounds(probation, protected, results)()
	do()
}
