package hieraconfig

import "testing"

// TestFunctionTable checks what a new row must fill in: each function is named once, has a kind
// hiera.yaml can name, and is either served (with Puppet's missing-path error) or refused with a
// reason; a Hiera 3 backend name converts back to its own row.
func TestFunctionTable(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Functions {
		if seen[f.Name] || f.Name == "" {
			t.Errorf("function %q is empty or listed twice", f.Name)
		}
		seen[f.Name] = true
		if f.Kind != "data_hash" && f.Kind != "lookup_key" {
			t.Errorf("%s: kind %q is neither data_hash nor lookup_key", f.Name, f.Kind)
		}
		served := f.Refusal == ""
		if served && f.MissingPath == "" {
			t.Errorf("%s: served without Puppet's missing-path error", f.Name)
		}
		if (f.V3Backend == "") != (f.V3Extension == "") {
			t.Errorf("%s: a Hiera 3 backend name needs its file extension, and only it", f.Name)
		}
		if f.V3Backend != "" && served && v3Function(f.V3Backend) != f {
			t.Errorf("%s: Hiera 3 backend %q converts to another function", f.Name, f.V3Backend)
		}
		if FunctionNamed(f.Name) != f {
			t.Errorf("%s: FunctionNamed finds another row", f.Name)
		}
	}
}
