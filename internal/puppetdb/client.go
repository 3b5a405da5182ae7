package puppetdb

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
)

// Config says how to reach PuppetDB. Each certificate and the key is given as a file path or as
// PEM text, not both.
type Config struct {
	URL string // e.g. https://puppetdb.example.com:8081 (a path prefix is kept)

	CACert, Cert, Key          string // paths
	CACertPEM, CertPEM, KeyPEM string // PEM text

	Token string // Puppet Enterprise RBAC token

	// Timeout bounds the wait for PuppetDB: connecting, the answer's start, and each pause while
	// it streams. 0 means DefaultTimeout.
	Timeout time.Duration
	// QueryTimeout bounds a whole query, retries and the answer's streaming included. 0 means
	// WholeQueryTimeouts times Timeout.
	QueryTimeout time.Duration
	// Attempts is how many times a request that cannot connect is made. 0 means DefaultAttempts.
	Attempts int
}

const (
	DefaultTimeout  = 30 * time.Second
	DefaultAttempts = 3
	// retryPause is the wait before the second attempt; it doubles after each.
	retryPause = 500 * time.Millisecond
	// WholeQueryTimeouts times the timeout bounds a whole query by default, so that a server trickling its
	// answer a byte at a time, never pausing for the timeout, cannot hold a plan for ever (10
	// minutes at the default timeout: a fleet of 50,000 nodes streams in well under that).
	WholeQueryTimeouts = 20
)

// Error is a failure to query PuppetDB at URL.
type Error struct {
	URL string
	Msg string
	Err error // the cause, when there is one; its text is part of Msg
}

func (e *Error) Error() string { return fmt.Sprintf("PuppetDB %s: %s", e.URL, e.Msg) }
func (e *Error) Unwrap() error { return e.Err }

// Client queries one PuppetDB. It is safe for concurrent use.
type Client struct {
	base     string // the URL without a trailing slash and without user information
	token    string
	timeout  time.Duration
	whole    time.Duration // the whole query's bound
	attempts int
	http     *http.Client
}

// New checks cfg and prepares its TLS settings; it does not connect.
func New(cfg Config) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(cfg.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &Error{URL: redact(cfg.URL), Msg: "not an http:// or https:// URL"}
	}
	u.User = nil // a password in the URL is never sent nor shown
	u.RawQuery, u.Fragment = "", ""
	c := &Client{
		base:     strings.TrimSuffix(u.String(), "/"),
		token:    cfg.Token,
		timeout:  cfg.Timeout,
		attempts: cfg.Attempts,
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.whole = cfg.QueryTimeout; c.whole <= 0 {
		c.whole = WholeQueryTimeouts * c.timeout
	}
	if c.attempts <= 0 {
		c.attempts = DefaultAttempts
	}
	tlsConfig, err := tlsSettings(cfg, u.Scheme == "https")
	if err != nil {
		return nil, &Error{URL: c.base, Msg: err.Error()}
	}
	dialer := &net.Dialer{Timeout: c.timeout, KeepAlive: 30 * time.Second}
	c.http = &http.Client{CheckRedirect: refuseRedirect, Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		TLSClientConfig:       tlsConfig,
		TLSHandshakeTimeout:   c.timeout,
		ResponseHeaderTimeout: c.timeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		ForceAttemptHTTP2:     true,
	}}
	return c, nil
}

// URL is the PuppetDB URL the client queries, as errors name it.
func (c *Client) URL() string { return c.base }

// redact drops user information, the query and the fragment from a URL for messages (as New
// drops them from the URL it queries: a PE token may be given as ?token=), and escapes control
// characters.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err == nil {
		if u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
			u.User = nil
			u.RawQuery, u.ForceQuery, u.Fragment = "", false, ""
			return printable(u.String())
		}
		return printable(raw)
	}
	if q := strings.IndexAny(raw, "?#"); q >= 0 { // unparsed: a query or fragment is dropped
		raw = raw[:q]
	}
	if at := strings.LastIndexByte(raw, '@'); at >= 0 { // and whatever precedes the last '@'
		scheme, _, found := strings.Cut(raw, "://")
		if found && len(scheme) < at {
			return printable(scheme + "://" + raw[at+1:])
		}
		return printable(raw[at+1:])
	}
	return printable(raw)
}

