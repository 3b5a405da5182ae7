package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// deepValue is a hash (or array) depth levels deep holding "leaf", as a data file may hold at its
// nesting limit.
func deepValue(depth int, array bool) any {
	var v any = "leaf"
	for range depth {
		if array {
			v = []any{v}
		} else {
			v = hash("k", v)
		}
	}
	return v
}

// roundTrip converts an engine value to Terraform, encodes it as the plugin protocol does, and
// reads it back, as a function's result passed to another function goes.
func roundTrip(v any) (any, error) {
	d, err := toDynamic(v, path.Root("value"))
	if err != nil {
		return nil, err
	}
	tv, err := d.ToTerraformValue(context.Background())
	if err != nil {
		return nil, err
	}
	dv, err := tfprotov6.NewDynamicValue(tv.Type(), tv)
	if err != nil {
		return nil, err
	}
	back, err := dv.Unmarshal(tv.Type())
	if err != nil {
		return nil, err
	}
	return fromTF(back, path.Root("value"))
}

func BenchmarkDeepValueConversion(b *testing.B) {
	for _, depth := range []int{250, 500, 1000} {
		for _, array := range []bool{false, true} {
			v := deepValue(depth, array)
			b.Run(fmt.Sprintf("array=%v/depth=%d", array, depth), func(b *testing.B) {
				for b.Loop() {
					if _, err := roundTrip(v); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestDeepValueConversion converts values at the data files' nesting limit both ways.
func TestDeepValueConversion(t *testing.T) {
	t.Parallel()
	for _, array := range []bool{false, true} {
		v := deepValue(1000, array)
		got, err := roundTrip(v)
		if err != nil {
			t.Fatal(err)
		}
		back, err := model.FromGo(got)
		if err != nil || !model.Equal(back, v) {
			t.Errorf("array=%v: the value did not survive the round trip (%v)", array, err)
		}
	}
}
