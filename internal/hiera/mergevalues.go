package hiera

// MergeValues merges values as Hiera merges the values found at hierarchy levels: values[0] has the
// highest priority. A nil element is skipped, like a level without the key; found is false when
// every element is nil. The inputs are not modified.
func MergeValues(m *Merge, values []any) (result any, found bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, found, err = nil, false, errorf("internal error in the hiera merge (please report): %v", r)
		}
	}()
	var present []any
	for _, v := range values {
		if v != nil {
			present = append(present, v)
		}
	}
	return mergeVariants(m, len(present), func(i int) (any, bool, error) { return present[i], true, nil })
}
