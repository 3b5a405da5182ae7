package merge

import (
	"math/big"
	"reflect"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model/modeltest"
)

// Helpers shared by the merge, deep merge and inspect tests (mt = merge test).

// mtStage is one stage of the "merge over variants" procedure (hiera-semantics.md §4.1): its variants are values,
// mtNotFound, or nested stages. mtRun drives it the way the lookup code drives Merge.
type mtStage []any

type mtMissing struct{}

var mtNotFound = mtMissing{}

func mtRun(m *Merge, v any) (any, bool, error) {
	st, ok := v.(mtStage)
	if !ok {
		return v, v != mtNotFound, nil
	}
	// Each stage merges its variants with the engine's own loop.
	return Variants(m, len(st), func(i int) (any, bool, error) { return mtRun(m, st[i]) })
}

// mtDump renders a stage tree, to check that merging left it unchanged.
func mtDump(v any) string {
	switch t := v.(type) {
	case mtStage:
		out := "stage("
		for _, e := range t {
			out += mtDump(e) + " "
		}
		return out + ")"
	case mtMissing:
		return "-"
	}
	return model.Inspect(v)
}

// mtLevels is the common two-or-more level hierarchy: one location per level.
func mtLevels(vals ...any) mtStage {
	st := mtStage{}
	for _, v := range vals {
		st = append(st, mtStage{v})
	}
	return st
}

func TestParseMerge(t *testing.T) {
	t.Parallel()
	multi := " The merge options has wrong type, entry 'knockout_prefix' expects a value of type Undef or String, got Integer\n" +
		"  The merge options has wrong type, unrecognized key 'bogus'"
	testCases := map[string]struct {
		in      any
		want    Merge
		wantErr string
	}{
		"first":                 {in: "first", want: Merge{Strategy: "first"}},
		"default-name":          {in: "default", want: Merge{Strategy: "default"}},
		"nil-is-default":        {in: nil, want: Merge{Strategy: "default"}},
		"false-is-default":      {in: false, want: Merge{Strategy: "default"}},
		"unique":                {in: "unique", want: Merge{Strategy: "unique"}},
		"hash":                  {in: "hash", want: Merge{Strategy: "hash"}},
		"deep":                  {in: "deep", want: Merge{Strategy: "deep"}},
		"hidden-reverse-deep":   {in: "reverse_deep", want: Merge{Strategy: "reverse_deep"}},
		"hidden-unconstrained":  {in: "unconstrained_deep", want: Merge{Strategy: "unconstrained_deep"}},
		"case-sensitive":        {in: "Hash", wantErr: "Unknown merge strategy: 'Hash'"},
		"unknown":               {in: "deeper", wantErr: "Unknown merge strategy: 'deeper'"},
		"lookup-options-string": {in: "merge", wantErr: "Unknown merge strategy: 'merge'"},
		"integer":               {in: int64(5), wantErr: "Unknown merge strategy: '5'"},
		"true":                  {in: true, wantErr: "Unknown merge strategy: 'true'"},
		"array":                 {in: modeltest.A("a"), wantErr: `Unknown merge strategy: '["a"]'`},
		"hash-strategy-only":    {in: modeltest.H("strategy", "hash"), want: Merge{Strategy: "hash"}},
		"hash-without-strategy": {
			in:      modeltest.H("knockout_prefix", "--"),
			wantErr: "The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'",
		},
		"hash-nil-strategy": {
			in:      modeltest.H("strategy", nil),
			wantErr: "The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'",
		},
		"hash-integer-strategy": {in: modeltest.H("strategy", int64(5)), wantErr: "Unknown merge strategy: '5'"},
		"hash-float-strategy":   {in: modeltest.H("strategy", 1.5), wantErr: "Unknown merge strategy: '1.5'"},
		"deep-options": {
			in:   modeltest.H("strategy", "deep", "knockout_prefix", "--", "sort_merged_arrays", true, "merge_hash_arrays", true, "merge_debug", false),
			want: Merge{Strategy: "deep", Deep: DeepOptions{KnockoutPrefix: "--", SortMergedArrays: true, MergeHashArrays: true}},
		},
		"deep-nil-options": {
			in:   modeltest.H("strategy", "deep", "knockout_prefix", nil, "sort_merged_arrays", nil),
			want: Merge{Strategy: "deep"},
		},
		"options-only-for-deep": {
			in:      modeltest.H("strategy", "hash", "knockout_prefix", "--"),
			wantErr: "The merge options has wrong type, unrecognized key 'knockout_prefix'",
		},
		"unique-unknown-option": {
			in:      modeltest.H("strategy", "unique", "strategy2", int64(1)),
			wantErr: "The merge options has wrong type, unrecognized key 'strategy2'",
		},
		"deep-unknown-option": {
			in:      modeltest.H("strategy", "deep", "preserve_unmergeables", true),
			wantErr: "The merge options has wrong type, unrecognized key 'preserve_unmergeables'",
		},
		"deep-wrong-option-type": {
			in:      modeltest.H("strategy", "deep", "sort_merged_arrays", "x"),
			wantErr: "The merge options has wrong type, entry 'sort_merged_arrays' expects a value of type Undef or Boolean, got String",
		},
		"deep-several-problems": {
			in:      modeltest.H("strategy", "deep", "bogus", int64(1), "knockout_prefix", int64(5)),
			wantErr: multi,
		},
		"deep-empty-knockout": {
			in:      modeltest.H("strategy", "deep", "knockout_prefix", ""),
			wantErr: "knockout_prefix cannot be an empty string in deep_merge!",
		},
		"unconstrained-free-options": {
			in:   modeltest.H("strategy", "unconstrained_deep", "unpack_arrays", ",", "sort_merged_arrays", "yes"),
			want: Merge{Strategy: "unconstrained_deep", Deep: DeepOptions{SortMergedArrays: true}},
		},
		"reverse-deep-free-options": {
			in:   modeltest.H("strategy", "reverse_deep", "bogus", int64(1), "knockout_prefix", "--"),
			want: Merge{Strategy: "reverse_deep", Deep: DeepOptions{KnockoutPrefix: "--"}},
		},
		"unconstrained-non-string-key": {
			in: modeltest.H("strategy", "unconstrained_deep", "bogus", int64(1), int64(5), int64(2)),
			wantErr: "The merge options has wrong type, expects a Hash[String[1], Any] value, got " +
				"Hash[Variant[Integer[5, 5], Enum['bogus', 'strategy']], Variant[Integer[1, 2], String]]",
		},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(tc.in)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if *got != tc.want {
				t.Fatalf("got %+v, want %+v", *got, tc.want)
			}
		})
	}
}

