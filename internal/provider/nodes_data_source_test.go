package provider

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/hieraform/terraform-provider-hiera/internal/fleet"
	"github.com/hieraform/terraform-provider-hiera/internal/provider/wire"
)

// hiera_nodes through the real terraform CLI: the fleet of testdata/fleet (facter output, a Puppet
// Server cache file, a PuppetDB list) and a node given in `nodes`, each answered as one hiera_node
// and one hiera_lookup per key answer it.

// fleetProvider has no trusted.certname of its own: each node's is its name.
const fleetProvider = `
provider "hiera" {
  config = "testdata/site/hiera.yaml"
  scope  = { environment = "production" }
}
locals {
  # each node of the fleet and where its facts are, for the single-node data sources to compare with
  files = {
    "app01.example.com" = "testdata/fleet/app01.json"
    "db01.example.com"  = "testdata/fleet/db01.yaml"
    "web01.example.com" = "testdata/fleet/web01.example.com.json"
  }
  given  = { "mail01.example.com" = { role = "web", hostname = "mail01", os = { family = "Debian" } } }
  common = { count = 3, enabled = true }
  keys   = ["greeting", "packages", "profile::users", "tags"]
}
`

func TestNodesDataSource_fleetAsHieraNodeAnswersEach(t *testing.T) {
	unitTestFrom(t, terraformDataCLI, resource.TestStep{
		Config: fleetProvider + `
data "hiera_nodes" "fleet" {
  facts_dir    = "testdata/fleet"
  nodes        = local.given
  facts        = local.common
  with_sources = true
  with_json    = true
}
# without with_sources and with_json: the same values and key lists, sources and json null
data "hiera_nodes" "plain" {
  facts_dir = "testdata/fleet"
  nodes     = local.given
  facts     = local.common
}
output "plain" {
  value = {
    values     = jsonencode(data.hiera_nodes.plain.values) == jsonencode(data.hiera_nodes.fleet.values)
    found_keys = data.hiera_nodes.plain.found_keys == data.hiera_nodes.fleet.found_keys
    sources    = data.hiera_nodes.plain.sources == null
    json       = data.hiera_nodes.plain.json == null
  }
}
# count, not for_each: plugin-testing's state checks cannot read for_each instances
data "hiera_node" "file" {
  count      = length(local.files)
  facts_file = values(local.files)[count.index]
  facts      = local.common
  scope      = { trusted = { certname = keys(local.files)[count.index] } }
}
data "hiera_node" "given" {
  facts = merge(local.common, local.given["mail01.example.com"])
  scope = { trusted = { certname = "mail01.example.com" } }
}
locals {
  one_by_one = merge({ for i, n in data.hiera_node.file : keys(local.files)[i] => n }, { "mail01.example.com" = data.hiera_node.given })
}
output "same_as_hiera_node" {
  value = { for name, n in local.one_by_one : name => {
    json         = data.hiera_nodes.fleet.json[name] == n.json
    values       = jsonencode(data.hiera_nodes.fleet.values[name]) == jsonencode(n.values)
    found_keys   = data.hiera_nodes.fleet.found_keys[name] == n.found_keys
    missing_keys = data.hiera_nodes.fleet.missing_keys[name] == n.missing_keys
    secret_keys  = data.hiera_nodes.fleet.secret_keys[name] == n.secret_keys
    failed_keys  = data.hiera_nodes.fleet.failed_keys[name] == n.failed_keys
    sources      = jsonencode(data.hiera_nodes.fleet.sources[name]) == jsonencode(n.sources)
  } }
}
resource "terraform_data" "packages" {
  count = length(data.hiera_nodes.fleet.node_names)
  input = data.hiera_nodes.fleet.values[data.hiera_nodes.fleet.node_names[count.index]]["packages"]
}
output "packages" {
  value = { for i, r in terraform_data.packages : data.hiera_nodes.fleet.node_names[i] => r.input }
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_nodes.fleet", "node_names", strs("app01.example.com", "db01.example.com", "mail01.example.com", "web01.example.com")),
			// web01's trusted.certname is its name (from its clientcert): its per-node level is read
			expect("data.hiera_nodes.fleet", "json", knownvalue.MapPartial(map[string]knownvalue.Check{
				"web01.example.com": knownvalue.StringRegexp(regexp.MustCompile(`^\{"profile::users":\{"alice":\{"uid":1001,"groups":\["dev","web"\],"shell":"/bin/zsh"\}.*` +
					`"tags":\{"node":"web01"\}.*"greeting":"hello web01 from production, role web".*"fact_types":"3 true Debian"\}$`)),
				"db01.example.com": knownvalue.StringRegexp(regexp.MustCompile(`"greeting":"hello db01 from production, role db".*"fact_types":"3 true RedHat"`)),
			})),
			expect("data.hiera_nodes.fleet", "secret_keys", knownvalue.MapPartial(map[string]knownvalue.Check{"app01.example.com": strs("secret_token")})),
			expect("data.hiera_nodes.fleet", "failed_keys", knownvalue.MapExact(map[string]knownvalue.Check{
				"app01.example.com": knownvalue.MapExact(map[string]knownvalue.Check{}), "db01.example.com": knownvalue.MapExact(map[string]knownvalue.Check{}),
				"mail01.example.com": knownvalue.MapExact(map[string]knownvalue.Check{}), "web01.example.com": knownvalue.MapExact(map[string]knownvalue.Check{}),
			})),
			statecheck.ExpectKnownOutputValue("same_as_hiera_node", knownvalue.MapExact(map[string]knownvalue.Check{
				"app01.example.com": allTrue(), "db01.example.com": allTrue(), "mail01.example.com": allTrue(), "web01.example.com": allTrue(),
			})),
			statecheck.ExpectKnownOutputValue("plain", knownvalue.ObjectExact(map[string]knownvalue.Check{"values": knownvalue.Bool(true),
				"found_keys": knownvalue.Bool(true), "sources": knownvalue.Bool(true), "json": knownvalue.Bool(true)})),
			expect("data.hiera_nodes.plain", "sources", knownvalue.Null()),
			expect("data.hiera_nodes.plain", "json", knownvalue.Null()),
			statecheck.ExpectKnownOutputValue("packages", knownvalue.MapExact(map[string]knownvalue.Check{
				"app01.example.com":  tuple(str("apt-transport-https")),
				"db01.example.com":   tuple(str("vim"), str("git")),
				"mail01.example.com": tuple(str("nginx"), str("git")),
				"web01.example.com":  tuple(str("nginx"), str("git")),
			})),
		},
	})
}

// allTrue is same_as_hiera_node's verdict for a node that answers alike in every attribute.
func allTrue() knownvalue.Check {
	yes := knownvalue.Bool(true)
	return knownvalue.ObjectExact(map[string]knownvalue.Check{"json": yes, "values": yes, "found_keys": yes, "missing_keys": yes,
		"secret_keys": yes, "failed_keys": yes, "sources": yes})
}

// With keys, every answer is the one hiera_lookup gives for that node and key.
func TestNodesDataSource_keysAsHieraLookupAnswersEach(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: fleetProvider + `
data "hiera_nodes" "fleet" {
  facts_dir = "testdata/fleet"
  facts     = local.common
  keys      = concat(local.keys, ["no::such::key"])
  with_json = true
}
locals {
  pairs = setproduct(keys(local.files), local.keys)
}
data "hiera_lookup" "each" {
  count         = length(local.pairs)
  key           = local.pairs[count.index][1]
  facts_file    = local.files[local.pairs[count.index][0]]
  facts         = local.common
  scope         = { trusted = { certname = local.pairs[count.index][0] } }
  default_value = "(missing)"
}
output "differ" {
  value = [for i, l in data.hiera_lookup.each : local.pairs[i]
    if jsonencode(l.value) != jsonencode(try(data.hiera_nodes.fleet.values[l.scope.trusted.certname][l.key], "(missing)"))]
}
output "compared" {
  value = length(data.hiera_lookup.each)
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("differ", knownvalue.ListExact([]knownvalue.Check{})),
			statecheck.ExpectKnownOutputValue("compared", num(12)),
			expect("data.hiera_nodes.fleet", "missing_keys", knownvalue.MapExact(map[string]knownvalue.Check{
				"app01.example.com": strs("no::such::key"), "db01.example.com": strs("tags", "no::such::key"),
				"web01.example.com": strs("no::such::key"),
			})),
			expect("data.hiera_nodes.fleet", "json", knownvalue.MapPartial(map[string]knownvalue.Check{
				"db01.example.com": str(`{"greeting":"hello db01 from production, role db","packages":["vim","git"],` +
					`"profile::users":{"alice":{"uid":1001,"groups":["dev"]},"bob":{"uid":1002,"shell":"/bin/bash"}}}`),
			})),
		},
	})
}

// select chooses by glob; a glob matching nothing leaves the read working (its warning: below).
func TestNodesDataSource_select(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: fleetProvider + `
data "hiera_nodes" "web" {
  facts_dir = "testdata/fleet"
  nodes     = local.given
  select    = ["web*", "mail01.example.co?", "nothing*"]
  keys      = ["tags"]
  with_json = true
}
data "hiera_nodes" "none" {
  facts_dir = "testdata/fleet"
  select    = ["nothing*"]
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_nodes.web", "node_names", strs("mail01.example.com", "web01.example.com")),
			expect("data.hiera_nodes.web", "json", knownvalue.MapExact(map[string]knownvalue.Check{
				"mail01.example.com": str(`{"tags":{"tier":"web"}}`), "web01.example.com": str(`{"tags":{"node":"web01"}}`),
			})),
			expect("data.hiera_nodes.none", "node_names", strs()),
			expect("data.hiera_nodes.none", "values", obj(map[string]knownvalue.Check{})),
		},
	})
}

// A nodes entry naming a node of facts_dir is laid over its facts (the contract's layering: the
// node's facts file, then nodes[name]); another entry is a node of its own.
func TestNodesDataSource_nodesOverFactsDir(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: fleetProvider + `
data "hiera_nodes" "fleet" {
  facts_dir = "testdata/fleet"
  nodes     = merge(local.given, { "db01.example.com" = { role = "web" } })
  keys      = ["packages"]
  with_json = true
}
data "hiera_node" "db01_as_web" {
  facts_file = local.files["db01.example.com"]
  facts      = { role = "web" }
  scope      = { trusted = { certname = "db01.example.com" } }
  keys       = ["packages"]
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_nodes.fleet", "node_names", strs("app01.example.com", "db01.example.com", "mail01.example.com", "web01.example.com")),
			statecheck.ExpectKnownValue("data.hiera_nodes.fleet", tfjsonpath.New("json").AtMapKey("db01.example.com"), str(`{"packages":["nginx","git"]}`)),
			expect("data.hiera_node.db01_as_web", "json", str(`{"packages":["nginx","git"]}`)),
		},
	})
}

