package puppetdb

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hieraform/terraform-provider-hiera/internal/fleet"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
)

const secretToken = "0VZ8jUvG-token-never-shown"

// request is what a fake PuppetDB received.
type received struct {
	path, token string
	query       json.RawMessage
}

// fakePuppetDB answers every query with answer (status 200) and records the requests.
func fakePuppetDB(t *testing.T, answer string) (*httptest.Server, *[]received) {
	t.Helper()
	var got []received
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct{ Query json.RawMessage }
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil || r.Method != http.MethodPost {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		got = append(got, received{path: r.URL.Path, token: r.Header.Get("X-Authentication"), query: body.Query})
		_, _ = io.WriteString(w, answer)
	}))
	t.Cleanup(srv.Close)
	return srv, &got
}

func newClient(t *testing.T, cfg Config) *Client {
	t.Helper()
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// collect runs query and returns the nodes.
func collect(c *Client, query string) ([]*Node, error) {
	var nodes []*Node
	_, err := c.Nodes(context.Background(), query, func(n *Node) error { nodes = append(nodes, n); return nil })
	return nodes, err
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := datafile.MarshalJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// An inventory answer becomes nodes with their facts as the engine reads JSON (key order kept,
// integers exact, the trusted data among them as PuppetDB stores it); PQL goes to the root endpoint.
func TestNodesPQL(t *testing.T) {
	t.Parallel()
	answer := `[{"certname":"web01.example.com","facts":{"role":"web","big":12345678901234567890,"f":1.0,"os":{"name":"Debian","family":"Debian"},
	  "trusted":{"certname":"web01.example.com","extensions":{"pp_role":"web"}}},"trusted":{"certname":"web01.example.com","extensions":{"pp_role":"web"}}},
	 {"certname":"db01.example.com","facts":{"role":"db"},"trusted":null}]`
	srv, got := fakePuppetDB(t, answer)
	c := newClient(t, Config{URL: srv.URL, Token: secretToken})
	pql := `inventory[certname, facts, trusted] { facts.role = "web" }`
	nodes, err := collect(c, pql)
	if err != nil {
		t.Fatal(err)
	}
	if len(*got) != 1 || (*got)[0].path != "/pdb/query/v4" || (*got)[0].token != secretToken || string((*got)[0].query) != fmt.Sprintf("%q", pql) {
		t.Errorf("requests: %+v", *got)
	}
	if len(nodes) != 2 || nodes[0].Certname != "web01.example.com" || nodes[1].Certname != "db01.example.com" {
		t.Fatalf("nodes: %+v", nodes)
	}
	want := `{"role":"web","big":12345678901234567890,"f":1.0,"os":{"name":"Debian","family":"Debian"},"trusted":{"certname":"web01.example.com","extensions":{"pp_role":"web"}}}`
	if f := jsonOf(t, nodes[0].Facts); f != want {
		t.Errorf("facts: %s\nwant %s", f, want)
	}
	if f := jsonOf(t, nodes[1].Facts); f != `{"role":"db"}` {
		t.Errorf("second node: %s", f)
	}
}

// Without a query every node is asked for; an AST query goes to the inventory endpoint as JSON.
func TestNodesQueryForms(t *testing.T) {
	t.Parallel()
	srv, got := fakePuppetDB(t, `[]`)
	c := newClient(t, Config{URL: srv.URL + "/"})
	for _, q := range []string{"", `["=", "facts.role", "web"]`} {
		if n, err := c.Nodes(context.Background(), q, func(*Node) error { return nil }); err != nil || n != 0 {
			t.Fatalf("query %q: %d nodes, %v", q, n, err)
		}
	}
	want := []received{
		{path: "/pdb/query/v4", query: json.RawMessage(`"inventory[certname, facts] {}"`)},
		{path: "/pdb/query/v4/inventory", query: json.RawMessage(`["=","facts.role","web"]`)},
	}
	for i, w := range want {
		if g := (*got)[i]; g.path != w.path || string(g.query) != string(w.query) {
			t.Errorf("request %d: %s %s, want %s %s", i, g.path, g.query, w.path, w.query)
		}
	}
	_, err := collect(c, `["=", "facts.role"`)
	if err == nil || !strings.Contains(err.Error(), "not a JSON AST query") || len(*got) != 2 {
		t.Errorf("a broken AST query: %v (sent %d requests, want none)", err, len(*got)-2)
	}
}

// Node reads one node by certname; none is an error naming it.
func TestNode(t *testing.T) {
	t.Parallel()
	srv, got := fakePuppetDB(t, `[{"certname":"web01.example.com","facts":{"role":"web"}}]`)
	c := newClient(t, Config{URL: srv.URL})
	n, err := c.Node(context.Background(), `web01.example.com`)
	if err != nil || n.Certname != "web01.example.com" {
		t.Fatalf("%+v, %v", n, err)
	}
	if q := string((*got)[0].query); q != `["=","certname","web01.example.com"]` {
		t.Errorf("query %s", q)
	}
	empty, _ := fakePuppetDB(t, `[]`)
	_, err = newClient(t, Config{URL: empty.URL}).Node(context.Background(), "gone.example.com")
	if err == nil || !strings.Contains(err.Error(), `no active node named "gone.example.com"`) || !strings.Contains(err.Error(), empty.URL) {
		t.Errorf("no such node: %v", err)
	}
}

// Answers that are not a list of inventory entries fail with what was wrong, naming the URL.
func TestNodesBadAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, answer, want string }{
		{"html", "<html><body>Login</body></html>", "the answer is not JSON (is the URL PuppetDB's, without a path?): <html><body>Login</body></html>"},
		{"empty", "", "the answer is empty, not JSON"},
		{"blank", "  \n ", "the answer is not JSON (is the URL PuppetDB's, without a path?): "},
		{"object", `{"error": "x"}`, "the answer is not the list of nodes an inventory query gives: {\"error\": \"x\"}"},
		{"null", `null`, "the answer is not the list of nodes an inventory query gives: null"},
		{"broken", `[{"certname":"a","facts":{}}, {"certname": `, "the answer is not valid JSON after 1 nodes"},
		{"nodes query", `[{"certname":"a"}]`, "a has no facts: the query must be an inventory query"},
		{"no certname", `[{"facts":{}}]`, "node 1 of the answer: it has no certname"},
		{"facts not a hash", `[{"certname":"a","facts":[1]}]`, "a: facts: not a hash: Array"},
		{"control characters", "\x1b[2Jgarbage", `not JSON (is the URL PuppetDB's, without a path?): \u001b[2Jgarbage`},
		{"control characters in a certname", `[{"certname":"a\u001b[2J"}]`, `a\u001b[2J has no facts`},
	} {
		srv, _ := fakePuppetDB(t, tc.answer)
		_, err := collect(newClient(t, Config{URL: srv.URL}), "")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "PuppetDB "+srv.URL+"/pdb/query/v4: ") {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// PuppetDB's own message for a query it rejects (a PQL syntax error) is passed on, and an answer
// of another status is final: no second attempt.
func TestNodesRejected(t *testing.T) {
	t.Parallel()
	// modelled on PuppetDB 7.12.1's answer to `inventory[certname] { facts.role = }`
	pqlError := "PQL parse error at line 1, column 37:\n\ninventory[certname] { facts.role = }\n                                    ^\n\nExpected one of:\n\n[\nfalse\ntrue"
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		http.Error(w, pqlError, http.StatusBadRequest)
	}))
	defer srv.Close()
	_, err := collect(newClient(t, Config{URL: srv.URL, Token: secretToken}), `inventory[certname] { facts.role = }`)
	if err == nil || !strings.Contains(err.Error(), "HTTP 400 Bad Request: "+pqlError) || calls.Load() != 1 {
		t.Errorf("%d calls, %v", calls.Load(), err)
	}
	if strings.Contains(err.Error(), secretToken) {
		t.Errorf("the token is in the error: %v", err)
	}
}

