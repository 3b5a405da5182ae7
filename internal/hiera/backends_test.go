package hiera

import (
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/hieraconfig"
)

// TestDataReaders checks that every function hiera.yaml may name and the engine serves has a
// reader, that a refused one has none, and that no reader is left for a function the table lost.
func TestDataReaders(t *testing.T) {
	for _, f := range hieraconfig.Functions {
		if served, hasReader := f.Refusal == "", dataReaders[f.Name] != nil; served != hasReader {
			t.Errorf("%s: served %v but has a reader %v: needs exactly one of a reader and a refusal", f.Name, served, hasReader)
		}
	}
	for name := range dataReaders {
		if hieraconfig.FunctionNamed(name) == nil {
			t.Errorf("reader %s: no such function in hieraconfig.Functions", name)
		}
	}
}