// Each bad input is an error naming the file or node, read from nothing outside the directory.
func TestNodesDataSource_badInput(t *testing.T) {
	dirWith := func(files map[string]string) string {
		dir := t.TempDir()
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	broken := dirWith(map[string]string{"a.yaml": "clientcert: a.example.com\n", "b.yaml": "clientcert: b.example.com\nos:\n  family: [Debian\n"})
	twice := dirWith(map[string]string{"a.json": `{"clientcert": "web01.example.com"}`, "web01.example.com.yaml": "role: web\n"})
	symlinked := dirWith(map[string]string{"a.json": `{"clientcert": "a.example.com"}`})
	outside := filepath.Join(dirWith(map[string]string{"secret.json": `{"clientcert": "outside.example.com"}`}), "secret.json")
	if err := os.Symlink(outside, filepath.Join(symlinked, "b.json")); err != nil {
		t.Fatal(err)
	}
	perNode := t.TempDir() // db01's own data file does not parse
	for name, text := range map[string]string{
		"hiera.yaml":                        "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n",
		"data/nodes/web01.example.com.yaml": "x: 1\n",
		"data/nodes/db01.example.com.yaml":  "x: 1\ny: [\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(perNode, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(perNode, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	crowded := t.TempDir() // more files than a fleet may have nodes: refused before any is read
	for i := range fleet.MaxNodes + 1 {
		f, err := os.Create(filepath.Join(crowded, fmt.Sprintf("n%06d.json", i)))
		if err != nil {
			t.Fatal(err)
		}
		_ = f.Close()
	}
	step := func(args, want string) resource.TestStep {
		return resource.TestStep{Config: fleetProvider + "data \"hiera_nodes\" \"fleet\" {\n" + args + "\n}", ExpectError: errorRE(want)}
	}
	unitTest(t,
		step(`facts_dir = "`+t.TempDir()+`"`, `Invalid Nodes.*facts file .*: the directory holds no facts files`),
		step(`facts_dir = "testdata/nowhere"`, `Invalid Nodes.*facts file testdata/nowhere: no such file or directory`),
		step(`facts_dir = "`+broken+`"`, `Invalid Nodes.*facts file `+regexp.QuoteMeta(filepath.Join(broken, "b.yaml"))+`, line 3`),
		step(`facts_dir = "`+twice+`"`, `two nodes are named "web01\.example\.com": `+regexp.QuoteMeta(filepath.Join(twice, "a.json"))+
			` and `+regexp.QuoteMeta(filepath.Join(twice, "web01.example.com.yaml"))),
		step(`facts_dir = "`+symlinked+`"`, regexp.QuoteMeta(filepath.Join(symlinked, "b.json"))+`: a symlink leading out of the directory`),
		step(`facts_dir = "`+crowded+`"`, fmt.Sprintf(`the directory holds more than %d files`, fleet.MaxNodes)),
		step(`nodes = { "web01.example.com" = "web" }`, `nodes\["web01\.example\.com"\] must be the node's facts, an object`),
		step(`select = ["*"]`, `No Nodes Given.*facts_dir.*nodes`),
		step(`nodes = local.given
select = ["web["]`, `"web\[" is not a valid glob`),
		// a node's failure fails the read naming the node, as hiera_node's would
		step(`nodes = { "web01.example.com" = {}, "db01.example.com" = {} }
environment = "`+production+`"
keys = ["broken::setting"]`, `Hiera Lookup Failed.*Every node \(2\): 1 of the node's keys failed to look up:.*"broken::setting"`),
		step(`nodes = { "web01.example.com" = {}, "db01.example.com" = {} }
config = "`+filepath.Join(perNode, "hiera.yaml")+`"
keys = ["x"]`, `Node "db01\.example\.com" \(nodes\["db01\.example\.com"\]\): 1 of the node's keys failed.*db01\.example\.com\.yaml.*line`),
	)
}

// The warnings: a glob that matches no node; one warning of every node given once.
func TestNodesDataSource_warnings(t *testing.T) {
	t.Parallel()
	pd := &providerData{engines: newEngineCache(), factsFiles: newFactsFileCache(), modulepath: []string{warnModules}}
	m := nodesModel{lookupArgs: lookupArgs{Facts: types.DynamicNull(), Scope: types.DynamicNull(), FactsFile: types.StringNull()},
		FactsDir: types.StringValue("testdata/fleet"), Nodes: types.DynamicNull(), Keys: types.ListNull(types.StringType),
		Prefixes: types.ListNull(types.StringType),
		Select:   types.ListValueMust(types.StringType, []attr.Value{types.StringValue("*.example.com"), types.StringValue("nothing*")})}
	_, diags := pd.readNodes(context.Background(), &m, nil)
	if diags.HasError() {
		t.Fatal(diags)
	}
	var got []string
	for _, d := range diags.Warnings() {
		got = append(got, d.Summary()+": "+d.Detail())
	}
	text := strings.Join(got, "\n")
	if !strings.Contains(text, `No Node Selected: The select glob "nothing*" matches none of the 3 nodes`) ||
		strings.Contains(text, `"*.example.com"`) {
		t.Errorf("warnings:\n%s", text)
	}
	if n := strings.Count(text, "Every node (3): "); n == 0 {
		t.Errorf("the module's warning, every node's, is not given once for every node:\n%s", text)
	}
}

// readSiteFleet reads testdata/fleet's 3 whole nodes over testdata/site once, for a test to read
// them again with a bound changed.
func readSiteFleet(t *testing.T) (*providerData, nodesModel, fleetOutput, diag.Diagnostics) {
	t.Helper()
	pd := &providerData{engines: newEngineCache(), factsFiles: newFactsFileCache(), config: "testdata/site/hiera.yaml"}
	m := nodesModel{lookupArgs: lookupArgs{Facts: types.DynamicNull(), Scope: types.DynamicNull(), FactsFile: types.StringNull()},
		FactsDir: types.StringValue("testdata/fleet"), Nodes: types.DynamicNull(), Keys: types.ListNull(types.StringType),
		Prefixes: types.ListNull(types.StringType), Select: types.ListNull(types.StringType)}
	out, diags := pd.readNodes(context.Background(), &m, nil)
	if diags.HasError() || out.size() < 1000 {
		t.Fatalf("%v, %d bytes", diags, out.size())
	}
	return pd, m, out, diags
}

// A fleet whose answers outgrow what one data source may return stops reading with an error
// saying how to read less (not parallel: it lowers the bound for its read).
func TestNodesDataSource_tooLarge(t *testing.T) {
	defer func(was int64) { maxFleetBytes = was }(maxFleetBytes)
	pd, m, out, _ := readSiteFleet(t)
	maxFleetBytes = out.size() / 2
	_, diags := pd.readNodes(context.Background(), &m, nil)
	if len(diags) != 1 || !strings.Contains(diags[0].Detail(), "The answers of the 3 nodes take more than") ||
		!strings.Contains(diags[0].Detail(), "select") {
		t.Errorf("diagnostics %v", diags)
	}
}

// A read whose answers are large enough to cost Terraform seconds and gigabytes says so, with how
// to read less; a smaller one does not (not parallel: it lowers the threshold for its read).
func TestNodesDataSource_largeAnswerWarning(t *testing.T) {
	defer func(was int64) { largeFleetBytes = was }(largeFleetBytes)
	pd, m, out, diags := readSiteFleet(t)
	large := func(diags diag.Diagnostics) string {
		for _, d := range diags.Warnings() {
			if d.Summary() == "Large Hiera Nodes Answer" {
				return d.Detail()
			}
		}
		return ""
	}
	if got := large(diags); got != "" {
		t.Errorf("a %d-byte answer warned: %s", out.size(), got)
	}
	largeFleetBytes = out.size() / 2
	out, diags = pd.readNodes(context.Background(), &m, nil)
	got := large(diags)
	if diags.HasError() || out.size() < 1000 || !strings.Contains(got, "The answers of the 3 nodes take ") ||
		!strings.Contains(got, "keys, prefixes") || !strings.Contains(got, "select") {
		t.Errorf("the read is still answered, with a warning saying its size and how to read less: %d bytes, %v\n%s", out.size(), diags, got)
	}
}

// A fleet's state, written node by node in chunks and spliced into the configuration, is the one
// terraform-plugin-go encodes from the same value (as many bytes, the same value read back), with
// every map's keys in order, as Terraform writes them (terraform-plugin-go writes them in Go's
// random map order): 40 whole nodes of the benchmarks' fleet (20 MB: attributes of many chunks),
// and 3 with check_params.
func TestNodesDataSource_stateAsTerraformPluginGoEncodesIt(t *testing.T) {
	config, factsDir := writeBenchFleet(t, t.TempDir(), 40)
	direct, _, providerType := configuredPair(t)
	configure(t, direct, providerType, map[string]tftypes.Value{"config": str6(config)})
	ds := direct.dataSources["hiera_nodes"]
	for _, tc := range []struct {
		glob        string
		nodes       int
		checkParams bool // and neither sources nor json
	}{{"*", 40, false}, {"node00[0-2].example.com", 3, true}} {
		cfg := encodeConfig(t, ds.typ, map[string]tftypes.Value{"facts_dir": str6(factsDir), "select": list6(str6(tc.glob)),
			"check_params": tftypes.NewValue(tftypes.Bool, tc.checkParams), "with_sources": tftypes.NewValue(tftypes.Bool, !tc.checkParams),
			"with_json": tftypes.NewValue(tftypes.Bool, !tc.checkParams)})
		r, err := direct.ReadDataSource(context.Background(), &tfprotov6.ReadDataSourceRequest{TypeName: "hiera_nodes", Config: &cfg})
		if err != nil || len(r.Diagnostics) > 0 {
			t.Fatalf("%s: %v %v", tc.glob, err, r.Diagnostics)
		}
		state, err := r.State.Unmarshal(ds.typ)
		if err != nil {
			t.Fatalf("%s: %v", tc.glob, err)
		}
		want, err := tfprotov6.NewDynamicValue(ds.typ, state)
		if err != nil || len(want.MsgPack) != len(r.State.MsgPack) {
			t.Errorf("%s: the state is %d bytes, terraform-plugin-go's %d (%v)", tc.glob, len(r.State.MsgPack), len(want.MsgPack), err)
		}
		attrs := msgpackMap(t, r.State.MsgPack)
		var names []string
		for i := range tc.nodes {
			names = append(names, fmt.Sprintf("node%03d.example.com", i))
		}
		if want := writeStrings(names); !bytes.Equal(attrs["node_names"], want) {
			t.Errorf("%s: node_names %x, want %x", tc.glob, attrs["node_names"], want)
		}
		_, values, _ := wire.SplitDynamic(attrs["values"])
		perNode := map[string][]byte{"values": values}
		for _, name := range perNodeAttributes {
			perNode[name] = attrs[name]
		}
		unasked := []string{"param_problems"}
		if tc.checkParams {
			unasked = []string{"sources", "json"}
		}
		for _, attr := range unasked {
			perNode[attr] = nil
			if !bytes.Equal(attrs[attr], []byte{0xc0}) {
				t.Errorf("%s: %s %x not asked for, want null", tc.glob, attr, attrs[attr])
			}
		}
		for attr, b := range perNode {
			if b == nil {
				continue
			}
			if keys, _ := msgpackMapItems(t, b); !slices.Equal(keys, names) {
				t.Errorf("%s: %s's keys %q, want the nodes in order", tc.glob, attr, keys)
			}
		}
	}
}

// msgpackMapItems is the keys of b, a msgpack map of strings, in the order written, and their
// values' encodings.
func msgpackMapItems(t *testing.T, b []byte) (keys []string, values [][]byte) {
	t.Helper()
	var n, at int
	switch {
	case len(b) > 0 && b[0]&0xf0 == 0x80:
		n, at = int(b[0]&0x0f), 1
	case len(b) > 2 && b[0] == 0xde:
		n, at = int(binary.BigEndian.Uint16(b[1:])), 3
	case len(b) > 4 && b[0] == 0xdf:
		n, at = int(binary.BigEndian.Uint32(b[1:])), 5
	default:
		t.Fatalf("not a msgpack map: %x", b[:min(len(b), 8)])
	}
	for range n {
		keyLen := wire.MsgpackLen(b[at:])
		key, ok := wire.StringValue(b[at : at+keyLen])
		valueLen := wire.MsgpackLen(b[at+keyLen:])
		if !ok || valueLen == 0 {
			t.Fatalf("map item %d: not a string key and a value", len(keys))
		}
		keys, values = append(keys, key), append(values, b[at+keyLen:at+keyLen+valueLen])
		at += keyLen + valueLen
	}
	if at != len(b) {
		t.Fatalf("%d bytes after the map's %d items", len(b)-at, n)
	}
	return keys, values
}

// msgpackMap is b, a msgpack map of strings, as its values' encodings by key.
func msgpackMap(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	keys, values := msgpackMapItems(t, b)
	out := make(map[string][]byte, len(keys))
	for i, k := range keys {
		out[k] = values[i]
	}
	return out
}

// A CI runner without the eyaml private key: every node is read whole, each with its eyaml keys in
// failed_keys as one hiera_node gives them, and one warning for every node.
func TestNodesDataSource_failedKeys(t *testing.T) {
	serverConfig := serverKeysConfig(t)
	unitTest(t, resource.TestStep{
		Config: `
data "hiera_nodes" "fleet" {
  config    = "` + serverConfig + `"
  nodes     = { "web01.example.com" = {}, "db01.example.com" = {} }
  with_json = true
}
data "hiera_node" "db01" {
  config = "` + serverConfig + `"
  scope  = { trusted = { certname = "db01.example.com" } }
}
output "same_as_hiera_node" {
  value = data.hiera_nodes.fleet.failed_keys["db01.example.com"] == data.hiera_node.db01.failed_keys && data.hiera_nodes.fleet.json["db01.example.com"] == data.hiera_node.db01.json
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_nodes.fleet", "failed_keys", knownvalue.MapExact(map[string]knownvalue.Check{
				"db01.example.com": knownvalue.MapPartial(map[string]knownvalue.Check{
					"db_password": knownvalue.StringRegexp(regexp.MustCompile(`cannot read the eyaml private key(.|\n)*give them in the provider's eyaml block`)),
				}),
				"web01.example.com": knownvalue.MapPartial(map[string]knownvalue.Check{
					"db_password": knownvalue.StringRegexp(regexp.MustCompile(`cannot read the eyaml private key`)),
				}),
			})),
			expect("data.hiera_nodes.fleet", "values", knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"web01.example.com": knownvalue.ObjectPartial(map[string]knownvalue.Check{"plain_in_eyaml": str("not a secret")}),
			})),
			statecheck.ExpectKnownOutputValue("same_as_hiera_node", knownvalue.Bool(true)),
		},
	})
}

