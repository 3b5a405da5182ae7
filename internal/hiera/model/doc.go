// Package model is the bottom layer of the Hiera engine: the values it works on and its error type,
// imported by every other engine package.
//
// Values are a closed set of Go types mirroring Puppet's RichData (see value.go): nil, bool, int64,
// *big.Int, float64, *big.Float (only from the provider), string, []any and the ordered *Hash, whose
// key lists the data files of one engine share (Sharing). Symbol is a Ruby symbol while a data file
// is read. ToS, Inspect and their kin print values as Ruby does; TypeName and TypeDetail name them as
// Puppet's type inference does. Error is a lookup failure with key, file, line and level;
// WithholdSecret drops its message when the lookup touched a secret.
package model
