package merge

import (
	"math/rand"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model/modeltest"
)

// deepCase merges high over low with Combine, as two found levels of a lookup do.
type deepCase struct {
	merge     any // for Parse; "deep" when nil
	high, low any
	want      any
	wantErr   string
}

func runDeepCases(t *testing.T, testCases map[string]deepCase) {
	t.Helper()
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			spec := tc.merge
			if spec == nil {
				spec = "deep"
			}
			m, err := Parse(spec)
			if err != nil {
				t.Fatal(err)
			}
			high, low := model.Copy(tc.high), model.Copy(tc.low)
			got, err := m.Combine(m.Convert(tc.high), tc.low)
			if !modeltest.Same(high, tc.high) || !modeltest.Same(low, tc.low) {
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
			if !modeltest.Same(got, tc.want) {
				t.Fatalf("got %s, want %s", model.Inspect(got), model.Inspect(tc.want))
			}
		})
	}
}

// TestDeepMerge covers the verified consequences of hiera-semantics.md §4.5 (the edge-deep-* cases).
func TestDeepMerge(t *testing.T) {
	t.Parallel()
	one, two := int64(1), int64(2)
	runDeepCases(t, map[string]deepCase{
		"basic": {
			high: modeltest.H("h", modeltest.H("a", modeltest.H("x", "high"), "s", "high")),
			low:  modeltest.H("h", modeltest.H("a", modeltest.H("x", "low", "y", "low"), "s", "low", "t", "low")),
			want: modeltest.H("h", modeltest.H("a", modeltest.H("x", "high", "y", "low"), "s", "high", "t", "low")),
		},
		"array-lower-first": {
			high: modeltest.H("arr", modeltest.A("a", "b")), low: modeltest.H("arr", modeltest.A("c", "a")),
			want: modeltest.H("arr", modeltest.A("c", "a", "b")),
		},
		"array-root":        {high: modeltest.A("a", "b"), low: modeltest.A("c", "a"), want: modeltest.A("c", "a", "b")},
		"dedup-within":      {high: modeltest.H("arr", modeltest.A("a", "a")), low: modeltest.H("arr", modeltest.A("b", "b")), want: modeltest.H("arr", modeltest.A("b", "a"))},
		"new-key-dedup":     {high: modeltest.H("arr", modeltest.A("a", "a")), low: modeltest.H("other", one), want: modeltest.H("other", one, "arr", modeltest.A("a"))},
		"not-flattened":     {high: modeltest.A(modeltest.A("x")), low: modeltest.A("y"), want: modeltest.A("y", modeltest.A("x"))},
		"hash-over-array":   {high: modeltest.H("a", modeltest.H("x", one)), low: modeltest.H("a", modeltest.A(one)), want: modeltest.H("a", modeltest.H("x", one))},
		"array-over-hash":   {high: modeltest.H("a", modeltest.A(one)), low: modeltest.H("a", modeltest.H("x", one)), want: modeltest.H("a", modeltest.A(one))},
		"string-over-hash":  {high: modeltest.H("a", "str"), low: modeltest.H("a", modeltest.H("x", one)), want: modeltest.H("a", "str")},
		"array-over-string": {high: modeltest.A("x"), low: "s", want: modeltest.A("x")},
		"string-over-array": {high: "s", low: modeltest.A("x"), want: "s"},
		"nil-higher-value": {
			high: modeltest.H("a", nil, "b", nil), low: modeltest.H("a", "low"),
			want: modeltest.H("a", "low", "b", nil),
		},
		"nil-higher-root":   {high: nil, low: modeltest.H("c", int64(3)), want: modeltest.H("c", int64(3))},
		"false-lower":       {high: modeltest.H("a", "x"), low: modeltest.H("a", false), want: modeltest.H("a", "x")},
		"false-lower-root":  {high: "x", low: false, want: "x"},
		"nil-over-false":    {high: modeltest.H("a", nil), low: modeltest.H("a", false), want: modeltest.H("a", nil)},
		"key-order":         {high: modeltest.H("z", one, "a", one), low: modeltest.H("m", two, "z", two), want: modeltest.H("m", two, "z", one, "a", one)},
		"empty-hash-higher": {high: modeltest.H(), low: modeltest.H("a", one), want: modeltest.H("a", one)},
		"empty-hash-over-string": {
			high: modeltest.H("a", modeltest.H()), low: modeltest.H("a", "s"),
			want: modeltest.H("a", "s"),
		},
		"empty-array-higher": {high: modeltest.A(), low: modeltest.A("x"), want: modeltest.A("x")},
		"hash-arrays-default": {
			high: modeltest.H("arr", modeltest.A(modeltest.H("a", one))), low: modeltest.H("arr", modeltest.A(modeltest.H("x", one))),
			want: modeltest.H("arr", modeltest.A(modeltest.H("x", one), modeltest.H("a", one))),
		},
		"merge-hash-arrays": {
			merge: modeltest.H("strategy", "deep", "merge_hash_arrays", true),
			high:  modeltest.H("arr", modeltest.A(modeltest.H("a", one), modeltest.H("b", two))), low: modeltest.H("arr", modeltest.A(modeltest.H("x", one))),
			want: modeltest.H("arr", modeltest.A(modeltest.H("x", one, "a", one), modeltest.H("b", two))),
		},
		"merge-hash-arrays-mixed": {
			merge: modeltest.H("strategy", "deep", "merge_hash_arrays", true),
			high:  modeltest.H("arr", modeltest.A(modeltest.H("a", one), "s")), low: modeltest.H("arr", modeltest.A(modeltest.H("x", one))),
			want: modeltest.H("arr", modeltest.A(modeltest.H("x", one), modeltest.H("a", one), "s")),
		},
		"merge-hash-arrays-shorter-source": {
			merge: modeltest.H("strategy", "deep", "merge_hash_arrays", true),
			high:  modeltest.A(modeltest.H("a", one)), low: modeltest.A(modeltest.H("x", one), modeltest.H("y", one)),
			want: modeltest.A(modeltest.H("x", one, "a", one), modeltest.H("y", one)),
		},
		"sort": {
			merge: modeltest.H("strategy", "deep", "sort_merged_arrays", true),
			high:  modeltest.H("arr", modeltest.A("b", "d")), low: modeltest.H("arr", modeltest.A("c", "a")),
			want: modeltest.H("arr", modeltest.A("a", "b", "c", "d")),
		},
		"sort-numbers": {
			merge: modeltest.H("strategy", "deep", "sort_merged_arrays", true),
			high:  modeltest.A(2.5, int64(-1)), low: modeltest.A(int64(3), int64(1)),
			want: modeltest.A(int64(-1), int64(1), 2.5, int64(3)),
		},
		"sort-mixed": {
			merge: modeltest.H("strategy", "deep", "sort_merged_arrays", true),
			high:  modeltest.H("arr", modeltest.A("b", one)), low: modeltest.H("arr", modeltest.A(two, "a")),
			wantErr: "comparison of Integer with String failed",
		},
		"sort-names-immediates": {
			merge: modeltest.H("strategy", "deep", "sort_merged_arrays", true),
			high:  modeltest.A(nil), low: modeltest.A("a"),
			wantErr: "comparison of String with nil failed",
		},
		"sort-unequal-hashes": {
			merge: modeltest.H("strategy", "deep", "sort_merged_arrays", true),
			high:  modeltest.A(modeltest.H("a", two)), low: modeltest.A(modeltest.H("a", one)),
			wantErr: "comparison of Hash with Hash failed",
		},
		"sort-only-merged-arrays": {
			merge: modeltest.H("strategy", "deep", "sort_merged_arrays", true),
			high:  modeltest.H("a", modeltest.A("b", "a")), low: modeltest.H("b", one),
			want: modeltest.H("b", one, "a", modeltest.A("a", "b")),
		},
	})
}

