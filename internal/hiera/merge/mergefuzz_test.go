package merge

import (
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

func FuzzMerge(f *testing.F) {
	f.Add(`{"a": [1, "--x"], "h": {"k": 1}}`, `{"a": ["x", 2], "h": {"k": [1]}}`, "deep", "--", true, true)
	f.Add(`[1, [2, [3]]]`, `[3, 1]`, "unique", "", false, false)
	f.Add(`{"a": 1}`, `{"b": null}`, "hash", "", false, false)
	f.Add(`[{"a": 1}]`, `[{"b": 2}, 3]`, "deep", "..", true, true)
	f.Add(`["x", "--y", "y", "--x", "z", "x", "--z"]`, `["y", "x", {"a": 1}, [1]]`, "deep", "--", false, false)
	f.Fuzz(func(t *testing.T, high, low, strategy, ko string, sortArrays, hashArrays bool) {
		h, err1 := datafile.ParseJSON([]byte(high))
		l, err2 := datafile.ParseJSON([]byte(low))
		if err1 != nil || err2 != nil {
			return
		}
		opts := model.NewHash(4)
		opts.Set("strategy", strategy)
		if strategy == "deep" {
			if ko != "" {
				opts.Set("knockout_prefix", ko)
			}
			opts.Set("sort_merged_arrays", sortArrays)
			opts.Set("merge_hash_arrays", hashArrays)
		}
		m, err := Parse(opts)
		if err != nil {
			return
		}
		if src, ok := h.([]any); ok && m.Deep.KnockoutPrefix != "" { // the linear knockouts against the gem's
			if d, err := newDeepMerger(m.Deep, false); err == nil {
				dst, _ := l.([]any)
				checkKnockouts(t, d, src, dst)
			}
		}
		before, _ := datafile.MarshalJSON(l)
		if merged, err := m.Combine(m.Convert(h), l); err == nil {
			_, _ = datafile.MarshalJSON(merged)
		}
		if after, _ := datafile.MarshalJSON(l); string(after) != string(before) {
			t.Fatalf("merge mutated its lower-priority input: %s became %s", before, after)
		}
	})
}
