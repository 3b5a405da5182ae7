package hiera_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
)

// Errors Puppet words without a file name the data file, the entry and what would do; Puppet's
// message stays whole in Message.
func TestLocate_optionsAndMergeErrors(t *testing.T) {
	t.Parallel()
	e, dir := layeredEngine(t, files{
		"hiera.yaml": `version: 5
hierarchy:
  - name: "Per role"
    path: "roles/web.yaml"
  - name: "Common"
    path: "common.yaml"
`,
		"data/roles/web.yaml":                                     "users: [carol]\nlist_or_hash: [x]\nlookup_options:\n  ntp::servers:\n    merge: uniq\n  '^profile::.*':\n    merge: {strategy: deeep}\n",
		"data/common.yaml":                                        "ntp::servers: [a]\nprofile::x: 1\nusers: [alice, bob]\nlist_or_hash: {a: 1}\n",
		"environments/production/hiera.yaml":                      level5,
		"environments/production/modules/apache/hiera.yaml":       level5,
		"environments/production/modules/apache/data/common.yaml": "lookup_options:\n  apache::a: {merge: deep}\n  ntp::port: {merge: first}\napache::a: 1\n",
	})
	role, common := filepath.Join(dir, "data/roles/web.yaml"), filepath.Join(dir, "data/common.yaml")
	for name, tc := range map[string]struct {
		req                  hiera.Request
		message, level, file string
		hint                 string
	}{
		"merge uniq": {hiera.Request{Key: "ntp::servers"}, "Unknown merge strategy: 'uniq'", "Per role", role,
			`In the lookup_options entry "ntp::servers": merge must be one of first, unique, hash, deep`},
		"pattern's strategy": {hiera.Request{Key: "profile::x"}, "Unknown merge strategy: 'deeep'", "Per role", role,
			`In the lookup_options entry "^profile::.*": merge must be one of first, unique, hash, deep`},
		"foreign module options": {hiera.Request{Key: "apache::a"}, "all lookup_options keys must start with module name 'apache'", "common",
			filepath.Join(dir, "environments/production/modules/apache/data/common.yaml"),
			`The lookup_options key "ntp::port" is not module "apache"'s own: a module's data may only give lookup_options for keys starting with "apache::" (patterns "^apache::"); options for other keys belong in the environment's or the global data`},
		"hiera_hash on arrays": {hiera.Request{Key: "users", Function: hiera.FuncHash}, "The first element of the merge has wrong type, expects a Hash value, got Tuple", "Per role", role,
			`The hash merge takes hashes only, and "users" holds an array in ` + role + `, an array in ` + common + `: hiera_hash merges hashes; use hiera_array for arrays, or hiera_lookup for a value of any type`},
		"hiera_array on a hash": {hiera.Request{Key: "list_or_hash", Function: hiera.FuncArray}, "", "Common", common,
			`The unique merge takes arrays and scalars only, and "list_or_hash" holds a hash in ` + common + `: hiera_array merges arrays; use hiera_hash for hashes, or hiera_lookup for a value of any type`},
	} {
		he := mustFail(t, e, tc.req)
		if tc.message != "" && he.Message != tc.message {
			t.Errorf("%s: message %q, want Puppet's %q", name, he.Message, tc.message)
		}
		if he.Level != tc.level || he.File != tc.file || he.Hint != tc.hint {
			t.Errorf("%s: level %q file %q hint %q,\nwant %q %q %q", name, he.Level, he.File, he.Hint, tc.level, tc.file, tc.hint)
		}
		if name == "hiera_hash on arrays" && !errors.Is(he, merge.ErrMergeType) {
			t.Errorf("%s: not a merge type error", name)
		}
	}
}
