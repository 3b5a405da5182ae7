package puppetdb

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/puppetdb/puppetdbtest"
)

// Against the real PuppetDB of scripts/puppetdb.sh (skipped without one): nodes stored with
// replace_facts come back with their facts exact; PQL and AST queries select what PuppetDB
// selects; a deactivated node is left out unless the query asks for it; PuppetDB's own message
// for a PQL syntax error is passed on.
func TestPuppetDBQueries(t *testing.T) {
	pdb := puppetdbtest.URL(t)
	tag := puppetdbtest.Tag(t)
	names := map[string]string{} // role -> certnames
	for i, role := range []string{"web", "web", "db", "web"} {
		name := fmt.Sprintf("%s%02d.%s.example.com", role, i, tag)
		facts := fmt.Sprintf(`{%q: %q, "role": %q, "big": 12345678901234567890, "ratio": 1.0, "os": {"family": "Debian", "release": {"major": "12"}},
			"trusted": {"certname": %q, "authenticated": "remote", "extensions": {"pp_role": %q}}}`,
			puppetdbtest.TagFact, tag, role, name, role)
		puppetdbtest.ReplaceFacts(t, pdb, name, []byte(facts))
		names[role] += name + " "
	}
	deactivated := fmt.Sprintf("web03.%s.example.com", tag)
	puppetdbtest.Deactivate(t, pdb, deactivated)
	c := newClient(t, Config{URL: pdb})

	certnames := func(query string) string {
		t.Helper()
		nodes, err := collect(c, query)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		var got []string
		for _, n := range nodes {
			got = append(got, n.Certname)
		}
		sort.Strings(got)
		return strings.Join(got, " ")
	}
	web := fmt.Sprintf("web00.%[1]s.example.com web01.%[1]s.example.com", tag)
	for query, want := range map[string]string{
		fmt.Sprintf(`inventory[certname, facts, trusted] { facts.%s = %q and facts.role = "web" }`, puppetdbtest.TagFact, tag):                              web,
		fmt.Sprintf(`["and", ["=", "facts.%s", %q], ["=", "trusted.extensions.pp_role", "web"]]`, puppetdbtest.TagFact, tag):                                web,
		fmt.Sprintf(`inventory[certname, facts] { facts.%s = %q and facts.role = "web" and node_state = "any" }`, puppetdbtest.TagFact, tag):                web + " " + deactivated,
		fmt.Sprintf(`inventory[certname, facts, trusted] { facts.%s = %q and facts.role = "mail" }`, puppetdbtest.TagFact, tag):                             "",
		fmt.Sprintf(`inventory[certname, facts, trusted] { facts.%s = %q and facts.os.release.major = "12" order by certname }`, puppetdbtest.TagFact, tag): names["db"] + web,
	} {
		if got := certnames(query); got != strings.TrimSpace(want) {
			t.Errorf("%s:\n got %s\nwant %s", query, got, want)
		}
	}

	n, err := c.Node(context.Background(), "db02."+tag+".example.com")
	if err != nil {
		t.Fatal(err)
	}
	wantFacts := fmt.Sprintf(`{"big":12345678901234567890,"os":{"family":"Debian","release":{"major":"12"}},"role":"db","ratio":1.0,%q:%q,
		"trusted":{"certname":"db02.%s.example.com","authenticated":"remote","extensions":{"pp_role":"db"}}}`, puppetdbtest.TagFact, tag, tag)
	if got := jsonOf(t, n.Facts); !sameHashJSON(got, wantFacts) {
		t.Errorf("facts:\n got %s\nwant %s (in any key order: PuppetDB keeps none)", got, wantFacts)
	}
	if _, err := c.Node(context.Background(), deactivated); err == nil || !strings.Contains(err.Error(), "no active node named") {
		t.Errorf("a deactivated node by name: %v", err)
	}

	_, err = collect(c, `inventory[certname] { facts.role = }`)
	if err == nil || !strings.Contains(err.Error(), "PuppetDB "+pdb+"/pdb/query/v4: HTTP 400 Bad Request: PQL parse error at line 1, column 36") {
		t.Errorf("PQL syntax error: %v", err)
	}
	_, err = collect(c, `nodes[certname] { certname = "db02.`+tag+`.example.com" }`)
	if err == nil || !strings.Contains(err.Error(), "has no facts: the query must be an inventory query") {
		t.Errorf("a nodes query: %v", err)
	}
}

// sameHashJSON compares two JSON hashes' members, in any order, at every depth.
func sameHashJSON(a, b string) bool {
	return canonicalJSON(a) == canonicalJSON(b)
}

// Over TLS: the script's CA and client certificate reach PuppetDB; without a client certificate,
// or under a name the server certificate does not hold, the connection fails saying why.
func TestPuppetDBTLS(t *testing.T) {
	s := puppetdbtest.TLSSettings(t)
	tag := puppetdbtest.Tag(t)
	name := "tls." + tag + ".example.com"
	puppetdbtest.ReplaceFacts(t, puppetdbtest.URL(t), name, []byte(fmt.Sprintf(`{%q: %q}`, puppetdbtest.TagFact, tag)))
	c := newClient(t, Config{URL: s.URL, CACert: s.CACert, Cert: s.Cert, Key: s.Key, Token: secretToken})
	if n, err := c.Node(context.Background(), name); err != nil || n.Certname != name {
		t.Fatalf("%+v, %v", n, err)
	}
	_, err := collect(newClient(t, Config{URL: s.URL, CACert: s.CACert, Attempts: 1}), "")
	if err == nil || !strings.Contains(err.Error(), "PuppetDB "+s.URL+"/pdb/query/v4: PuppetDB refused the TLS connection") {
		t.Errorf("no client certificate: %v", err)
	}
	other := strings.Replace(s.URL, "127.0.0.1", "localhost", 1)
	_, err = collect(newClient(t, Config{URL: other, CACert: s.CACert, Cert: s.Cert, Key: s.Key}), "")
	if err == nil || !strings.Contains(err.Error(), "PuppetDB "+other+"/pdb/query/v4: the server's certificate does not name this host") {
		t.Errorf("name mismatch: %v", err)
	}
}

func canonicalJSON(s string) string {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "invalid: " + s
	}
	out, _ := json.Marshal(v) // maps come out sorted
	return string(out)
}
