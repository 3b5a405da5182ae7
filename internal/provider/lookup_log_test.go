package provider

import (
	"bytes"
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// A lookup writes one log line, at DEBUG, whatever its outcome: a missing key that try() or a
// default handles is no ERROR of the provider's (the plugin library logs the diagnostic itself).
func TestLookup_logLevel(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		key, outcome string
		defaultValue types.Dynamic
		wantError    bool
	}{
		"found":     {key: "string", outcome: "found", defaultValue: types.DynamicNull()},
		"not found": {key: "no::such::key", outcome: "not found", defaultValue: types.DynamicNull(), wantError: true},
		"default":   {key: "no::such::key", outcome: "not found, default returned", defaultValue: types.DynamicValue(types.StringValue("x"))},
		"failed":    {key: "string", outcome: "failed", defaultValue: types.DynamicNull(), wantError: true},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			ctx := tflogtest.RootLogger(context.Background(), &out)
			config := "testdata/site/hiera.yaml"
			if tc.outcome == "failed" {
				config = "testdata/bad_yaml/hiera.yaml"
			}
			m := lookupModel{
				lookupArgs: lookupArgs{
					Config: types.StringValue(config), Environment: types.StringNull(), Modulepath: types.ListNull(types.StringType),
					Facts: types.DynamicNull(), Scope: types.DynamicNull(),
				},
				Key: types.StringValue(tc.key), DefaultValue: tc.defaultValue, ValueType: types.StringNull(), Explain: types.BoolNull(),
			}
			pd := &providerData{engines: newEngineCache()}
			if diags := pd.lookup(ctx, lookupFunctionKind, &m, nil); diags.HasError() != tc.wantError {
				t.Fatalf("error: %v, want %v: %v", diags.HasError(), tc.wantError, diags)
			}
			entries, err := tflogtest.MultilineJSONDecode(&out)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 1 {
				t.Fatalf("%d log lines, want 1: %v", len(entries), entries)
			}
			if e := entries[0]; e["@level"] != "debug" || e["@message"] != "hiera lookup" || e["outcome"] != tc.outcome || e["key"] != tc.key {
				t.Errorf("log line %v, want a debug \"hiera lookup\" line with outcome %q and key %q", e, tc.outcome, tc.key)
			}
		})
	}
}
