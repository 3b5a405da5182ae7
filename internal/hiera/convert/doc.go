// Package convert is lookup_options' convert_to: Puppet's new(Type, value, *args) for the types a
// Hiera value can be converted to (Integer, Float, Numeric, String, Boolean, Array, Tuple, Hash,
// Struct, Sensitive, ...), with Puppet's messages. To converts; ParseType checks a convert_to type
// name when lookup_options are read.
//
// A new convert_to target: its case in To (convert.go), numbers in convertnumbers.go, strings in
// convertstring.go. It imports only the value model.
package convert
