// Package fleet is a fleet of nodes as Hiera answers them: the nodes of one or more node sources
// (a directory of facts files, a map of node name to facts, PuppetDB), chosen by `select` globs,
// and answered many at a time.
//
//   - Node is one node: its name (its certname), its facts as the engine takes them (key order
//     kept) and its origin (the facts file, or the source) for messages.
//   - Source is a node source. Dir reads a facts directory, Map takes nodes given by name; another
//     source (PuppetDB) implements Source, or is a SourceFunc.
//   - Collect gathers the nodes of every source, sorted by name: a node named twice (two files,
//     two sources) is an error naming both origins, and a fleet is bounded to MaxNodes nodes.
//   - Select keeps the nodes whose names match a glob; a glob matching no node is returned so
//     the caller can warn about it (it is not an error).
//   - Each answers many nodes at once, on every core and at most that many at a time, so a
//     fleet's read uses more than one core while its memory in flight stays bounded.
//
// A facts directory is read as Puppet users have one (a Puppet Server's facts cache, `facter -j`
// or `puppet facts show` output saved per node, PuppetDB's node export): one node per *.json,
// *.yaml or *.yml file directly inside it (not recursive; hidden files and other files skipped),
// each read by package facts (bounded as a facts_file is, every error naming the file and line).
// A node's name is its certname as Puppet names it: its `trusted.certname` fact, else the name the
// file gives (the wrapped form's `name`, PuppetDB's `certname`), else its `clientcert` fact, else
// its `fqdn` fact, else its `networking.fqdn` fact, else the file name less its extension. Nothing outside the directory is read:
// a symlink leading out of it is an error.
//
// The provider's hiera_nodes and the hieraform command's fleet subcommands read fleets here.
package fleet