// A refused token or certificate says what to check.
func TestNodesForbidden(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Permission denied", http.StatusForbidden)
	}))
	defer srv.Close()
	_, err := collect(newClient(t, Config{URL: srv.URL, Token: secretToken}), "")
	if err == nil || !strings.Contains(err.Error(), "HTTP 403 Forbidden: Permission denied (check the token") || strings.Contains(err.Error(), secretToken) {
		t.Errorf("%v", err)
	}
}

// PuppetDB down: tried again, then an error naming the URL, never the token.
func TestNodesDown(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close() // nothing listens there now
	url := "http://user:pass@" + addr
	_, err = collect(newClient(t, Config{URL: url, Token: secretToken, Attempts: 2}), "")
	want := "PuppetDB http://" + addr + "/pdb/query/v4: cannot connect (is PuppetDB running there?): "
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "(tried 2 times)") {
		t.Errorf("%v\nwant it to start %q", err, want)
	}
	if err != nil && (strings.Contains(err.Error(), secretToken) || strings.Contains(err.Error(), "pass")) {
		t.Errorf("a secret is in the error: %v", err)
	}
}

// A connection closed before any answer is tried again; the second attempt's answer counts.
func TestNodesRetryConnection(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			hj, _ := w.(http.Hijacker)
			conn, _, err := hj.Hijack()
			if err == nil {
				_ = conn.Close()
			}
			return
		}
		_, _ = io.WriteString(w, `[{"certname":"a","facts":{}}]`)
	}))
	defer srv.Close()
	nodes, err := collect(newClient(t, Config{URL: srv.URL}), "")
	if err != nil || len(nodes) != 1 || calls.Load() != 2 {
		t.Errorf("%d calls, %d nodes, %v", calls.Load(), len(nodes), err)
	}
}

