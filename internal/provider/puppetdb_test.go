package provider

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/hieraform/terraform-provider-hiera/internal/fleet"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/puppetdb/puppetdbtest"
)

// fakePuppetDB serves the nodes of testdata/fleet (puppetdbtest.Fake).
func fakePuppetDB(t *testing.T) string {
	t.Helper()
	nodes, err := fleet.Dir("testdata/fleet").Nodes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var held []puppetdbtest.FakeNode
	for _, n := range nodes {
		text, err := datafile.MarshalJSON(n.Facts)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, puppetdbtest.FakeNode{Certname: n.Name, Facts: text})
	}
	return puppetdbtest.Fake(t, held)
}

// The fleet from PuppetDB answers as the same facts in a directory, node for node, and
// puppetdb_node as the node's facts file.
func TestPuppetDB_answersAsFacts(t *testing.T) {
	pdb := fakePuppetDB(t)
	unitTest(t, resource.TestStep{
		Config: fmt.Sprintf(`
provider "hiera" {
  config   = "testdata/site/hiera.yaml"
  scope    = { environment = "production" }
  puppetdb { url = %q }
}
data "hiera_nodes" "dir" {
  facts_dir    = "testdata/fleet"
  with_json    = true
  with_sources = true
}
data "hiera_nodes" "puppetdb" {
  puppetdb {}
  with_json    = true
  with_sources = true
}
data "hiera_node" "file" {
  facts_file = "testdata/fleet/web01.example.com.json"
  scope      = { trusted = { certname = "web01.example.com" } }
}
data "hiera_node" "puppetdb" {
  puppetdb_node = "web01.example.com"
}
data "hiera_lookup" "file" {
  key        = "packages"
  facts_file = "testdata/fleet/db01.yaml"
  scope      = { trusted = { certname = "db01.example.com" } }
}
data "hiera_lookup" "puppetdb" {
  key           = "packages"
  puppetdb_node = "db01.example.com"
}
output "same" {
  value = {
    names  = data.hiera_nodes.puppetdb.node_names == data.hiera_nodes.dir.node_names
    json   = jsonencode(data.hiera_nodes.puppetdb.json) == jsonencode(data.hiera_nodes.dir.json)
    values = jsonencode(data.hiera_nodes.puppetdb.values) == jsonencode(data.hiera_nodes.dir.values)
    source = jsonencode(data.hiera_nodes.puppetdb.sources) == jsonencode(data.hiera_nodes.dir.sources)
    node   = data.hiera_node.puppetdb.json == data.hiera_node.file.json
    lookup = data.hiera_lookup.puppetdb.json == data.hiera_lookup.file.json
    nodes  = length(data.hiera_nodes.dir.node_names)
    keys   = length(data.hiera_node.file.found_keys)
  }
}
`, pdb),
		ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("same", knownvalue.ObjectExact(map[string]knownvalue.Check{
			"names": knownvalue.Bool(true), "json": knownvalue.Bool(true), "values": knownvalue.Bool(true), "source": knownvalue.Bool(true),
			"node": knownvalue.Bool(true), "lookup": knownvalue.Bool(true),
			"nodes": num(3), "keys": knownvalue.Int64Func(func(n int64) error {
				if n < 3 {
					return fmt.Errorf("%d keys: the comparison is empty", n)
				}
				return nil
			}),
		}))},
	})
}

