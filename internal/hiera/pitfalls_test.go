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