// A server that does not answer within the timeout, or stops in the middle of its answer, fails
// the query with the timeout named, and is not asked again.
func TestNodesTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path == "/stall/pdb/query/v4" {
			_, _ = io.WriteString(w, `[{"certname":"a","facts":{}},`)
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	cfg := Config{URL: srv.URL, Timeout: 300 * time.Millisecond}
	_, err := collect(newClient(t, cfg), "")
	if err == nil || !strings.Contains(err.Error(), "PuppetDB "+srv.URL+"/pdb/query/v4: no answer within the timeout of 300ms") {
		t.Errorf("silent server: %v", err)
	}
	cfg.URL = srv.URL + "/stall"
	nodes, err := collect(newClient(t, cfg), "")
	if err == nil || len(nodes) != 1 || !strings.Contains(err.Error(), "the answer stopped for longer than the timeout of 300ms after 1 nodes") {
		t.Errorf("stalled answer: %d nodes, %v", len(nodes), err)
	}
	if calls.Load() != 2 {
		t.Errorf("%d requests, want 2: a timeout is not tried again", calls.Load())
	}
}

// The caller may take its time over each node: only PuppetDB's silence counts against the timeout.
// The timeout is long enough for a loaded machine's local server to answer; the caller sleeps longer.
func TestNodesSlowCaller(t *testing.T) {
	t.Parallel()
	srv, _ := fakePuppetDB(t, `[{"certname":"a","facts":{}},{"certname":"b","facts":{}}]`)
	c := newClient(t, Config{URL: srv.URL, Timeout: time.Second})
	n, err := c.Nodes(context.Background(), "", func(*Node) error { time.Sleep(1200 * time.Millisecond); return nil })
	if err != nil || n != 2 {
		t.Errorf("%d nodes, %v", n, err)
	}
}

// An error of the caller's function stops the query and comes back as it was.
func TestNodesCallerError(t *testing.T) {
	t.Parallel()
	srv, _ := fakePuppetDB(t, `[{"certname":"a","facts":{}},{"certname":"b","facts":{}}]`)
	stop := errors.New("two nodes named a")
	n, err := newClient(t, Config{URL: srv.URL}).Nodes(context.Background(), "", func(*Node) error { return stop })
	if err != stop || n != 1 {
		t.Errorf("%d nodes, %v", n, err)
	}
}

