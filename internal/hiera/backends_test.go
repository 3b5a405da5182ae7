package hiera

import "testing"

// TestDataFunctionTable checks what a new row must fill in: each function is named once, has a
// kind hiera.yaml can name, and is either served (a reader and Puppet's missing-path error) or
// refused with a reason.
func TestDataFunctionTable(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range dataFunctions {
		if seen[f.name] || f.name == "" {
			t.Errorf("function %q is empty or listed twice", f.name)
		}
		seen[f.name] = true
		if f.kind != "data_hash" && f.kind != "lookup_key" {
			t.Errorf("%s: kind %q is neither data_hash nor lookup_key", f.name, f.kind)
		}
		served := f.read != nil
		if served == (f.refusal != "") {
			t.Errorf("%s: needs exactly one of a reader and a refusal", f.name)
		}
		if served && f.missingPath == "" {
			t.Errorf("%s: served without Puppet's missing-path error", f.name)
		}
		if (f.v3Backend == "") != (f.v3Extension == "") {
			t.Errorf("%s: a Hiera 3 backend name needs its file extension, and only it", f.name)
		}
		if f.v3Backend != "" && v3DataFunction(f.v3Backend) != f && served {
			t.Errorf("%s: Hiera 3 backend %q converts to another function", f.name, f.v3Backend)
		}
	}
}
