// Package hiera is a pure-Go implementation of Puppet Hiera lookups, answering as Puppet 7 (Hiera 5)
// does for a version 5 hiera.yaml and as Hiera 3.10 does for a version 3 one, quirks included,
// because the same hieradata is shared between Puppet and Terraform.
//
// An Engine is built once per hiera.yaml (NewEngine), or per Puppet environment and modulepath
// (NewLayeredEngine: the global, environment and module layers of `puppet lookup --environment`),
// and answers many concurrent lookups (Engine.Lookup). It parses each data file once and re-reads
// it only when its size or modification time changes. A lookup walks the layers' hierarchies for
// the root of the key, merging values with the
// requested strategy (first, unique, hash, deep) or the one lookup_options give, interpolates
// %{...} expressions per location, digs into the merged value for dotted keys and applies
// convert_to. Values keep Hiera's types: see package model for the closed set of Go types used. A
// result names the data files that gave its value (Result.Sources). Engine.LookupNode answers a
// whole node at once: every key its hierarchies reach (Engine.NodeKeys), or many given keys.
// Engine.DataFiles lists every data file of every level and layer, whatever the node, and
// FileCheck finds what a lookup reaching one would fail on without a node (hieraform check).
//
// The core holds the lookup itself; what does not depend on a lookup's state lives in leaf packages
// below it (hieraconfig for hiera.yaml, model, datafile, merge, ptype, convert, glob, rubyre,
// hocon): README.md beside this package maps them and says where to make a change.
//
// The engine never executes anything, reads no environment variables and opens only files below
// the directories hiera.yaml names: a path built from a fact may not leave its directory.
//
// Behaviour reference: https://www.puppet.com/docs/puppet/7/hiera_intro.html and the project's
// semantics notes; the deviations from Puppet are listed in README.md beside this package.
package hiera
