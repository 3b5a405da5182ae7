package datafile

import (
	"math"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model/modeltest"
)

// TestMarshalJSON: hash order kept, non-string keys as Ruby's to_s, exact big integers, integral
// floats as floats, strings escaped as JSON needs and no more (<, > and & as they are), and
// AppendJSON writing after what its buffer holds.
func TestMarshalJSON(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{nil, `null`},
		{modeltest.H("b", int64(1), "a", []any{true, false, nil}), `{"b":1,"a":[true,false,null]}`},
		{modeltest.H(int64(1), "one", 2.5, "x", true, "t"), `{"1":"one","2.5":"x","true":"t"}`},
		{ytBig("123456789012345678901234567890"), `123456789012345678901234567890`},
		{1.0, `1.0`},
		{"a <b> & \"c\" \\ \n\t\x01 é", `"a <b> & \"c\" \\ \n\t\u0001 é"`},
		{[]any{}, `[]`},
		{model.NewHash(0), `{}`},
	} {
		got, err := MarshalJSON(tc.v)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: %s, %v; want %s", ytShow(tc.v), got, err, tc.want)
		}
		appended, err := AppendJSON([]byte("x="), tc.v)
		if err != nil || string(appended) != "x="+tc.want {
			t.Errorf("%s appended: %s, %v", ytShow(tc.v), appended, err)
		}
	}
	if _, err := MarshalJSON([]any{math.NaN()}); err == nil {
		t.Error("NaN: no error")
	}
}
