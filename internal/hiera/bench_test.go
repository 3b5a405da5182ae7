package hiera_test

// Benchmarks over a generated six-level hierarchy (internal/benchgen, about 500 keys per file).
// Run them with scripts/bench.sh, or:
//
//	go test -run '^$' -bench . -benchmem -cpu 1 ./internal/hiera/
//
// Targets on one core: a warm deep-merge lookup under 20 µs, parsing at 20 MB/s or more, and (for
// the provider's peak RSS to stay under 4x the YAML size) a parsed hierarchy well under that.

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/benchgen"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// benchHierarchy generates the default bench hierarchy into a temporary directory and returns
// its hiera.yaml, a scope for its first node, and the node.
func benchHierarchy(b *testing.B) (string, hiera.Scope, benchgen.Node) {
	b.Helper()
	dir := b.TempDir()
	opts := benchgen.Options{}
	if err := benchgen.Generate(dir, opts); err != nil {
		b.Fatal(err)
	}
	node := benchgen.Nodes(opts)[0]
	return filepath.Join(dir, "hiera.yaml"), hiera.Scope{Facts: toHash(b, node.Facts()), Vars: toHash(b, node.Vars())}, node
}

func toHash(b *testing.B, m map[string]any) *model.Hash {
	b.Helper()
	v, err := model.FromGo(m)
	h, ok := v.(*model.Hash)
	if err != nil || !ok {
		b.Fatalf("FromGo: %v, %T", err, v)
	}
	return h
}

