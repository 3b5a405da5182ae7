package hiera_test

import (
	"context"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// BenchmarkLookupNode looks up a whole node of the bench hierarchy (six levels of about 500 keys:
// some 2,500 distinct keys, deep and unique merges, interpolation) in one LookupNode: warm, on an
// engine that has read the node before, and cold, on a new engine that parses the six files.
//
//	go test ./internal/hiera -run '^$' -bench LookupNode -cpu 1
func BenchmarkLookupNode(b *testing.B) {
	config, scope, _ := benchHierarchy(b)
	ctx := context.Background()
	check := func(b *testing.B, res hiera.NodeResult, err error) {
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Answers) < 2000 {
			b.Fatalf("%d keys", len(res.Answers))
		}
		for _, a := range res.Answers {
			if a.Err != nil || !a.Result.Found {
				b.Fatalf("%s: %v, found %v", a.Key, a.Err, a.Result.Found)
			}
		}
	}
	b.Run("warm", func(b *testing.B) {
		engine := hiera.NewEngine(config)
		res, err := engine.LookupNode(ctx, hiera.NodeRequest{Scope: scope})
		check(b, res, err)
		b.ReportMetric(float64(len(res.Answers)), "keys")
		b.ReportAllocs()
		for b.Loop() {
			res, err = engine.LookupNode(ctx, hiera.NodeRequest{Scope: scope})
		}
		check(b, res, err)
	})
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res, err := hiera.NewEngine(config).LookupNode(ctx, hiera.NodeRequest{Scope: scope})
			check(b, res, err)
		}
	})
}
