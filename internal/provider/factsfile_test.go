package provider

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// factsSite is a hierarchy that shows which facts a node got: mapped_paths over the hash fact
// roles (so the first role in the hash's order wins, as in Puppet) and a value naming the facts.
func factsSite(t *testing.T) string {
	t.Helper()
	return writeCase(t, map[string]string{
		"hiera.yaml": `version: 5
defaults: {datadir: data, data_hash: yaml_data}
hierarchy:
  - name: Roles
    mapped_paths: [facts.roles, role, "roles/%{role.0}.yaml"]
  - name: Common
    path: common.yaml
`,
		"data/roles/zeta.yaml":  "first_role: zeta\nrole_list: [zeta]\n",
		"data/roles/alpha.yaml": "first_role: alpha\nrole_list: [alpha]\n",
		"data/common.yaml": `who: "%{facts.hostname} %{facts.os.family} %{facts.role}"
node: {host: "%{facts.hostname}", family: "%{facts.os.family}"}
role_list: [common]
password: "%{facts.hostname}-pw"
lookup_options:
  password: {convert_to: Sensitive}
  role_list: {merge: unique}
`,
		// facter -j, with the roles hash not in sorted order
		"facts/web01.json": `{"hostname": "web01", "role": "web", "os": {"family": "Debian"}, "roles": {"zeta": true, "alpha": true}}`,
		// puppet facts show (the wrapped form), YAML
		"facts/db01.yaml":      "name: db01.example.com\nvalues:\n  hostname: db01\n  role: db\n  os:\n    family: RedHat\n",
		"facts/two-nodes.json": `[{"certname": "a", "name": "role", "value": "web"}, {"certname": "b", "name": "role", "value": "db"}]`,
		"facts/list.json":      `["web01"]`,
		"facts/broken.yaml":    "hostname: web01\nos: [Debian\n",
		"facts/scalar.json":    `"web01"`,
		"facts/empty.yaml":     "",
	})
}

// A facts file keeps its key order, as Puppet does; the same facts written in HCL are sorted by
// Terraform, and mapped_paths over the hash then finds the other role first.
func TestFactsFile_keepsFileOrder(t *testing.T) {
	dir := factsSite(t)
	unitTest(t, resource.TestStep{
		Config: `provider "hiera" { config = "` + dir + `/hiera.yaml" }
data "hiera_lookup" "from_file" {
  key        = "first_role"
  facts_file = "` + dir + `/facts/web01.json"
}
data "hiera_lookup" "from_hcl" {
  key   = "first_role"
  facts = { roles = { zeta = true, alpha = true } }
}
data "hiera_array" "roles" {
  key        = "role_list"
  facts_file = "` + dir + `/facts/web01.json"
}
`,
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.from_file", "value", str("zeta")),
			expect("data.hiera_lookup.from_hcl", "value", str("alpha")),
			expect("data.hiera_array.roles", "value", knownvalue.ListExact([]knownvalue.Check{str("zeta"), str("alpha"), str("common")})),
		},
	})
}

