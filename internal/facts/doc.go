// Package facts reads a node's facts from files as Puppet users have them: `facter -j` and
// `puppet facts show` output, JSON or YAML, the wrapped {"name": ..., "values": {...}} form of
// `puppet facts find` and of Puppet Server's YAML facts cache, and PuppetDB's list of
// {"certname", "name", "value"} entries; one file per node (package fleet reads a directory of
// them, as every command and hiera_nodes take one).
//
// Hash facts keep the file's key order: Puppet iterates hashes in insertion order, so a hierarchy
// whose mapped_paths walk a hash fact depends on it. Files are read with the engine's own readers
// (Psych's YAML 1.1 scalars, Ruby's JSON), bounded in size, and every error names the file and,
// where there is one, the line.
//
// The hieraform command and the provider's facts_file argument both read facts here.
package facts
