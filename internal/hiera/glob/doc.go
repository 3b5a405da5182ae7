// Package glob is the engine's file system confinement: Ruby's Dir.glob for the glob and globs
// locations, in Puppet's order (Expand; Directories for environment.conf's modulepath), and the
// check that a path built from facts stays below the directory its literal part names, also once
// symbolic links are resolved (Confine, Within). Its errors (Error) keep the reason apart from the
// path, which a caller may not show. It imports nothing of the engine.
package glob