// A fleet of 50,000 nodes (~55 MB of JSON) streams through: while the first nodes are answered
// the server is still writing (held back by the connection, as nothing buffers the whole answer),
// and the heap stays a fraction of the answer. Under the race detector, which makes decoding 15
// times slower, the query stops after the first check.
func TestNodesStreamed(t *testing.T) {
	if testing.Short() {
		t.Skip("50,000 nodes: not with -short")
	}
	const count = 50000
	facts := `{"role":"web","os":{"family":"Debian","release":{"major":"12","full":"12.7"}},"padding":"` + strings.Repeat("x", 1000) + `"}`
	var written atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "[")
		for i := range count {
			if i > 0 {
				_, _ = io.WriteString(w, ",")
			}
			if _, err := fmt.Fprintf(w, `{"certname":"node%05d.example.com","facts":%s,"trusted":null}`, i, facts); err != nil {
				return // the client stopped reading
			}
			written.Store(int64(i + 1))
		}
		_, _ = io.WriteString(w, "]")
	}))
	defer srv.Close()
	answerSize := uint64(count * (len(facts) + 60))
	var peak uint64
	var ms runtime.MemStats
	seen := 0
	const early = 2000
	stopped := errors.New("stopped after the first check")
	_, err := newClient(t, Config{URL: srv.URL}).Nodes(context.Background(), "", func(n *Node) error {
		if n.Certname != fmt.Sprintf("node%05d.example.com", seen) {
			return fmt.Errorf("node %d is %s", seen, n.Certname)
		}
		seen++
		if seen == early {
			if w := written.Load(); w == count {
				return fmt.Errorf("the server had written all %d nodes before node %d was answered: the answer was read whole", w, early)
			}
			if raceDetector {
				return stopped
			}
		}
		if seen%1000 == 0 {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
		return nil
	})
	if raceDetector && err == stopped {
		return
	}
	if err != nil || seen != count {
		t.Fatalf("%d nodes, %v", seen, err)
	}
	if peak > answerSize/4 {
		t.Errorf("heap reached %d MB while the answer was %d MB: the answer is held, not streamed", peak>>20, answerSize>>20)
	}
}

// One node larger than MaxNodeSize is an error, not an unbounded buffer.
func TestNodesTooLarge(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `[{"certname":"a","facts":{}},{"certname":"huge","facts":{"x":"`)
		chunk := strings.Repeat("x", 1<<20)
		for range MaxNodeSize>>20 + 2 {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
		}
		_, _ = io.WriteString(w, `"}}]`)
	}))
	defer srv.Close()
	_, err := collect(newClient(t, Config{URL: srv.URL}), "")
	if err == nil || !strings.Contains(err.Error(), "node 2 of the answer is larger than 16 MB") {
		t.Errorf("%v", err)
	}
}