func TestMergeDescribe(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		m       *Merge
		first   bool
		name    string
		options any
	}{
		"nil":     {m: nil, first: true, name: "default"},
		"default": {m: &Merge{Strategy: "default"}, first: true, name: "default"},
		"first":   {m: &Merge{Strategy: "first"}, first: true, name: "first"},
		"hash":    {m: &Merge{Strategy: "hash"}, name: "hash"},
		"deep":    {m: &Merge{Strategy: "deep"}, name: "deep"},
		"deep-options": {
			m:       &Merge{Strategy: "deep", Deep: DeepOptions{KnockoutPrefix: "--", SortMergedArrays: true}},
			name:    "deep",
			options: modeltest.H("sort_merged_arrays", true, "knockout_prefix", "--"),
		},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := tc.m.IsFirst(); got != tc.first {
				t.Errorf("IsFirst = %v", got)
			}
			if got := tc.m.String(); got != tc.name {
				t.Errorf("String = %q", got)
			}
			got := tc.m.OptionsHash()
			if tc.options == nil {
				if got != nil {
					t.Errorf("OptionsHash = %s, want nil", model.Inspect(got))
				}
			} else if !modeltest.Same(got, tc.options) {
				t.Errorf("OptionsHash = %s", model.Inspect(got))
			}
		})
	}
}

// mergeCase is one lookup driven through mtRun: the root stage and what it must give.
type mergeCase struct {
	merge    any // for Parse
	stage    mtStage
	want     any
	notFound bool
	wantErr  string
}

func runMergeCases(t *testing.T, testCases map[string]mergeCase) {
	t.Helper()
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m, err := Parse(tc.merge)
			if err != nil {
				t.Fatal(err)
			}
			before := mtDump(tc.stage)
			got, found, err := mtRun(m, tc.stage)
			if mtDump(tc.stage) != before {
				t.Errorf("the merge modified its inputs")
			}
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if found == tc.notFound {
				t.Fatalf("found = %v", found)
			}
			if !tc.notFound && !modeltest.Same(got, tc.want) {
				t.Fatalf("got %s, want %s", model.Inspect(got), model.Inspect(tc.want))
			}
		})
	}
}

