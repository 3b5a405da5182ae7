package provider

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// Lookup errors become function errors on the argument they name.
func TestFuncErrorFromDiags(t *testing.T) {
	t.Parallel()
	params := []string{"config", "key", "facts", "scope"}
	positions := map[string]int64{"key": 1, "facts": 2, "environment": 0, "value_type": 4}
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
			want: function.NewFuncError("default_value: bad default"),
		},
		"part of an argument": {
			diag: diag.NewAttributeErrorDiagnostic(path.Root("environment"), "Environment Directory Not Found", "not a directory"),
			want: function.NewArgumentFuncError(0, "not a directory"),
		},
		"in the variadic argument": {
			diag: diag.NewAttributeErrorDiagnostic(path.Root("value_type"), "Hiera Value Has Wrong Type", "Found value has wrong type"),
			want: function.NewArgumentFuncError(4, "value_type: Found value has wrong type"),
		},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			diags := diag.Diagnostics{diag.NewWarningDiagnostic("ignored", "warnings are dropped"), tc.diag}
			if diff := cmp.Diff(tc.want, funcErrorFromDiags(diags, params, positions)); diff != "" {
				t.Errorf("(-want, +got):\n%s", diff)
			}
		})
	}
}

// A bare null literal, as Terraform users write it, for each function's nullable arguments: the
// typed nulls of the other function tests stand for it under OpenTofu, which never calls the
// provider with one (bareNullCLI).
func TestFunctions_bareNull(t *testing.T) {
	unitTestFrom(t, bareNullCLI, resource.TestStep{
		Config: `
output "deep_merge" {
  value = provider::hiera::deep_merge(null, { a = 1 }, null)
}
output "deep_merge_all_null" {
  value = provider::hiera::deep_merge(null, null) == null
}
output "merge" {
  value = provider::hiera::merge("first", { a = 1 }, null)
}
output "lookup_no_facts" {
  value = provider::hiera::lookup("testdata/site/hiera.yaml", "string", null, null)
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			output("deep_merge", obj(map[string]knownvalue.Check{"a": num(1)})),
			output("deep_merge_all_null", knownvalue.Bool(true)),
			output("merge", obj(map[string]knownvalue.Check{"a": num(1)})),
			output("lookup_no_facts", str("hello")),
		},
	}, resource.TestStep{
		// a null config means hiera.yaml in the working directory
		Config:      `output "test" { value = provider::hiera::lookup(null, "string", null) }`,
		ExpectError: errorRE(`internal/provider/hiera\.yaml`),
	}, resource.TestStep{
		Config:      `output "test" { value = provider::hiera::merge(null, {}) }`,
		ExpectError: errorRE(`Invalid value for "options" parameter: argument must not be null`),
	})
}