// runLookups looks the requests up in turn, b.N in all, on an engine that has already answered
// each of them once (so every file is parsed and cached).
func runLookups(b *testing.B, config string, reqs []hiera.Request) {
	b.Helper()
	ctx := context.Background()
	engine := hiera.NewEngine(config)
	for _, req := range reqs {
		res, err := engine.Lookup(ctx, req)
		if err != nil {
			b.Fatalf("%s: %v", req.Key, err)
		}
		if !res.Found {
			b.Fatalf("%s: not found", req.Key)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := engine.Lookup(ctx, reqs[i%len(reqs)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkColdLoad builds a new engine per iteration and deep-merges one key across the six
// levels, so hiera.yaml and six data files (about 900 KB) are parsed each time. MB/s is parse
// throughput over the data files.
func BenchmarkColdLoad(b *testing.B) {
	config, scope, node := benchHierarchy(b)
	var size int64
	for _, f := range node.DataFiles() {
		info, err := os.Stat(filepath.Join(filepath.Dir(config), f))
		if err != nil {
			b.Fatal(err)
		}
		size += info.Size()
	}
	req := hiera.Request{Key: benchgen.DeepKey(0), Merge: &merge.Merge{Strategy: "deep"}, Scope: scope}
	ctx := context.Background()
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := hiera.NewEngine(config).Lookup(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		if !res.Found {
			b.Fatal("not found")
		}
	}
}

// BenchmarkColdFleet is the engine's part of scripts/bench-e2e.sh's fleet plan: a new engine per
// iteration looks up one key for each of 500 nodes, each with its own facts, so all 522 files
// (about 17 MB) are parsed, sharing the engine's tables, and each node's data file path is
// resolved. MB/s is over the data files.
//
//	go test ./internal/hiera -run '^$' -bench ColdFleet -benchtime 5x -cpu 1
func BenchmarkColdFleet(b *testing.B) {
	dir := b.TempDir()
	opts := benchgen.Options{Nodes: 500, Keys: 100}
	if err := benchgen.Generate(dir, opts); err != nil {
		b.Fatal(err)
	}
	config := filepath.Join(dir, "hiera.yaml")
	var reqs []hiera.Request
	seen := map[string]bool{}
	var size int64
	for _, node := range benchgen.Nodes(opts) {
		reqs = append(reqs, hiera.Request{Key: benchgen.FirstKey(0), Scope: hiera.Scope{Facts: toHash(b, node.Facts()), Vars: toHash(b, node.Vars())}})
		for _, f := range node.DataFiles() {
			if info, err := os.Stat(filepath.Join(dir, f)); err != nil {
				b.Fatal(err)
			} else if !seen[f] {
				seen[f] = true
				size += info.Size()
			}
		}
	}
	ctx := context.Background()
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		engine := hiera.NewEngine(config)
		for _, req := range reqs {
			if res, err := engine.Lookup(ctx, req); err != nil || !res.Found {
				b.Fatalf("%s: %v, found %v", req.Key, err, res.Found)
			}
		}
	}
}

// BenchmarkWarmFirstFound looks up keys without merging: some found on the node level at once,
// the others on one level only, from node down to common (which means five misses first).
func BenchmarkWarmFirstFound(b *testing.B) {
	config, scope, _ := benchHierarchy(b)
	var reqs []hiera.Request
	for i := 0; i < 24; i++ {
		reqs = append(reqs,
			hiera.Request{Key: benchgen.FirstKey(i), Scope: scope},
			hiera.Request{Key: benchgen.LevelKey(benchgen.Levels[i%len(benchgen.Levels)], i), Scope: scope})
	}
	runLookups(b, config, reqs)
}

// BenchmarkWarmDeepMerge deep-merges three-level hashes found on all six levels: with an explicit
// merge argument, and through lookup_options (a regexp pattern in common.yaml).
func BenchmarkWarmDeepMerge(b *testing.B) {
	config, scope, _ := benchHierarchy(b)
	b.Run("merge=deep", func(b *testing.B) {
		var reqs []hiera.Request
		for i := 0; i < 48; i++ {
			reqs = append(reqs, hiera.Request{Key: benchgen.DeepKey(i), Merge: &merge.Merge{Strategy: "deep"}, Scope: scope})
		}
		runLookups(b, config, reqs)
	})
	b.Run("lookup_options", func(b *testing.B) {
		var reqs []hiera.Request
		for i := 0; i < 48; i++ {
			reqs = append(reqs, hiera.Request{Key: benchgen.DeepKey(i), Scope: scope})
		}
		runLookups(b, config, reqs)
	})
}

// BenchmarkInterpolation looks up values in common.yaml that interpolate facts, trusted data,
// the environment and other keys through lookup() (some of which interpolate again).
func BenchmarkInterpolation(b *testing.B) {
	config, scope, _ := benchHierarchy(b)
	var reqs []hiera.Request
	for i := 0; i < 24; i++ {
		reqs = append(reqs, hiera.Request{Key: benchgen.InterpKey(i), Scope: scope})
	}
	// Check that interpolation happens: key 0 is "%{facts.hostname}.%{lookup('bench::base::domain')}"
	// and key 2 is "%{trusted.certname}-%{::environment}-%{facts.location}".
	engine := hiera.NewEngine(config)
	for i, want := range map[int]string{0: "node000.example.com", 2: "node000.example.com-production-pdx"} {
		res, err := engine.Lookup(context.Background(), reqs[i])
		if err != nil || res.Value != want {
			b.Fatalf("%s = %v (%v), want %q", reqs[i].Key, res.Value, err, want)
		}
	}
	runLookups(b, config, reqs)
}

// BenchmarkRetainedMemory loads every data file of the hierarchy (one lookup as each node) into a
// new engine and reports the heap the engine keeps afterwards: heap-MB, and heap/yaml per byte of
// YAML. ns/op and MB/s are for loading the whole hierarchy.
func BenchmarkRetainedMemory(b *testing.B) {
	dir := b.TempDir()
	opts := benchgen.Options{}
	if err := benchgen.Generate(dir, opts); err != nil {
		b.Fatal(err)
	}
	config := filepath.Join(dir, "hiera.yaml")
	var reqs []hiera.Request
	files := map[string]bool{}
	for _, node := range benchgen.Nodes(opts) {
		scope := hiera.Scope{Facts: toHash(b, node.Facts()), Vars: toHash(b, node.Vars())}
		reqs = append(reqs, hiera.Request{Key: benchgen.DeepKey(0), Merge: &merge.Merge{Strategy: "deep"}, Scope: scope})
		for _, f := range node.DataFiles() {
			files[f] = true
		}
	}
	var size int64
	for f := range files {
		info, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			b.Fatal(err)
		}
		size += info.Size()
	}
	ctx := context.Background()
	var retained int64
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var before, after runtime.MemStats
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		engine := hiera.NewEngine(config)
		for _, req := range reqs {
			if _, err := engine.Lookup(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(engine)
		retained = int64(after.HeapAlloc) - int64(before.HeapAlloc)
		b.StartTimer()
	}
	b.ReportMetric(float64(retained)/1e6, "heap-MB")
	b.ReportMetric(float64(retained)/float64(size), "heap/yaml")
}
