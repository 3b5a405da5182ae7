// Package cli is the hieraform command: Hiera lookups from a shell with the provider's engine
// (internal/hiera), facts files (internal/facts) and puppet lookup's output (internal/render).
//
//	hieraform lookup KEY...   as puppet lookup: its flags, its output byte for byte, its exit codes
//	hieraform node            every key of a node, as the hiera_node data source
//	hieraform diff            two nodes, environments or checkouts: keys added, removed, changed
//	hieraform check           every problem in the data (every data file, every node given, value
//	                          types from a file), with file and line
//	hieraform eyaml           the hiera-eyaml gem's encrypt, decrypt, edit, recrypt and createkeys,
//	                          its flags and output, in pure Go (internal/eyaml)
//
// Run is the whole command, with its streams in Env, so that tests run it in process.
package cli