// The provider's facts_file, then its facts, each merged over the one before, top-level key by key;
// a data source's facts_file replaces them (it names another node: none of the provider's node's
// facts leak into it, a warning says so), or with facts_file_merge = true is merged over them;
// then the data source's facts. Every data source kind takes it.
func TestFactsFile_layering(t *testing.T) {
	dir := factsSite(t)
	config := func(merge string) string {
		return `provider "hiera" {
  config     = "` + dir + `/hiera.yaml"
  facts_file = "` + dir + `/facts/web01.json"
  facts      = { role = "provider" }` + merge + `
}
data "hiera_lookup" "provider_only" {
  key = "who"
}
data "hiera_lookup" "own_file" {
  key        = "who"
  facts_file = "` + dir + `/facts/db01.yaml"
}
data "hiera_lookup" "own_file_and_facts" {
  key        = "who"
  facts_file = "` + dir + `/facts/db01.yaml"
  facts      = { hostname = "db02" }
}
data "hiera_hash" "node" {
  key        = "node"
  facts_file = "` + dir + `/facts/db01.yaml"
}
data "hiera_secret" "password" {
  key        = "password"
  facts_file = "` + dir + `/facts/db01.yaml"
}
data "hiera_node" "db01" {
  keys       = ["who", "first_role"]
  facts_file = "` + dir + `/facts/db01.yaml"
}
`
	}
	unitTest(t, resource.TestStep{
		Config: config(""),
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.provider_only", "value", str("web01 Debian provider")),
			expect("data.hiera_lookup.own_file", "value", str("db01 RedHat db")),
			expect("data.hiera_lookup.own_file_and_facts", "value", str("db02 RedHat db")),
			expect("data.hiera_hash.node", "value", obj(map[string]knownvalue.Check{"host": str("db01"), "family": str("RedHat")})),
			expect("data.hiera_secret.password", "value", str("db01-pw")),
			// db01's file has no roles, and web01's do not leak in
			expect("data.hiera_node.db01", "json", str(`{"who":"db01 RedHat db"}`)),
		},
	}, resource.TestStep{
		Config: config("\n  facts_file_merge = true"),
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.own_file", "value", str("db01 RedHat db")),
			// merged: web01's file still gives the roles db01's lacks
			expect("data.hiera_node.db01", "json", str(`{"who":"db01 RedHat db","first_role":"zeta"}`)),
		},
	})
}