// TestDeepMergeKnockout covers the knockout_prefix consequences of hiera-semantics.md §4.5.
func TestDeepMergeKnockout(t *testing.T) {
	t.Parallel()
	ko := modeltest.H("strategy", "deep", "knockout_prefix", "--")
	runDeepCases(t, map[string]deepCase{
		"element":        {merge: ko, high: modeltest.H("arr", modeltest.A("--b", "c")), low: modeltest.H("arr", modeltest.A("a", "b")), want: modeltest.H("arr", modeltest.A("a", "c"))},
		"lone-prefix":    {merge: ko, high: modeltest.H("arr", modeltest.A("--", "c")), low: modeltest.H("arr", modeltest.A("a", "b")), want: modeltest.H("arr", modeltest.A("c"))},
		"over-scalar":    {merge: ko, high: modeltest.A("--x", "y"), low: "str", want: modeltest.A("y")},
		"lone-over-hash": {merge: ko, high: modeltest.A("--", "y"), low: modeltest.H("k", "v"), want: modeltest.A("y")},
		"hash-value-becomes-empty-string": {
			merge: ko,
			high:  modeltest.H("a", "--", "b", "--x"), low: modeltest.H("a", modeltest.H("x", int64(1)), "b", "y", "c", "z"),
			want: modeltest.H("a", "", "b", "", "c", "z"),
		},
		"root-string":    {merge: ko, high: "--", low: modeltest.A("x"), want: ""},
		"hash-key-plain": {merge: ko, high: modeltest.H("--a", int64(1)), low: modeltest.H("a", int64(2)), want: modeltest.H("a", int64(2), "--a", int64(1))},
		"non-string-kept": {
			merge: ko,
			high:  modeltest.H("arr", modeltest.A("--1", "--x")), low: modeltest.H("arr", modeltest.A(int64(1), "x")),
			want: modeltest.H("arr", modeltest.A(int64(1))),
		},
		"prefix-removes-prefixed-too": {
			merge: ko, high: modeltest.A("--x"), low: modeltest.A("x", "--x", "y"), want: modeltest.A("y"),
		},
		"other-prefix": {
			merge: modeltest.H("strategy", "deep", "knockout_prefix", "!!"),
			high:  modeltest.A("!!x", "y"), low: modeltest.A("x", "z"), want: modeltest.A("z", "y"),
		},
		"prefix-is-a-regexp": {
			merge: modeltest.H("strategy", "deep", "knockout_prefix", ".."),
			high:  modeltest.A("..x", "ab"), low: modeltest.A("x", "b"), want: modeltest.A("b"),
		},
		"prefix-at-any-line-start": {merge: ko, high: modeltest.H("s", "a\n--b"), low: modeltest.H("s", "x"), want: modeltest.H("s", "")},
		"invalid-prefix": {
			merge: modeltest.H("strategy", "deep", "knockout_prefix", "("),
			high:  modeltest.A("x"), low: modeltest.A("y"),
			wantErr: "knockout_prefix \"(\" is not a valid regular expression: error parsing regexp: missing closing ): `(?m)^(`",
		},
		"new-key-processed": {
			merge: ko,
			high:  modeltest.H("s", "--gone", "arr", modeltest.A("--x", "y")), low: modeltest.H("other", int64(1)),
			want: modeltest.H("other", int64(1), "s", "", "arr", modeltest.A("y")),
		},
		// Inside a new hash the gem merges each array with itself, and its delete_if then runs over
		// the array it is deleting from (results checked against deep_merge 1.1.1).
		"new-nested-key-self-merge": {
			merge: ko,
			high:  modeltest.H("n", modeltest.H("s", "--gone", "arr", modeltest.A("--x", "y"))), low: modeltest.H("other", int64(1)),
			want: modeltest.H("other", int64(1), "n", modeltest.H("s", "", "arr", modeltest.A())),
		},
		"new-nested-key-self-merge-tail": {
			merge: ko,
			high:  modeltest.H("n", modeltest.H("arr", modeltest.A("--x", "y", "x", "z"))), low: modeltest.H("other", int64(1)),
			want: modeltest.H("other", int64(1), "n", modeltest.H("arr", modeltest.A("z"))),
		},
		"new-nested-key-lone-prefix": {
			merge: ko,
			high:  modeltest.H("n", modeltest.H("arr", modeltest.A("--", "y"))), low: modeltest.H("other", int64(1)),
			want: modeltest.H("other", int64(1), "n", modeltest.H("arr", modeltest.A())),
		},
		// A hash replacing a non-hash: the gem keeps the first entry as is and merges the others
		// with themselves.
		"hash-over-scalar-self-merges-later-keys": {
			high: modeltest.H("a", modeltest.A("x", "x"), "b", modeltest.A("y", "y")), low: "s",
			want: modeltest.H("a", modeltest.A("x", "x"), "b", modeltest.A("y")),
		},
	})
}