// TLS: the Puppet CA and a client certificate, from files or PEM text, reach a server that
// requires them; without a certificate the server's refusal is explained.
func TestTLSClientCertificate(t *testing.T) {
	t.Parallel()
	ca := newTestCA(t)
	server := ca.issue(t, "puppetdb", time.Now().Add(-time.Hour), time.Now().Add(time.Hour), net.ParseIP("127.0.0.1"))
	client := ca.issue(t, "ci.example.com", time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
	srv := tlsServer(t, ca, server, tls.RequireAndVerifyClientCert)

	dir := t.TempDir()
	files := map[string]string{"ca.pem": ca.pem, "cert.pem": client.certPEM, "key.pem": client.keyPEM}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for name, cfg := range map[string]Config{
		"paths": {URL: srv.URL, CACert: filepath.Join(dir, "ca.pem"), Cert: filepath.Join(dir, "cert.pem"), Key: filepath.Join(dir, "key.pem")},
		"pem":   {URL: srv.URL, CACertPEM: ca.pem, CertPEM: client.certPEM, KeyPEM: client.keyPEM},
	} {
		nodes, err := collect(newClient(t, cfg), "")
		if err != nil || len(nodes) != 1 {
			t.Errorf("%s: %d nodes, %v", name, len(nodes), err)
		}
	}
	_, err := collect(newClient(t, Config{URL: srv.URL, CACertPEM: ca.pem, Attempts: 1}), "")
	if err == nil || !strings.Contains(err.Error(), "PuppetDB "+srv.URL+"/pdb/query/v4: PuppetDB refused the TLS connection (it needs a client certificate") {
		t.Errorf("no client certificate: %v", err)
	}
}

// TLS failures name the URL and the reason: a server certificate for another name, one expired,
// one from an unknown CA.
func TestTLSServerFailures(t *testing.T) {
	t.Parallel()
	ca := newTestCA(t)
	now := time.Now()
	good := tlsServer(t, ca, ca.issue(t, "puppetdb", now.Add(-time.Hour), now.Add(time.Hour), net.ParseIP("127.0.0.1")), tls.NoClientCert)
	expired := tlsServer(t, ca, ca.issue(t, "puppetdb", now.Add(-2*time.Hour), now.Add(-time.Hour), net.ParseIP("127.0.0.1")), tls.NoClientCert)
	mismatch := strings.Replace(good.URL, "127.0.0.1", "localhost", 1)
	for _, tc := range []struct{ name, url, ca, want string }{
		{"name mismatch", mismatch, ca.pem, "the server's certificate does not name this host: tls: failed to verify certificate: x509: certificate is not valid for any names, but wanted to match localhost"},
		{"expired", expired.URL, ca.pem, "the server's certificate has expired or is not yet valid: tls: failed to verify certificate: x509: certificate has expired"},
		{"unknown CA", good.URL, newTestCA(t).pem, "the server's certificate is not signed by a trusted CA (give the Puppet CA as cacert)"},
	} {
		_, err := collect(newClient(t, Config{URL: tc.url, CACertPEM: tc.ca, Token: secretToken}), "")
		if err == nil || !strings.Contains(err.Error(), "PuppetDB "+tc.url+"/pdb/query/v4: "+tc.want) || strings.Contains(err.Error(), secretToken) {
			t.Errorf("%s: %v\nwant %q", tc.name, err, tc.want)
		}
	}
}

func tlsServer(t *testing.T, ca *testCA, cert leaf, clientAuth tls.ClientAuthType) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `[{"certname":"a","facts":{}}]`)
	}))
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert.tls(t)}, ClientAuth: clientAuth, ClientCAs: pool}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes are the point
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

// Settings that cannot work are refused before any connection, naming what is wrong and never
// quoting a key.
func TestConfigErrors(t *testing.T) {
	t.Parallel()
	ca := newTestCA(t)
	now := time.Now()
	client := ca.issue(t, "ci", now.Add(-time.Hour), now.Add(time.Hour))
	other := ca.issue(t, "other", now.Add(-time.Hour), now.Add(time.Hour))
	expired := ca.issue(t, "ci", now.Add(-2*time.Hour), now.Add(-time.Hour))
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"no scheme", Config{URL: "puppetdb:8081"}, "PuppetDB puppetdb:8081: not an http:// or https:// URL"},
		{"password in URL", Config{URL: "ftp://u:hunter2@puppetdb"}, "PuppetDB ftp://puppetdb: not an http:// or https:// URL"},
		{"password in a URL that does not parse", Config{URL: "https://u:hunter2@[::1"}, "PuppetDB https://[::1: not an http:// or https:// URL"},
		{"token in the query", Config{URL: "ftp://puppetdb?token=hunter2"}, "PuppetDB ftp://puppetdb: not an http:// or https:// URL"},
		{"token in the query of a URL that does not parse", Config{URL: "https://[::1?token=hunter2"}, "PuppetDB https://[::1: not an http:// or https:// URL"},
		{"control characters", Config{URL: "https://puppetdb\x1b[2J"}, `PuppetDB https://puppetdb\u001b[2J: not an http:// or https:// URL`},
		{"TLS over http", Config{URL: "http://puppetdb:8080", CACertPEM: ca.pem}, "but the URL is not https://"},
		{"both forms", Config{URL: "https://puppetdb", Key: "/k", KeyPEM: client.keyPEM}, "give key or key_pem, not both"},
		{"cert without key", Config{URL: "https://puppetdb", CertPEM: client.certPEM}, "a client certificate (cert_pem) needs its key"},
		{"key without cert", Config{URL: "https://puppetdb", KeyPEM: client.keyPEM}, "a key (key_pem) needs its client certificate"},
		{"missing file", Config{URL: "https://puppetdb", CACert: "/nonexistent/ca.pem"}, "cacert /nonexistent/ca.pem: no such file"},
		{"not a CA", Config{URL: "https://puppetdb", CACertPEM: "hello"}, "cacert_pem holds no PEM certificate"},
		{"wrong key", Config{URL: "https://puppetdb", CertPEM: client.certPEM, KeyPEM: other.keyPEM}, "the client certificate (cert_pem) and key (key_pem) do not make a pair: private key does not match public key"},
		{"expired client", Config{URL: "https://puppetdb", CertPEM: expired.certPEM, KeyPEM: expired.keyPEM}, "the client certificate (cert_pem) expired on "},
	} {
		_, err := New(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "PRIVATE KEY") {
			t.Errorf("%s: a secret is in the error: %v", tc.name, err)
		}
	}
}

