package provider

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Data sources with the same facts, scope and facts_file share one conversion (scopecache.go).
// Interleaved reads of several nodes' keys, repeated, must each answer as the framework does: a node
// never sees another's facts, and a problem in the facts is reported every time.
func TestServer_sharedFacts(t *testing.T) {
	ctx := context.Background()
	dir := writeCase(t, map[string]string{
		"web01.json":  `{"hostname": "web01", "role": "web", "os": {"family": "Debian"}}`,
		"db01.yaml":   "name: db01.example.com\nvalues:\n  hostname: db01\n  role: db\n  os: {family: RedHat}\n",
		"broken.yaml": "role: web\nos: [Debian\n",
	})
	web01, db01, broken := filepath.Join(dir, "web01.json"), filepath.Join(dir, "db01.yaml"), filepath.Join(dir, "broken.yaml")
	direct, fw, providerType := configuredPair(t)
	provider := providerConfigs()["config"]
	configure(t, direct, providerType, provider)
	configure(t, fw, providerType, provider)
	ds := direct.dataSources["hiera_lookup"]
	node := func(host, role, family string) map[string]tftypes.Value {
		return map[string]tftypes.Value{
			"facts": object6(map[string]tftypes.Value{"hostname": str6(host), "role": str6(role), "os": object6(map[string]tftypes.Value{"family": str6(family)})}),
			"scope": object6(map[string]tftypes.Value{"trusted": object6(map[string]tftypes.Value{"certname": str6(host + ".example.com")})}),
		}
	}
	nodes := []map[string]tftypes.Value{
		node("web01", "web", "Debian"), node("db01", "db", "RedHat"), node("web02", "web", "RedHat"),
		{"facts": node("web01", "web", "Debian")["facts"], "scope": node("db01", "db", "RedHat")["scope"]}, // same facts, other scope
		{"facts": object6(map[string]tftypes.Value{"role": str6("web")})},                                  // scope from the provider
		{"scope": object6(map[string]tftypes.Value{"environment": str6("staging")})},                       // facts from the provider
		{"facts": str6("web")}, // not an object
		{"facts": object6(map[string]tftypes.Value{"role": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)})}, // not known yet
		{"facts_file": str6(web01)},
		{"facts_file": str6(db01)},
		{"facts_file": str6(web01), "facts": object6(map[string]tftypes.Value{"role": str6("db")})}, // facts over the file's
		{"facts_file": str6(db01), "scope": node("web01", "web", "Debian")["scope"]},
		{"facts_file": str6(filepath.Join(dir, "missing.json"))},
		{"facts_file": str6(dir)}, // a directory
		{"facts_file": str6(broken)},
	}
	for round := range 2 {
		for _, key := range []string{"greeting", "tags", "profile::users", "packages"} {
			for i, n := range nodes {
				attrs := map[string]tftypes.Value{"key": str6(key)}
				for k, v := range n {
					attrs[k] = v
				}
				t.Run(strings.Join([]string{key, strconv.Itoa(i), strconv.Itoa(round)}, "/"), func(t *testing.T) {
					compareServers(ctx, t, direct, fw, "hiera_lookup", ds, attrs)
				})
			}
		}
	}
}

// A new provider configuration (new facts) is seen by data sources whose own facts are unchanged.
func TestServer_sharedFactsReconfigured(t *testing.T) {
	ctx := context.Background()
	direct, _, providerType := configuredPair(t)
	ds := direct.dataSources["hiera_lookup"]
	cfg := encodeConfig(t, ds.typ, map[string]tftypes.Value{"key": str6("tags"), "default_value": str6("none"),
		"scope": object6(map[string]tftypes.Value{"trusted": object6(map[string]tftypes.Value{"certname": str6("db01.example.com")})})})
	for _, role := range []string{"web", "db", "web"} {
		provider := providerConfigs()["config"]
		provider["facts"] = object6(map[string]tftypes.Value{"role": str6(role), "os": object6(map[string]tftypes.Value{"family": str6("RedHat")})})
		configure(t, direct, providerType, provider)
		resp, err := direct.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: "hiera_lookup", Config: &cfg})
		if err != nil || len(resp.Diagnostics) > 0 {
			t.Fatalf("ReadDataSource: %v %v", err, resp.Diagnostics[0].Summary+": "+resp.Diagnostics[0].Detail)
		}
		state, err := resp.State.Unmarshal(ds.typ)
		if err != nil {
			t.Fatal(err)
		}
		var attrs map[string]tftypes.Value
		var js string
		if err := state.As(&attrs); err != nil || attrs["json"].As(&js) != nil {
			t.Fatalf("state: %v", state)
		}
		if want := map[string]string{"web": `{"tier":"web"}`, "db": `"none"`}[role]; js != want {
			t.Errorf("role %s: json = %s, want %s", role, js, want)
		}
	}
}

