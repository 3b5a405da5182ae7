package convert

import (
	"math"
	"math/big"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

func convHashOf(kv ...any) *model.Hash {
	h := model.NewHash(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

// Expected values and messages come from the conformance cases (edge-lo-convert-*, seed-convert-to)
// and from recorded Puppet 8.10 answers for Puppet's new() conversions.
func TestConvertTo(t *testing.T) {
	t.Parallel()
	bigNeg, _ := new(big.Int).SetString("-12345678901234567890", 10)
	testCases := map[string]struct {
		spec      any
		value     any
		want      any
		sensitive bool
		wantErr   string
	}{
		"no-spec":            {spec: nil, value: "5", want: "5"},
		"int-string":         {spec: "Integer", value: "42", want: int64(42)},
		"int-hex":            {spec: "Integer", value: "0x1F", want: int64(31)},
		"int-octal":          {spec: "Integer", value: "017", want: int64(15)},
		"int-binary":         {spec: "Integer", value: "0b101", want: int64(5)},
		"int-radix10":        {spec: []any{"Integer", int64(10)}, value: "042", want: int64(42)},
		"int-radix8":         {spec: []any{"Integer", int64(8)}, value: "17", want: int64(15)},
		"int-radix2":         {spec: []any{"Integer", int64(2)}, value: "101", want: int64(5)},
		"int-radix16":        {spec: []any{"Integer", int64(16)}, value: "0xff", want: int64(255)},
		"int-radix10-hex":    {spec: []any{"Integer", int64(10)}, value: "0x1F", wantErr: `The convert_to lookup_option for key 'a' raised error: invalid value for Integer(): "0x1F"`},
		"int-abs":            {spec: []any{"Integer", int64(10), true}, value: "-7", want: int64(7)},
		"int-bad-radix":      {spec: []any{"Integer", int64(7)}, value: "12", wantErr: "The convert_to lookup_option for key 'a' raised error: Illegal radix: 7, expected 2, 8, 10, 16, or default"},
		"int-too-many-args":  {spec: []any{"Integer", int64(16), true, int64(1)}, value: "ff", wantErr: "The convert_to lookup_option for key 'a' raised error: 'new' expects between 1 and 3 arguments, got 4"},
		"int-sign-space":     {spec: "Integer", value: "- 42", want: int64(-42)},
		"int-leading-space":  {spec: "Integer", value: " 42", want: int64(42)},
		"int-trailing-space": {spec: "Integer", value: " 42 ", wantErr: "The convert_to lookup_option for key 'a' raised error: 'new' The string ' 42 ' cannot be converted to Integer"},
		"int-neg-hex":        {spec: "Integer", value: "-0x10", want: int64(-16)},
		"int-plus":           {spec: "Integer", value: "+7", want: int64(7)},
		"int-big":            {spec: "Integer", value: "-12345678901234567890", want: bigNeg},
		"int-float-string":   {spec: "Integer", value: "3.7", wantErr: "The convert_to lookup_option for key 'a' raised error: 'new' The string '3.7' cannot be converted to Integer"},
		"int-09":             {spec: "Integer", value: "09", wantErr: `The convert_to lookup_option for key 'a' raised error: invalid value for Integer(): "09"`},
		"int-bananas":        {spec: "Integer", value: "bananas", wantErr: "The convert_to lookup_option for key 'a' raised error: 'new' The string 'bananas' cannot be converted to Integer"},
		"int-array":          {spec: "Integer", value: []any{int64(1)}, wantErr: "The convert_to lookup_option for key 'a' raised error: 'new' Value of type Array[Integer] cannot be converted to Integer"},
		"int-nil":            {spec: "Integer", value: nil, wantErr: "The convert_to lookup_option for key 'a' raised error: 'new' Value of type Undef cannot be converted to Integer"},
		"int-already":        {spec: "Integer", value: int64(5), want: int64(5)},
		"int-float":          {spec: "Integer", value: -3.9, want: int64(-3)},
		"int-bool":           {spec: "Integer", value: true, want: int64(1)},
		"float-exp":          {spec: "Float", value: "1e3", want: 1000.0},
		"float-bin":          {spec: "Float", value: "0b101", want: 5.0},
		"float-hex":          {spec: "Float", value: "0x10", want: 16.0},
		"float-int":          {spec: "Float", value: int64(3), want: 3.0},
		"float-bool":         {spec: "Float", value: false, want: 0.0},
		"float-sign-space":   {spec: "Float", value: "+ 1.5", want: 1.5},
		"float-octal-text":   {spec: "Float", value: "017", want: 17.0},
		"float-bad":          {spec: "Float", value: "x", wantErr: "The convert_to lookup_option for key 'a' raised error: 'new_float' The string 'x' cannot be converted to Float"},
		"float-nil":          {spec: "Float", value: nil, wantErr: "The convert_to lookup_option for key 'a' raised error: 'new_float' Value of type Undef cannot be converted to Float"},
		"num-hex":            {spec: "Numeric", value: "0x1F", want: int64(31)},
		"num-oct":            {spec: "Numeric", value: "042", want: int64(34)},
		"num-float":          {spec: "Numeric", value: "-2.5", want: -2.5},
		"num-bad":            {spec: "Numeric", value: "1.2.3", wantErr: "The convert_to lookup_option for key 'a' raised error: 'new_numeric' The string '1.2.3' cannot be converted to Numeric"},
		"num-bool":           {spec: "Numeric", value: true, want: int64(1)},
		"num-space":          {spec: "Numeric", value: " 5", want: int64(5)},
		"num-zero-exp":       {spec: "Numeric", value: "0e5", wantErr: "The convert_to lookup_option for key 'a' raised error: Converted value from Numeric.new() has wrong type, expects a Numeric value, got Undef"},
		"bool-Y":             {spec: "Boolean", value: "Y", want: true},
		"bool-TRUE":          {spec: "Boolean", value: "TRUE", want: true},
		"bool-no":            {spec: "Boolean", value: "no", want: false},
		"bool-float":         {spec: "Boolean", value: 0.0, want: false},
		"bool-int":           {spec: "Boolean", value: int64(3), want: true},
		"bool-str1":          {spec: "Boolean", value: "1", wantErr: "The convert_to lookup_option for key 'a' raised error: 'new_boolean' The string '1' cannot be converted to Boolean"},
		"bool-maybe":         {spec: "Boolean", value: "maybe", wantErr: "The convert_to lookup_option for key 'a' raised error: 'new_boolean' The string 'maybe' cannot be converted to Boolean"},
		"bool-array":         {spec: "Boolean", value: []any{true}, wantErr: "The convert_to lookup_option for key 'a' raised error: 'new_boolean' Value of type Array[Boolean] cannot be converted to Boolean"},
		"bool-extra-arg":     {spec: []any{"Boolean", int64(1)}, value: "yes", wantErr: "The convert_to lookup_option for key 'a' raised error: 'new_boolean' expects 1 argument, got 2"},
		"str-float":          {spec: "String", value: 3.14, want: "3.140000"},
		"str-small-float":    {spec: "String", value: 1.5e-7, want: "0.000000"},
		"str-neg-zero":       {spec: "String", value: math.Copysign(0, -1), want: "-0.000000"},
		"str-int":            {spec: "String", value: int64(42), want: "42"},
		"str-string":         {spec: "String", value: "it's", want: "it's"},
		"str-nil":            {spec: "String", value: nil, want: ""},
		"str-bool":           {spec: "String", value: false, want: "false"},
		"str-nested": {spec: "String", value: convHashOf("a", []any{int64(1), convHashOf("b", "c")}, "d e", nil),
			want: "{'a' => [1, {'b' => 'c'}], 'd e' => undef}"},
		"str-array":         {spec: "String", value: []any{[]any{int64(1), int64(2)}, "x", 1.5, true, nil}, want: "[[1, 2], 'x', 1.5, true, undef]"},
		"str-unicode":       {spec: "String", value: []any{"é", `a"b`}, want: `['é', 'a"b']`},
		"str-escapes":       {spec: "String", value: []any{"tab\there", "nl\nx", "q'uote"}, want: `["tab\there", "nl\nx", 'q\'uote']`},
		"str-format-arg":    {spec: []any{"String", "%d"}, value: "12", wantErr: "The convert_to lookup_option for key 'a' raised error: String formats are not supported by this engine's convert_to"},
		"arr-string":        {spec: "Array", value: "hello", want: []any{"h", "e", "l", "l", "o"}},
		"arr-wrap":          {spec: []any{"Array", true}, value: "hello", want: []any{"hello"}},
		"arr-wrap-int":      {spec: []any{"Array", true}, value: int64(42), want: []any{int64(42)}},
		"arr-wrap-nil":      {spec: []any{"Array", true}, value: nil, want: []any{nil}},
		"arr-wrap-arr":      {spec: []any{"Array", true}, value: []any{int64(1)}, want: []any{int64(1)}},
		"arr-no-wrap":       {spec: []any{"Array", false}, value: "ab", want: []any{"a", "b"}},
		"arr-hash":          {spec: "Array", value: convHashOf("a", int64(1)), want: []any{[]any{"a", int64(1)}}},
		"arr-int":           {spec: "Array", value: int64(3), want: []any{int64(0), int64(1), int64(2)}},
		"arr-zero":          {spec: "Array", value: int64(0), want: []any{}},
		"arr-neg":           {spec: "Array", value: int64(-2), wantErr: "The convert_to lookup_option for key 'a' raised error: 'new_array' Value of type Integer cannot be converted to Array"},
		"arr-float":         {spec: "Array", value: 1.5, wantErr: "The convert_to lookup_option for key 'a' raised error: 'new_array' Value of type Float cannot be converted to Array"},
		"arr-true":          {spec: "Array", value: true, wantErr: "The convert_to lookup_option for key 'a' raised error: 'new_array' Value of type Boolean cannot be converted to Array"},
		"arr-nil":           {spec: "Array", value: nil, wantErr: "The convert_to lookup_option for key 'a' raised error: 'new_array' Value of type Undef cannot be converted to Array"},
		"hash-flat":         {spec: "Hash", value: []any{"a", int64(1), "b", int64(2)}, want: convHashOf("a", int64(1), "b", int64(2))},
		"hash-pairs":        {spec: "Hash", value: []any{[]any{"a", int64(1)}, []any{"b", int64(2)}}, want: convHashOf("a", int64(1), "b", int64(2))},
		"hash-odd":          {spec: "Hash", value: []any{"a", int64(1), "b"}, wantErr: "The convert_to lookup_option for key 'a' raised error: odd number of arguments for Hash"},
		"hash-string":       {spec: "Hash", value: "ab", want: convHashOf("a", "b")},
		"hash-empty":        {spec: "Hash", value: []any{}, want: model.NewHash(0)},
		"hash-int":          {spec: "Hash", value: int64(3), wantErr: "The convert_to lookup_option for key 'a' raised error: odd number of arguments for Hash"},
		"hash-float":        {spec: "Hash", value: 1.5, wantErr: "The convert_to lookup_option for key 'a' raised error: Value of type Float cannot be converted to Hash"},
		"hash-already":      {spec: "Hash", value: convHashOf(int64(1), "x"), want: convHashOf(int64(1), "x")},
		"sensitive":         {spec: "Sensitive", value: "x", want: "x", sensitive: true},
		"sensitive-args":    {spec: []any{"Sensitive", int64(1)}, value: "x", wantErr: "The convert_to lookup_option for key 'a' raised error: 'new_sensitive' expects 1 argument, got 2"},
		"any":               {spec: "Any", value: "x", want: "x"},
		"data":              {spec: "Data", value: "x", want: "x"},
		"leading-space":     {spec: " Integer", value: "5", want: int64(5)},
		"top-scope":         {spec: "::Integer", value: "5", want: int64(5)},
		"scalar-array":      {spec: "Scalar", value: []any{int64(1)}, wantErr: "The convert_to lookup_option for key 'a' raised error: Creation of new instance of type 'Scalar' is not supported"},
		"undef-string":      {spec: "Undef", value: "x", wantErr: "The convert_to lookup_option for key 'a' raised error: Creation of new instance of type 'Undef' is not supported"},
		"unknown":           {spec: "ComicSans", value: "x", wantErr: "The convert_to lookup_option for key 'a' raised error: Creation of new instance of type 'TypeReference['ComicSans']' is not supported"},
		"unknown-qualified": {spec: "Stdlib::Port", value: "80", wantErr: "The convert_to lookup_option for key 'a' raised error: Creation of new instance of type 'TypeReference['Stdlib::Port']' is not supported"},
		"unknown-params":    {spec: "Frob[Integer]", value: "5", wantErr: "The convert_to lookup_option for key 'a' raised error: Creation of new instance of type 'TypeReference['Frob[Integer]']' is not supported"},
		"lowercase":         {spec: "integer", value: "5", wantErr: "Invalid data type in lookup_options for key 'a' could not parse 'integer', error: 'The expression <integer> is not a valid type specification."},
		"empty-type":        {spec: "", value: "5", wantErr: "Invalid data type in lookup_options for key 'a' could not parse '', error: 'The expression <> is not a valid type specification."},
		"number-type":       {spec: "5", value: "5", wantErr: "Invalid data type in lookup_options for key 'a' could not parse '5', error: 'The expression <5> is not a valid type specification."},
		"unclosed":          {spec: "NoSuch[", value: "5", wantErr: "Invalid data type in lookup_options for key 'a' could not parse 'NoSuch[', error: 'Syntax error at end of input"},
		"type-not-string":   {spec: int64(5), value: "5", wantErr: "The convert_to lookup_option for key 'a' raised error: 'new' parameter 'type' expects a Type value, got Integer"},
		"type-empty-list":   {spec: []any{}, value: "5", wantErr: "The convert_to lookup_option for key 'a' raised error: 'new' parameter 'type' expects a Type value, got Undef"},
		"type-hash":         {spec: convHashOf("a", int64(1)), value: "5", wantErr: "The convert_to lookup_option for key 'a' raised error: 'new' parameter 'type' expects a Type value, got Struct"},
		"type-nested-list":  {spec: []any{[]any{"Integer"}}, value: "5", wantErr: "The convert_to lookup_option for key 'a' raised error: 'new' parameter 'type' expects a Type value, got Tuple"},
		"parameterized":     {spec: "Array[String]", value: []any{"a"}, wantErr: "The convert_to lookup_option for key 'a' uses the parameterized type 'Array[String]', which is not supported (use a plain type name such as Integer or Array)"},
		"rich-type":         {spec: "Timestamp", value: "2020-01-01", wantErr: "The convert_to lookup_option for key 'a' uses the type 'Timestamp', whose values this engine cannot represent"},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, sensitive, err := To("a", tc.value, tc.spec)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("To(%v, %#v) error = %v\n want %q", tc.spec, tc.value, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("To(%v, %#v) unexpected error %v", tc.spec, tc.value, err)
			}
			if !model.Equal(got, tc.want) {
				t.Errorf("To(%v, %#v) = %#v, want %#v", tc.spec, tc.value, got, tc.want)
			}
			if sensitive != tc.sensitive {
				t.Errorf("sensitive = %v, want %v", sensitive, tc.sensitive)
			}
		})
	}
}

func TestRubyFloatForConvert(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		in   float64
		want string
	}{
		"simple":     {1.5, "1.5"},
		"integral":   {100.0, "100.0"},
		"big":        {1e20, "1.0e+20"},
		"edge-fixed": {1e15, "1.0e+15"},
		"edge-exp":   {1e16, "1.0e+16"},
		"small":      {0.0001, "0.0001"},
		"smaller":    {0.00001, "1.0e-05"},
		"tiny":       {1.5e-7, "1.5e-07"},
		"negative":   {-2.25, "-2.25"},
		"zero":       {0, "0.0"},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := model.FloatToS(tc.in); got != tc.want {
				t.Errorf("rubyFloat(%v) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestConvertRubyInteger(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		in    string
		radix int
		want  int64
		ok    bool
	}{
		"decimal":       {"12", 0, 12, true},
		"octal":         {"017", 0, 15, true},
		"bad-octal":     {"08", 0, 0, false},
		"hex":           {"0X1f", 0, 31, true},
		"hex-radix":     {"1f", 16, 31, true},
		"hex-prefixed":  {"0x1f", 16, 31, true},
		"hex-b-digits":  {"0b1", 16, 177, true},
		"radix10-octal": {"017", 10, 17, true},
		"radix10-hex":   {"0x1", 10, 0, false},
		"radix8-prefix": {"0o17", 8, 15, true},
		"underscore":    {"1_000", 0, 1000, true},
		"double-under":  {"1__0", 0, 0, false},
		"spaces":        {" -5 ", 0, -5, true},
		"sign-space":    {"- 5", 0, 0, false},
		"double-sign":   {"--5", 0, 0, false},
		"prefix-only":   {"0x", 0, 0, false},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, ok := convParseInteger(tc.in, tc.radix)
			if ok != tc.ok || (ok && got.Int64() != tc.want) {
				t.Errorf("convParseInteger(%q, %d) = %v, %v; want %d, %v", tc.in, tc.radix, got, ok, tc.want, tc.ok)
			}
		})
	}
}