func TestHiera3Array(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		found   []any
		want    any
		wantErr string
	}{
		"flatten-uniq":   {found: modeltest.A(modeltest.A("x", "y"), modeltest.A("y", "z", modeltest.A("w"))), want: modeltest.A("x", "y", "z", "w")},
		"string-allowed": {found: modeltest.A("x", modeltest.A("y")), want: modeltest.A("x", "y")},
		"nil-compacted":  {found: modeltest.A(modeltest.A("x", nil), modeltest.A("y")), want: modeltest.A("x", "y")},
		"single":         {found: modeltest.A(modeltest.A("x", "x")), want: modeltest.A("x")},
		"integer":        {found: modeltest.A(int64(1), modeltest.A("y")), wantErr: "Hiera type mismatch for key 'a': expected Array and got Integer"},
		"hash":           {found: modeltest.A(modeltest.H("k", "v"), modeltest.A("y")), wantErr: "Hiera type mismatch for key 'a': expected Array and got Hash"},
		"nil":            {found: modeltest.A(nil), wantErr: "Hiera type mismatch for key 'a': expected Array and got NilClass"},
		"false":          {found: modeltest.A(false), wantErr: "Hiera type mismatch for key 'a': expected Array and got FalseClass"},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := Hiera3Array("a", tc.found)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !modeltest.Same(got, tc.want) {
				t.Fatalf("got %s, %v; want %s", model.Inspect(got), err, model.Inspect(tc.want))
			}
		})
	}
}

