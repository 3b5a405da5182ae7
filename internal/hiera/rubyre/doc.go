// Package rubyre translates Ruby regular expressions (lookup_options patterns, Pattern types) to
// Go's RE2 with Ruby's semantics where RE2 can express them, and a clear error naming the construct
// where it cannot (Compile, Translate). It imports only the value model (for its errors).
package rubyre