// credentialHeader is a header that carries a credential, as an error page echoing the request
// shows it ("X-Authentication: ...", "Authorization: Bearer ...", "cookie": "..."), with its value.
var credentialHeader = regexp.MustCompile(`(?i)((?:x-authentication|authorization|cookie|x-[a-z-]*token|x-api-key)["']?[ \t]*[:=][ \t]*["']?)[^"'\r\n]+`)

// redactToken takes the token, and the value of every header that carries a credential, out of
// an error's text: PuppetDB, or a proxy before it, may answer with a page that echoes the request.
func (c *Client) redactToken(err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	msg := credentialHeader.ReplaceAllString(e.Msg, "${1}[redacted]")
	if c.token != "" {
		msg = strings.ReplaceAll(msg, c.token, "[redacted]")
	}
	if msg == e.Msg {
		return err
	}
	return &Error{URL: e.URL, Msg: msg} // the cause goes: its text is the part redacted
}

// tlsSettings reads the CA, client certificate and key. Errors name the file or attribute, never
// a key's text.
func tlsSettings(cfg Config, https bool) (*tls.Config, error) {
	ca, err := pemInput("cacert", cfg.CACert, cfg.CACertPEM)
	if err != nil {
		return nil, err
	}
	cert, err := pemInput("cert", cfg.Cert, cfg.CertPEM)
	if err != nil {
		return nil, err
	}
	key, err := pemInput("key", cfg.Key, cfg.KeyPEM)
	if err != nil {
		return nil, err
	}
	if !https {
		if ca.given() || cert.given() || key.given() {
			return nil, errors.New("a CA certificate, client certificate or key is given but the URL is not https://")
		}
		return nil, nil
	}
	t := &tls.Config{MinVersion: tls.VersionTLS12}
	if ca.given() {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(ca.data) {
			return nil, fmt.Errorf("%s holds no PEM certificate", ca.name)
		}
		t.RootCAs = pool
	}
	switch {
	case cert.given() && key.given():
		pair, err := tls.X509KeyPair(cert.data, key.data)
		if err != nil {
			return nil, fmt.Errorf("the client certificate (%s) and key (%s) do not make a pair: %s", cert.name, key.name, keyPairReason(err))
		}
		if leaf, err := x509.ParseCertificate(pair.Certificate[0]); err == nil {
			if now := time.Now(); now.After(leaf.NotAfter) {
				return nil, fmt.Errorf("the client certificate (%s) expired on %s", cert.name, leaf.NotAfter.UTC().Format(time.RFC3339))
			} else if now.Before(leaf.NotBefore) {
				return nil, fmt.Errorf("the client certificate (%s) is not valid before %s", cert.name, leaf.NotBefore.UTC().Format(time.RFC3339))
			}
		}
		t.Certificates = []tls.Certificate{pair}
	case cert.given():
		return nil, fmt.Errorf("a client certificate (%s) needs its key (key or key_pem)", cert.name)
	case key.given():
		return nil, fmt.Errorf("a key (%s) needs its client certificate (cert or cert_pem)", key.name)
	}
	return t, nil
}

// keyPairReason is tls.X509KeyPair's reason, which never quotes the key.
func keyPairReason(err error) string {
	return strings.TrimPrefix(err.Error(), "tls: ")
}

// maxPEMFileSize bounds a CA, certificate or key file: a bundle of every public CA is a few
// hundred kilobytes, and a path naming /dev/zero or a huge file must not exhaust memory.
const maxPEMFileSize = 4 << 20

type pemData struct {
	name string // the file, or the attribute that held the text
	data []byte
}

func (p pemData) given() bool { return p.data != nil }

// pemInput reads a path or takes PEM text (what) and says which it was.
func pemInput(what, path, text string) (pemData, error) {
	switch {
	case path != "" && text != "":
		return pemData{}, fmt.Errorf("give %s or %s_pem, not both", what, what)
	case text != "":
		return pemData{name: what + "_pem", data: []byte(text)}, nil
	case path != "":
		data, err := boundedfile.Read(path, maxPEMFileSize)
		if err != nil {
			var pathErr *fs.PathError
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return pemData{}, fmt.Errorf("%s %s: no such file", what, path)
			case errors.As(err, &pathErr):
				return pemData{}, fmt.Errorf("%s %s: %v", what, path, pathErr.Err)
			}
			return pemData{}, fmt.Errorf("%s %v", what, err) // "PATH is a named pipe, not a regular file"
		}
		return pemData{name: path, data: data}, nil
	}
	return pemData{}, nil
}