// TestHiera3Hash covers hiera-semantics.md §8.2 (the edge-h3-hash-* and seed-hiera3-* cases).
func TestHiera3Hash(t *testing.T) {
	t.Parallel()
	users := func() []any {
		return modeltest.A(
			modeltest.H("jen", modeltest.H("uid", int64(503), "shell", "/bin/zsh", "group", "deglitch"), "bob", modeltest.H("uid", int64(1000), "group", "deglitch")),
			modeltest.H("bob", modeltest.H("uid", int64(501), "shell", "/bin/bash"), "ash", modeltest.H("uid", int64(502), "shell", "/bin/zsh", "group", "common")),
		)
	}
	highLow := modeltest.A(
		modeltest.H("a", "high", "n", modeltest.H("x", "high"), "arr", modeltest.A("h1")),
		modeltest.H("a", "low", "b", "low", "n", modeltest.H("y", "low", "x", "low"), "arr", modeltest.A("l1")),
	)
	testCases := map[string]struct {
		behavior string
		opts     DeepOptions
		found    []any
		want     any
		wantErr  string
	}{
		"native": {
			behavior: "native",
			found:    modeltest.A(modeltest.H("a", "high", "n", modeltest.H("x", "high")), modeltest.H("a", "low", "b", "low", "n", modeltest.H("y", "low"))),
			want:     modeltest.H("a", "high", "b", "low", "n", modeltest.H("x", "high")),
		},
		"native-users": {
			behavior: "native", found: users(),
			want: modeltest.H("bob", modeltest.H("uid", int64(1000), "group", "deglitch"), "ash", modeltest.H("uid", int64(502), "shell", "/bin/zsh", "group", "common"),
				"jen", modeltest.H("uid", int64(503), "shell", "/bin/zsh", "group", "deglitch")),
		},
		"unknown-is-native": {behavior: "", found: modeltest.A(modeltest.H("a", int64(1)), modeltest.H("a", int64(2), "b", int64(2))), want: modeltest.H("a", int64(1), "b", int64(2))},
		"deeper": {
			behavior: "deeper", found: highLow,
			want: modeltest.H("a", "high", "b", "low", "n", modeltest.H("y", "low", "x", "high"), "arr", modeltest.A("l1", "h1")),
		},
		"deeper-users": {
			behavior: "deeper", found: users(),
			want: modeltest.H("bob", modeltest.H("uid", int64(1000), "shell", "/bin/bash", "group", "deglitch"), "ash", modeltest.H("uid", int64(502), "shell", "/bin/zsh", "group", "common"),
				"jen", modeltest.H("uid", int64(503), "shell", "/bin/zsh", "group", "deglitch")),
		},
		"deeper-arrays": {
			behavior: "deeper",
			found:    modeltest.A(modeltest.H("l", modeltest.A("a", "b"), "s", "x"), modeltest.H("l", modeltest.A("b", "c"), "s", "y", "t", "z")),
			want:     modeltest.H("l", modeltest.A("b", "c", "a"), "s", "x", "t", "z"),
		},
		"deeper-nil-higher": {behavior: "deeper", found: modeltest.A(modeltest.H("a", nil), modeltest.H("a", "low")), want: modeltest.H("a", "low")},
		"deeper-knockout": {
			behavior: "deeper", opts: DeepOptions{KnockoutPrefix: "--"},
			found: modeltest.A(modeltest.H("arr", modeltest.A("--a", "c"), "s", "--"), modeltest.H("arr", modeltest.A("a", "b"), "s", "x")),
			want:  modeltest.H("arr", modeltest.A("b", "c"), "s", ""),
		},
		"deep-lower-wins": {
			behavior: "deep", found: highLow,
			want: modeltest.H("a", "low", "b", "low", "n", modeltest.H("y", "low", "x", "low"), "arr", modeltest.A("l1", "h1")),
		},
		"deep-users": {
			behavior: "deep", found: users(),
			want: modeltest.H("bob", modeltest.H("uid", int64(501), "shell", "/bin/bash", "group", "deglitch"), "ash", modeltest.H("uid", int64(502), "shell", "/bin/zsh", "group", "common"),
				"jen", modeltest.H("uid", int64(503), "shell", "/bin/zsh", "group", "deglitch")),
		},
		"deep-type-mismatch-keeps-lower": {
			behavior: "deep", found: modeltest.A(modeltest.H("a", modeltest.H("x", int64(1))), modeltest.H("a", "str")),
			want: modeltest.H("a", "str"),
		},
		"deep-knockout-rejected": {
			behavior: "deep", opts: DeepOptions{KnockoutPrefix: "--"}, found: modeltest.A(modeltest.H("a", int64(1))),
			wantErr: "overwrite_unmergeable must be true if knockout_prefix is specified in deep_merge!",
		},
		"single-value": {behavior: "deeper", found: modeltest.A(modeltest.H("arr", modeltest.A("a", "a"))), want: modeltest.H("arr", modeltest.A("a", "a"))},
		"non-hash": {
			behavior: "native", found: modeltest.A("str", modeltest.H("a", int64(1))),
			wantErr: "Hiera type mismatch for key 'h': expected Hash and got String",
		},
		"non-hash-lower": {
			behavior: "deeper", found: modeltest.A(modeltest.H("a", int64(1)), modeltest.A()),
			wantErr: "Hiera type mismatch for key 'h': expected Hash and got Array",
		},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			before := model.Copy(tc.found)
			got, err := Hiera3Hash("h", &V3Settings{MergeBehavior: tc.behavior, DeepOptions: tc.opts}, tc.found)
			if !modeltest.Same(before, tc.found) {
				t.Errorf("the merge modified its inputs")
			}
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !modeltest.Same(got, tc.want) {
				t.Fatalf("got %s, %v; want %s", model.Inspect(got), err, model.Inspect(tc.want))
			}
		})
	}
}

