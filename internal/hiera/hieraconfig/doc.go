// Package hieraconfig reads hiera.yaml as Puppet 7.23 does: version 5 validated with Puppet's
// messages and rules per layer (default_hierarchy in modules only, hiera3_backend in the global
// layer only, version 3 ignored outside it), versions 3 and 4 converted to version 5 entries, and
// the table of data functions with the rules Puppet applies before reading a file (Functions).
//
// Parse gives a Config: its hierarchy levels (Entry), each with its data function, datadir and
// locations as written; the core interpolates, resolves and reads them per lookup. It depends on
// nothing of a lookup: it imports model, datafile (the YAML reader) and merge (Hiera 3's merge
// settings), never the core.
//
// config.go is version 5 and the entry point, version3.go and version4.go the older formats,
// functions.go the data functions.
package hieraconfig
