package provider

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// Lookup errors become function errors on the argument they name.
func TestFuncErrorFromDiags(t *testing.T) {
	t.Parallel()
	positions := map[string]int64{"key": 1, "facts": 2}
	testCases := map[string]struct {
		diag diag.Diagnostic
		want *function.FuncError
	}{
		"argument": {
			diag: diag.NewAttributeErrorDiagnostic(path.Root("key"), "Hiera Key Not Found", "The key \"k\" was not found."),
			want: function.NewArgumentFuncError(1, "The key \"k\" was not found"),
		},
		"inside an argument": {
			diag: diag.NewAttributeErrorDiagnostic(path.Root("facts").AtName("os"), "Invalid Argument", "facts.os is odd"),
			want: function.NewArgumentFuncError(2, "facts.os is odd"),
		},
		"no argument": {
			diag: diag.NewErrorDiagnostic("Provider Not Configured", ""),
			want: function.NewFuncError("Provider Not Configured"),
		},
		"another attribute": {
			diag: diag.NewAttributeErrorDiagnostic(path.Root("default_value"), "Invalid Argument", "bad default"),
			want: function.NewFuncError("bad default"),
		},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			diags := diag.Diagnostics{diag.NewWarningDiagnostic("ignored", "warnings are dropped"), tc.diag}
			if diff := cmp.Diff(tc.want, funcErrorFromDiags(diags, positions)); diff != "" {
				t.Errorf("(-want, +got):\n%s", diff)
			}
		})
	}
}
