package cli

import (
	"os"
	"os/exec"
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

// `hieraform lookup --node NAME --facts FILE` answers as `puppet lookup --node NAME --facts FILE`
// (Puppet 7.23, answers below recorded from it): the node's trusted information comes from the
// file's clientcert fact, never from --node; a file with none of hostname, domain, fqdn and
// clientcert (facter -j) gives the node no certname, said in a warning; a file with some of them
// is Puppet's error. --hiera_config is puppet lookup's --config. With puppet on PATH, each answer
// is also asked of it.
func TestLookupNodeAsPuppetLookup(t *testing.T) {
	dir := puppetLookupRepo(t)
	config := filepath.Join(dir, "hiera.yaml")
	for _, tc := range []struct {
		facts, key, want, warning string
	}{
		{"facter4.json", "probe", `{"cert":"","thost":"","host":"","fqdn":"","clientcert":"","nf":"web01.example.com"}`,
			"has none of the facts hostname, domain, fqdn, clientcert: puppet lookup --node web01.example.com then gives the node no trusted.certname"},
		{"facter4.json", "where", `"common"`, `The hierarchy level "node" (` + config + `) interpolates %{trusted.certname} in "nodes/%{trusted.certname}.yaml", which is not set`},
		{"named.json", "probe", `{"cert":"cc.example.net","thost":"cc","host":"legacyhost","fqdn":"legacy.example.org","clientcert":"cc.example.net","nf":"web01.example.com"}`,
			`trusted.certname is "cc.example.net", the facts file's clientcert fact, not --node web01.example.com`},
		{"partial.json", "where", "", "Error: Could not run: When overriding any of the hostname,domain,fqdn,clientcert facts with " +
			filepath.Join(dir, "partial.json") + " given via the --facts flag, they must all be overridden."},
	} {
		args := []string{"lookup", tc.key, "--hiera_config", config, "--node", "web01.example.com", "--facts", filepath.Join(dir, tc.facts), "--render-as", "json"}
		rc, out, errOut := run(t, args...)
		wantRC := 0
		if tc.want == "" {
			wantRC = 1
		}
		if rc != wantRC || strings.TrimSpace(out) != tc.want || !strings.Contains(errOut, tc.warning) {
			t.Errorf("%s %s: exit %d, stdout %s, stderr %s; want %s and a warning %q", tc.facts, tc.key, rc, out, errOut, tc.want, tc.warning)
		}
		if puppet, err := exec.LookPath("puppet"); err == nil {
			state := t.TempDir() // Puppet's own directories: no stored facts or settings of this machine
			cmd := exec.Command(puppet, append([]string{"lookup", "--confdir", state + "/conf", "--vardir", state + "/var",
				"--codedir", state + "/code", "--logdir", state + "/log"}, args[1:]...)...)
			cmd.Dir = dir
			var stderr strings.Builder
			cmd.Stderr = &stderr
			got, _ := cmd.Output()
			if strings.TrimSpace(string(got)) != tc.want || (tc.want == "" && !strings.Contains(stderr.String(), strings.TrimPrefix(tc.warning, "Error: "))) {
				t.Errorf("%s %s: puppet lookup answers %s (stderr %s), the test wants %s", tc.facts, tc.key, got, stderr.String(), tc.want)
			}
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
		{[]string{"check"}, 0, []string{"warning: " + certname + " (node " + facts + ")", "warning: " + levelNotSet,
			"warning: " + valueNotSet, "3 warnings: what Puppet reads silently", "no problems: 2 data files and 1 node checked"}, nil},
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
