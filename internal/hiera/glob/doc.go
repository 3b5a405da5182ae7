// Package glob is the engine's file system confinement: Ruby's Dir.glob for the glob and globs
// locations, in Puppet's order (Expand), and the check that a path built from facts stays below
// the directory its literal part names, also once symbolic links are resolved (Confine, Within).
// It imports only the value model (for its errors).
package glob