// TestMergeFirst covers hiera-semantics.md §4.1-4.2.
func TestMergeFirst(t *testing.T) {
	t.Parallel()
	runMergeCases(t, map[string]mergeCase{
		"no-variants":        {merge: "first", stage: mtStage{}, notFound: true},
		"nothing-found":      {merge: "first", stage: mtLevels(mtNotFound, mtNotFound), notFound: true},
		"first-found-wins":   {merge: "first", stage: mtLevels(modeltest.H("a", int64(1)), modeltest.H("b", int64(1))), want: modeltest.H("a", int64(1))},
		"skips-not-found":    {merge: "default", stage: mtLevels(mtNotFound, "low"), want: "low"},
		"found-nil-is-found": {merge: "first", stage: mtLevels(nil, "low"), want: nil},
		"no-type-check":      {merge: "first", stage: mtLevels("x", modeltest.H("a", int64(1))), want: "x"},
	})
}

// TestMergeUnique covers hiera-semantics.md §4.3 (every row of its table).
func TestMergeUnique(t *testing.T) {
	t.Parallel()
	x, y, z := "x", "y", "z"
	scalarOrArray := "The second element of the merge has wrong type, expects a value of type Scalar or Array, got "
	runMergeCases(t, map[string]mergeCase{
		"high-first-then-new-low": {merge: "unique", stage: mtLevels(modeltest.A(x, y), modeltest.A(y, z, x)), want: modeltest.A(x, y, z)},
		"scalar-high":             {merge: "unique", stage: mtLevels(x, modeltest.A(y, x)), want: modeltest.A(x, y)},
		"flattened-completely": {
			merge: "unique",
			stage: mtLevels(modeltest.A(modeltest.A(x, modeltest.A(y)), z), modeltest.A(modeltest.A(z, "w"))),
			want:  modeltest.A(x, y, z, "w"),
		},
		"nested-empty":       {merge: "unique", stage: mtLevels(modeltest.A(), modeltest.A(modeltest.A(), x)), want: modeltest.A(x)},
		"scalar-one-of-two":  {merge: "unique", stage: mtLevels(x, mtNotFound), want: modeltest.A(x)},
		"scalar-one-level":   {merge: "unique", stage: mtStage{mtStage{x}, mtNotFound, mtNotFound}, want: modeltest.A(x)},
		"single-level-dedup": {merge: "unique", stage: mtLevels(modeltest.A(x, x, y), mtNotFound), want: modeltest.A(x, y)},
		"single-no-flatten":  {merge: "unique", stage: mtStage{modeltest.A(x, x, modeltest.A(y))}, want: modeltest.A(x, modeltest.A(y))},
		"duplicates-survive": {
			merge: "unique",
			stage: mtStage{mtStage{mtStage{modeltest.A(x, x, modeltest.A(y)), mtNotFound}, mtStage{mtNotFound}}, mtNotFound, mtNotFound},
			want:  modeltest.A(x, x, y),
		},
		"hash-found-once":   {merge: "unique", stage: mtLevels(modeltest.H("k", "v"), mtNotFound), want: modeltest.A(modeltest.H("k", "v"))},
		"hash-found-twice":  {merge: "unique", stage: mtLevels(modeltest.A(x), modeltest.H("k", "v")), wantErr: scalarOrArray + "Struct"},
		"empty-hash-lower":  {merge: "unique", stage: mtLevels(modeltest.A(x), modeltest.H()), wantErr: scalarOrArray + "Hash"},
		"hash-higher-wraps": {merge: "unique", stage: mtLevels(modeltest.H("k", "v"), modeltest.A(int64(1))), want: modeltest.A(modeltest.H("k", "v"), int64(1))},
		"nil-higher":        {merge: "unique", stage: mtLevels(nil, modeltest.A(x)), want: modeltest.A(nil, x)},
		"nil-lower":         {merge: "unique", stage: mtLevels(modeltest.A(x), nil), wantErr: scalarOrArray + "Undef"},
		"value-and-type": {
			merge: "unique",
			stage: mtLevels(modeltest.A(true, int64(1)), modeltest.A(false, int64(1), 2.0)),
			want:  modeltest.A(true, int64(1), false, 2.0),
		},
		"four-distinct": {
			merge: "unique",
			stage: mtLevels(modeltest.A(int64(1), "1"), modeltest.A(1.0, true, int64(1))),
			want:  modeltest.A(int64(1), "1", 1.0, true),
		},
		"big-integers": {
			merge: "unique",
			stage: mtLevels(modeltest.A(new(big.Int).Lsh(big.NewInt(1), 70)), modeltest.A(new(big.Int).Lsh(big.NewInt(1), 70), int64(2))),
			want:  modeltest.A(new(big.Int).Lsh(big.NewInt(1), 70), int64(2)),
		},
		"hashes-by-value": {
			merge: "unique",
			stage: mtLevels(modeltest.A(modeltest.H("a", int64(1), "b", int64(2))), modeltest.A(modeltest.H("b", int64(2), "a", int64(1)))),
			want:  modeltest.A(modeltest.H("a", int64(1), "b", int64(2))),
		},
		"non-data-in-array": {
			merge: "unique",
			stage: mtLevels(modeltest.A(x), modeltest.A(modeltest.H(int64(1), int64(2)), modeltest.H(int64(2), int64(3)))),
			wantErr: " The second element of the merge has wrong type, variant 0 expects a Scalar value, got Tuple\n" +
				"  The second element of the merge has wrong type, variant 1 index 0 expects a Data value, got Hash\n" +
				"  The second element of the merge has wrong type, variant 1 index 1 expects a Data value, got Hash",
		},
	})
}

