// Package cli is the hieraform command: Hiera lookups from a shell with the provider's engine
// (internal/hiera), facts files (internal/facts) and puppet lookup's output (internal/render).
//
//	hieraform lookup KEY...   as puppet lookup: its flags, its output byte for byte, its exit codes
//	hieraform node            every key of a node, as the hiera_node data source
//	hieraform diff            two nodes, environments, checkouts or git revisions: keys added,
//	                          removed, changed; with --facts DIR every node of a fleet, the
//	                          changes grouped by key and change (table, JSON, Markdown)
//	hieraform check           every problem in the data (every data file, every node given, value
//	                          types from a file, keys and values against the class parameters of
//	                          the modules' manifests: params.go), with file and line
//	hieraform unused          what a fleet never uses: files no node reaches, keys no node
//	                          gets its value from, values equal to what they override
//	hieraform eyaml           the hiera-eyaml gem's encrypt, decrypt, edit, recrypt and createkeys,
//	                          its flags and output, in pure Go (internal/eyaml)
//
// Files: cli.go (Run, the commands' table), one file per command (lookup.go, node.go, diff.go,
// check.go with checkreport.go (its lines, each naming the nodes that meet it; warning kinds),
// unused.go, eyaml.go with eyaml_edit.go and eyaml_recrypt.go), and what they share:
// sourceflags.go (where data and facts come from), puppetdbflags.go (--puppetdb and its TLS
// flags), eyaml_level.go (an eyaml level's keys), gitrev.go (a side of a diff from a git
// revision), fleetdiff.go, changedkeys.go and fleetrender.go (a fleet diff: the nodes, the keys a
// change can reach, the table, JSON and Markdown), params.go and types.go (check against the class
// parameters and against --types), terminal.go (control characters of data escaped).
//
// Run is the whole command, with its streams in Env, so that tests run it in process.
package cli
