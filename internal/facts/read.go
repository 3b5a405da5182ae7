package facts

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// MaxFileSize bounds one facts file: `facter -j` of a large server is a few hundred kilobytes.
const MaxFileSize = 16 << 20

// Node is the facts of one node.
type Node struct {
	// Name is the node's certname where the file gives one (the wrapped form's name, PuppetDB's
	// certname), else "".
	Name  string
	File  string
	Facts *model.Hash
}

// Error is a facts file that cannot be read. Line and Column are 1-based, 0 when unknown.
type Error struct {
	File         string
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	pos := ""
	switch {
	case e.Line > 0 && e.Column > 0:
		pos = fmt.Sprintf(", line %d, column %d", e.Line, e.Column)
	case e.Line > 0:
		pos = fmt.Sprintf(", line %d", e.Line)
	}
	return fmt.Sprintf("facts file %s%s: %s", e.File, pos, model.CutMessage(e.Msg)) // a reader's message may quote the text
}

// IsFactsFile tells whether a file of a directory is a facts file, by its extension.
func IsFactsFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json", ".yaml", ".yml":
		return true
	}
	return false
}

// ReadFile reads one facts file.
func ReadFile(path string) (*Node, error) {
	data, err := boundedfile.Read(path, MaxFileSize)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &Error{File: path, Msg: "no such file or directory"}
		}
		return nil, &Error{File: path, Msg: err.Error()}
	}
	return Parse(path, data)
}

// Parse reads the text of the facts file named file: JSON when its name ends in .json, YAML when
// in .yaml or .yml, else JSON when the text starts with { or [, else YAML.
func Parse(file string, data []byte) (*Node, error) {
	var v any
	var err error
	asJSON := isJSON(file, data)
	if asJSON {
		v, err = datafile.ParseJSON(data)
	} else {
		v, err = datafile.ParseFactsYAML(puppetCacheAsPlain(data), MaxFileSize)
	}
	if err != nil {
		e := positioned(file, err)
		if asJSON {
			e.Msg = "read as JSON " + jsonReason(file) + ": " + e.Msg
			if _, yamlErr := datafile.ParseFactsYAML(puppetCacheAsPlain(data), MaxFileSize); yamlErr == nil {
				e.Msg += " (the text is YAML: name the file .yaml)"
			}
		}
		return nil, e
	}
	n, msg := unwrap(v)
	if msg != "" {
		return nil, &Error{File: file, Msg: msg}
	}
	n.File = file
	return n, nil
}

// jsonReason says why a file is read as JSON (isJSON).
func jsonReason(file string) string {
	if strings.EqualFold(filepath.Ext(file), ".json") {
		return "(its name ends in .json)"
	}
	return "(its text starts with { or [)"
}

func isJSON(file string, data []byte) bool {
	switch strings.ToLower(filepath.Ext(file)) {
	case ".json":
		return true
	case ".yaml", ".yml":
		return false
	}
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// positioned turns a reader's error into an *Error naming file, line and column.
func positioned(file string, err error) *Error {
	var ye *datafile.YAMLError
	var je *datafile.JSONError
	switch {
	case errors.As(err, &ye):
		return &Error{File: file, Line: ye.Line, Column: ye.Column, Msg: ye.Msg}
	case errors.As(err, &je):
		return &Error{File: file, Line: je.Line, Column: je.Column, Msg: je.Msg}
	}
	return &Error{File: file, Msg: err.Error()}
}

// Puppet Server's YAML facts cache (and `puppet facts find --render-as yaml`) tags the document
// with Ruby's class and adds Time values, neither of which safe_load reads. The tag is blanked
// and the top-level timestamp and expiration lines become comments, keeping every line in place.
var (
	rubyFactsTag   = regexp.MustCompile(`\A(---[ \t]*)(!ruby/object:Puppet::Node::Facts)`)
	cacheTimeLines = regexp.MustCompile(`(?m)^(?:timestamp|expiration):`)
)

func puppetCacheAsPlain(data []byte) []byte {
	m := rubyFactsTag.FindSubmatchIndex(data)
	if m == nil {
		return data
	}
	out := bytes.Clone(data)
	for i := m[4]; i < m[5]; i++ {
		out[i] = ' '
	}
	for _, loc := range cacheTimeLines.FindAllIndex(out, -1) {
		out[loc[0]] = '#'
	}
	return out
}

// wrapperKeys are the keys the wrapped form has besides name and values.
var wrapperKeys = map[string]bool{"name": true, "values": true, "timestamp": true, "expiration": true}

// unwrap finds the facts in a file's value; msg says why there are none.
func unwrap(v any) (n *Node, msg string) {
	switch t := v.(type) {
	case *model.Hash:
		if name, values, ok := wrapped(t); ok {
			return &Node{Name: name, Facts: values}, ""
		}
		return &Node{Facts: t}, ""
	case []any:
		return puppetDBList(t)
	case nil:
		return nil, "the file holds no facts (it is empty)"
	}
	return nil, fmt.Sprintf("the file holds %s, not a hash of facts", describe(v))
}

// wrapped recognizes {"name": certname, "values": {facts}} with at most timestamp and expiration besides.
func wrapped(h *model.Hash) (name string, values *model.Hash, ok bool) {
	nv, _ := h.Get("name")
	vv, _ := h.Get("values")
	name, isName := nv.(string)
	values, isValues := vv.(*model.Hash)
	if !isName || !isValues {
		return "", nil, false
	}
	for _, k := range h.Keys() {
		if s, isStr := k.(string); !isStr || !wrapperKeys[s] {
			return "", nil, false
		}
	}
	return name, values, true
}

// puppetDBList reads PuppetDB's facts of one node: [{"certname": c, "name": fact, "value": v}, ...].
func puppetDBList(list []any) (*Node, string) {
	facts := model.NewHash(len(list))
	certname := ""
	for i, e := range list {
		h, _ := e.(*model.Hash)
		var name any
		var value any
		var hasValue bool
		if h != nil {
			name, _ = h.Get("name")
			value, hasValue = h.Get("value")
		}
		fact, isStr := name.(string)
		if !isStr || !hasValue {
			return nil, fmt.Sprintf("entry %d of the list is not a PuppetDB fact ({\"name\": ..., \"value\": ...}); a facts file is a hash of facts", i)
		}
		if c, _ := h.Get("certname"); c != nil {
			cs, _ := c.(string)
			if certname != "" && cs != certname {
				return nil, fmt.Sprintf("the list holds facts of more than one node (%q and %q); give one file per node", certname, cs)
			}
			certname = cs
		}
		facts.Set(fact, value)
	}
	return &Node{Name: certname, Facts: facts}, ""
}

func describe(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	}
	return fmt.Sprintf("a %T", v)
}