// As a fleet's node source: each node named by its certname, its origin naming PuppetDB; a node
// also in a facts directory is an error naming both.
func TestFleetNodes(t *testing.T) {
	t.Parallel()
	srv, _ := fakePuppetDB(t, `[{"certname":"b.example.com","facts":{"role":"db"}},{"certname":"a.example.com","facts":{"role":"web"}}]`)
	c := newClient(t, Config{URL: srv.URL})
	nodes, err := fleet.Collect(context.Background(), fleet.SourceFunc(func(ctx context.Context) ([]fleet.Node, error) {
		return c.FleetNodes(ctx, "")
	}))
	if err != nil || len(nodes) != 2 || nodes[0].Name != "a.example.com" || jsonOf(t, nodes[0].Facts) != `{"role":"web"}` {
		t.Fatalf("%+v, %v", nodes, err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.json"), []byte(`{"clientcert":"a.example.com"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = fleet.Collect(context.Background(), fleet.Dir(dir), fleet.SourceFunc(func(ctx context.Context) ([]fleet.Node, error) {
		return c.FleetNodes(ctx, "")
	}))
	want := fmt.Sprintf(`two nodes are named "a.example.com": %s and PuppetDB %s node "a.example.com"`, filepath.Join(dir, "a.json"), srv.URL)
	if err == nil || err.Error() != want {
		t.Errorf("%v\nwant %s", err, want)
	}
}

// PuppetDB's query API never redirects: a redirect (from a proxy or an SSO front) is refused with
// its status and target host, and the token never reaches the other host, over https or plain http.
func TestNodesRefusesRedirect(t *testing.T) {
	t.Parallel()
	var tokensElsewhere, requestsElsewhere atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requestsElsewhere.Add(1)
		if r.Header.Get("X-Authentication") != "" {
			tokensElsewhere.Add(1)
		}
		_, _ = io.WriteString(w, `[{"certname":"stolen","facts":{}}]`)
	}))
	defer elsewhere.Close()
	for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		for _, newServer := range []func(http.Handler) *httptest.Server{httptest.NewServer, httptest.NewTLSServer} {
			srv := newServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, elsewhere.URL+r.URL.Path+"?token="+secretToken, status)
			}))
			cfg := Config{URL: srv.URL, Token: secretToken}
			if srv.TLS != nil {
				cfg.CACertPEM = string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}))
			}
			nodes, err := collect(newClient(t, cfg), "")
			want := fmt.Sprintf("PuppetDB %s/pdb/query/v4: HTTP %d %s redirects to %s: refused, PuppetDB's query API does not redirect",
				srv.URL, status, http.StatusText(status), elsewhere.URL)
			if err == nil || !strings.HasPrefix(err.Error(), want) || len(nodes) != 0 {
				t.Errorf("%d from %s: %d nodes, %v\nwant it to start %q", status, srv.URL, len(nodes), err, want)
			}
			if err != nil && strings.Contains(err.Error(), secretToken) {
				t.Errorf("the token is in the error: %v", err)
			}
			srv.Close()
		}
	}
	if requestsElsewhere.Load() != 0 || tokensElsewhere.Load() != 0 {
		t.Errorf("the other host got %d requests, %d with the token", requestsElsewhere.Load(), tokensElsewhere.Load())
	}
}

