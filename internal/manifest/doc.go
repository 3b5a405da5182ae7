// Package manifest reads Puppet manifests for what Hiera data meets: class definitions with their
// parameters and declared types (automatic parameter lookup binds the key ntp::servers to the
// parameter $servers of class ntp), type alias definitions (types/**/*.pp), and the literal keys
// of explicit lookups (lookup('k'), hiera('k'), lookup({'name' => 'k'}), hiera_hash, hiera_array,
// hiera_include).
//
// It never evaluates anything. A tokenizer (lex.go) knows Puppet's strings and their
// interpolations, heredocs, regexps told from division as Puppet's lexer tells them, and both
// kinds of comment, and balances every bracket; the parser (parse.go) reads class headers and
// alias definitions and steps over every other statement, whatever Puppet it holds. Read (read.go)
// reads the .pp files under directories, bounded (MaxFileSize, MaxFiles, brackets nested at most
// maxDepth deep); a file it cannot read is one Problem with its file and line, and is skipped.
// A manifest's tokens take 12 bytes each, in one slice of their number (the lexer counts them
// first), so a file of one-byte tokens costs about 13 bytes a byte.
//
//	code := manifest.Read("modules/ntp/manifests", "modules/ntp/types")
//	c := code.Class("ntp")         // c.Params[0].Name, .Type, .Line, .HasDefault
//	a := code.Alias("Stdlib::Port") // a.Type: "Integer[0, 65535]"
package manifest
