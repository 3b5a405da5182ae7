package hiera

import (
	"testing"
)

// deepCase merges high over low with Combine, as two found levels of a lookup do.
type deepCase struct {
	merge     any // for ParseMerge; "deep" when nil
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
			m, err := ParseMerge(spec)
			if err != nil {
				t.Fatal(err)
			}
			high, low := Copy(tc.high), Copy(tc.low)
			got, err := m.Combine(m.Convert(tc.high), tc.low)
			if !mtSame(high, tc.high) || !mtSame(low, tc.low) {
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
			if !mtSame(got, tc.want) {
				t.Fatalf("got %s, want %s", rubyInspect(got), rubyInspect(tc.want))
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
			high: mtH("h", mtH("a", mtH("x", "high"), "s", "high")),
			low:  mtH("h", mtH("a", mtH("x", "low", "y", "low"), "s", "low", "t", "low")),
			want: mtH("h", mtH("a", mtH("x", "high", "y", "low"), "s", "high", "t", "low")),
		},
		"array-lower-first": {
			high: mtH("arr", mtA("a", "b")), low: mtH("arr", mtA("c", "a")),
			want: mtH("arr", mtA("c", "a", "b")),
		},
		"array-root":        {high: mtA("a", "b"), low: mtA("c", "a"), want: mtA("c", "a", "b")},
		"dedup-within":      {high: mtH("arr", mtA("a", "a")), low: mtH("arr", mtA("b", "b")), want: mtH("arr", mtA("b", "a"))},
		"new-key-dedup":     {high: mtH("arr", mtA("a", "a")), low: mtH("other", one), want: mtH("other", one, "arr", mtA("a"))},
		"not-flattened":     {high: mtA(mtA("x")), low: mtA("y"), want: mtA("y", mtA("x"))},
		"hash-over-array":   {high: mtH("a", mtH("x", one)), low: mtH("a", mtA(one)), want: mtH("a", mtH("x", one))},
		"array-over-hash":   {high: mtH("a", mtA(one)), low: mtH("a", mtH("x", one)), want: mtH("a", mtA(one))},
		"string-over-hash":  {high: mtH("a", "str"), low: mtH("a", mtH("x", one)), want: mtH("a", "str")},
		"array-over-string": {high: mtA("x"), low: "s", want: mtA("x")},
		"string-over-array": {high: "s", low: mtA("x"), want: "s"},
		"nil-higher-value": {
			high: mtH("a", nil, "b", nil), low: mtH("a", "low"),
			want: mtH("a", "low", "b", nil),
		},
		"nil-higher-root":   {high: nil, low: mtH("c", int64(3)), want: mtH("c", int64(3))},
		"false-lower":       {high: mtH("a", "x"), low: mtH("a", false), want: mtH("a", "x")},
		"false-lower-root":  {high: "x", low: false, want: "x"},
		"nil-over-false":    {high: mtH("a", nil), low: mtH("a", false), want: mtH("a", nil)},
		"key-order":         {high: mtH("z", one, "a", one), low: mtH("m", two, "z", two), want: mtH("m", two, "z", one, "a", one)},
		"empty-hash-higher": {high: mtH(), low: mtH("a", one), want: mtH("a", one)},
		"empty-hash-over-string": {
			high: mtH("a", mtH()), low: mtH("a", "s"),
			want: mtH("a", "s"),
		},
		"empty-array-higher": {high: mtA(), low: mtA("x"), want: mtA("x")},
		"hash-arrays-default": {
			high: mtH("arr", mtA(mtH("a", one))), low: mtH("arr", mtA(mtH("x", one))),
			want: mtH("arr", mtA(mtH("x", one), mtH("a", one))),
		},
		"merge-hash-arrays": {
			merge: mtH("strategy", "deep", "merge_hash_arrays", true),
			high:  mtH("arr", mtA(mtH("a", one), mtH("b", two))), low: mtH("arr", mtA(mtH("x", one))),
			want: mtH("arr", mtA(mtH("x", one, "a", one), mtH("b", two))),
		},
		"merge-hash-arrays-mixed": {
			merge: mtH("strategy", "deep", "merge_hash_arrays", true),
			high:  mtH("arr", mtA(mtH("a", one), "s")), low: mtH("arr", mtA(mtH("x", one))),
			want: mtH("arr", mtA(mtH("x", one), mtH("a", one), "s")),
		},
		"merge-hash-arrays-shorter-source": {
			merge: mtH("strategy", "deep", "merge_hash_arrays", true),
			high:  mtA(mtH("a", one)), low: mtA(mtH("x", one), mtH("y", one)),
			want: mtA(mtH("x", one, "a", one), mtH("y", one)),
		},
		"sort": {
			merge: mtH("strategy", "deep", "sort_merged_arrays", true),
			high:  mtH("arr", mtA("b", "d")), low: mtH("arr", mtA("c", "a")),
			want: mtH("arr", mtA("a", "b", "c", "d")),
		},
		"sort-numbers": {
			merge: mtH("strategy", "deep", "sort_merged_arrays", true),
			high:  mtA(2.5, int64(-1)), low: mtA(int64(3), int64(1)),
			want: mtA(int64(-1), int64(1), 2.5, int64(3)),
		},
		"sort-mixed": {
			merge: mtH("strategy", "deep", "sort_merged_arrays", true),
			high:  mtH("arr", mtA("b", one)), low: mtH("arr", mtA(two, "a")),
			wantErr: "comparison of Integer with String failed",
		},
		"sort-names-immediates": {
			merge: mtH("strategy", "deep", "sort_merged_arrays", true),
			high:  mtA(nil), low: mtA("a"),
			wantErr: "comparison of String with nil failed",
		},
		"sort-unequal-hashes": {
			merge: mtH("strategy", "deep", "sort_merged_arrays", true),
			high:  mtA(mtH("a", two)), low: mtA(mtH("a", one)),
			wantErr: "comparison of Hash with Hash failed",
		},
		"sort-only-merged-arrays": {
			merge: mtH("strategy", "deep", "sort_merged_arrays", true),
			high:  mtH("a", mtA("b", "a")), low: mtH("b", one),
			want: mtH("b", one, "a", mtA("a", "b")),
		},
	})
}

