package provider

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hieraform/terraform-provider-hiera/internal/benchgen"
)

// These benchmarks drive the provider server as Terraform does over protocol 6: the schema once,
// ConfigureProvider once, then per data source ValidateDataResourceConfig and ReadDataSource with
// msgpack-encoded configuration. One op is one data source. Profile with
//
//	go test ./internal/provider -run '^$' -bench Serve -cpu 1 -cpuprofile cpu.out -memprofile mem.out

// benchServer is a configured provider server and the types needed to encode configurations.
type benchServer struct {
	srv      tfprotov6.ProviderServer
	dataType tftypes.Object            // hiera_lookup's configuration type
	types    map[string]tftypes.Object // every data source's, by type name
}

// newBenchServer serves the provider and configures it with providerConfig (attribute -> value).
func newBenchServer(b *testing.B, providerConfig map[string]tftypes.Value) *benchServer {
	b.Helper()
	ctx := context.Background()
	srv, err := NewServer("bench")()
	if err != nil {
		b.Fatal(err)
	}
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schemas.Diagnostics) > 0 {
		b.Fatalf("GetProviderSchema: %v %v", err, schemas.Diagnostics)
	}
	providerType, _ := schemas.Provider.ValueType().(tftypes.Object)
	types := map[string]tftypes.Object{}
	for name, sch := range schemas.DataSourceSchemas {
		types[name], _ = sch.ValueType().(tftypes.Object)
	}
	cfg := encodeConfig(b, providerType, providerConfig)
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.11.4", Config: &cfg})
	if err != nil || len(resp.Diagnostics) > 0 {
		b.Fatalf("ConfigureProvider: %v %v", err, resp.Diagnostics)
	}
	return &benchServer{srv: srv, dataType: types["hiera_lookup"], types: types}
}

// encodeConfig builds a msgpack configuration of type typ: the given attributes, null elsewhere.
func encodeConfig(b testing.TB, typ tftypes.Object, attrs map[string]tftypes.Value) tfprotov6.DynamicValue {
	b.Helper()
	vals := map[string]tftypes.Value{}
	for name, t := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(t, nil)
		if v, ok := attrs[name]; ok {
			vals[name] = v
		}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, vals))
	if err != nil {
		b.Fatal(err)
	}
	return dv
}

// read validates and reads one hiera_lookup data source, as Terraform's validate and plan walks do.
func (s *benchServer) read(b *testing.B, cfg *tfprotov6.DynamicValue) {
	s.readAs(b, "hiera_lookup", cfg)
}

// readAs validates and reads one data source of type typeName.
func (s *benchServer) readAs(b *testing.B, typeName string, cfg *tfprotov6.DynamicValue) {
	ctx := context.Background()
	v, err := s.srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: typeName, Config: cfg})
	if err != nil || len(v.Diagnostics) > 0 {
		b.Fatalf("ValidateDataResourceConfig: %v %v", err, v.Diagnostics)
	}
	r, err := s.srv.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: cfg})
	if err != nil || len(r.Diagnostics) > 0 || r.State == nil {
		b.Fatalf("ReadDataSource: %v %v", err, r.Diagnostics)
	}
}

