package datafile

// YAML read errors: positions and the wording Psych uses.

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// YAMLError is a YAML file that cannot be read. Line and Column are 1-based, 0 when unknown.
type YAMLError struct {
	Line, Column int
	Msg          string
}

func (e *YAMLError) Error() string { return dataErrorPosition(e.Line, e.Column) + e.Msg }

// dataErrorPosition renders "line L, column C: " (or less when the position is not known).
func dataErrorPosition(line, col int) string {
	switch {
	case line > 0 && col > 0:
		return fmt.Sprintf("line %d, column %d: ", line, col)
	case line > 0:
		return fmt.Sprintf("line %d: ", line)
	}
	return ""
}

var yamlV3ErrorRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// yamlParserContexts are libyaml's parser problems (as opposed to scanner ones), with the context
// Psych prints after them when it is always the same.
var yamlParserContexts = map[string]string{
	"did not find expected ',' or ']'":       "while parsing a flow sequence",
	"did not find expected ',' or '}'":       "while parsing a flow mapping",
	"did not find expected '-' indicator":    "while parsing a block collection",
	"did not find expected key":              "while parsing a block mapping",
	"did not find expected node content":     "",
	"did not find expected <document start>": "",
	"found duplicate %TAG directive":         "",
	"found duplicate %YAML directive":        "",
	"found incompatible YAML document":       "",
	"found undefined tag handle":             "",
}

// textPosition is the 1-based line and column (in characters) of byte offset i of data.
func textPosition(data []byte, i int) (line, col int) {
	before := data[:i]
	return 1 + bytes.Count(before, []byte("\n")), 1 + utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:])
}

// yamlSyntaxError turns a yaml.v3 error into a *YAMLError. yaml.v3 gives a line but no column; it leaves
// the line out when it is the first one, and gives parser (not scanner) errors a 0-based line.
func yamlSyntaxError(err error, data []byte) *YAMLError {
	m := yamlV3ErrorRE.FindStringSubmatch(err.Error())
	if m == nil {
		return &YAMLError{Msg: err.Error()}
	}
	msg := m[2]
	if name, ok := strings.CutPrefix(msg, "unknown anchor '"); ok {
		// Psych's wording; yaml.v3 gives no position, so look for the alias in the text.
		name = strings.TrimSuffix(name, "' referenced")
		e := &YAMLError{Msg: "Unknown alias: " + name}
		if i := bytes.Index(data, []byte("*"+name)); i >= 0 {
			e.Line, e.Column = textPosition(data, i)
		}
		return e
	}
	line := 1
	if m[1] != "" {
		line, _ = strconv.Atoi(m[1])
	}
	if msg == "found character that cannot start any token" {
		msg += " while scanning for the next token" // a scanner error: its line is right
	} else if context, ok := yamlParserContexts[msg]; ok {
		if m[1] != "" {
			line++
		}
		if context != "" {
			msg += " " + context
		}
	}
	return &YAMLError{Line: line, Msg: msg}
}

func yamlNodeError(n *yaml.Node, format string, args ...any) *YAMLError {
	return &YAMLError{Line: n.Line, Column: n.Column, Msg: fmt.Sprintf(format, args...)}
}

// psychDisallowed is Psych's error for a class that safe_load does not permit (Puppet permits only Symbol).
func psychDisallowed(n *yaml.Node, class string) *YAMLError {
	return yamlNodeError(n, "Tried to load unspecified class: %s", class)
}
