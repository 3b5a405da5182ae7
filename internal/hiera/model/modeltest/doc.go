// Package modeltest builds and compares engine values in tests: H builds a hash, A an array, Same
// compares including hash key order.
package modeltest