// A data source's own scope that sets trusted.certname names every node of the fleet alike: a
// warning says which name, once. The provider's (as the quickstart's) renames no node: no warning.
func TestNodes_scopeCertnameWarning(t *testing.T) {
	t.Parallel()
	certname := map[string]any{"trusted": map[string]any{"certname": "web01.example.com"}}
	for _, tc := range []struct {
		scope map[string]any // the provider's
		own   bool           // the data source's scope sets trusted.certname
		want  string
	}{
		{nil, true, "Same Certname For Every Node"},
		{certname, false, ""},
		{map[string]any{"trusted": map[string]any{"extensions": map[string]any{"pp_role": "web"}}}, false, ""},
		{nil, false, ""},
	} {
		scope, err := toHash(tc.scope)
		if err != nil {
			t.Fatal(err)
		}
		own := types.DynamicNull()
		if tc.own {
			own = types.DynamicValue(types.ObjectValueMust(map[string]attr.Type{"trusted": types.ObjectType{AttrTypes: map[string]attr.Type{"certname": types.StringType}}},
				map[string]attr.Value{"trusted": types.ObjectValueMust(map[string]attr.Type{"certname": types.StringType}, map[string]attr.Value{"certname": types.StringValue("web01.example.com")})}))
		}
		pd := &providerData{engines: newEngineCache(), factsFiles: newFactsFileCache(), config: "testdata/site/hiera.yaml", scope: scope}
		m := nodesModel{lookupArgs: lookupArgs{Facts: types.DynamicNull(), Scope: own, FactsFile: types.StringNull()},
			FactsDir: types.StringValue("testdata/fleet"), Nodes: types.DynamicNull(), Keys: types.ListNull(types.StringType),
			Prefixes: types.ListNull(types.StringType), Select: types.ListNull(types.StringType)}
		_, diags := pd.readNodes(context.Background(), &m, nil)
		if diags.HasError() {
			t.Fatal(diags)
		}
		var got []string
		for _, w := range diags.Warnings() {
			if strings.Contains(w.Summary(), "Certname") {
				got = append(got, w.Summary()+": "+w.Detail())
			}
		}
		switch {
		case tc.want == "" && len(got) != 0:
			t.Errorf("scope %v: warnings %q; want none", tc.scope, got)
		case tc.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tc.want) || !strings.Contains(got[0], `"web01.example.com"`)):
			t.Errorf("scope %v: warnings %q; want one %q naming the certname", tc.scope, got, tc.want)
		}
	}
}