func TestTypeName(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		v      any
		name   string
		detail string
	}{
		"undef":        {v: nil, name: "Undef", detail: "Undef"},
		"boolean":      {v: true, name: "Boolean", detail: "Boolean[true]"},
		"integer":      {v: int64(3), name: "Integer", detail: "Integer[3, 3]"},
		"float":        {v: 1.5, name: "Float", detail: "Float[1.5, 1.5]"},
		"string":       {v: "s", name: "String", detail: "String"},
		"empty-array":  {v: modeltest.A(), name: "Array", detail: "Array[0, 0]"},
		"tuple":        {v: modeltest.A(int64(1), "a"), name: "Tuple", detail: "Tuple[Integer[1, 1], String]"},
		"empty-hash":   {v: modeltest.H(), name: "Hash", detail: "Hash[0, 0]"},
		"struct":       {v: modeltest.H("a", int64(1), "b", nil), name: "Struct", detail: "Struct[{'a' => Integer[1, 1], NotUndef['b'] => Undef}]"},
		"integer-keys": {v: modeltest.H(int64(1), "a"), name: "Hash", detail: "Hash[Integer[1, 1], String]"},
		"enum-values": {
			v: modeltest.H(int64(1), "b", int64(2), "a", int64(3), "c"), name: "Hash",
			detail: "Hash[Variant[Integer[2, 3], Integer[1, 1]], Enum['a', 'b', 'c']]",
		},
		"unmerged-ranges-keep-order": {
			v: modeltest.H(int64(1), int64(2), int64(2), int64(0)), name: "Hash",
			detail: "Hash[Integer[1, 2], Variant[Integer[2, 2], Integer[0, 0]]]",
		},
		"optional-string": {
			v: modeltest.H("b", nil, int64(1), "y"), name: "Hash",
			detail: "Hash[Variant[String, Integer[1, 1]], Optional['y']]",
		},
		"nested-hash-size": {
			v: modeltest.H(int64(1), modeltest.H(int64(2), int64(1))), name: "Hash",
			detail: "Hash[Integer[1, 1], Hash[Integer[2, 2], Integer[1, 1], 1, 1]]",
		},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := model.TypeName(tc.v); got != tc.name {
				t.Errorf("model.TypeName = %q, want %q", got, tc.name)
			}
			if got := model.TypeDetail(tc.v); got != tc.detail {
				t.Errorf("puppetTypeDetail = %q, want %q", got, tc.detail)
			}
		})
	}
}

