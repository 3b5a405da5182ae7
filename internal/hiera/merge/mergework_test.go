package merge

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model/modeltest"
)

// worstMerges are the merges whose cost grew with the square of their arrays before they were made
// linear: knockouts over a lower array, knockouts inside a new key (the gem's self-merge), and
// arrays of hashes joined without merge_hash_arrays (and by the unique strategy).
func worstMerges(n int) map[string]struct {
	merge     any
	high, low any
} {
	plain, ko, hashes, hashes2 := make([]any, n), make([]any, n), make([]any, n), make([]any, n)
	for i := range n {
		plain[i] = fmt.Sprintf("x%d", i)
		ko[i] = fmt.Sprintf("--x%d", i)
		hashes[i] = modeltest.H("name", fmt.Sprintf("u%d", i), "uid", int64(i))
		hashes2[i] = modeltest.H("name", fmt.Sprintf("u%d", i+n), "uid", int64(i+n))
	}
	koMerge := modeltest.H("strategy", "deep", "knockout_prefix", "--")
	self := append(append([]any{}, plain...), ko...)
	return map[string]struct {
		merge     any
		high, low any
	}{
		"knockout":        {koMerge, modeltest.H("k", ko), modeltest.H("k", plain)},
		"knockout-self":   {koMerge, modeltest.H("n", modeltest.H("k", self)), modeltest.H("other", int64(1))},
		"deep-hash-array": {"deep", modeltest.H("k", hashes), modeltest.H("k", hashes2)},
		"unique-hashes":   {"unique", hashes, hashes2},
	}
}

func BenchmarkWorstMerge(b *testing.B) {
	for _, n := range []int{1000, 4000, 16000} {
		for name, tc := range worstMerges(n) {
			m, err := Parse(tc.merge)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				for b.Loop() {
					if _, _, err := Values(m, []any{tc.high, tc.low}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestWorstMergesAnswer checks the results of the merges BenchmarkWorstMerge times.
func TestWorstMergesAnswer(t *testing.T) {
	t.Parallel()
	const n = 3000
	// array is the array at keys inside v, nil when there is none.
	array := func(v any, keys ...string) []any {
		for _, k := range keys {
			h, _ := v.(*model.Hash)
			v, _ = h.Get(k)
		}
		a, _ := v.([]any)
		return a
	}
	want := map[string]func(v any) bool{
		"knockout": func(v any) bool { a := array(v, "k"); return a != nil && len(a) == 0 },
		// the gem's delete_if skips an element after each knockout (see aliasedKnockOut): every
		// third x and every third knockout survive
		"knockout-self": func(v any) bool {
			a := array(v, "n", "k")
			return len(a) == n && modeltest.Same(a[:3], modeltest.A("x1", "x2", "x4")) && a[2*n/3] == "--x1"
		},
		"deep-hash-array": func(v any) bool {
			a := array(v, "k")
			return len(a) == 2*n && model.Equal(a[0], modeltest.H("uid", int64(n), "name", fmt.Sprintf("u%d", n)))
		},
		"unique-hashes": func(v any) bool { return len(array(v)) == 2*n },
	}
	for name, tc := range worstMerges(n) {
		m, err := Parse(tc.merge)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := Values(m, []any{tc.high, tc.low})
		if err != nil || !want[name](got) {
			t.Errorf("%s: got an unexpected result (err %v)", name, err)
		}
		// the same arrays again: every element is a duplicate
		got, _, err = Values(m, []any{tc.high, tc.high})
		if name == "unique-hashes" && (err != nil || len(array(got)) != n) {
			t.Errorf("%s: duplicates kept (err %v)", name, err)
		}
	}
}

// TestKnockoutMatchesGem compares the linear knockouts and union with the gem's algorithm as
// written before (one Array#delete per knockout, a scan per element) on random arrays.
func TestKnockoutMatchesGem(t *testing.T) {
	t.Parallel()
	atoms := []any{"a", "b", "c", "--a", "--b", "--c", "----a", "--", "x\n--a", int64(1), "1", "--1",
		nil, 1.0, modeltest.A("a"), modeltest.A("a"), modeltest.H("k", "a"), modeltest.H("k", "b", "j", "a"), modeltest.H("j", "a", "k", "b")}
	d, err := newDeepMerger(DeepOptions{KnockoutPrefix: "--"}, false)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	random := func() []any {
		a := make([]any, r.IntN(40))
		for i := range a {
			a[i] = atoms[r.IntN(len(atoms))]
		}
		return a
	}
	for range 20000 {
		checkKnockouts(t, d, random(), random())
	}
}

// checkKnockouts compares knockOut, aliasedKnockOut and rubyUnion with the gem's algorithms.
func checkKnockouts(t testing.TB, d *deepMerger, src, dst []any) {
	t.Helper()
	gotKeep, gotDst := d.knockOut(src, dst)
	wantKeep, wantDst := gemKnockOut(d, src, dst)
	if !modeltest.Same(gotKeep, wantKeep) || !modeltest.Same(gotDst, wantDst) {
		t.Fatalf("knockOut(%s, %s) = %s, %s; the gem gives %s, %s", model.Inspect(src), model.Inspect(dst),
			model.Inspect(gotKeep), model.Inspect(gotDst), model.Inspect(wantKeep), model.Inspect(wantDst))
	}
	if got, want := d.aliasedKnockOut(append([]any{}, src...)), gemAliasedKnockOut(d, append([]any{}, src...)); !modeltest.Same(got, want) {
		t.Fatalf("aliasedKnockOut(%s) = %s; the gem gives %s", model.Inspect(src), model.Inspect(got), model.Inspect(want))
	}
	if got, want := rubyUnion(src, dst), gemUnion(src, dst); !modeltest.Same(got, want) {
		t.Fatalf("rubyUnion(%s, %s) = %s, want %s", model.Inspect(src), model.Inspect(dst), model.Inspect(got), model.Inspect(want))
	}
}

func gemKnockOut(d *deepMerger, src, dst []any) ([]any, []any) {
	keep := []any{}
	for _, e := range src {
		if s, ok := e.(string); ok {
			if t := d.ko.ReplaceAllString(s, ""); t != s {
				dst = deleteValue(deleteValue(dst, t), s)
				continue
			}
		}
		keep = append(keep, e)
	}
	return keep, dst
}

func gemAliasedKnockOut(d *deepMerger, ary []any) []any {
	delInPlace := func(a []any, v any) []any {
		n := 0
		for _, e := range a {
			if !model.Equal(e, v) {
				a[n] = e
				n++
			}
		}
		return a[:n]
	}
	i1, i2 := 0, 0
	for ; i1 < len(ary); i1++ {
		v := ary[i1]
		if s, ok := v.(string); ok {
			if t := d.ko.ReplaceAllString(s, ""); t != s {
				ary = delInPlace(delInPlace(ary, t), s)
				continue
			}
		}
		if i1 != i2 {
			for i2 >= len(ary) {
				ary = append(ary, nil)
			}
			ary[i2] = v
		}
		i2++
	}
	if n := len(ary); i2 < n && i2 < i1 {
		tail := 0
		if i1 < n {
			tail = n - i1
			copy(ary[i2:], ary[i1:])
		}
		ary = ary[:i2+tail]
	}
	return ary
}

func gemUnion(a, b []any) []any {
	out := []any{}
	for _, e := range append(append([]any{}, a...), b...) {
		if !slices.ContainsFunc(out, func(o any) bool { return model.Equal(o, e) }) {
			out = append(out, e)
		}
	}
	return out
}
