package cli

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/puppetdb/puppetdbtest"
)

// fakePuppetDB serves the nodes of a facts directory (puppetdbtest.Fake).
func fakePuppetDB(t *testing.T, dir string) string {
	t.Helper()
	nodes, err := readFactsPath(dir)
	must(t, err)
	var held []puppetdbtest.FakeNode
	for _, n := range nodes {
		text, err := datafile.MarshalJSON(n.Facts)
		must(t, err)
		held = append(held, puppetdbtest.FakeNode{Certname: n.Certname(), Facts: text})
	}
	return puppetdbtest.Fake(t, held)
}

// The fleet diff and check over PuppetDB's nodes answer as over the same facts in a directory, and
// node reads one node's facts from PuppetDB as from its file.
func TestPuppetDBAsFacts(t *testing.T) {
	r := newControlRepo(t)
	pdb := fakePuppetDB(t, r.facts)
	sides := []string{"diff", "--git-rev", "main~1", "--git-rev", "main", "--environmentpath", r.envpath, "--environment", "production", "--render-as", "json"}
	rcDir, fromDir, _ := run(t, append(sides, "--facts", r.facts)...)
	rcPDB, fromPDB, errOut := run(t, append(sides, "--puppetdb", pdb)...)
	if rcPDB != rcDir || fromPDB != fromDir || !strings.Contains(fromDir, `"6 of 6 nodes change, 12 keys"`) {
		t.Errorf("diff over PuppetDB: rc %d (stderr %q)\n%s\nover the directory: rc %d\n%s", rcPDB, errOut, fromPDB, rcDir, fromDir)
	}

	env := []string{"--environmentpath", r.envpath, "--environment", "production", "--render-as", "json"}
	_, fromFile, _ := run(t, append([]string{"node", "--facts", filepath.Join(r.facts, "web03.example.com.json"), "--node", "web03.example.com"}, env...)...)
	rc, fromNode, errOut := run(t, append([]string{"node", "--puppetdb", pdb, "--node", "web03.example.com"}, env...)...)
	if rc != 0 || fromNode != fromFile || !strings.Contains(fromFile, "profile::") {
		t.Errorf("node from PuppetDB: rc %d (stderr %q)\n%s\nfrom its file:\n%s", rc, errOut, fromNode, fromFile)
	}

	unused := []string{"unused", "--environmentpath", r.envpath, "--environment", "production", "--render-as", "json"}
	rcDir, fromDir, _ = run(t, append(unused, "--facts", r.facts)...)
	rcPDB, fromPDB, errOut = run(t, append(unused, "--puppetdb", pdb)...)
	if rcPDB != rcDir || fromPDB != fromDir || !strings.Contains(fromDir, `"findings"`) {
		t.Errorf("unused over PuppetDB: rc %d (stderr %q)\n%s\nover the directory: rc %d\n%s", rcPDB, errOut, fromPDB, rcDir, fromDir)
	}

	check := []string{"check", "--environmentpath", r.envpath, "--environment", "production"}
	_, fromDir, _ = run(t, append(check, "--facts", r.facts)...)
	_, fromPDB, _ = run(t, append(check, "--puppetdb", pdb)...)
	if !strings.Contains(fromDir, "6 nodes") || strings.Replace(fromPDB, ", PuppetDB "+pdb, "", 1) != fromDir {
		t.Errorf("check over PuppetDB:\n%s\nover the directory:\n%s", fromPDB, fromDir)
	}
}