// TestMergeHash covers hiera-semantics.md §4.4.
func TestMergeHash(t *testing.T) {
	t.Parallel()
	one, two, three := int64(1), int64(2), int64(3)
	expects := "The second element of the merge has wrong type, expects a Hash value, got "
	runMergeCases(t, map[string]mergeCase{
		"lower-keys-first": {
			merge: "hash",
			stage: mtLevels(modeltest.H("a", one, "b", one), modeltest.H("c", two, "a", two)),
			want:  modeltest.H("c", two, "a", one, "b", one),
		},
		"three-layers": {
			merge: "hash",
			stage: mtStage{modeltest.H("g", one, "e", one), modeltest.H("e", two, "x", two), modeltest.H("m", three, "x", three)},
			want:  modeltest.H("m", three, "x", two, "e", one, "g", one),
		},
		"nil-value-wins": {merge: "hash", stage: mtLevels(modeltest.H("a", nil), modeltest.H("a", one, "b", two)), want: modeltest.H("a", nil, "b", two)},
		"shallow": {
			merge: "hash",
			stage: mtLevels(modeltest.H("n", modeltest.H("x", one)), modeltest.H("n", modeltest.H("y", two), "m", three)),
			want:  modeltest.H("n", modeltest.H("x", one), "m", three),
		},
		"empty-higher":    {merge: "hash", stage: mtLevels(modeltest.H(), modeltest.H("a", one)), want: modeltest.H("a", one)},
		"single-non-hash": {merge: "hash", stage: mtLevels("not a hash", mtNotFound), want: "not a hash"},
		"single-nil":      {merge: "hash", stage: mtLevels(nil, mtNotFound), want: nil},
		"non-string-keys": {
			merge:   "hash",
			stage:   mtLevels(modeltest.H(one, "a"), modeltest.H(two, "b")),
			wantErr: "The first element of the merge has wrong type, expects a Hash[String, Data] value, got Hash[Integer[1, 1], String]",
		},
		"nil-first-level": {
			merge:   "hash",
			stage:   mtLevels(nil, modeltest.H("c", three)),
			wantErr: "The first element of the merge has wrong type, expects a Hash value, got Undef",
		},
		"nil-middle-level": {
			merge:   "hash",
			stage:   mtLevels(modeltest.H("a", one), nil, modeltest.H("c", three)),
			wantErr: expects + "Undef",
		},
		"array-lower":       {merge: "hash", stage: mtLevels(modeltest.H(), modeltest.A(one)), wantErr: expects + "Tuple"},
		"empty-array-lower": {merge: "hash", stage: mtLevels(modeltest.H(), modeltest.A()), wantErr: expects + "Array"},
		"string-lower":      {merge: "hash", stage: mtLevels(modeltest.H(), "s"), wantErr: expects + "String"},
		"boolean-lower":     {merge: "hash", stage: mtLevels(modeltest.H(), true), wantErr: expects + "Boolean"},
		"float-lower":       {merge: "hash", stage: mtLevels(modeltest.H(), 1.5), wantErr: expects + "Float"},
		"nested-non-data": {
			merge:   "hash",
			stage:   mtLevels(modeltest.H(), modeltest.H("a", modeltest.H(one, two))),
			wantErr: "The second element of the merge has wrong type, entry 'a' expects a Data value, got Hash",
		},
	})
}