// post sends body to the endpoint path and returns the answer of status 200, its body to be read
// within the timeout's pauses (close it). Requests that cannot connect are tried again; an
// answer of another status is an error quoting PuppetDB's message.
func (c *Client) post(ctx context.Context, path string, body []byte) (io.ReadCloser, error) {
	endpoint := c.base + path
	pause := retryPause
	for attempt := 1; ; attempt++ {
		resp, err := c.postOnce(ctx, endpoint, body)
		if err == nil {
			if resp.StatusCode == http.StatusOK {
				return resp.Body, nil
			}
			defer func() { _ = resp.Body.Close() }()
			if isRedirect(resp.StatusCode) {
				return nil, redirectError(endpoint, resp)
			}
			return nil, statusError(endpoint, resp, c.token)
		}
		if attempt >= c.attempts || !connectionError(err) || ctx.Err() != nil {
			return nil, c.requestError(endpoint, causeOf(ctx, err), attempt)
		}
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return nil, c.requestError(endpoint, causeOf(ctx, ctx.Err()), attempt)
		}
		pause *= 2
	}
}

// postOnce makes one request; the body of its answer cancels the request when closed or when it
// stalls longer than the timeout.
func (c *Client) postOnce(ctx context.Context, endpoint string, body []byte) (*http.Response, error) {
	ctx, cancel := context.WithCancel(ctx)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		cancel()
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.token != "" {
		req.Header.Set("X-Authentication", c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = newStallGuard(resp.Body, c.timeout, cancel)
	return resp, nil
}

// errWholeQuery is the cause of a query cancelled at WholeQueryTimeouts times the timeout.
var errWholeQuery = errors.New("the whole query took too long")

func wholeQueryMessage(whole time.Duration) string {
	return fmt.Sprintf("the whole query took longer than %s (a server sending its answer that slowly is not answering)", whole)
}

// refuseRedirect stops Go's client from following a redirect: PuppetDB's query API never
// redirects, and the client would resend the X-Authentication token to wherever the answer points
// (Go strips only the standard authorization headers), https to http included. post refuses the
// redirect it gets back instead.
func refuseRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// isRedirect reports a status Go's client would follow (it also gives back 300 and 304 as they
// are: every 3xx is an answer PuppetDB's query API never gives).
func isRedirect(status int) bool { return status >= 300 && status < 400 }

// redirectError refuses a redirect, naming its status and the host it points to (never the path
// or query, which may hold a token, nor the token sent).
func redirectError(endpoint string, resp *http.Response) error {
	target := "no Location"
	if loc, err := resp.Location(); err == nil {
		target = loc.Scheme + "://" + loc.Host
	}
	return &Error{URL: endpoint, Msg: fmt.Sprintf("HTTP %s redirects to %s: refused, PuppetDB's query API does not redirect "+
		"and the token or client certificate is only for this URL (give the URL PuppetDB itself answers at)", resp.Status, printable(target))}
}

// connectionError is an error before any answer that another attempt may not meet: the
// connection refused, reset or closed before the answer. Timeouts and TLS failures are final.
func connectionError(err error) bool {
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return false
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) {
		return opErr.Op == "dial" || opErr.Op == "read" || opErr.Op == "write"
	}
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// causeOf is err, or errWholeQuery when that is why ctx ended.
func causeOf(ctx context.Context, err error) error {
	if errors.Is(context.Cause(ctx), errWholeQuery) {
		return errors.Join(errWholeQuery, err)
	}
	return err
}

// requestError words a request that got no answer.
func (c *Client) requestError(endpoint string, err error, attempts int) error {
	var netErr net.Error
	var msg string
	switch {
	case errors.Is(err, errWholeQuery):
		msg = wholeQueryMessage(c.whole)
	case errors.Is(err, context.Canceled):
		msg = "the query was cancelled"
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		msg = fmt.Sprintf("no answer within the timeout of %s", c.timeout)
	default:
		msg = describeTransportError(err)
	}
	if attempts > 1 {
		msg += fmt.Sprintf(" (tried %d times)", attempts)
	}
	return &Error{URL: endpoint, Msg: msg, Err: err}
}

// describeTransportError says what went wrong in the words a user acts on, keeping Go's detail
// (without the URL it repeats).
func describeTransportError(err error) string {
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var opErr *net.OpError
	detail := err.Error()
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		detail = urlErr.Err.Error()
	}
	switch {
	case errors.As(err, &hostname):
		return "the server's certificate does not name this host: " + detail
	case errors.As(err, &unknownCA):
		return "the server's certificate is not signed by a trusted CA (give the Puppet CA as cacert): " + detail
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		return "the server's certificate has expired or is not yet valid: " + detail
	case strings.Contains(detail, "remote error: tls:"):
		return "PuppetDB refused the TLS connection (it needs a client certificate its allowlist admits, signed by its CA): " + detail
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return "cannot connect (is PuppetDB running there?): " + detail
	}
	return detail
}

// maxQuoted is how much of an error page an error quotes.
const maxQuoted = 8 << 10

// statusError reads the start of an answer that is not 200 and passes PuppetDB's message on, the
// token redacted (a page may echo the request).
func statusError(endpoint string, resp *http.Response, token string) error {
	text, _ := io.ReadAll(io.LimitReader(resp.Body, int64(maxQuoted+len(token)))) // a token the cut meets is read whole
	msg := fmt.Sprintf("HTTP %s", resp.Status)
	quoted, _ := cutRedacted(printable(string(text)), token, maxQuoted)
	if s := strings.TrimSpace(quoted); s != "" {
		msg += ": " + s
	}
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		msg += " (check the token, or that PuppetDB's certificate-allowlist admits the client certificate)"
	}
	return &Error{URL: endpoint, Msg: msg}
}