// TestDeepMergeKnockout covers the knockout_prefix consequences of hiera-semantics.md §4.5.
func TestDeepMergeKnockout(t *testing.T) {
	t.Parallel()
	ko := mtH("strategy", "deep", "knockout_prefix", "--")
	runDeepCases(t, map[string]deepCase{
		"element":        {merge: ko, high: mtH("arr", mtA("--b", "c")), low: mtH("arr", mtA("a", "b")), want: mtH("arr", mtA("a", "c"))},
		"lone-prefix":    {merge: ko, high: mtH("arr", mtA("--", "c")), low: mtH("arr", mtA("a", "b")), want: mtH("arr", mtA("c"))},
		"over-scalar":    {merge: ko, high: mtA("--x", "y"), low: "str", want: mtA("y")},
		"lone-over-hash": {merge: ko, high: mtA("--", "y"), low: mtH("k", "v"), want: mtA("y")},
		"hash-value-becomes-empty-string": {
			merge: ko,
			high:  mtH("a", "--", "b", "--x"), low: mtH("a", mtH("x", int64(1)), "b", "y", "c", "z"),
			want: mtH("a", "", "b", "", "c", "z"),
		},
		"root-string":    {merge: ko, high: "--", low: mtA("x"), want: ""},
		"hash-key-plain": {merge: ko, high: mtH("--a", int64(1)), low: mtH("a", int64(2)), want: mtH("a", int64(2), "--a", int64(1))},
		"non-string-kept": {
			merge: ko,
			high:  mtH("arr", mtA("--1", "--x")), low: mtH("arr", mtA(int64(1), "x")),
			want: mtH("arr", mtA(int64(1))),
		},
		"prefix-removes-prefixed-too": {
			merge: ko, high: mtA("--x"), low: mtA("x", "--x", "y"), want: mtA("y"),
		},
		"other-prefix": {
			merge: mtH("strategy", "deep", "knockout_prefix", "!!"),
			high:  mtA("!!x", "y"), low: mtA("x", "z"), want: mtA("z", "y"),
		},
		"prefix-is-a-regexp": {
			merge: mtH("strategy", "deep", "knockout_prefix", ".."),
			high:  mtA("..x", "ab"), low: mtA("x", "b"), want: mtA("b"),
		},
		"prefix-at-any-line-start": {merge: ko, high: mtH("s", "a\n--b"), low: mtH("s", "x"), want: mtH("s", "")},
		"invalid-prefix": {
			merge: mtH("strategy", "deep", "knockout_prefix", "("),
			high:  mtA("x"), low: mtA("y"),
			wantErr: "knockout_prefix \"(\" is not a valid regular expression: error parsing regexp: missing closing ): `(?m)^(`",
		},
		"new-key-processed": {
			merge: ko,
			high:  mtH("s", "--gone", "arr", mtA("--x", "y")), low: mtH("other", int64(1)),
			want: mtH("other", int64(1), "s", "", "arr", mtA("y")),
		},
		// Inside a new hash the gem merges each array with itself, and its delete_if then runs over
		// the array it is deleting from (results checked against deep_merge 1.1.1).
		"new-nested-key-self-merge": {
			merge: ko,
			high:  mtH("n", mtH("s", "--gone", "arr", mtA("--x", "y"))), low: mtH("other", int64(1)),
			want: mtH("other", int64(1), "n", mtH("s", "", "arr", mtA())),
		},
		"new-nested-key-self-merge-tail": {
			merge: ko,
			high:  mtH("n", mtH("arr", mtA("--x", "y", "x", "z"))), low: mtH("other", int64(1)),
			want: mtH("other", int64(1), "n", mtH("arr", mtA("z"))),
		},
		"new-nested-key-lone-prefix": {
			merge: ko,
			high:  mtH("n", mtH("arr", mtA("--", "y"))), low: mtH("other", int64(1)),
			want: mtH("other", int64(1), "n", mtH("arr", mtA())),
		},
		// A hash replacing a non-hash: the gem keeps the first entry as is and merges the others
		// with themselves.
		"hash-over-scalar-self-merges-later-keys": {
			high: mtH("a", mtA("x", "x"), "b", mtA("y", "y")), low: "s",
			want: mtH("a", mtA("x", "x"), "b", mtA("y")),
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
		"flatten-uniq":   {found: mtA(mtA("x", "y"), mtA("y", "z", mtA("w"))), want: mtA("x", "y", "z", "w")},
		"string-allowed": {found: mtA("x", mtA("y")), want: mtA("x", "y")},
		"nil-compacted":  {found: mtA(mtA("x", nil), mtA("y")), want: mtA("x", "y")},
		"single":         {found: mtA(mtA("x", "x")), want: mtA("x")},
		"integer":        {found: mtA(int64(1), mtA("y")), wantErr: "Hiera type mismatch for key 'a': expected Array and got Integer"},
		"hash":           {found: mtA(mtH("k", "v"), mtA("y")), wantErr: "Hiera type mismatch for key 'a': expected Array and got Hash"},
		"nil":            {found: mtA(nil), wantErr: "Hiera type mismatch for key 'a': expected Array and got NilClass"},
		"false":          {found: mtA(false), wantErr: "Hiera type mismatch for key 'a': expected Array and got FalseClass"},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := hiera3Array("a", tc.found)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !mtSame(got, tc.want) {
				t.Fatalf("got %s, %v; want %s", rubyInspect(got), err, rubyInspect(tc.want))
			}
		})
	}
}

