package cli

// check --types: the value types a control repository's keys must have.

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"gopkg.in/yaml.v3"

	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/ptype"
)

// maxTypesFileSize bounds a types file: one line per key, a few thousand keys.
const maxTypesFileSize = 4 << 20

// typedKey is one entry of a types file: a lookup key and the Puppet type its value must have.
type typedKey struct {
	key, typ string
	line     int // in the types file
}

// typesError is a types file that cannot be used, placed at its line where it has one.
type typesError struct {
	file string
	line int
	msg  string
}

func (e *typesError) Error() string {
	if e.line > 0 {
		return fmt.Sprintf("types file %s, line %d: %s", e.file, e.line, e.msg)
	}
	return fmt.Sprintf("types file %s: %s", e.file, e.msg)
}

// emptyDocument says whether a YAML document holds nothing: no node, or null.
func emptyDocument(doc *yaml.Node) bool {
	return len(doc.Content) == 0 || (doc.Content[0].Kind == yaml.ScalarNode && doc.Content[0].Tag == "!!null")
}

// readTypes reads a types file: a YAML or JSON mapping of lookup keys to Puppet type expressions,
// as lookup()'s value_type takes them, each parsed as Puppet parses it.
func readTypes(path string) (keys []typedKey, err error) {
	defer func() {
		if r := recover(); r != nil { // the YAML reader on input it does not expect: never a crash
			keys, err = nil, &typesError{file: path, msg: fmt.Sprintf("cannot be read as YAML: %v", r)}
		}
	}()
	text, err := boundedfile.Read(path, maxTypesFileSize)
	if err != nil {
		return nil, &typesError{file: path, msg: err.Error()}
	}
	var doc, next yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(text))
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return nil, nil // an empty file names no key
	} else if err != nil {
		return nil, &typesError{file: path, msg: err.Error()}
	}
	if err := dec.Decode(&next); err == nil && !emptyDocument(&next) {
		return nil, &typesError{file: path, line: next.Line, msg: "a second YAML document: a types file is one mapping (remove the '---')"}
	} else if err != nil && !errors.Is(err, io.EOF) {
		return nil, &typesError{file: path, msg: err.Error()}
	}
	if emptyDocument(&doc) {
		return nil, nil // "---" alone names no key
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, &typesError{file: path, line: top.Line, msg: "must map lookup keys to Puppet types (port: Integer[1, 65535])"}
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		switch {
		case k.Kind != yaml.ScalarNode || k.Value == "":
			return nil, &typesError{file: path, line: k.Line, msg: "a key must be a lookup key (a non-empty string)"}
		case seen[k.Value] > 0:
			return nil, &typesError{file: path, line: k.Line, msg: fmt.Sprintf("key %s is given twice (first at line %d)", k.Value, seen[k.Value])}
		case v.Kind != yaml.ScalarNode || v.Tag == "!!null":
			return nil, &typesError{file: path, line: v.Line, msg: fmt.Sprintf("key %s: the type must be a string such as Integer or Array[String]", k.Value)}
		}
		if _, err := hiera.ParseKey(k.Value); err != nil {
			return nil, &typesError{file: path, line: k.Line, msg: fmt.Sprintf("key %s: %v", k.Value, err)}
		}
		t, err := ptype.Parse(v.Value)
		if err != nil {
			return nil, &typesError{file: path, line: v.Line, msg: fmt.Sprintf("key %s: %v", k.Value, err)}
		}
		if name := ptype.Unresolved(t); name != "" {
			return nil, &typesError{file: path, line: v.Line, msg: fmt.Sprintf("key %s: %s names no built-in Puppet type "+
				"(a module's type alias such as Stdlib::Port is not read: write its definition, Integer[0, 65535])", k.Value, name)}
		}
		seen[k.Value] = k.Line
		keys = append(keys, typedKey{key: k.Value, typ: v.Value, line: v.Line})
	}
	return keys, nil
}