// cutRedacted is s with the token redacted, then cut to at most limit bytes (on a character's
// start), and whether it was cut: redacting after the cut would leave the start of a token the
// cut meets.
func cutRedacted(s, token string, limit int) (string, bool) {
	if token != "" {
		s = strings.ReplaceAll(s, token, "[redacted]")
	}
	if len(s) <= limit {
		return s, false
	}
	for limit > 0 && !utf8.RuneStart(s[limit]) {
		limit--
	}
	return s[:limit], true
}

// printable escapes control characters other than newline and tab, so that a server's text
// cannot move a terminal's cursor.
func printable(s string) string {
	if strings.IndexFunc(s, unwanted) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unwanted(r) {
			fmt.Fprintf(&b, "\\u%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func unwanted(r rune) bool {
	return r != '\n' && r != '\t' && (unicode.IsControl(r) || r == unicode.ReplacementChar)
}

// stallGuard is a response body that cancels its request when a read waits longer than the
// timeout, so a server that stops in the middle of a long answer fails the query.
type stallGuard struct {
	body    io.ReadCloser
	timer   *time.Timer
	timeout time.Duration
	cancel  context.CancelFunc
	stalled bool
}

func newStallGuard(body io.ReadCloser, timeout time.Duration, cancel context.CancelFunc) *stallGuard {
	timer := time.AfterFunc(timeout, cancel)
	timer.Stop()
	return &stallGuard{body: body, timer: timer, timeout: timeout, cancel: cancel}
}

// Read times only the read itself: a reader that takes its time between reads (answering each
// node as it comes) is no stalling server. Once cut off, every later read says so (the JSON
// decoder reads again after an error).
func (g *stallGuard) Read(p []byte) (int, error) {
	if g.stalled {
		return 0, context.DeadlineExceeded
	}
	g.timer.Reset(g.timeout)
	n, err := g.body.Read(p)
	if fired := !g.timer.Stop(); fired && err != nil && !errors.Is(err, io.EOF) {
		g.stalled = true
		return n, context.DeadlineExceeded
	}
	return n, err
}

func (g *stallGuard) Close() error {
	g.timer.Stop()
	g.cancel()
	return g.body.Close()
}