// Each failure is an error naming the PuppetDB URL and what went wrong, never the token.
func TestPuppetDB_failures(t *testing.T) {
	pdb := fakePuppetDB(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + l.Addr().String()
	_ = l.Close()
	step := func(provider, data, want string) resource.TestStep {
		return resource.TestStep{Config: `
provider "hiera" {
  config = "testdata/site/hiera.yaml"
  ` + provider + `
}
` + data, ExpectError: errorRE(want)}
	}
	nodes := `data "hiera_nodes" "fleet" {
  puppetdb {}
}`
	unitTest(t,
		step(`puppetdb {
  url   = "`+down+`"
  token = "s3cr3t-token"
}`, nodes, `Invalid Nodes.*PuppetDB `+regexp.QuoteMeta(down)+`/pdb/query/v4: cannot connect \(is PuppetDB running there\?\)`),
		step(`puppetdb { url = "`+pdb+`/html" }`, nodes, `PuppetDB `+regexp.QuoteMeta(pdb)+`/html/pdb/query/v4: the answer is not JSON.*Sign in`),
		step(`puppetdb { url = "`+pdb+`" }`, `data "hiera_nodes" "fleet" {
  puppetdb { query = "inventory[certname, facts] { facts.role = }" }
}`, `PuppetDB `+regexp.QuoteMeta(pdb)+`/pdb/query/v4: HTTP 400 Bad Request: PQL parse error at line 1, column 43`),
		step(`puppetdb { url = "`+pdb+`" }`, `data "hiera_node" "gone" {
  puppetdb_node = "gone.example.com"
}`, `PuppetDB Node Not Read.*PuppetDB `+regexp.QuoteMeta(pdb)+`/pdb/query/v4/inventory: no active node named "gone.example.com"`),
		step(``, `data "hiera_lookup" "x" {
  key           = "packages"
  puppetdb_node = "web01.example.com"
}`, `puppetdb_node reads the node from the provider's PuppetDB: give the provider a puppetdb block with its url`),
		step(`puppetdb { url = "`+pdb+`" }`, `data "hiera_nodes" "x" {
  facts_dir     = "testdata/fleet"
  puppetdb_node = "web01.example.com"
}`, `hiera_nodes reads its nodes from PuppetDB with a puppetdb block`),
		step(`puppetdb { url = "`+pdb+`" }`, `data "hiera_nodes" "x" {
  facts_dir = "testdata/fleet"
  puppetdb {}
}`, `two nodes are named "app01\.example\.com": testdata/fleet/app01\.json and PuppetDB `+regexp.QuoteMeta(pdb)+` node "app01\.example\.com"`),
		step(`puppetdb {
  url     = "`+pdb+`"
  timeout = "soon"
}`, `data "hiera_lookup" "x" {
  key = "packages"
}`, `timeout must be a positive duration such as "30s" or "2m", not "soon"`),
		step(`puppetdb { cert = "/etc/ci.pem" }`, `data "hiera_lookup" "x" {
  key = "packages"
}`, `Missing PuppetDB URL`),
		step(`puppetdb {
  url     = "https://puppetdb:8081"
  key_pem = "-----BEGIN PRIVATE KEY-----"
}`, `data "hiera_lookup" "x" {
  key = "packages"
}`, `Invalid PuppetDB Settings.*a key \(key_pem\) needs its client certificate`),
	)
}

// A query that selects no node is a warning naming PuppetDB and the query, not an error.
func TestPuppetDB_noNodeWarning(t *testing.T) {
	t.Parallel()
	pd := &providerData{engines: newEngineCache(), factsFiles: newFactsFileCache(), config: "testdata/site/hiera.yaml",
		puppetdb: puppetdbSettings{query: `inventory[certname, facts] { facts.role = "nothing" }`}}
	pd.puppetdb.config.URL = fakePuppetDB(t)
	m := nodesModel{lookupArgs: lookupArgs{Facts: types.DynamicNull(), Scope: types.DynamicNull(), FactsFile: types.StringNull()},
		FactsDir: types.StringNull(), Nodes: types.DynamicNull(), Keys: types.ListNull(types.StringType),
		Prefixes: types.ListNull(types.StringType), Select: types.ListNull(types.StringType), PuppetDB: &nodesPuppetDBModel{}}
	_, diags := pd.readNodes(context.Background(), &m, nil)
	if diags.HasError() {
		t.Fatal(diags)
	}
	want := fmt.Sprintf(`No Node From PuppetDB: PuppetDB %s holds no active node the query selects: inventory[certname, facts] { facts.role = "nothing" }.`, pd.puppetdb.config.URL)
	if w := diags.Warnings(); len(w) != 1 || w[0].Summary()+": "+w[0].Detail() != want {
		t.Errorf("warnings %v; want %q", w, want)
	}
}

// Against the real PuppetDB (skipped without one): the fleet stored with replace_facts, read by a
// PQL query, answers as the same facts in a directory; a query for the web role reads exactly the
// web nodes; over TLS with the script's CA and client certificate as PEM text.
func TestPuppetDB_realPuppetDB(t *testing.T) {
	pdb := puppetdbtest.URL(t)
	tls := puppetdbtest.TLSSettings(t)
	tag := puppetdbtest.Tag(t)
	nodes, err := fleet.Dir("testdata/fleet").Nodes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	dir, web := t.TempDir(), t.TempDir()
	for _, n := range nodes {
		n.Facts.Set(puppetdbtest.TagFact, tag)
		certname := n.Name + "." + tag // this run's nodes alone
		n.Facts.Set("clientcert", certname)
		text, err := datafile.MarshalJSON(n.Facts)
		if err != nil {
			t.Fatal(err)
		}
		puppetdbtest.ReplaceFacts(t, pdb, certname, text)
		for _, d := range []string{dir, web} {
			if role, _ := n.Facts.Get("role"); d == dir || role == "web" {
				if err := os.WriteFile(filepath.Join(d, certname+".json"), text, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	pem := func(file string) string {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	query := fmt.Sprintf(`inventory[certname, facts] { facts.%s = \"%s\"`, puppetdbtest.TagFact, tag)
	unitTest(t, resource.TestStep{
		Config: fmt.Sprintf(`
provider "hiera" {
  config = "testdata/site/hiera.yaml"
  scope  = { environment = "production" }
  puppetdb {
    url        = %q
    cacert_pem = %q
    cert_pem   = %q
    key_pem    = %q
  }
}
data "hiera_nodes" "dir" {
  facts_dir = %q
  with_json = true
}
data "hiera_nodes" "web_dir" {
  facts_dir = %q
  with_json = true
}
data "hiera_nodes" "puppetdb" {
  puppetdb { query = "%s }" }
  with_json = true
}
data "hiera_nodes" "web" {
  puppetdb { query = "%s and facts.role = \"web\" }" }
  with_json = true
}
data "hiera_nodes" "plain" {
  puppetdb {
    url   = %q
    query = "%s }"
  }
  with_json = true
}
output "same" {
  value = {
    all   = jsonencode(data.hiera_nodes.puppetdb.json) == jsonencode(data.hiera_nodes.dir.json)
    plain = jsonencode(data.hiera_nodes.plain.json) == jsonencode(data.hiera_nodes.dir.json)
    web   = jsonencode(data.hiera_nodes.web.json) == jsonencode(data.hiera_nodes.web_dir.json)
    nodes = length(data.hiera_nodes.puppetdb.node_names)
    webs  = length(data.hiera_nodes.web.node_names)
  }
}
`, tls.URL, pem(tls.CACert), pem(tls.Cert), pem(tls.Key), dir, web, query, query, pdb, query),
		ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("same", knownvalue.ObjectExact(map[string]knownvalue.Check{
			"all": knownvalue.Bool(true), "plain": knownvalue.Bool(true), "web": knownvalue.Bool(true), "nodes": num(3), "webs": num(1),
		}))},
	})
}

// hiera_nodes' own plain-HTTP url takes none of the provider's credentials: the provider's PE
// token (for its https PuppetDB) is not sent in the clear to another server, as its TLS settings
// are not taken either. With no url of its own, the provider's token goes to the provider's url.
func TestPuppetDB_ownPlainURLGetsNoToken(t *testing.T) {
	t.Parallel()
	var tokens []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tokens = append(tokens, r.Header.Get("X-Authentication"))
		_, _ = io.WriteString(w, `[{"certname": "web01.example.com", "facts": {"role": "web"}}]`)
	}))
	t.Cleanup(srv.Close)
	pd := &providerData{}
	pd.puppetdb.config.URL, pd.puppetdb.config.Token = "https://puppetdb.example.com:8081", "s3cr3t-token"
	own, err := pd.puppetdbSource(&nodesPuppetDBModel{URL: types.StringValue(srv.URL)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := own.Nodes(context.Background()); err != nil {
		t.Fatal(err)
	}
	pd.puppetdb.config.URL = srv.URL
	inherited, err := pd.puppetdbSource(&nodesPuppetDBModel{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inherited.Nodes(context.Background()); err != nil {
		t.Fatal(err)
	}
	if want := []string{"", "s3cr3t-token"}; !slices.Equal(tokens, want) {
		t.Errorf("X-Authentication headers %q; want %q (none to the data source's own http url, the provider's to its own)", tokens, want)
	}
}

// quickstartProvider is examples/quickstart's provider block as it stands (a provider set up for
// one node: its scope names web01.example.com), its paths made the example's, and a puppetdb
// block of url added.
func quickstartProvider(t *testing.T, url string) string {
	t.Helper()
	dir, err := filepath.Abs("../../examples/quickstart")
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(dir, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile(`(?s)\nprovider "hiera" \{\n.*?\n\}\n`).FindString(string(text))
	if !strings.Contains(block, `trusted = { certname = "web01.example.com" }`) {
		t.Fatalf("the quickstart's provider block names no certname in its scope:\n%s", block)
	}
	block = strings.ReplaceAll(block, "${path.module}", dir)
	return strings.TrimSuffix(block, "}\n") + "  puppetdb { url = \"" + url + "\" }\n}\n"
}

// Under the quickstart's provider block, whose scope names web01.example.com, every node of a
// fleet (given in nodes, or from PuppetDB) and the node puppetdb_node names are answered as
// themselves: only web01.example.com gets web01's node-level data (alice's shell /bin/zsh). A data
// source's own scope naming a certname still wins.
func TestNodes_providerCertnameRenamesNoNode(t *testing.T) {
	facts := func(host string) []byte {
		return []byte(`{"role": "web", "networking": {"hostname": "` + host + `"}, "os": {"family": "Debian", "release": {"major": "12"}}}`)
	}
	pdb := puppetdbtest.Fake(t, []puppetdbtest.FakeNode{{Certname: "web01.example.com", Facts: facts("web01")},
		{Certname: "web02.example.com", Facts: facts("web02")}})
	unitTest(t, resource.TestStep{
		Config: quickstartProvider(t, pdb) + `
data "hiera_nodes" "given" {
  nodes = { "web01.example.com" = {}, "web02.example.com" = {} }
  keys  = ["accounts::users"]
}
data "hiera_nodes" "puppetdb" {
  puppetdb {}
  keys = ["accounts::users"]
}
data "hiera_nodes" "own" {
  nodes = { "web02.example.com" = {}, "web03.example.com" = {} }
  scope = { trusted = { certname = "web01.example.com" } }
  keys  = ["accounts::users"]
}
data "hiera_node" "web02" {
  puppetdb_node = "web02.example.com"
  keys          = ["accounts::users"]
}
data "hiera_lookup" "web02" {
  key           = "accounts::users"
  puppetdb_node = "web02.example.com"
}
data "hiera_lookup" "web02_own" {
  key           = "accounts::users"
  puppetdb_node = "web02.example.com"
  scope         = { trusted = { certname = "web01.example.com" } }
}
output "alice_shell" {
  value = {
    given_web01    = data.hiera_nodes.given.values["web01.example.com"]["accounts::users"].alice.shell
    given_web02    = data.hiera_nodes.given.values["web02.example.com"]["accounts::users"].alice.shell
    puppetdb_web01 = data.hiera_nodes.puppetdb.values["web01.example.com"]["accounts::users"].alice.shell
    puppetdb_web02 = data.hiera_nodes.puppetdb.values["web02.example.com"]["accounts::users"].alice.shell
    own_web02      = data.hiera_nodes.own.values["web02.example.com"]["accounts::users"].alice.shell
    node_web02     = data.hiera_node.web02.values["accounts::users"].alice.shell
    lookup_web02   = data.hiera_lookup.web02.value.alice.shell
    lookup_own     = data.hiera_lookup.web02_own.value.alice.shell
  }
}`,
		ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("alice_shell", knownvalue.ObjectExact(map[string]knownvalue.Check{
			"given_web01": str("/bin/zsh"), "given_web02": str("/bin/bash"), "puppetdb_web01": str("/bin/zsh"), "puppetdb_web02": str("/bin/bash"),
			"own_web02": str("/bin/zsh"), "node_web02": str("/bin/bash"), "lookup_web02": str("/bin/bash"), "lookup_own": str("/bin/zsh"),
		}))},
	})
}