func str6(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

// object6 is a Terraform object value of string attributes or nested objects.
func object6(attrs map[string]tftypes.Value) tftypes.Value {
	types := make(map[string]tftypes.Type, len(attrs))
	for k, v := range attrs {
		types[k] = v.Type()
	}
	return tftypes.NewValue(tftypes.Object{AttributeTypes: types}, attrs)
}

// BenchmarkServeTrivial is the cost of one trivial data source: one key in a one-file hierarchy,
// with the provider's facts and scope (as scripts/bench-e2e.sh's trivial plans).
func BenchmarkServeTrivial(b *testing.B) {
	dir := b.TempDir()
	writeFile(b, filepath.Join(dir, "hiera.yaml"), "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n")
	writeFile(b, filepath.Join(dir, "data", "common.yaml"), "greeting: hello\n")
	s := newBenchServer(b, map[string]tftypes.Value{
		"config": str6(filepath.Join(dir, "hiera.yaml")),
		"facts": object6(map[string]tftypes.Value{
			"hostname": str6("node000"), "role": str6("web"), "location": str6("ams"),
			"os":         object6(map[string]tftypes.Value{"family": str6("Debian"), "release": object6(map[string]tftypes.Value{"major": str6("9")})}),
			"networking": object6(map[string]tftypes.Value{"fqdn": str6("node000.example.com"), "domain": str6("example.com")}),
		}),
		"scope": object6(map[string]tftypes.Value{
			"trusted": object6(map[string]tftypes.Value{"certname": str6("node000.example.com")}), "environment": str6("production"),
		}),
	})
	cfg := encodeConfig(b, s.dataType, map[string]tftypes.Value{"key": str6("greeting")})
	b.ReportAllocs()
	for b.Loop() {
		s.read(b, &cfg)
	}
}

// BenchmarkServeFleet is scripts/bench-e2e.sh's fleet section in process: 500 nodes x 4 keys, each
// data source with its own facts and certname, over benchgen's fleet hierarchy (522 files), and the
// same data sources over the trivial one; fleet_facts_file is the fleet with each node's facts in a
// facts_file (facter -j's JSON) instead of HCL; the large_facts pair gives each node 500 more facts
// (about 50 KB, as facter reports a server), in HCL and in a file. With -benchtime 2000x one run is
// one plan's reads:
//
//	go test ./internal/provider -run '^$' -bench ServeFleet -benchtime 2000x -count 5
func BenchmarkServeFleet(b *testing.B) {
	dir := b.TempDir()
	fleet, trivial := filepath.Join(dir, "fleet"), filepath.Join(dir, "trivial")
	opts := benchgen.Options{Nodes: 500, Keys: 100}
	if err := benchgen.Generate(fleet, opts); err != nil {
		b.Fatal(err)
	}
	if err := benchgen.Generate(trivial, benchgen.Options{Floor: true}); err != nil {
		b.Fatal(err)
	}
	nodes := benchgen.Nodes(opts)
	for _, hier := range []struct {
		name, dir             string
		factsFile, largeFacts bool
	}{{"fleet", fleet, false, false}, {"trivial", trivial, false, false}, {"fleet_facts_file", fleet, true, false},
		{"fleet_large_facts", fleet, false, true}, {"fleet_large_facts_file", fleet, true, true}} {
		b.Run(hier.name, func(b *testing.B) {
			s := newBenchServer(b, map[string]tftypes.Value{
				"config": str6(filepath.Join(hier.dir, "hiera.yaml")),
				"facts":  goValue6(b, nodes[0].Facts()), "scope": goValue6(b, nodes[0].Vars()),
			})
			keys := fleetKeys(b, hier.dir)
			var cfgs []tfprotov6.DynamicValue
			for i, node := range nodes {
				facts := node.Facts()
				if hier.largeFacts {
					facts["more"] = largeFacts()
				}
				attrs := map[string]tftypes.Value{"facts": goValue6(b, facts), "scope": goValue6(b, node.Vars())}
				if hier.factsFile {
					file := filepath.Join(dir, "facts", strconv.Itoa(i)+".json")
					js, err := json.Marshal(facts)
					if err != nil {
						b.Fatal(err)
					}
					writeFile(b, file, string(js))
					delete(attrs, "facts")
					attrs["facts_file"] = str6(file)
				}
				for _, key := range keys {
					attrs["key"] = str6(key)
					cfgs = append(cfgs, encodeConfig(b, s.dataType, attrs))
				}
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				s.read(b, &cfgs[i%len(cfgs)])
				i++
			}
		})
	}
}

// largeFacts are 500 facts of 90 bytes, the bulk of what facter reports for a server.
func largeFacts() map[string]any {
	more := make(map[string]any, 500)
	for i := range 500 {
		more["fact"+strconv.Itoa(i)] = strings.Repeat("x", 90)
	}
	return more
}

// fleetKeys are the four keys scripts/bench-e2e.sh's fleet looks up in a benchgen hierarchy: its
// manifest's first four.
func fleetKeys(b *testing.B, dir string) []string {
	b.Helper()
	js, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		b.Fatal(err)
	}
	var m benchgen.Manifest
	if err := json.Unmarshal(js, &m); err != nil || len(m.Lookups.First) < 4 {
		b.Fatalf("manifest: %v", err)
	}
	return m.Lookups.First[:4]
}

// goValue6 is a Terraform object value of g (strings and nested maps), as HCL's object syntax gives.
func goValue6(b *testing.B, g map[string]any) tftypes.Value {
	b.Helper()
	attrs := make(map[string]tftypes.Value, len(g))
	for k, v := range g {
		switch v := v.(type) {
		case string:
			attrs[k] = str6(v)
		case map[string]any:
			attrs[k] = goValue6(b, v)
		default:
			b.Fatalf("goValue6: %T", v)
		}
	}
	return object6(attrs)
}

func writeFile(b testing.TB, path, text string) {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
}
