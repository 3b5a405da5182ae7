// Package datafile reads and writes the engine's data files, answering as Puppet's readers do:
// YAML as Psych reads it (ReadYAML for data files, lazily per root key; ParseYAML for hiera.yaml),
// JSON with key order and exact integers (ParseJSON, MarshalJSON), and Puppet's RichData check
// (InvalidRootKeys). Errors carry Psych's or JSON's wording and positions (YAMLError, JSONError).
//
// The YAML path: yamlread.go (entry points, limits), yamlfast.go and yamlfastscalars.go (the fast
// reader for plain block YAML), yamllazy.go (root values built on first use; the skim that finds
// them, with one-pass paths for the common lines), yamlnodes.go, yamlscalars.go, yamlsymbols.go and
// yamlerrors.go (yaml.v3 nodes to values as Psych does), yamlbyroot.go (a large file only yaml.v3
// takes, read root key by root key). It imports only the value model; a
// backend's reader is called from the core's backends.go. SourceLine (sourceline.go) finds the line
// of a key path in a YAML or JSON text, for errors.
package datafile