// TestHiera3Hash covers hiera-semantics.md §8.2 (the edge-h3-hash-* and seed-hiera3-* cases).
func TestHiera3Hash(t *testing.T) {
	t.Parallel()
	users := func() []any {
		return mtA(
			mtH("jen", mtH("uid", int64(503), "shell", "/bin/zsh", "group", "deglitch"), "bob", mtH("uid", int64(1000), "group", "deglitch")),
			mtH("bob", mtH("uid", int64(501), "shell", "/bin/bash"), "ash", mtH("uid", int64(502), "shell", "/bin/zsh", "group", "common")),
		)
	}
	highLow := mtA(
		mtH("a", "high", "n", mtH("x", "high"), "arr", mtA("h1")),
		mtH("a", "low", "b", "low", "n", mtH("y", "low", "x", "low"), "arr", mtA("l1")),
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
			found:    mtA(mtH("a", "high", "n", mtH("x", "high")), mtH("a", "low", "b", "low", "n", mtH("y", "low"))),
			want:     mtH("a", "high", "b", "low", "n", mtH("x", "high")),
		},
		"native-users": {
			behavior: "native", found: users(),
			want: mtH("bob", mtH("uid", int64(1000), "group", "deglitch"), "ash", mtH("uid", int64(502), "shell", "/bin/zsh", "group", "common"),
				"jen", mtH("uid", int64(503), "shell", "/bin/zsh", "group", "deglitch")),
		},
		"unknown-is-native": {behavior: "", found: mtA(mtH("a", int64(1)), mtH("a", int64(2), "b", int64(2))), want: mtH("a", int64(1), "b", int64(2))},
		"deeper": {
			behavior: "deeper", found: highLow,
			want: mtH("a", "high", "b", "low", "n", mtH("y", "low", "x", "high"), "arr", mtA("l1", "h1")),
		},
		"deeper-users": {
			behavior: "deeper", found: users(),
			want: mtH("bob", mtH("uid", int64(1000), "shell", "/bin/bash", "group", "deglitch"), "ash", mtH("uid", int64(502), "shell", "/bin/zsh", "group", "common"),
				"jen", mtH("uid", int64(503), "shell", "/bin/zsh", "group", "deglitch")),
		},
		"deeper-arrays": {
			behavior: "deeper",
			found:    mtA(mtH("l", mtA("a", "b"), "s", "x"), mtH("l", mtA("b", "c"), "s", "y", "t", "z")),
			want:     mtH("l", mtA("b", "c", "a"), "s", "x", "t", "z"),
		},
		"deeper-nil-higher": {behavior: "deeper", found: mtA(mtH("a", nil), mtH("a", "low")), want: mtH("a", "low")},
		"deeper-knockout": {
			behavior: "deeper", opts: DeepOptions{KnockoutPrefix: "--"},
			found: mtA(mtH("arr", mtA("--a", "c"), "s", "--"), mtH("arr", mtA("a", "b"), "s", "x")),
			want:  mtH("arr", mtA("b", "c"), "s", ""),
		},
		"deep-lower-wins": {
			behavior: "deep", found: highLow,
			want: mtH("a", "low", "b", "low", "n", mtH("y", "low", "x", "low"), "arr", mtA("l1", "h1")),
		},
		"deep-users": {
			behavior: "deep", found: users(),
			want: mtH("bob", mtH("uid", int64(501), "shell", "/bin/bash", "group", "deglitch"), "ash", mtH("uid", int64(502), "shell", "/bin/zsh", "group", "common"),
				"jen", mtH("uid", int64(503), "shell", "/bin/zsh", "group", "deglitch")),
		},
		"deep-type-mismatch-keeps-lower": {
			behavior: "deep", found: mtA(mtH("a", mtH("x", int64(1))), mtH("a", "str")),
			want: mtH("a", "str"),
		},
		"deep-knockout-rejected": {
			behavior: "deep", opts: DeepOptions{KnockoutPrefix: "--"}, found: mtA(mtH("a", int64(1))),
			wantErr: "overwrite_unmergeable must be true if knockout_prefix is specified in deep_merge!",
		},
		"single-value": {behavior: "deeper", found: mtA(mtH("arr", mtA("a", "a"))), want: mtH("arr", mtA("a", "a"))},
		"non-hash": {
			behavior: "native", found: mtA("str", mtH("a", int64(1))),
			wantErr: "Hiera type mismatch for key 'h': expected Hash and got String",
		},
		"non-hash-lower": {
			behavior: "deeper", found: mtA(mtH("a", int64(1)), mtA()),
			wantErr: "Hiera type mismatch for key 'h': expected Hash and got Array",
		},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			before := Copy(tc.found)
			got, err := hiera3Hash("h", &v3Settings{mergeBehavior: tc.behavior, deepOptions: tc.opts}, tc.found)
			if !mtSame(before, tc.found) {
				t.Errorf("the merge modified its inputs")
			}
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !mtSame(got, tc.want) {
				t.Fatalf("got %s, %v; want %s", rubyInspect(got), err, rubyInspect(tc.want))
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
		"empty-array":  {v: mtA(), name: "Array", detail: "Array[0, 0]"},
		"tuple":        {v: mtA(int64(1), "a"), name: "Tuple", detail: "Tuple[Integer[1, 1], String]"},
		"empty-hash":   {v: mtH(), name: "Hash", detail: "Hash[0, 0]"},
		"struct":       {v: mtH("a", int64(1), "b", nil), name: "Struct", detail: "Struct[{'a' => Integer[1, 1], NotUndef['b'] => Undef}]"},
		"integer-keys": {v: mtH(int64(1), "a"), name: "Hash", detail: "Hash[Integer[1, 1], String]"},
		"enum-values": {
			v: mtH(int64(1), "b", int64(2), "a", int64(3), "c"), name: "Hash",
			detail: "Hash[Variant[Integer[2, 3], Integer[1, 1]], Enum['a', 'b', 'c']]",
		},
		"unmerged-ranges-keep-order": {
			v: mtH(int64(1), int64(2), int64(2), int64(0)), name: "Hash",
			detail: "Hash[Integer[1, 2], Variant[Integer[2, 2], Integer[0, 0]]]",
		},
		"optional-string": {
			v: mtH("b", nil, int64(1), "y"), name: "Hash",
			detail: "Hash[Variant[String, Integer[1, 1]], Optional['y']]",
		},
		"nested-hash-size": {
			v: mtH(int64(1), mtH(int64(2), int64(1))), name: "Hash",
			detail: "Hash[Integer[1, 1], Hash[Integer[2, 2], Integer[1, 1], 1, 1]]",
		},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := puppetTypeName(tc.v); got != tc.name {
				t.Errorf("puppetTypeName = %q, want %q", got, tc.name)
			}
			if got := puppetTypeDetail(tc.v); got != tc.detail {
				t.Errorf("puppetTypeDetail = %q, want %q", got, tc.detail)
			}
		})
	}
}
