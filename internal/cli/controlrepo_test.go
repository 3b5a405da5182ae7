package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A small control repository in git, written for these tests: an environment "production" with
// node, role, eyaml secrets, OS and common levels, lookup_options (deep, unique, hash merges), a
// module with data (ntp), and six nodes' facts. Its second commit makes the kinds of edits a
// review meets, each with the changes it must cause (controlRepoChanges):
//
//   - a role's value (profile::web::port 80 -> 8080; web03 overrides it and does not change);
//   - a common value some roles override (profile::base::timezone; the db role keeps its own);
//   - deep-merged subkeys (profile::users.alice.shell changed, .bob.groups added by the web role);
//   - a unique-merged array (profile::packages: git added in common);
//   - lookup_options alone (profile::limits merges hashes: db nodes gain nofile, no data line moved);
//   - module data (ntp::servers in the ntp module; the db role overrides it);
//   - a file renamed out of the hierarchy (os/RedHat.yaml -> os/Redhat.yaml: RedHat nodes lose it);
//   - a file renamed where no level reads it, a comment-only edit: no change;
//   - a key added (profile::web::tls) and one removed (profile::base::motd);
//   - a key that interpolates a changed key, itself unchanged (profile::base::banner);
//   - an eyaml secret changed (db role) and one re-encrypted with the same value (web role).
//
// It also holds what hieraform unused finds at its second commit (controlRepoUnused): files no
// level reaches (the renamed ones), a module key the environment overrides for every node
// (ntp::driftfile), values equal to what they override (web03's time zone, the db role's alice).
type controlRepo struct {
	dir, envpath, facts string
	commit              func(message string)
}

// controlRepoSecrets are the plaintexts of the fixture's secrets: no output may show them.
var controlRepoSecrets = []string{"héllo wörld", "line one"}

