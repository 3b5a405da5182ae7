// Package puppetdbtest is for tests against a real PuppetDB, the one scripts/puppetdb.sh starts:
// it finds it (or skips the test, saying how to run it) and stores facts in it through PuppetDB's
// own command API, so that tests exercise the real query language.
//
// Each test tags the nodes it stores with a fact of its own (Tag) and queries by it, so tests
// sharing one PuppetDB never see each other's nodes.
package puppetdbtest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

// The variables `scripts/puppetdb.sh env` prints.
const (
	URLEnv    = "HIERAFORM_PUPPETDB_URL"
	TLSURLEnv = "HIERAFORM_PUPPETDB_TLS_URL"
	CACertEnv = "HIERAFORM_PUPPETDB_CACERT"
	CertEnv   = "HIERAFORM_PUPPETDB_CERT"
	KeyEnv    = "HIERAFORM_PUPPETDB_KEY"
)

// TagFact is the fact Tag's value goes in.
const TagFact = "hieraform_test"

const howToRun = `run scripts/puppetdb.sh up, then eval "$(scripts/puppetdb.sh env)" (scripts/test.sh does both as root)`

// URL is the plain-HTTP URL of the test PuppetDB; the test is skipped when none is set.
func URL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(URLEnv)
	if u == "" {
		t.Skipf("no PuppetDB to test against (%s unset): %s", URLEnv, howToRun)
	}
	return u
}

// TLS is the test PuppetDB's HTTPS URL and the CA, client certificate and key files it accepts;
// the test is skipped when they are not set.
type TLS struct{ URL, CACert, Cert, Key string }

// TLSSettings returns the HTTPS settings, skipping the test when they are not set.
func TLSSettings(t testing.TB) TLS {
	t.Helper()
	s := TLS{URL: os.Getenv(TLSURLEnv), CACert: os.Getenv(CACertEnv), Cert: os.Getenv(CertEnv), Key: os.Getenv(KeyEnv)}
	if s.URL == "" || s.CACert == "" || s.Cert == "" || s.Key == "" {
		t.Skipf("no TLS PuppetDB to test against (%s and the certificate variables unset): %s", TLSURLEnv, howToRun)
	}
	return s
}

// Tag is a value no other test run uses, for TagFact.
func Tag(t testing.TB) string {
	t.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "t" + hex.EncodeToString(b)
}

// ReplaceFacts stores a node's facts (the JSON text of a hash) with the replace_facts command,
// version 5, returning once PuppetDB has stored them.
func ReplaceFacts(t testing.TB, pdbURL, certname string, facts []byte) {
	t.Helper()
	body, err := json.Marshal(map[string]any{
		"certname":           certname,
		"environment":        "production",
		"values":             json.RawMessage(facts),
		"producer_timestamp": time.Now().UTC().Format(time.RFC3339Nano),
		"producer":           "hieraform-tests",
	})
	if err != nil {
		t.Fatal(err)
	}
	command(t, pdbURL, "replace_facts", 5, certname, body)
}

// Deactivate deactivates a node, as `puppet node deactivate` does.
func Deactivate(t testing.TB, pdbURL, certname string) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{
		"certname":           certname,
		"producer_timestamp": time.Now().UTC().Format(time.RFC3339Nano),
	})
	command(t, pdbURL, "deactivate_node", 3, certname, body)
}

// command submits a command and waits until PuppetDB has processed it.
func command(t testing.TB, pdbURL, name string, version int, certname string, body []byte) {
	t.Helper()
	q := url.Values{
		"command": {name}, "version": {fmt.Sprint(version)}, "certname": {certname},
		"secondsToWaitForCompletion": {"30"},
	}
	resp, err := http.Post(pdbURL+"/pdb/cmd/v1?"+q.Encode(), "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("%s for %s: %v", name, certname, err)
	}
	defer func() { _ = resp.Body.Close() }()
	answer, _ := io.ReadAll(resp.Body)
	var result struct {
		Processed bool `json:"processed"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(answer, &result) != nil || !result.Processed {
		t.Fatalf("%s for %s: HTTP %s: %s", name, certname, resp.Status, answer)
	}
}

// FakeNode is a node a Fake PuppetDB holds: its certname and its facts, the JSON text of a hash.
type FakeNode struct {
	Certname string
	Facts    []byte
}

// Fake serves nodes as PuppetDB's inventory endpoints answer the queries tests send: every node
// for a query, the named one for an AST certname query (["=", "certname", name]), none for a PQL
// query naming "nothing", PuppetDB's PQL syntax error for one ending in "=" (before its "}"), and
// under /html/ a page that is no PuppetDB's. It returns the server's URL.
func Fake(t testing.TB, nodes []FakeNode) string {
	t.Helper()
	type entry struct {
		Certname string          `json:"certname"`
		Facts    json.RawMessage `json:"facts"`
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/html/") {
			_, _ = io.WriteString(w, "<html><body>Sign in</body></html>")
			return
		}
		var body struct{ Query json.RawMessage }
		_ = json.NewDecoder(r.Body).Decode(&body)
		var pql string
		_ = json.Unmarshal(body.Query, &pql)
		if strings.HasSuffix(strings.TrimSuffix(pql, " }"), "=") { // modelled on PuppetDB 7.12.1's answer
			http.Error(w, fmt.Sprintf("PQL parse error at line 1, column %d:\n\n%s\n\nExpected one of:\n\n[\nfalse\ntrue", len(strings.TrimSuffix(pql, " }"))+2, pql),
				http.StatusBadRequest)
			return
		}
		var ast []string
		named := json.Unmarshal(body.Query, &ast) == nil && len(ast) == 3 && ast[1] == "certname"
		answer := []entry{}
		for _, n := range nodes {
			if !strings.Contains(pql, "nothing") && (!named || ast[2] == n.Certname) {
				answer = append(answer, entry{n.Certname, n.Facts})
			}
		}
		_ = json.NewEncoder(w).Encode(answer)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
