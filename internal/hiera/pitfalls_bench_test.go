package hiera_test

import (
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/benchgen"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// BenchmarkWarmPitfalls is BenchmarkWarmFirstFound's lookups with and without Pitfalls: what the
// provider's default pitfall_warnings costs a warm lookup.
func BenchmarkWarmPitfalls(b *testing.B) {
	config, scope, _ := benchHierarchy(b)
	for _, on := range []bool{false, true} {
		var reqs []hiera.Request
		for i := 0; i < 24; i++ {
			reqs = append(reqs,
				hiera.Request{Key: benchgen.FirstKey(i), Scope: scope, Pitfalls: on},
				hiera.Request{Key: benchgen.LevelKey(benchgen.Levels[i%len(benchgen.Levels)], i), Scope: scope, Pitfalls: on})
		}
		name := "pitfalls=false"
		if on {
			name = "pitfalls=true"
		}
		b.Run(name, func(b *testing.B) { runLookups(b, config, reqs) })
	}
}
