// Package merge is Puppet's merge strategies for lookups: first, unique, hash and deep (the
// deep_merge gem's algorithm, deepmerge.go), parsed from a merge option with Puppet's messages
// (Parse), applied over the variants of a lookup (Variants) or to plain values (Values); and
// Hiera 3's native, deep and deeper hash merges with their hiera.yaml settings (mergehiera3.go).
//
// A new merge option: its field in Merge or DeepOptions and its check in Parse (merge.go), its
// effect in the strategy's code. It imports only the value model.
package merge
