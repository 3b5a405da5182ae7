package hiera

import (
	"math/big"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model/modeltest"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/ptype"
)

// bigF is a number as Terraform reads it (512 bits), as the provider hands it to the engine.
func bigF(t *testing.T, s string) any {
	t.Helper()
	f, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	return model.FromBigFloat(f)
}

// TestBigFloat: numbers float64 cannot hold stay exact through merges, comparisons, strings and
// JSON; the others become the float64 a data file gives.
func TestBigFloat(t *testing.T) {
	t.Parallel()
	if v := bigF(t, "0.1"); v != 0.1 {
		t.Errorf("0.1 = %#v, want the float64 0.1", v)
	}
	if v := bigF(t, "0.5"); v != 0.5 {
		t.Errorf("0.5 = %#v, want the float64 0.5", v)
	}
	tiny, long := bigF(t, "1e-400"), bigF(t, "0.1000000000000000000001")
	if _, ok := long.(*big.Float); !ok {
		t.Fatalf("0.1000000000000000000001 = %#v, want a *big.Float", long)
	}
	for v, want := range map[any]string{long: "0.1000000000000000000001", tiny: "1.0e-400", bigF(t, "-123456789.123456789"): "-123456789.123456789"} {
		if got := model.ToS(v); got != want {
			t.Errorf("model.ToS = %q, want %q", got, want)
		}
		if got, err := datafile.MarshalJSON(v); err != nil || string(got) != want {
			t.Errorf("MarshalJSON = %s, %v; want %s", got, err, want)
		}
		if model.TypeName(v) != "Float" || model.ClassName(v) != "Float" {
			t.Errorf("%s is not named a Float", want)
		}
	}
	if !model.Equal(long, bigF(t, "0.1000000000000000000001")) || model.Equal(long, 0.1) || model.Equal(tiny, 0.0) {
		t.Error("Equal does not compare exact values")
	}
	m, err := merge.Parse(modeltest.H("strategy", "deep", "sort_merged_arrays", true))
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := merge.Values(m, []any{modeltest.A(long, 0.1, int64(0)), modeltest.A(bigF(t, "0.1000000000000000000001"), tiny)})
	if want := modeltest.A(int64(0), tiny, long, 0.1); err != nil || !modeltest.Same(got, want) {
		t.Errorf("sorted deep merge = %s, %v; want %s", model.Inspect(got), err, model.Inspect(want))
	}
	for typ, want := range map[string]bool{"Float[0, 1]": true, "Numeric": true, "Integer": false, "Float[0.2]": false} {
		pt, err := ptype.Parse(typ)
		if err != nil {
			t.Fatal(err)
		}
		if ptype.IsInstance(pt, long) != want {
			t.Errorf("value_type %s on %s: want %v", typ, model.ToS(long), want)
		}
	}
}
