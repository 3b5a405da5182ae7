package provider

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hieraform/terraform-provider-hiera/internal/benchgen"
)

// BenchmarkServeNodes reads benchgen's fleet (a hierarchy of 100 keys a file, one file per node)
// in ONE hiera_nodes through the served provider, its facts in a directory of one file per node, as
// scripts/bench-e2e.sh plans it: the 4 keys of every node, and whole nodes (every key). Each read
// is a new provider's, as in a plan. cpu-ms/read is the process's CPU per read (every core),
// state-MB the read's state (0: the fleet's answers outgrew maxFleetBytes, and the read stopped
// there), maxrss-MB the process's peak RSS.
//
//	go test ./internal/provider -run '^$' -bench ServeNodes -benchtime 3x
//	HIERAFORM_BENCH_NODES=10000 go test ./internal/provider -run '^$' -bench 'ServeNodes/whole' -benchtime 1x
func BenchmarkServeNodes(b *testing.B) {
	count := 500
	if n, err := strconv.Atoi(os.Getenv("HIERAFORM_BENCH_NODES")); err == nil && n > 0 {
		count = n
	}
	config, factsDir := writeBenchFleet(b, b.TempDir(), count)
	provider := map[string]tftypes.Value{"config": str6(config)}
	keys := list6(str6(benchgen.FirstKey(0)), str6(benchgen.FirstKey(1)), str6(benchgen.DeepKey(0)), str6(benchgen.UniqueKey(0)))
	for _, tc := range []struct {
		name string
		args map[string]tftypes.Value
	}{
		{"keys", map[string]tftypes.Value{"facts_dir": str6(factsDir), "keys": keys}},
		{"whole", map[string]tftypes.Value{"facts_dir": str6(factsDir)}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			reads, stateBytes := 0, 0
			cpu := cpuTime()
			for b.Loop() {
				s := newBenchServer(b, provider)
				cfg := encodeConfig(b, s.types["hiera_nodes"], tc.args)
				stateBytes = s.readState(b, "hiera_nodes", &cfg)
				reads++
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(time.Millisecond)/float64(reads), "cpu-ms/read")
			b.ReportMetric(float64(stateBytes)/1e6, "state-MB")
			if peak, ok := maxRSS(); ok {
				b.ReportMetric(float64(peak)/1e6, "maxrss-MB")
			}
		})
	}
}

// writeBenchFleet writes benchgen's fleet of count nodes (100 keys a data file) into dir, with the
// nodes' facts in a directory of one file per node; it returns the hiera.yaml and that directory.
func writeBenchFleet(tb testing.TB, dir string, count int) (config, factsDir string) {
	tb.Helper()
	opts := benchgen.Options{Nodes: count, Keys: 100}
	if err := benchgen.Generate(dir, opts); err != nil {
		tb.Fatal(err)
	}
	factsDir = filepath.Join(dir, "facts")
	if err := os.Mkdir(factsDir, 0o755); err != nil {
		tb.Fatal(err)
	}
	for _, n := range benchgen.Nodes(opts) {
		facts := n.Facts()
		facts["clientcert"], facts["environment"] = n.Certname, n.Env // scope is shared: the environment as a fact
		js, err := json.Marshal(facts)
		if err == nil {
			err = os.WriteFile(filepath.Join(factsDir, n.Certname+".json"), js, 0o644)
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	return filepath.Join(dir, "hiera.yaml"), factsDir
}

func isError(d *tfprotov6.Diagnostic) bool { return d.Severity == tfprotov6.DiagnosticSeverityError }

// readState is readAs returning the size of the state read.
func (s *benchServer) readState(b *testing.B, typeName string, cfg *tfprotov6.DynamicValue) int {
	v, err := s.srv.ValidateDataResourceConfig(b.Context(), &tfprotov6.ValidateDataResourceConfigRequest{TypeName: typeName, Config: cfg})
	if err != nil || len(v.Diagnostics) > 0 {
		b.Fatalf("ValidateDataResourceConfig: %v %v", err, v.Diagnostics)
	}
	r, err := s.srv.ReadDataSource(b.Context(), &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: cfg})
	switch {
	case err == nil && len(r.Diagnostics) == 1 && r.Diagnostics[0].Summary == "Hiera Nodes Too Large":
		b.Log(r.Diagnostics[0].Detail) // the bound, measured: maxrss-MB is what reaching it took
		return 0
	case err != nil || slices.ContainsFunc(r.Diagnostics, isError) || r.State == nil:
		b.Fatalf("ReadDataSource: %v %v", err, r.Diagnostics) // a warning (a large answer's) is part of the read
	}
	return len(r.State.MsgPack)
}
