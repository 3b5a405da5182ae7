package datafile

import "gopkg.in/yaml.v3"

// PlainIsString reports whether Psych reads s, written as a plain YAML scalar, back as the same
// string (ScalarScanner#tokenize). Psych's emitter quotes the strings for which it does not, so
// internal/render asks this reader rather than keep a second copy of its rules.
func PlainIsString(s string) bool {
	v, err := newYAMLReader(yamlSetup{}).tokenize(&yaml.Node{}, s)
	got, isString := v.(string)
	return err == nil && isString && got == s
}
