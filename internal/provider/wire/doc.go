// Package wire is the provider's fast path on Terraform's wire format, below the framework: data
// source configurations read from msgpack attribute by attribute and states spliced from them
// (msgpack.go), msgpack items appended one by one for states too large to build as values first
// (msgpackwrite.go) and written in chunks outside Go's heap for a fleet's (Chunks, chunks.go), a framework model struct read from and written to a Terraform value directly
// (Codec, codec.go), and the quick answer to ValidateDataResourceConfig when the framework would
// find nothing to report (QuickValidator, quickvalidate.go). It knows nothing of Hiera: the
// provider's protocol.go drives it with the data sources' own schemas and models.
package wire