func newControlRepo(t *testing.T) *controlRepo {
	t.Helper()
	dir := t.TempDir()
	r := &controlRepo{dir: dir, envpath: filepath.Join(dir, "environments"), facts: filepath.Join(dir, "facts")}
	vectors := func(name string) string {
		b, err := os.ReadFile(filepath.Join("..", "eyaml", "testdata", "vectors", name))
		must(t, err)
		return strings.TrimSpace(string(b))
	}
	var values map[string]string
	readJSON(t, filepath.Join("..", "eyaml", "testdata", "hiera", "values.json"), &values)
	env := "environments/production/"
	write := func(files map[string]string) {
		for rel, text := range files {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			must(t, os.WriteFile(p, []byte(text), 0o644))
		}
	}
	write(map[string]string{
		env + "hiera.yaml": `version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: nodes
    path: "nodes/%{trusted.certname}.yaml"
  - name: roles
    path: "roles/%{facts.role}.yaml"
  - name: secrets
    lookup_key: eyaml_lookup_key
    path: "secrets/%{facts.role}.eyaml"
    options:
      pkcs7_private_key: keys/private_key.pkcs7.pem
      pkcs7_public_key: keys/public_key.pkcs7.pem
  - name: os
    path: "os/%{facts.os.family}.yaml"
  - name: common
    path: common.yaml
`,
		env + "keys/private_key.pkcs7.pem": readFixtureFile(t, "keys/private_key.pkcs7.pem"),
		env + "keys/public_key.pkcs7.pem":  readFixtureFile(t, "keys/public_key.pkcs7.pem"),
		env + "data/common.yaml": `lookup_options:
  profile::users:
    merge: deep
  profile::packages:
    merge: unique
profile::base::timezone: UTC
profile::base::motd: Welcome
profile::base::banner: "time zone %{lookup('profile::base::timezone')}"
profile::users:
  alice:
    uid: 1001
    shell: /bin/bash
profile::packages: [vim, curl]
profile::limits:
  nofile: 1024
ntp::driftfile: /var/ntp/drift
`,
		env + "data/roles/web.yaml":               "profile::web::port: 80\nprofile::users:\n  bob:\n    uid: 1002\n",
		env + "data/roles/db.yaml":                "profile::base::timezone: America/New_York\nprofile::limits:\n  nproc: 4096\nntp::servers: [ntp.db.example.com]\n",
		env + "data/nodes/web03.example.com.yaml": "profile::web::port: 443\n",
		env + "data/os/Debian.yaml":               "profile::packages: [apt-transport-https]\n",
		env + "data/os/RedHat.yaml":               "profile::packages: [yum-utils]\nprofile::base::selinux: enforcing\n",
		env + "data/secrets/db.eyaml":             "profile::db::password: " + vectors("multiline.enc") + "\n",
		env + "data/secrets/web.eyaml":            "profile::web::key: " + values["string_short"] + "\n",
		env + "data/old/legacy.yaml":              "legacy::key: 1\n",
		env + "modules/ntp/hiera.yaml":            "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
		env + "modules/ntp/data/common.yaml":      "ntp::servers: [0.pool.ntp.org, 1.pool.ntp.org]\n",
		"facts/web01.example.com.json":            `{"clientcert": "web01.example.com", "role": "web", "os": {"family": "Debian"}}`,
		"facts/web02.example.com.json":            `{"clientcert": "web02.example.com", "role": "web", "os": {"family": "Debian"}}`,
		"facts/web03.example.com.json":            `{"clientcert": "web03.example.com", "role": "web", "os": {"family": "RedHat"}}`,
		"facts/db01.example.com.json":             `{"clientcert": "db01.example.com", "role": "db", "os": {"family": "RedHat"}}`,
		"facts/db02.example.com.json":             `{"clientcert": "db02.example.com", "role": "db", "os": {"family": "Debian"}}`,
		"facts/app01.example.com.yaml":            "clientcert: app01.example.com\nrole: app\nos:\n  family: Debian\n",
		"README.md":                               "a control repository\n",
		env + "environment.conf":                  "modulepath = modules\n",
		env + "modules/ntp/manifests/init.pp":     "class ntp($servers) {}\n",
	})
	r.commit = gitRepo(t, dir)
	// The second commit.
	write(map[string]string{
		env + "data/common.yaml": `# Common data: every node reads it.
lookup_options:
  profile::users:
    merge: deep
  profile::packages:
    merge: unique
  profile::limits:
    merge: hash
profile::base::timezone: Europe/Berlin
profile::base::banner: "time zone %{lookup('profile::base::timezone')}"
profile::users:
  alice:
    uid: 1001
    shell: /bin/zsh
profile::packages: [vim, curl, git]
profile::limits:
  nofile: 1024
ntp::driftfile: /var/ntp/drift
`,
		env + "data/roles/web.yaml": "profile::web::port: 8080\nprofile::web::tls: true\nprofile::users:\n  bob:\n    uid: 1002\n    groups: [www]\n",
		env + "data/roles/db.yaml": "# the db role\nprofile::base::timezone: America/New_York # kept\nprofile::limits:\n  nproc: 4096\n" +
			"ntp::servers: [ntp.db.example.com]\nprofile::users:\n  alice:\n    uid: 1001\n",
		env + "data/nodes/web03.example.com.yaml": "profile::web::port: 443\nprofile::base::timezone: Europe/Berlin\n",
		env + "data/secrets/db.eyaml":             "profile::db::password: " + vectors("unicode.enc") + "\n",
		env + "data/secrets/web.eyaml":            "profile::web::key: " + values["block_short"] + "\n",
		env + "modules/ntp/data/common.yaml":      "ntp::servers: [0.pool.ntp.org, 1.pool.ntp.org, 2.pool.ntp.org]\nntp::driftfile: /var/lib/ntp/drift\n",
	})
	must(t, os.Rename(filepath.Join(dir, env, "data/os/RedHat.yaml"), filepath.Join(dir, env, "data/os/Redhat.yaml")))
	must(t, os.MkdirAll(filepath.Join(dir, env, "data/attic"), 0o755))
	must(t, os.Rename(filepath.Join(dir, env, "data/old/legacy.yaml"), filepath.Join(dir, env, "data/attic/legacy.yaml")))
	r.commit("second")
	return r
}

func readFixtureFile(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "eyaml", "testdata", filepath.FromSlash(rel)))
	must(t, err)
	return string(b)
}

