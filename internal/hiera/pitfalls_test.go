package hiera_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// Silent traps are reported when asked for, and the answers stay Puppet's.
func TestPitfalls(t *testing.T) {
	t.Parallel()
	e, dir := layeredEngine(t, files{
		"hiera.yaml": `version: 5
hierarchy:
  - name: "Per node"
    path: "nodes/%{trusted.certname}.yaml"
  - name: "Per role"
    path: "roles/%{facts.role}.yaml"
  - name: "Per OS"
    path: "os/%{os.family}.yaml"
  - name: "Common"
    path: "common.yaml"
`,
		"data/common.yaml":                                     "motd: \"Welcome to %{facts.location}, %{hostname}\"\nplain: 1\nntp::servers: [a]\n",
		"data/roles/.yaml":                                     "plain: from the empty role\n", // what an unset role reads, as in Puppet
		"environments/production/hiera.yaml":                   level5,
		"environments/production/modules/ntp/data/common.yaml": "ntp::servers: [b]\n",
	})
	scope := scopeOf(t, map[string]any{"os.family": "Debian", "hostname": "web01"}, map[string]any{"trusted": map[string]any{"certname": "web01"}})
	rolePitfall := `The hierarchy level "Per role" (` + filepath.Join(dir, "hiera.yaml") + `) interpolates %{facts.role} in "roles/%{facts.role}.yaml", which is not set`
	osPitfall := `The hierarchy level "Per OS" (` + filepath.Join(dir, "hiera.yaml") + `) interpolates %{os.family} in "os/%{os.family}.yaml", which is not set`
	dotted := `The fact "os.family" has a dot in its name: %{facts.os.family} reads the fact "os" and its key "family", never this fact, as in Puppet. Give it nested instead (facts = { os = { family = ... } }).`
	for key, tc := range map[string]struct {
		value any
		want  []string
	}{
		"plain": {"from the empty role", []string{dotted, rolePitfall, osPitfall}},
		"motd":  {"Welcome to , web01", []string{`The value of "motd" interpolates %{facts.location}, which is not set: it became an empty string`, dotted, rolePitfall, osPitfall}},
		"ntp::servers": {[]any{"a"}, []string{dotted, rolePitfall, osPitfall, `Module "ntp" has a data directory (` +
			filepath.Join(dir, "environments/production/modules/ntp/data") + `) but no hiera.yaml`}},
	} {
		for range 2 { // the second lookup answers from the caches, with the same pitfalls
			res := mustFind(t, e, hiera.Request{Key: key, Scope: scope, Pitfalls: true})
			if !cmp.Equal(res.Value, tc.value) {
				t.Errorf("%s: value %v, want %v", key, res.Value, tc.value)
			}
			for _, w := range tc.want {
				if !strings.Contains(strings.Join(res.Pitfalls, "\n"), w) {
					t.Errorf("%s: pitfalls\n%s\nlack %q", key, strings.Join(res.Pitfalls, "\n"), w)
				}
			}
			if len(res.Pitfalls) != len(tc.want) {
				t.Errorf("%s: %d pitfalls, want %d:\n%s", key, len(res.Pitfalls), len(tc.want), strings.Join(res.Pitfalls, "\n"))
			}
		}
		if res := mustFind(t, e, hiera.Request{Key: key, Scope: scope}); res.Pitfalls != nil {
			t.Errorf("%s: pitfalls not asked for: %q", key, res.Pitfalls)
		}
	}
	// A scope that sets everything has none.
	full := scopeOf(t, map[string]any{"role": "web", "location": "pdx", "hostname": "web01", "os": map[string]any{"family": "Debian"}},
		map[string]any{"trusted": map[string]any{"certname": "web01"}})
	if res := mustFind(t, e, hiera.Request{Key: "motd", Scope: full, Pitfalls: true}); len(res.Pitfalls) != 0 {
		t.Errorf("full scope: %q", res.Pitfalls)
	}
}

// A node read gathers the pitfalls of all its keys, each once, as the provider's hiera_node and
// every hieraform command report them; facts as Facter 4 prints them give the certname from
// networking.fqdn, said in a pitfall.
func TestPitfallsOfANode(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{
		"hiera.yaml": `version: 5
hierarchy:
  - name: "Per node"
    path: "nodes/%{trusted.certname}.yaml"
  - name: "Per datacenter"
    path: "dc/%{facts.datacenter}.yaml"
  - name: "Common"
    path: "common.yaml"
`,
		"data/nodes/web01.example.com.yaml": "role: web\n",
		"data/common.yaml":                  "rack: \"rack %{facts.datacentre}\"\nmotd: \"%{lookup('rack')} at %{facts.datacentre}\"\nplain: 1\n",
	})
	config := filepath.Join(dir, "hiera.yaml")
	facter4 := scopeOf(t, map[string]any{"networking": map[string]any{"fqdn": "WEB01.example.com", "hostname": "web01"}}, nil)
	res, err := e.LookupNode(t.Context(), hiera.NodeRequest{Scope: facter4, Pitfalls: true})
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]any{}
	for _, a := range res.Answers {
		values[a.Key] = a.Result.Value
		if a.Result.Pitfalls != nil {
			t.Errorf("%s: the answer carries pitfalls (they are the node's)", a.Key)
		}
	}
	if !cmp.Equal(values, map[string]any{"role": "web", "rack": "rack ", "motd": "rack  at ", "plain": int64(1)}) {
		t.Errorf("values %v", values)
	}
	want := []string{
		hiera.CertnameFromFQDNNote("web01.example.com"),
		`The hierarchy level "Per datacenter" (` + config + `) interpolates %{facts.datacenter} in "dc/%{facts.datacenter}.yaml", which is not set`,
		`The value of "rack" interpolates %{facts.datacentre}, which is not set`,
		`The value of "motd" interpolates %{facts.datacentre}, which is not set`,
	}
	got := strings.Join(res.Pitfalls, "\n")
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("pitfalls\n%s\nlack %q", got, w)
		}
	}
	if len(res.Pitfalls) != len(want) {
		t.Errorf("%d pitfalls, want %d:\n%s", len(res.Pitfalls), len(want), got)
	}
	// Not asked for: none. A certname given (or a clientcert fact): no note about it.
	if res, _ := e.LookupNode(t.Context(), hiera.NodeRequest{Scope: facter4}); res.Pitfalls != nil {
		t.Errorf("not asked for: %q", res.Pitfalls)
	}
	named := scopeOf(t, map[string]any{"clientcert": "web01.example.com", "datacenter": "ams", "datacentre": "ams",
		"networking": map[string]any{"fqdn": "other.example.com"}}, nil)
	if res, _ := e.LookupNode(t.Context(), hiera.NodeRequest{Scope: named, Pitfalls: true}); len(res.Pitfalls) != 0 || len(res.Answers) != 4 {
		t.Errorf("a named node: %d answers, pitfalls %q", len(res.Answers), res.Pitfalls)
	}
}
