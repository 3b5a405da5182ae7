package provider

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hieraform/terraform-provider-hiera/internal/benchgen"
)

// BenchmarkServeNode reads whole nodes of benchgen's bench hierarchy (six levels of 500 keys: some
// 2,500 keys a node, deep and unique merges, interpolation) through the served provider, as
// Terraform's plan does: ValidateDataResourceConfig, then ReadDataSource of a hiera_node with the
// node's facts and scope. cpu-ms/read is the process's CPU time (user and system, GC included) per
// read, the figure the target (30 ms) is about.
//
//   - plan: a new provider reads each of the 12 nodes once, as one plan does (each node's own file,
//     and the shared ones once for all, parsed on the way);
//
//   - warm: the same node again and again (every file parsed already).
//
//     go test ./internal/provider -run '^$' -bench ServeNode -cpu 1
func BenchmarkServeNode(b *testing.B) {
	dir := b.TempDir()
	opts := benchgen.Options{}
	if err := benchgen.Generate(dir, opts); err != nil {
		b.Fatal(err)
	}
	nodes := benchgen.Nodes(opts)
	provider := map[string]tftypes.Value{"config": str6(filepath.Join(dir, "hiera.yaml"))}
	configs := func(s *benchServer) []tfprotov6.DynamicValue {
		var cfgs []tfprotov6.DynamicValue
		for _, node := range nodes {
			cfgs = append(cfgs, encodeConfig(b, s.types["hiera_node"], map[string]tftypes.Value{
				"facts": goValue6(b, node.Facts()), "scope": goValue6(b, node.Vars())}))
		}
		return cfgs
	}
	b.Run("plan", func(b *testing.B) {
		reads := 0
		cpu := cpuTime()
		for b.Loop() {
			s := newBenchServer(b, provider)
			for _, cfg := range configs(s) {
				s.readAs(b, "hiera_node", &cfg)
				reads++
			}
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(time.Millisecond)/float64(reads), "cpu-ms/read")
	})
	b.Run("warm", func(b *testing.B) {
		s := newBenchServer(b, provider)
		cfg := configs(s)[0]
		s.readAs(b, "hiera_node", &cfg)
		reads := 0
		cpu := cpuTime()
		for b.Loop() {
			s.readAs(b, "hiera_node", &cfg)
			reads++
		}
		b.ReportMetric(float64(cpuTime()-cpu)/float64(time.Millisecond)/float64(reads), "cpu-ms/read")
	})
}