// A data source's facts_file over the provider's facts is a warning on facts_file naming the
// file, unless the provider merges them (facts_file_merge); without provider facts, none.
func TestFactsFile_replacesWarning(t *testing.T) {
	dir := factsSite(t)
	providerFacts, err := toHash(map[string]any{"role": "provider"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		facts *model.Hash
		merge bool
		warns bool
	}{{providerFacts, false, true}, {providerFacts, true, false}, {nil, false, false}} {
		pd := &providerData{engines: newEngineCache(), factsFiles: newFactsFileCache(), config: dir + "/hiera.yaml", facts: tc.facts, factsFileMerge: tc.merge}
		args := lookupArgs{Facts: types.DynamicNull(), Scope: types.DynamicNull(), FactsFile: types.StringValue(dir + "/facts/db01.yaml")}
		diags := pd.factsFileReplaces(&args)
		warned := len(diags.Warnings()) == 1 && diags.Warnings()[0].Summary() == "Provider Facts Replaced" &&
			strings.Contains(diags.Warnings()[0].Detail(), dir+"/facts/db01.yaml replace the provider's facts")
		if warned != tc.warns || len(diags) > 1 {
			t.Errorf("provider facts %v, merge %v: %v", tc.facts != nil, tc.merge, diags)
		}
	}
}

func TestFactsFile_ephemeral(t *testing.T) {
	dir := factsSite(t)
	ephemeralTest(t, resource.TestStep{
		Config: `provider "hiera" { config = "` + dir + `/hiera.yaml" }
ephemeral "hiera_lookup" "who" {
  key        = "who"
  facts_file = "` + dir + `/facts/db01.yaml"
}
` + echo(`ephemeral.hiera_lookup.who.value`),
		ConfigStateChecks: []statecheck.StateCheck{expect("echo.test", "data", str("db01 RedHat db"))},
	})
}

// Every file a user can get wrong: a clear error on facts_file naming the file (and line).
func TestFactsFile_errors(t *testing.T) {
	dir := factsSite(t)
	lookup := func(file string) string {
		return `provider "hiera" { config = "` + dir + `/hiera.yaml" }
data "hiera_lookup" "x" {
  key        = "who"
  facts_file = "` + file + `"
}
`
	}
	var steps []resource.TestStep
	for file, want := range map[string]string{
		dir + "/facts/missing.json":   `Invalid Facts File.*facts file ` + dir + `/facts/missing.json: no such file or directory`,
		dir + "/facts":                `Invalid Facts File.*facts file ` + dir + `/facts: it is a directory`,
		dir + "/facts/broken.yaml":    `Invalid Facts File.*facts file ` + dir + `/facts/broken.yaml, line 2`,
		dir + "/facts/two-nodes.json": `Invalid Facts File.*facts of more than one node`,
		dir + "/facts/list.json":      `Invalid Facts File.*entry 0 of the list is not a PuppetDB fact`,
		dir + "/facts/scalar.json":    `Invalid Facts File.*facts file ` + dir + `/facts/scalar.json: the file holds a string, not a hash of facts`,
		dir + "/facts/empty.yaml":     `Invalid Facts File.*facts file ` + dir + `/facts/empty.yaml: the file holds no facts`,
		"":                            `Invalid Attribute Value Length.*Attribute facts_file string length must be at least 1`,
	} {
		// Terraform shows the attribute's line (facts_file = ...) between summary and detail.
		steps = append(steps, resource.TestStep{Config: lookup(file), ExpectError: errorRE(strings.Replace(want, ".*", `.*facts_file = .*`, 1))})
	}
	// The provider's facts_file: the same errors, on the provider's attribute.
	for file, want := range map[string]string{
		dir + "/facts/missing.yaml":   `facts file ` + dir + `/facts/missing.yaml: no such file or directory`,
		dir + "/facts":                `facts file ` + dir + `/facts: it is a directory`,
		dir + "/facts/two-nodes.json": `facts of more than one node`,
		"":                            `Attribute facts_file string length must be at least 1`,
	} {
		steps = append(steps, resource.TestStep{
			Config: `provider "hiera" {
  config     = "` + dir + `/hiera.yaml"
  facts_file = "` + file + `"
}
data "hiera_lookup" "x" { key = "who" }
`,
			ExpectError: errorRE(`(Invalid Facts File|Invalid Attribute Value Length).*facts_file = .*` + want),
		})
	}
	unitTest(t, steps...)
}

// A facts file changed while the provider runs is read again once the engine would look at a
// data file again (hiera.StampCheckInterval): the direct server's scope cache does not keep the
// old facts.
func TestServer_factsFileChanged(t *testing.T) {
	ctx := context.Background()
	dir := factsSite(t)
	file := filepath.Join(dir, "facts", "web01.json")
	direct, _, providerType := configuredPair(t)
	configure(t, direct, providerType, map[string]tftypes.Value{"config": str6(filepath.Join(dir, "hiera.yaml"))})
	pd := direct.provider.configured.Load()
	now := time.Now()
	pd.factsFiles.now = func() time.Time { return now }
	ds := direct.dataSources["hiera_lookup"]
	cfg := encodeConfig(t, ds.typ, map[string]tftypes.Value{"key": str6("who"), "facts_file": str6(file)})
	read := func() string {
		t.Helper()
		resp, err := direct.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: "hiera_lookup", Config: &cfg})
		if err != nil || len(resp.Diagnostics) > 0 {
			t.Fatalf("ReadDataSource: %v %v", err, resp.Diagnostics)
		}
		state, err := resp.State.Unmarshal(ds.typ)
		var attrs map[string]tftypes.Value
		var js string
		if err != nil || state.As(&attrs) != nil || attrs["json"].As(&js) != nil {
			t.Fatalf("state: %v %v", state, err)
		}
		return js
	}
	if got := read(); got != `"web01 Debian web"` {
		t.Fatalf("first read: %s", got)
	}
	if err := os.WriteFile(file, []byte(`{"hostname": "web01", "role": "web", "os": {"family": "RedHat Enterprise"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Second)
	if got := read(); got != `"web01 RedHat Enterprise web"` {
		t.Errorf("after the file changed: %s", got)
	}
}

// The cache reads a file once however many data sources name it, and bounds what it holds.
func TestFactsFileCache(t *testing.T) {
	dir := factsSite(t)
	c := newFactsFileCache()
	file := filepath.Join(dir, "facts", "web01.json")
	a, b := c.get(file), c.get(file)
	if a.err != nil || a != b {
		t.Fatalf("a second get read the file again or failed: %v", a.err)
	}
	if keys := a.facts.Keys(); len(keys) != 4 || keys[3] != "roles" {
		t.Errorf("facts in the file's order: %v", keys)
	}
	for i := range maxFactsFiles + 1 {
		c.get(filepath.Join(dir, "facts", strconv.Itoa(i)+"-missing.json"))
	}
	if len(c.files) > maxFactsFiles {
		t.Errorf("the cache holds %d files, more than %d", len(c.files), maxFactsFiles)
	}
	// Bounded in bytes too: a file that would take the cache past the bound starts it over.
	c.get(file)
	c.bytes = maxFactsFileBytes - 10
	other := filepath.Join(dir, "facts", "db01.yaml")
	if f := c.get(other); f.err != nil || len(c.files) != 1 || c.bytes != f.size {
		t.Errorf("past the byte bound: %d files, %d bytes (the file has %d): %v", len(c.files), c.bytes, f.size, f.err)
	}
}

// Terraform reads data sources in parallel: concurrent gets of the same and of other files, some
// of them after the stamp interval (looked at again) and some past the cache's bound (started
// over), each answer the file's facts (run with -race).
func TestFactsFileCache_concurrent(t *testing.T) {
	dir := factsSite(t)
	c := newFactsFileCache()
	var clock sync.Mutex
	now := time.Now()
	c.now = func() time.Time { clock.Lock(); defer clock.Unlock(); now = now.Add(time.Second); return now }
	files := map[string]string{"web01.json": "web01", "db01.yaml": "db01"}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				for name, host := range files {
					f := c.get(filepath.Join(dir, "facts", name))
					if got, _ := f.facts.Get("hostname"); f.err != nil || got != host {
						t.Errorf("%s: hostname %v, %v", name, got, f.err)
						return
					}
				}
				c.get(filepath.Join(dir, "facts", strconv.Itoa(g*1000+i)+"-missing.json"))
			}
		}()
	}
	wg.Wait()
}

// hiera_nodes answers a node of a facts file (or of PuppetDB) as hiera_node with that facts_file:
// the file replaces the provider's facts unless facts_file_merge, so the provider's node's roles do
// not leak into every node of the fleet; a node given in nodes gets them below its own, as
// hiera_node's facts does.
func TestFactsFile_fleetNodesReplaceProviderFacts(t *testing.T) {
	dir := factsSite(t)
	fleetDir := writeCase(t, map[string]string{"db01.yaml": "name: db01.example.com\nvalues:\n  hostname: db01\n  role: db\n  os:\n    family: RedHat\n"})
	config := func(merge string) string {
		return `provider "hiera" {
  config     = "` + dir + `/hiera.yaml"
  facts_file = "` + dir + `/facts/web01.json"
  facts      = { role = "provider" }` + merge + `
}
data "hiera_nodes" "fleet" {
  facts_dir = "` + fleetDir + `"
  nodes     = { "n01.example.com" = { hostname = "n01" } }
  keys      = ["who", "first_role"]
  with_json = true
}
data "hiera_node" "db01" {
  keys       = ["who", "first_role"]
  facts_file = "` + fleetDir + `/db01.yaml"
}
data "hiera_node" "n01" {
  keys  = ["who", "first_role"]
  facts = { hostname = "n01" }
  scope = { trusted = { certname = "n01.example.com" } }
}
output "same" {
  value = [data.hiera_nodes.fleet.json["db01.example.com"] == data.hiera_node.db01.json, data.hiera_nodes.fleet.json["n01.example.com"] == data.hiera_node.n01.json]
}
`
	}
	fleetJSON := func(db01, n01 string) statecheck.StateCheck {
		return expect("data.hiera_nodes.fleet", "json", knownvalue.MapExact(map[string]knownvalue.Check{"db01.example.com": str(db01), "n01.example.com": str(n01)}))
	}
	same := statecheck.ExpectKnownOutputValue("same", knownvalue.ListExact([]knownvalue.Check{knownvalue.Bool(true), knownvalue.Bool(true)}))
	unitTest(t, resource.TestStep{
		Config:            config(""),
		ConfigStateChecks: []statecheck.StateCheck{fleetJSON(`{"who":"db01 RedHat db"}`, `{"who":"n01 Debian provider","first_role":"zeta"}`), same},
	}, resource.TestStep{
		Config:            config("\n  facts_file_merge = true"),
		ConfigStateChecks: []statecheck.StateCheck{fleetJSON(`{"who":"db01 RedHat db","first_role":"zeta"}`, `{"who":"n01 Debian provider","first_role":"zeta"}`), same},
	})
}
