// Package render prints engine values as `puppet lookup --render-as json|yaml|s` prints them, byte
// for byte (Puppet 7 on Ruby 3.1: the json gem's compact generator, Psych 4 over libyaml, Ruby's
// to_s), each followed by the line break Ruby's puts adds.
//
// JSON goes through the engine's writer, the one the provider's json attributes use; YAML is
// Psych's choice of styles (its YAMLTree visitor) written by a port of libyaml's emitter for the
// block mappings, sequences and scalars a lookup can return.
package render
