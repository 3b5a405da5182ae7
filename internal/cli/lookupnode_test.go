package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// puppetLookupRepo is a hierarchy with a node level, a probe of the names a node gets, and facts
// files: as Facter 4's facter -j prints them (no hostname, domain, fqdn or clientcert at the top),
// with all four of those, and with some of them.
func puppetLookupRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	networking := `"networking": {"fqdn": "web01.example.com", "hostname": "web01", "domain": "example.com"}`
	for rel, text := range map[string]string{
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml": "where: common\nprobe:\n  cert: \"%{trusted.certname}\"\n  thost: \"%{trusted.hostname}\"\n  host: \"%{facts.hostname}\"\n" +
			"  fqdn: \"%{facts.fqdn}\"\n  clientcert: \"%{facts.clientcert}\"\n  nf: \"%{facts.networking.fqdn}\"\n",
		"data/nodes/web01.example.com.yaml": "where: node\n",
		"facter4.json":                      `{` + networking + `, "os": {"family": "Debian"}}`,
		"named.json": `{` + networking + `, "hostname": "legacyhost", "domain": "example.org", "fqdn": "legacy.example.org", ` +
			`"clientcert": "cc.example.net"}`,
		"partial.json": `{` + networking + `, "hostname": "web01", "fqdn": "web01.example.com"}`,
	} {
		p := filepath.Join(dir, rel)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return dir
}

// `hieraform lookup --node NAME --facts FILE`: NAME is the trusted certname (the contract's --node,
// as the shared clicheck runs the corpus), the file's facts are kept and the name facts it lacks
// come from NAME. Where puppet lookup 7.23 answers otherwise (it takes the node's trusted
// information from the file's name facts only, gives none for a Facter 4 file, refuses a file with
// some of them), a warning says what it would do. --hiera_config is puppet lookup's --config.
func TestLookupNodeAsPuppetLookup(t *testing.T) {
	dir := puppetLookupRepo(t)
	config := filepath.Join(dir, "hiera.yaml")
	for _, tc := range []struct {
		facts, key, want, warning string
	}{
		{"facter4.json", "probe", `{"cert":"web01.example.com","thost":"web01","host":"web01","fqdn":"web01.example.com","clientcert":"web01.example.com","nf":"web01.example.com"}`,
			"has none of the facts hostname, domain, fqdn, clientcert: they are taken from --node web01.example.com. puppet lookup --node would give the node no trusted.certname"},
		{"facter4.json", "where", `"node"`, "puppet lookup --node would give"},
		{"named.json", "probe", `{"cert":"web01.example.com","thost":"web01","host":"legacyhost","fqdn":"legacy.example.org","clientcert":"cc.example.net","nf":"web01.example.com"}`,
			`trusted.certname is --node web01.example.com, not the facts file's clientcert fact "cc.example.net"`},
		{"partial.json", "where", `"node"`, "has hostname, fqdn but not all of hostname, domain, fqdn, clientcert: the others are taken from --node web01.example.com. puppet lookup refuses such a file"},
	} {
		args := []string{"lookup", tc.key, "--hiera_config", config, "--node", "web01.example.com", "--facts", filepath.Join(dir, tc.facts), "--render-as", "json"}
		rc, out, errOut := run(t, args...)
		if rc != 0 || strings.TrimSpace(out) != tc.want || !strings.Contains(errOut, tc.warning) {
			t.Errorf("%s %s: exit %d, stdout %s, stderr %s; want %s and a warning %q", tc.facts, tc.key, rc, out, errOut, tc.want, tc.warning)
		}
	}
	// Without --node, the node is the file's: facter -j's networking.fqdn names it, said in a
	// warning (puppet lookup would take the machine it runs on).
	rc, out, errOut := run(t, "lookup", "where", "--config", config, "--facts", filepath.Join(dir, "facter4.json"))
	if rc != 0 || out != "--- node\n" || !strings.Contains(errOut, hiera.CertnameFromFQDNNote("web01.example.com")) {
		t.Errorf("without --node: exit %d, stdout %q, stderr %s", rc, out, errOut)
	}
}

// What Puppet reads silently, a fact that does not exist (a typo) in a value or a hierarchy path
// and a certname taken from networking.fqdn, every command says: lookup, node and diff on stderr,
// check as findings of the node (on stdout, counted, without failing).
func TestNotSetWarningsInEveryCommand(t *testing.T) {
	dir := t.TempDir()
	for rel, text := range map[string]string{
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{trusted.certname}.yaml\"\n" +
			"  - name: datacenter\n    path: \"dc/%{facts.datacenter}.yaml\"\n  - name: common\n    path: common.yaml\n",
		"data/nodes/web01.example.com.yaml": "role: web\n",
		"data/common.yaml":                  "rack: \"rack %{facts.datacentre}\"\n",
		"facts/web01.json":                  `{"networking": {"fqdn": "web01.example.com"}, "site": "ams"}`,
	} {
		p := filepath.Join(dir, rel)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
	config, facts := filepath.Join(dir, "hiera.yaml"), filepath.Join(dir, "facts/web01.json")
	valueNotSet := `The value of "rack" interpolates %{facts.datacentre}, which is not set: it became an empty string`
	levelNotSet := `The hierarchy level "datacenter" (` + config + `) interpolates %{facts.datacenter} in "dc/%{facts.datacenter}.yaml", which is not set`
	certname := hiera.CertnameFromFQDNNote("web01.example.com")
	for _, tc := range []struct {
		args     []string
		rc       int
		out, err []string
	}{
		{[]string{"lookup", "rack"}, 0, []string{"--- 'rack '\n"}, []string{certname, valueNotSet, levelNotSet}},
		{[]string{"node"}, 0, []string{"role: web"}, []string{certname, valueNotSet, levelNotSet}},
		{[]string{"diff", "--node", "web01.example.com", "--node", "db01.example.com"}, 1, []string{"role"}, []string{valueNotSet, levelNotSet}},
		{[]string{"check"}, 0, []string{"warning (certname): " + certname + " (node " + facts + ")", "warning (unset): " + levelNotSet,
			"warning (unset): " + valueNotSet, "3 warnings: what Puppet reads silently", "no problems: 2 data files and 1 node checked"}, nil},
	} {
		rc, out, errOut := run(t, append(tc.args, "--config", config, "--facts", facts)...)
		if rc != tc.rc {
			t.Errorf("%s: exit %d, want %d; stdout %s, stderr %s", tc.args[0], rc, tc.rc, out, errOut)
		}
		for _, w := range tc.out {
			if !strings.Contains(out, w) {
				t.Errorf("%s: stdout lacks %q:\n%s", tc.args[0], w, out)
			}
		}
		for _, w := range tc.err {
			if !strings.Contains(errOut, "Warning: "+w) {
				t.Errorf("%s: stderr lacks %q:\n%s", tc.args[0], w, errOut)
			}
		}
	}
}
