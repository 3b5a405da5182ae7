package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A fleet of Facter 4 nodes (facter -j: no certname, clientcert or fqdn) whose web nodes share a
// value of the wrong type: the type mismatch is one line naming every node that meets it (the
// first 10 and a count), and the certname warning every node meets is one line with the nodes
// counted, its kind shown; --no-warn certname hides it and says so; the warning that matters stays.
func TestCheckGroupsWhatNodesShare(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "hiera.yaml"), "version: 5\nhierarchy:\n"+
		"  - name: roles\n    path: \"roles/%{facts.role}.yaml\"\n  - name: common\n    path: common.yaml\n")
	writeFile(t, filepath.Join(dir, "data", "roles", "web.yaml"), "port: \"8080\"\n")
	writeFile(t, filepath.Join(dir, "data", "common.yaml"), "port: 80\nmotd: \"rack %{facts.rack}\"\n")
	writeFile(t, filepath.Join(dir, "types.yaml"), "port: Integer\n")
	facts := filepath.Join(dir, "facts")
	var web []string
	for i := 1; i <= 12; i++ {
		name := fmt.Sprintf("web%02d", i)
		writeFile(t, filepath.Join(facts, name+".json"), fmt.Sprintf(`{"role": "web", "rack": "r1", "networking": {"fqdn": "%s.example.com"}}`, name))
		web = append(web, filepath.Join(facts, name+".json"))
	}
	db01 := filepath.Join(facts, "db01.json")
	writeFile(t, db01, `{"role": "db", "networking": {"fqdn": "db01.example.com"}}`)
	args := []string{"check", "--config", filepath.Join(dir, "hiera.yaml"), "--facts", facts, "--types", filepath.Join(dir, "types.yaml")}

	rc, out, errOut := run(t, args...)
	mismatch := filepath.Join(dir, "data", "roles", "web.yaml") + `:1: level "roles": Found value has wrong type, expects an Integer value, got String (key port, 12 nodes: ` +
		strings.Join(web[:10], ", ") + ` and 2 more)`
	certname := "warning (certname): The facts name no certname, clientcert or fqdn (Facter 4's facter -j prints none of them): each node's trusted.certname is its fact networking.fqdn"
	unset := "warning (unset): The value of \"motd\" interpolates %{facts.rack}, which is not set"
	if rc != 1 || strings.Count(out, mismatch) != 1 || strings.Count(out, "Found value has wrong type") != 1 {
		t.Errorf("rc %d, want 1 and once %q:\n%s%s", rc, mismatch, out, errOut)
	}
	if strings.Count(out, certname) != 1 || !strings.Contains(out, "13 nodes: "+db01+", "+web[0]) || strings.Count(out, "warning (unset)") != 1 ||
		!strings.Contains(out, unset+": it became an empty string, as in Puppet. Give the fact or variable in facts or scope, or check its name. (node "+db01+")") ||
		!strings.Contains(out, "2 warnings: ") || !strings.Contains(out, "--no-warn KIND hides a kind") {
		t.Errorf("want the certname warning once for 13 nodes and the unset variable once:\n%s", out)
	}

	// the same as JSON: every node of each problem and warning, the text's fields kept
	rc, out, _ = run(t, append(args, "--render-as", "json")...)
	var doc struct {
		Problems []struct {
			File, Level, Key, Message, Hint string
			Line                            int
			Nodes                           []string
		}
		Notes    []any
		Warnings []struct {
			Kind, Message string
			Nodes         []string
		}
		Summary string
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || rc != 1 || len(doc.Problems) != 1 || len(doc.Warnings) != 2 || doc.Notes == nil {
		t.Fatalf("--render-as json: rc %d, %v:\n%s", rc, err, out)
	}
	if p := doc.Problems[0]; p.File != filepath.Join(dir, "data", "roles", "web.yaml") || p.Line != 1 || p.Level != "roles" || p.Key != "port" ||
		p.Message != "Found value has wrong type, expects an Integer value, got String" || !reflect.DeepEqual(p.Nodes, web) {
		t.Errorf("the problem: %+v", p)
	}
	if w := doc.Warnings; w[0].Kind != "certname" || len(w[0].Nodes) != 13 || w[1].Kind != "unset" || !reflect.DeepEqual(w[1].Nodes, []string{db01}) ||
		!strings.HasPrefix(doc.Summary, "1 problem in ") {
		t.Errorf("the warnings and summary: %+v %q", w, doc.Summary)
	}

	rc, out, _ = run(t, append(args, "--no-warn", "certname")...)
	if rc != 1 || strings.Contains(out, "certname,") || !strings.Contains(out, unset) || !strings.Contains(out, "1 warning: ") ||
		!strings.Contains(out, "--no-warn hid certname warnings of 13 nodes") {
		t.Errorf("--no-warn certname: rc %d:\n%s", rc, out)
	}
	rc, out, _ = run(t, append(args, "--no-warn", "certname,unset")...)
	if rc != 1 || strings.Contains(out, "warning (") || !strings.Contains(out, "--no-warn hid certname warnings of 13 nodes, unset warnings of 1 node") {
		t.Errorf("--no-warn certname,unset: rc %d:\n%s", rc, out)
	}
	if rc, _, errOut := run(t, append(args, "--no-warn", "certnames")...); rc != exitFailure ||
		!strings.Contains(errOut, `no warning kind "certnames": the kinds are certname, unset, dotted-fact, module-data, other`) {
		t.Errorf("an unknown kind: rc %d, %q", rc, errOut)
	}
}

// Each pitfall the engine words has its kind: a dotted fact, a variable a path interpolates that
// is not set, a module with data and no hiera.yaml.
func TestCheckWarningKinds(t *testing.T) {
	dir := t.TempDir()
	env := filepath.Join(dir, "environments", "production")
	writeFile(t, filepath.Join(env, "hiera.yaml"), "version: 5\nhierarchy:\n  - name: dc\n    path: \"dc/%{facts.dc}.yaml\"\n  - name: common\n    path: common.yaml\n")
	writeFile(t, filepath.Join(env, "data", "common.yaml"), "profile::x: 1\n")
	writeFile(t, filepath.Join(env, "modules", "profile", "data", "common.yaml"), "profile::y: 2\n")
	node := filepath.Join(dir, "web01.json")
	writeFile(t, node, `{"clientcert": "web01.example.com", "os.family": "Debian"}`)
	_, out, errOut := run(t, "check", "--environmentpath", filepath.Join(dir, "environments"), "--environment", "production", "--facts", node)
	for _, kind := range []string{"dotted-fact", "unset", "module-data"} {
		if !strings.Contains(out, "warning ("+kind+"): ") {
			t.Errorf("no warning of kind %s:\n%s%s", kind, out, errOut)
		}
	}
	if strings.Contains(out, "warning (other)") {
		t.Errorf("a warning of no kind:\n%s", out)
	}
}