// A server that trickles its answer, never pausing for the timeout, is cut off at
// WholeQueryTimeouts times the timeout, long before it has sent everything.
func TestNodesWholeQueryTimeout(t *testing.T) {
	t.Parallel()
	const pieces = 400 // at 20 ms each, 8 s: sixteen times the whole query's 0.5 s
	var sent atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		answer := `[{"certname":"a","facts":{"pad":"` + strings.Repeat("x", pieces) + `"}}]`
		f, _ := w.(http.Flusher)
		for i := range answer {
			if _, err := io.WriteString(w, answer[i:i+1]); err != nil {
				return
			}
			f.Flush()
			sent.Add(1)
			select {
			case <-time.After(20 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
	}))
	defer srv.Close()
	c := newClient(t, Config{URL: srv.URL, Timeout: 5 * time.Second, QueryTimeout: 500 * time.Millisecond})
	_, err := collect(c, "")
	want := "PuppetDB " + srv.URL + "/pdb/query/v4: the whole query took longer than 500ms (a server sending its answer that slowly is not answering)"
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "after 0 nodes") {
		t.Errorf("%v\nwant it to start %q", err, want)
	}
	if n := sent.Load(); n >= pieces {
		t.Errorf("the server sent %d of its %d bytes before the query ended", n, pieces)
	}
}

// An error page echoing the request's headers does not put the token, or any credential header's
// value, into the error.
func TestNodesErrorRedactsToken(t *testing.T) {
	t.Parallel()
	echo := func(status int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(status)
			_, _ = fmt.Fprintf(w, "<html>request headers:\nX-Authentication: %s\nAuthorization: Bearer other-secret\n{\"cookie\": \"session=third-secret\"}\ntoken again: %s</html>",
				r.Header.Get("X-Authentication"), r.Header.Get("X-Authentication"))
		}
	}
	for _, status := range []int{http.StatusBadGateway, http.StatusOK} {
		srv := httptest.NewServer(echo(status))
		_, err := collect(newClient(t, Config{URL: srv.URL, Token: secretToken}), "")
		srv.Close()
		if err == nil || !strings.Contains(err.Error(), "X-Authentication: [redacted]") || !strings.Contains(err.Error(), "token again: [redacted]") {
			t.Errorf("%d: %v", status, err)
			continue
		}
		for _, secret := range []string{secretToken, "other-secret", "third-secret"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("%d: %q is in the error: %v", status, secret, err)
			}
		}
	}
}

// An error page cut where the token stands (the 8 KiB of a status error quoted, the 200 characters
// of an answer that is not JSON) leaves no part of the token in the error either.
func TestNodesErrorCutRedactsToken(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status int
		cut    int // where the error's quote of the page ends
	}{{http.StatusBadGateway, 8 << 10}, {http.StatusOK, 200}} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(tc.status)
			_, _ = io.WriteString(w, strings.Repeat("x", tc.cut-8)+r.Header.Get("X-Authentication")+strings.Repeat("y", 600))
		}))
		_, err := collect(newClient(t, Config{URL: srv.URL, Token: secretToken}), "")
		srv.Close()
		if err == nil || !strings.Contains(err.Error(), "xxxx") {
			t.Errorf("%d: %v, want the page quoted", tc.status, err)
			continue
		}
		if prefix := secretToken[:8]; strings.Contains(err.Error(), prefix) {
			t.Errorf("%d: the token's first 8 characters %q are in the error: ...%s", tc.status, prefix, err.Error()[max(0, len(err.Error())-80):])
		}
	}
}