// Flags that cannot work, and PuppetDB failing, are errors naming what is wrong; a query matching
// no node is a warning.
func TestPuppetDBFlagErrors(t *testing.T) {
	r := newControlRepo(t)
	pdb := fakePuppetDB(t, r.facts)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	down := "http://" + l.Addr().String()
	_ = l.Close()
	env := []string{"--environmentpath", r.envpath, "--environment", "production"}
	for _, tc := range []struct {
		name   string
		args   []string
		rc     int
		stderr string
	}{
		{"a query without PuppetDB", []string{"node", "--puppetdb-query", "inventory {}"}, 1, "--puppetdb-query and the --puppetdb-* TLS flags need --puppetdb URL"},
		{"one node unnamed", []string{"node", "--puppetdb", pdb}, 1, "--puppetdb reads one node's facts: name it with --node CERTNAME"},
		{"a query for one node", []string{"lookup", "profile::base::motd", "--puppetdb", pdb, "--node", "web01.example.com", "--puppetdb-query", "inventory {}"}, 1,
			"--puppetdb-query chooses a fleet's nodes: this command reads one node, named by --node"},
		{"no such node", []string{"node", "--puppetdb", pdb, "--node", "gone.example.com"}, 1, `PuppetDB ` + pdb + `/pdb/query/v4/inventory: no active node named "gone.example.com"`},
		{"facts twice", []string{"node", "--puppetdb", pdb, "--node", "web01.example.com", "--facts", filepath.Join(r.facts, "web01.example.com.json")}, 1,
			"--facts and --puppetdb both give the node's facts: give one"},
		{"PuppetDB down", []string{"diff", "--git-rev", "main~1", "--git-rev", "main", "--puppetdb", down}, 2,
			"Error: PuppetDB " + down + "/pdb/query/v4: cannot connect (is PuppetDB running there?)"},
		{"a node twice", []string{"diff", "--git-rev", "main~1", "--git-rev", "main", "--puppetdb", pdb, "--facts", r.facts}, 2,
			`two nodes are named "app01.example.com": ` + filepath.Join(r.facts, "app01.example.com.yaml") + ` and PuppetDB ` + pdb + ` node "app01.example.com"`},
		{"nothing matched", []string{"diff", "--git-rev", "main~1", "--git-rev", "main", "--puppetdb", pdb, "--puppetdb-query", `inventory[certname, facts] { facts.role = "nothing" }`}, 0,
			"Warning: PuppetDB " + pdb + `: the query matches no active node: inventory[certname, facts] { facts.role = "nothing" }`},
	} {
		rc, out, errOut := run(t, append(tc.args, env...)...)
		if rc != tc.rc || !strings.Contains(errOut, tc.stderr) {
			t.Errorf("%s: rc %d, stderr %q, want %d and %q (stdout %q)", tc.name, rc, errOut, tc.rc, tc.stderr, out)
		}
	}
}

// Against the real PuppetDB (skipped without one): the control repository's nodes stored with
// replace_facts; the fleet diff over a PQL query answers as over the same facts in a directory,
// and a query choosing the web nodes chooses exactly them.
func TestPuppetDBCommand(t *testing.T) {
	pdb := puppetdbtest.URL(t)
	r := newControlRepo(t)
	tag := puppetdbtest.Tag(t)
	all, web := t.TempDir(), t.TempDir()
	nodes, err := readFactsPath(r.facts)
	must(t, err)
	for _, n := range nodes {
		// certnames of this run alone (tests of other packages store web01.example.com too), the same facts on both sides
		certname := n.Certname() + "." + tag
		n.Facts.Set("clientcert", certname)
		n.Facts.Set(puppetdbtest.TagFact, tag)
		text, err := datafile.MarshalJSON(n.Facts)
		must(t, err)
		puppetdbtest.ReplaceFacts(t, pdb, certname, text)
		must(t, os.WriteFile(filepath.Join(all, certname+".json"), text, 0o644))
		if role, _ := n.Facts.Get("role"); role == "web" {
			must(t, os.WriteFile(filepath.Join(web, certname+".json"), text, 0o644))
		}
	}
	sides := []string{"diff", "--git-rev", "main~1", "--git-rev", "main", "--environmentpath", r.envpath, "--environment", "production", "--render-as", "json"}
	for dir, pql := range map[string]string{
		all: fmt.Sprintf(`inventory[certname, facts] { facts.%s = %q }`, puppetdbtest.TagFact, tag),
		web: fmt.Sprintf(`inventory[certname, facts] { facts.%s = %q and facts.role = "web" }`, puppetdbtest.TagFact, tag),
	} {
		rcDir, fromDir, _ := run(t, append(sides, "--facts", dir)...)
		rcPDB, fromPDB, errOut := run(t, append(sides, "--puppetdb", pdb, "--puppetdb-query", pql)...)
		if rcPDB != rcDir || fromPDB != fromDir || rcDir != 1 {
			t.Errorf("%s: rc %d (stderr %q)\n%s\nthe directory's: rc %d\n%s", pql, rcPDB, errOut, fromPDB, rcDir, fromDir)
		}
	}
	_, out, _ := run(t, append(sides, "--puppetdb", pdb, "--puppetdb-query", fmt.Sprintf(`inventory[certname, facts] { facts.%s = %q and facts.role = "web" }`, puppetdbtest.TagFact, tag))...)
	if !strings.Contains(out, `"3 of 3 nodes change`) {
		t.Errorf("the web nodes: %s", out)
	}
	rc, _, errOut := run(t, append(sides, "--puppetdb", pdb, "--puppetdb-query", `inventory[certname, facts] { facts.role = }`)...)
	if rc != 2 || !strings.Contains(errOut, "Error: PuppetDB "+pdb+"/pdb/query/v4: HTTP 400 Bad Request: PQL parse error at line 1") {
		t.Errorf("a PQL syntax error: rc %d, %s", rc, errOut)
	}
}
