package puppetdb

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Node is one node as PuppetDB holds it: its certname and facts. The facts include the node's
// trusted data as PuppetDB stores it, a "trusted" fact, which the engine makes the node's $trusted
// as Puppet does (hiera.TrustedFact).
type Node struct {
	Certname string
	Facts    *model.Hash
}

// AllNodes is the query for every active node.
const AllNodes = "inventory[certname, facts] {}"

// MaxNodeSize bounds one node's entry in PuppetDB's answer, as facts.MaxFileSize bounds a facts file.
const MaxNodeSize = 16 << 20

// Nodes runs query and calls each with every node of its answer as the node arrives; an error
// from each stops the query and is returned as is. query is PQL (an inventory query, e.g.
// `inventory[certname, facts] { facts.role = "web" }`), or an AST query over the
// inventory endpoint (JSON starting with "["); "" means AllNodes. It returns how many nodes came.
func (c *Client) Nodes(ctx context.Context, query string, each func(*Node) error) (int, error) {
	path, body, err := request(query)
	if err != nil {
		return 0, &Error{URL: c.base + path, Msg: err.Error()}
	}
	ctx, cancel := context.WithTimeoutCause(ctx, c.whole, errWholeQuery)
	defer cancel()
	n, err := c.query(ctx, path, body, each)
	var fromEach eachError
	if errors.As(err, &fromEach) {
		return n, fromEach.err
	}
	return n, c.redactToken(err)
}

// query posts body and decodes the answer's nodes.
func (c *Client) query(ctx context.Context, path string, body []byte, each func(*Node) error) (int, error) {
	answer, err := c.post(ctx, path, body)
	if err != nil {
		return 0, err
	}
	defer func() { _ = answer.Close() }()
	n, err := decodeNodes(answer, c.token, each)
	var pdbErr *Error
	var fromEach eachError
	if err == nil || errors.As(err, &pdbErr) || errors.As(err, &fromEach) {
		return n, err
	}
	err = causeOf(ctx, err)
	return n, &Error{URL: c.base + path, Msg: c.streamMessage(err, n), Err: err}
}

// Node reads the node named certname; PuppetDB holding no active node of that name is an error.
func (c *Client) Node(ctx context.Context, certname string) (*Node, error) {
	ast, _ := json.Marshal([]string{"=", "certname", certname})
	var found *Node
	_, err := c.Nodes(ctx, string(ast), func(n *Node) error { found = n; return nil })
	if err != nil {
		return nil, err
	}
	if found == nil {
		return nil, &Error{URL: c.base + inventoryPath, Msg: fmt.Sprintf("no active node named %q (deactivated and expired nodes are left out)", certname)}
	}
	return found, nil
}

const (
	queryPath     = "/pdb/query/v4"
	inventoryPath = "/pdb/query/v4/inventory"
)

// request is the endpoint and body for query: PQL goes to the root query endpoint, an AST query
// to the inventory endpoint.
func request(query string) (path string, body []byte, err error) {
	query = strings.TrimSpace(query)
	if query == "" {
		query = AllNodes
	}
	if strings.HasPrefix(query, "[") {
		if !json.Valid([]byte(query)) {
			return inventoryPath, nil, errors.New("the query starts with \"[\" but is not a JSON AST query (PQL starts with an entity: inventory[certname, facts] { ... })")
		}
		body, err = json.Marshal(map[string]json.RawMessage{"query": json.RawMessage(query)})
		return inventoryPath, body, err
	}
	body, err = json.Marshal(map[string]string{"query": query})
	return queryPath, body, err
}

// eachError carries an error of the caller's function through decodeNodes untouched.
type eachError struct{ err error }

func (e eachError) Error() string { return e.err.Error() }