// controlRepoChanges are the changes between the two commits: key -> "old -> new" as the JSON
// shows them -> the nodes, sorted. A secret's change has no values: "secret".
var controlRepoChanges = map[string]map[string][]string{
	"profile::base::motd":        {`"Welcome" -> -`: {"app01", "db01", "db02", "web01", "web02", "web03"}},
	"profile::base::timezone":    {`"UTC" -> "Europe/Berlin"`: {"app01", "web01", "web02", "web03"}},
	"profile::base::banner":      {`"time zone UTC" -> "time zone Europe/Berlin"`: {"app01", "web01", "web02", "web03"}},
	"profile::users.alice.shell": {`"/bin/bash" -> "/bin/zsh"`: {"app01", "db01", "db02", "web01", "web02", "web03"}},
	"profile::users.bob.groups":  {`- -> ["www"]`: {"web01", "web02", "web03"}},
	"profile::packages": {
		`["apt-transport-https","vim","curl"] -> ["apt-transport-https","vim","curl","git"]`: {"app01", "db02", "web01", "web02"},
		`["yum-utils","vim","curl"] -> ["vim","curl","git"]`:                                 {"db01", "web03"},
	},
	"profile::base::selinux": {`"enforcing" -> -`: {"db01", "web03"}},
	"profile::limits.nofile": {`- -> 1024`: {"db01", "db02"}},
	"profile::web::port":     {`80 -> 8080`: {"web01", "web02"}},
	"profile::web::tls":      {`- -> true`: {"web01", "web02", "web03"}},
	"profile::db::password":  {`secret`: {"db01", "db02"}},
	"ntp::servers": {`["0.pool.ntp.org","1.pool.ntp.org"] -> ["0.pool.ntp.org","1.pool.ntp.org","2.pool.ntp.org"]`: {
		"app01", "web01", "web02", "web03"}},
}

// controlRepoUnused is what hieraform unused finds at the second commit, as its table shows it.
var controlRepoUnused = []string{
	"data/attic/legacy.yaml: unreached_file: no node reaches this file",
	"data/nodes/web03.example.com.yaml:2: redundant: profile::base::timezone is redundant: without it, the node it gives a value to would get the same",
	"data/os/Redhat.yaml: unreached_file: no node reaches this file",
	"data/roles/db.yaml:6: redundant: profile::users is redundant: without it, each of the 2 nodes it gives a value to would get the same",
	"modules/ntp/data/common.yaml:2: overridden_key: ntp::driftfile gives no node its value (6 nodes reach the file)",
}

// fleetDiffJSON is the contract's JSON of a fleet diff.
type fleetDiffJSON struct {
	Summary string `json:"summary"`
	Keys    []struct {
		Key     string `json:"key"`
		Secret  bool   `json:"secret"`
		Changes []struct {
			Old   json.RawMessage `json:"old"`
			New   json.RawMessage `json:"new"`
			Count int             `json:"count"`
			Nodes []string        `json:"nodes"`
		} `json:"changes"`
	} `json:"keys"`
	Failed []struct {
		Node, Side, Key, Reason string
	} `json:"failed"`
}

// groups is the JSON's changes in controlRepoChanges' form, node names shortened to the host.
func (d fleetDiffJSON) groups(t *testing.T) map[string]map[string][]string {
	t.Helper()
	out := map[string]map[string][]string{}
	side := func(raw json.RawMessage) string {
		if raw == nil {
			return "-"
		}
		return string(raw)
	}
	for _, k := range d.Keys {
		out[k.Key] = map[string][]string{}
		for _, c := range k.Changes {
			change := side(c.Old) + " -> " + side(c.New)
			if k.Secret {
				if c.Old != nil || c.New != nil {
					t.Errorf("%s: a secret's change carries values: %s", k.Key, change)
				}
				change = "secret"
			}
			var hosts []string
			for _, n := range c.Nodes {
				hosts = append(hosts, strings.TrimSuffix(n, ".example.com"))
			}
			if c.Count != len(c.Nodes) {
				t.Errorf("%s %s: count %d, %d nodes", k.Key, change, c.Count, len(c.Nodes))
			}
			out[k.Key][change] = hosts
		}
	}
	return out
}