// TestMergeStagesDeep covers hiera-semantics.md §4.5's consequences that depend on the stages.
func TestMergeStagesDeep(t *testing.T) {
	t.Parallel()
	ko := modeltest.H("strategy", "deep", "knockout_prefix", "--")
	runMergeCases(t, map[string]mergeCase{
		"three-levels-array-order": {
			merge: "deep",
			stage: mtLevels(modeltest.A("h"), modeltest.A("m"), modeltest.A("l")),
			want:  modeltest.A("l", "m", "h"),
		},
		"knockout-single-level": {
			merge: ko,
			stage: mtLevels(modeltest.H("arr", modeltest.A("--x", "y")), mtNotFound),
			want:  modeltest.H("arr", modeltest.A("--x", "y")),
		},
		"three-layers-knockout": {
			merge: modeltest.H("strategy", "deep", "knockout_prefix", "--", "sort_merged_arrays", false, "merge_hash_arrays", false),
			stage: mtStage{
				mtStage{mtNotFound, modeltest.H("g", "global", "arr", modeltest.A("--x", "g"))},
				modeltest.H("e", "env", "arr", modeltest.A("x", "e")),
				modeltest.H("m", "module", "arr", modeltest.A("m")),
			},
			want: modeltest.H("m", "module", "arr", modeltest.A("m", "e", "g"), "e", "env", "g", "global"),
		},
		"reverse-deep-lower-wins": {
			merge: "reverse_deep",
			stage: mtLevels(modeltest.H("a", "high", "arr", modeltest.A("h1")), modeltest.H("a", "low", "b", "low", "arr", modeltest.A("l1"))),
			want:  modeltest.H("a", "low", "arr", modeltest.A("h1", "l1"), "b", "low"),
		},
		"unconstrained-is-deep": {
			merge: modeltest.H("strategy", "unconstrained_deep", "unpack_arrays", ","),
			stage: mtLevels(modeltest.H("a", "high", "arr", modeltest.A("h")), modeltest.H("a", "low", "b", "low", "arr", modeltest.A("l"))),
			want:  modeltest.H("a", "high", "b", "low", "arr", modeltest.A("l", "h")),
		},
		"no-type-check": {merge: "deep", stage: mtLevels(nil, "x"), want: "x"},
		"knockout-option-root-arrays": {
			merge: modeltest.H("strategy", "deep", "knockout_prefix", "--"),
			stage: mtLevels(modeltest.A("x"), modeltest.A("y")),
			want:  modeltest.A("y", "x"),
		},
	})
}

// TestMergeKeyCoversEveryField guards the result cache: two merges that differ in any field must
// have different cache keys, or a cached answer for one would be returned for the other. A field
// added to Merge (or DeepOptions) without a place in appendKey fails here.
func TestMergeKeyCoversEveryField(t *testing.T) {
	base := Merge{Strategy: "deep"}
	baseKey := string(base.AppendKey(nil))
	var visit func(v reflect.Value, name string)
	visit = func(v reflect.Value, name string) {
		for i := 0; i < v.NumField(); i++ {
			f, field := v.Field(i), name+v.Type().Field(i).Name
			if f.Kind() == reflect.Struct {
				visit(f, field+".")
				continue
			}
			saved := reflect.ValueOf(f.Interface())
			switch f.Kind() {
			case reflect.String:
				f.SetString(f.String() + "x")
			case reflect.Bool:
				f.SetBool(!f.Bool())
			case reflect.Int, reflect.Int64:
				f.SetInt(f.Int() + 1)
			default:
				t.Fatalf("Merge.%s has a kind (%s) this test cannot vary: extend the test and appendKey", field, f.Kind())
			}
			if string(base.AppendKey(nil)) == baseKey {
				t.Errorf("changing Merge.%s leaves the result cache key unchanged: add it to appendKey", field)
			}
			f.Set(saved)
		}
	}
	visit(reflect.ValueOf(&base).Elem(), "")
	if string(base.AppendKey(nil)) != baseKey {
		t.Fatal("the test did not restore the fields it changed")
	}
}