// TestSelfPlain: a merge without options merges a value with itself (a key the destination
// lacks) as the gem's copy does: the same keys in the same order, every array without its
// duplicates, nested at any level; and it shares what has none.
func TestSelfPlain(t *testing.T) {
	d, err := newDeepMerger(DeepOptions{}, false)
	if err != nil || !d.plain() {
		t.Fatalf("a merger without options: %v, plain %v", err, d.plain())
	}
	r := rand.New(rand.NewSource(7))
	var random func(depth int) any
	random = func(depth int) any {
		switch n := r.Intn(9); {
		case depth > 3 || n < 3:
			return []any{nil, false, true, int64(1), 1.0, "a", "b", int64(2)}[r.Intn(8)]
		case n < 6:
			h := model.NewHash(0)
			for i := r.Intn(5); i > 0; i-- {
				h.Set([]any{"k", "l", "m", int64(1), "n"}[r.Intn(5)], random(depth+1))
			}
			return h
		default:
			a := make([]any, r.Intn(5))
			for i := range a {
				a[i] = random(depth + 1)
			}
			return a
		}
	}
	for i := 0; i < 3000; i++ {
		v := random(0)
		want, err := d.selfCopy(v)
		if err != nil {
			t.Fatal(err)
		}
		got, changed := selfPlain(v)
		if !modeltest.Same(got, want) {
			t.Fatalf("%s merged with itself: %s, the gem's copy %s", model.Inspect(v), model.Inspect(got), model.Inspect(want))
		}
		if !changed && !modeltest.Same(v, want) || changed && modeltest.Same(v, want) {
			t.Fatalf("%s merged with itself: changed %v, the gem's copy %s", model.Inspect(v), changed, model.Inspect(want))
		}
	}
}