// The cache is bounded in entries and in bytes; full, it starts over.
func TestScopeCacheBounds(t *testing.T) {
	var c scopeCache
	first := &scopeArgs{}
	c.put([]byte("first"), nil, first)
	if got := c.put([]byte("first"), nil, &scopeArgs{}); got != first {
		t.Error("a second conversion of the same bytes replaced the first")
	}
	for i := range maxScopeEntries {
		c.put([]byte{byte(i), byte(i >> 8), byte(i >> 16), 1}, nil, &scopeArgs{})
	}
	if len(c.entries) > maxScopeEntries || c.get([]byte("first")) != nil {
		t.Errorf("%d entries, first kept: %v", len(c.entries), c.get([]byte("first")) != nil)
	}
	huge := make([]byte, maxScopeBytes+1)
	c.put(huge, nil, &scopeArgs{})
	if c.get(huge) != nil || c.bytes > maxScopeBytes {
		t.Errorf("an entry past the byte bound was kept (%d bytes)", c.bytes)
	}
	c.put([]byte("small key, large facts file"), &factsFile{size: maxScopeBytes + 1, facts: model.NewHash(0)}, &scopeArgs{})
	if c.get([]byte("small key, large facts file")) != nil || c.bytes > maxScopeBytes {
		t.Errorf("an entry weighing more than the byte bound was kept (%d bytes)", c.bytes)
	}
	if c.get(nil) != nil {
		t.Error("nil key found")
	}
}

// An entry keeps its facts file's facts: the cache counts the file's bytes as well as the keys',
// once however many entries keep it (data sources naming one file with their own facts, read past
// the interval after which the file is looked at again), so a fleet of large facts files starts the
// cache over as large facts written in HCL do.
func TestScopeCacheWeighsFactsFiles(t *testing.T) {
	facts := `{"hostname": "web01", "packages": "` + strings.Repeat("x", 10000) + `"}`
	dir := writeCase(t, map[string]string{"web01.json": facts, "db01.json": facts, "broken.json": "{"})
	direct, _, _ := configuredPair(t)
	typ := direct.dataSources["hiera_lookup"].typ
	files := newFactsFileCache()
	now := time.Now()
	files.now = func() time.Time { return now }
	var c scopeCache
	want := 0
	for _, tc := range []struct {
		file, role string
		fileBytes  int
	}{
		{"web01.json", "web", len(facts)},
		{"web01.json", "db", 0}, // counted already
		{"web01.json", "ops", 0},
		{"db01.json", "web", len(facts)},
		{"broken.json", "web", 0},
		{"missing.json", "web", 0},
	} {
		cfg := encodeConfig(t, typ, map[string]tftypes.Value{"key": str6("k"), "facts_file": str6(filepath.Join(dir, tc.file)),
			"facts": object6(map[string]tftypes.Value{"role": str6(tc.role)})})
		now = now.Add(time.Second) // past hiera.StampCheckInterval: the file is looked at again
		key, file := scopeKey(cfg.MsgPack, files)
		c.put(key, file, &scopeArgs{})
		if want += len(key) + tc.fileBytes; c.bytes != want {
			t.Errorf("%s, role %s: the cache counts %d bytes, want %d (the key's %d and the file's %d)", tc.file, tc.role, c.bytes, want, len(key), tc.fileBytes)
		}
	}
}
