package hiera_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

func explainMiss(t *testing.T, e *hiera.Engine, req hiera.Request) hiera.Miss {
	t.Helper()
	if res, err := lookup(t, e, req); err != nil || res.Found {
		t.Fatalf("lookup %q: found=%v err=%v, want a miss", req.Key, res.Found, err)
	}
	m, err := e.ExplainMiss(context.Background(), req)
	if err != nil {
		t.Fatalf("ExplainMiss %q: %v", req.Key, err)
	}
	return m
}

// A miss names every file the key's hierarchy names for the node, in search order, with its layer
// and level, whether it exists and has the key; and the nearest keys of the files it reached.
func TestExplainMiss_files(t *testing.T) {
	t.Parallel()
	e, dir := layeredEngine(t, files{
		"hiera.yaml": `version: 5
hierarchy:
  - name: "Per-node"
    path: "nodes/%{trusted.certname}.yaml"
  - name: "Secrets"
    path: "secrets/x.yaml"
  - name: "Common"
    path: "common.yaml"
`,
		"secrets/x.yaml":                           "db_password: wrong place\n", // beside data/, not in it
		"data/common.yaml":                         "ntp::servers: [a, b, c]\nusers: {alice: {uid: 1}, bob: {uid: 2}}\nprofile::ntp::servers: [x]\n",
		"environments/production/hiera.yaml":       level5,
		"environments/production/data/common.yaml": "env_key: 1\n",
	})
	scope := scopeOf(t, nil, map[string]any{"trusted": map[string]any{"certname": "web01"}})
	m := explainMiss(t, e, hiera.Request{Key: "db_password", Scope: scope})
	want := []hiera.MissFile{
		{Source: hiera.Source{Layer: "global", Level: "Per-node", File: filepath.Join(dir, "data/nodes/web01.yaml")}},
		{Source: hiera.Source{Layer: "global", Level: "Secrets", File: filepath.Join(dir, "data/secrets/x.yaml")}},
		{Source: hiera.Source{Layer: "global", Level: "Common", File: filepath.Join(dir, "data/common.yaml")}, Exists: true},
		{Source: hiera.Source{Layer: "environment", Level: "common", File: filepath.Join(dir, "environments/production/data/common.yaml")}, Exists: true},
	}
	if diff := cmp.Diff(want, m.Files); diff != "" || m.FileCount != 4 {
		t.Errorf("files (-want +got, count %d):\n%s", m.FileCount, diff)
	}
	if len(m.Suggestions) != 0 || m.Root != nil {
		t.Errorf("db_password: suggestions %q, root %+v: want none", m.Suggestions, m.Root)
	}

	for key, want := range map[string][]string{
		"ntp::server":           {"ntp::servers"},
		"NTP::Servers":          {"ntp::servers"},
		"servers":               {"ntp::servers", "profile::ntp::servers"}, // the class prefix forgotten
		"ntp::servers_list":     nil,
		"profile::ntp::server":  {"profile::ntp::servers"},
		"user":                  {"users"},
		"env_kye":               {"env_key"},
		"ntp::servers2.0":       {"ntp::servers"},
		"completely::unrelated": nil,
	} {
		m := explainMiss(t, e, hiera.Request{Key: key, Scope: scope})
		if diff := cmp.Diff(want, m.Suggestions); diff != "" {
			t.Errorf("%s: suggestions (-want +got):\n%s", key, diff)
		}
	}
}

// A dotted key whose root is found says so, where, and what is missing; details of a secret are
// withheld.
func TestExplainMiss_root(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{
		"hiera.yaml":       simpleConfig,
		"data/common.yaml": "ntp::servers: [a, b, c]\nusers: {alice: {uid: 1}, bob: {uid: 2}}\nempty: []\nnothing: ~\nh: {}\n",
	})
	common := []hiera.Source{{Layer: "global", Level: "common", File: filepath.Join(dir, "data/common.yaml")}}
	for key, want := range map[string]string{
		"ntp::servers.5":  "ntp::servers is an array of 3 elements (indexes 0 to 2): it has no index 5.",
		"ntp::servers.-1": "ntp::servers is an array of 3 elements (indexes 0 to 2): it has no index -1.",
		"users.bobb.uid":  `users is a hash without the key "bobb" (its keys: "alice", "bob"). Did you mean "bob"?`,
		"users.bob.gid":   `users.bob is a hash without the key "gid" (its keys: "uid").`,
		"empty.0":         "empty is an empty array: it has no index 0.",
		"nothing.x":       `nothing is null (~), so it has no "x".`,
		"h.x":             `h is an empty hash: it has no key "x".`,
	} {
		m := explainMiss(t, e, hiera.Request{Key: key})
		if m.Root == nil {
			t.Errorf("%s: no root", key)
			continue
		}
		if m.Root.Missing != want || m.Root.Key != strings.SplitN(key, ".", 2)[0] || !cmp.Equal(m.Root.Sources, common) {
			t.Errorf("%s: root %+v, want missing %q from %v", key, *m.Root, want, common)
		}
	}

	// A secret's shape is not described.
	se, _ := eyamlEngine(t, eyamlConfig, "app:\n  user: app\n  key: "+encrypt(t, "TOPSECRET-x")+"\n", "")
	m := explainMiss(t, se, hiera.Request{Key: "app.missing"})
	if m.Root == nil || m.Root.Missing != `app has no "missing" (details withheld: the value is secret).` {
		t.Errorf("secret root: %+v", m.Root)
	}
	if strings.Contains(fmt.Sprint(m), "TOPSECRET") || strings.Contains(fmt.Sprint(m), "user") {
		t.Errorf("the miss describes the secret: %+v", m)
	}
}

// A module with data but no hiera.yaml, and a module that is not there, are named.
func TestExplainMiss_moduleNotes(t *testing.T) {
	t.Parallel()
	e, dir := layeredEngine(t, files{
		"environments/production/hiera.yaml":                   level5,
		"environments/production/data/common.yaml":             "x: 1\n",
		"environments/production/modules/ntp/data/common.yaml": "ntp::servers: [a]\n",
	})
	m := explainMiss(t, e, hiera.Request{Key: "ntp::servers"})
	want := `Module "ntp" has a data directory (` + filepath.Join(dir, "environments/production/modules/ntp/data") + `) but no hiera.yaml`
	if len(m.Notes) != 1 || !strings.HasPrefix(m.Notes[0], want) {
		t.Errorf("notes %q, want one starting %q", m.Notes, want)
	}
	m = explainMiss(t, e, hiera.Request{Key: "apache::port"})
	if len(m.Notes) != 1 || m.Notes[0] != `No module "apache" is in the modulepath, so the module layer has no data for "apache::port".` {
		t.Errorf("notes %q", m.Notes)
	}
}

// The search for near keys compares a bounded number of keys however many the data holds.
func TestExplainMiss_suggestionsBounded(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 30000 {
		fmt.Fprintf(&b, "key_%d: %d\n", i, i)
	}
	e, _ := newEngine(t, files{"hiera.yaml": simpleConfig, "data/common.yaml": b.String()})
	m := explainMiss(t, e, hiera.Request{Key: "key_x"})
	if n := hiera.MissCompared(m); n != 10000 {
		t.Errorf("compared %d keys, want the bound 10000", n)
	}
	m = explainMiss(t, e, hiera.Request{Key: "kex_12"})
	if !cmp.Equal(m.Suggestions, []string{"key_12"}) {
		t.Errorf("suggestions %q", m.Suggestions)
	}
}
