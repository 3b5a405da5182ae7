package hiera

import "gopkg.in/yaml.v3"

// ReadYAML reads YAML text as Puppet's data files are read (Psych.safe_load's YAML 1.1 scalars,
// hashes in the file's order) and refuses values nested more than the data files' limit. Errors are
// *YAMLError, with line and column. The facts files of internal/facts are read with it.
func ReadYAML(data []byte) (any, error) {
	v, _, err := readYAML(data, yamlSetup{maxNesting: maxDataNesting})
	return v, err
}

// ReadJSON reads JSON text as Ruby's JSON.parse does (hashes in the file's order, duplicate keys
// last-wins, integers exact). Errors are *JSONError, with line and column.
func ReadJSON(data []byte) (any, error) { return parseJSON(data) }

// PlainIsString reports whether Psych reads s, written as a plain YAML scalar, back as the same
// string (ScalarScanner#tokenize): Psych's emitter quotes a string for which it does not.
func PlainIsString(s string) bool {
	v, err := newYAMLReader(yamlSetup{}).tokenize(&yaml.Node{}, s)
	got, isString := v.(string)
	return err == nil && isString && got == s
}

// RubyString is Ruby's to_s of a value, as `puppet lookup --render-as s` prints it: nil is empty,
// a string is itself, arrays and hashes are inspected ({"k"=>"v"}), floats in Ruby's notation.
func RubyString(v any) string { return rubyToS(v) }
