// Package yamledit edits the root keys of a YAML data file and keeps every other byte: the other
// keys and their formatting, comments, blank lines, order, document markers, line breaks (LF or
// CRLF), a byte order mark. Values are written so that Hiera reads back exactly the value given.
// It stands under the hiera_data resource; README.md says how entries are found and written.
package yamledit
