package merge

import "github.com/hieraform/terraform-provider-hiera/internal/hiera/model"

// Values merges values as Hiera merges the values found at hierarchy levels: values[0] has the
// highest priority. A nil element is skipped, like a level without the key; found is false when
// every element is nil. The inputs are not modified.
func Values(m *Merge, values []any) (result any, found bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, found, err = nil, false, model.Errorf("internal error in the hiera merge (please report): %v", r)
		}
	}()
	var present []any
	for _, v := range values {
		if v != nil {
			present = append(present, v)
		}
	}
	return Variants(m, len(present), func(i int) (any, bool, error) { return present[i], true, nil })
}

// Variants is Puppet's "merge over variants" (hiera-semantics.md §4.1) for one stage.
func Variants(m *Merge, n int, lookup func(i int) (any, bool, error)) (any, bool, error) {
	if m.IsFirst() {
		for i := 0; i < n; i++ {
			if v, found, err := lookup(i); err != nil || found {
				return v, found, err
			}
		}
		return nil, false, nil
	}
	if n == 1 {
		v, found, err := lookup(0)
		if err != nil || !found {
			return nil, false, err
		}
		return m.Single(v), true, nil
	}
	var memo any
	have := false
	for i := 0; i < n; i++ {
		v, found, err := lookup(i)
		if err != nil {
			return nil, false, err
		}
		if !found {
			continue
		}
		if !have {
			memo, have = m.Convert(v), true
			continue
		}
		if memo, err = m.Combine(memo, v); err != nil {
			return nil, false, err
		}
	}
	return memo, have, nil
}