// decodeNodes reads the answer, a JSON array of inventory entries, one entry at a time (an answer
// that is not quotes its start, the token redacted).
func decodeNodes(answer io.Reader, token string, each func(*Node) error) (int, error) {
	window := &window{r: answer, left: MaxNodeSize}
	buffered := bufio.NewReaderSize(window, 64<<10)
	if err := expectArray(buffered, token); err != nil {
		return 0, err
	}
	dec := json.NewDecoder(buffered)
	if _, err := dec.Token(); err != nil { // the "[" expectArray saw
		return 0, err
	}
	n := 0
	for dec.More() {
		window.left = MaxNodeSize
		var entry struct {
			Certname *string
			Facts    json.RawMessage
		}
		if err := dec.Decode(&entry); err != nil {
			if errors.Is(err, errNodeTooLarge) {
				return n, fmt.Errorf("node %d of the answer is larger than %d MB", n+1, MaxNodeSize>>20)
			}
			return n, err
		}
		node, err := entryNode(entry.Certname, entry.Facts)
		if err != nil {
			return n, fmt.Errorf("node %d of the answer: %w", n+1, err)
		}
		n++
		if err := each(node); err != nil {
			return n, eachError{err}
		}
	}
	if _, err := dec.Token(); err != nil { // the closing "]"
		return n, err
	}
	return n, nil
}

// expectArray checks that the answer starts as a JSON array, quoting its start when it does not.
func expectArray(r *bufio.Reader, token string) error {
	start, err := r.Peek(512)
	if len(start) == 0 && err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("the answer is empty, not JSON")
		}
		return err
	}
	trimmed := bytes.TrimLeft(start, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return nil
	}
	snippet, cut := cutRedacted(strings.TrimSpace(printable(string(bytes.ToValidUTF8(trimmed, []byte("?"))))), token, 200)
	if cut {
		snippet += "..."
	}
	if len(trimmed) > 0 && (trimmed[0] == '{' || json.Valid(bytes.TrimSpace(trimmed))) {
		return fmt.Errorf("the answer is not the list of nodes an inventory query gives: %s", snippet)
	}
	return fmt.Errorf("the answer is not JSON (is the URL PuppetDB's, without a path?): %s", snippet)
}

// entryNode makes a Node of one inventory entry.
func entryNode(certname *string, facts json.RawMessage) (*Node, error) {
	if certname == nil || *certname == "" {
		return nil, errors.New("it has no certname: the query must be an inventory query giving certname and facts, e.g. inventory[certname, facts] { ... }")
	}
	if len(facts) == 0 {
		return nil, fmt.Errorf("%s has no facts: the query must be an inventory query giving certname and facts, e.g. inventory[certname, facts] { ... }", printable(*certname))
	}
	f, err := hashOf(facts)
	if err != nil {
		return nil, fmt.Errorf("%s: facts: %w", printable(*certname), err)
	}
	if f == nil {
		f = model.NewHash(0)
	}
	return &Node{Certname: *certname, Facts: f}, nil
}

// hashOf reads a JSON object (nil for null) with the engine's JSON reader.
func hashOf(raw json.RawMessage) (*model.Hash, error) {
	v, err := datafile.ParseJSON(raw)
	if err != nil {
		return nil, err
	}
	switch t := v.(type) {
	case *model.Hash:
		return t, nil
	case nil:
		return nil, nil
	}
	return nil, fmt.Errorf("not a hash: %s", model.ClassName(v))
}

// streamMessage words an answer that broke off or went wrong while it streamed.
func (c *Client) streamMessage(err error, nodes int) string {
	switch {
	case errors.Is(err, errWholeQuery):
		return wholeQueryMessage(c.whole) + fmt.Sprintf(" after %d nodes", nodes)
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("the answer stopped for longer than the timeout of %s after %d nodes", c.timeout, nodes)
	case errors.Is(err, context.Canceled):
		return "the query was cancelled"
	}
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Sprintf("the answer is not valid JSON after %d nodes: %s", nodes, err)
	}
	return err.Error()
}

var errNodeTooLarge = errors.New("node too large")

// window lets at most left more bytes through; decodeNodes renews it for every node, so no node
// of the answer can make the decoder buffer more than MaxNodeSize (plus a read-ahead).
type window struct {
	r    io.Reader
	left int64
}

func (w *window) Read(p []byte) (int, error) {
	if w.left <= 0 {
		return 0, errNodeTooLarge
	}
	if int64(len(p)) > w.left {
		p = p[:w.left]
	}
	n, err := w.r.Read(p)
	w.left -= int64(n)
	return n, err
}
