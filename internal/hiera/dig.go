package hiera

import (
	"fmt"
	"math/big"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// dig walks segs[1:] into v, the (merged) value of the root key (hiera-semantics.md §3.7, Puppet's
// SubLookup#sub_lookup). found=false when a segment is missing, an index is out of range or a nil
// is reached. Any other value that is not hash-like is an error with Puppet's text.
func dig(v any, segs []any, key string) (any, bool, error) {
	for _, seg := range segs[1:] {
		if v == nil {
			return nil, false, nil
		}
		switch t := v.(type) {
		case []any:
			switch i := seg.(type) {
			case int64:
				if i < 0 || i >= int64(len(t)) {
					return nil, false, nil
				}
				v = t[i]
				continue
			case *big.Int:
				return nil, false, nil // never a valid index
			}
		case *model.Hash:
			x, ok := t.Get(seg)
			if !ok {
				return nil, false, nil
			}
			v = x
			continue
		}
		// Puppet crashes for an Integer here (it has #[] but no #include?); we report the mismatch.
		return nil, false, &model.Error{Key: key, Message: fmt.Sprintf(
			"Data Provider type mismatch: Got %s when a hash-like object was expected to access value using '%v' from key '%s'",
			model.ClassName(v), seg, key)}
	}
	return v, true, nil
}

// dig3 is the Hiera 3 variant (hiera-semantics.md §8.2, Hiera::Backend#qualified_lookup): it splits key itself
// (no whitespace trimming), an all-digit segment requires an Array, any other segment a Hash.
func dig3(v any, key string) (any, bool, error) {
	segs, err := splitKey3(key)
	if err != nil {
		return nil, false, err
	}
	for _, seg := range segs[1:] {
		if v == nil {
			return nil, false, nil
		}
		if keyRubyLineMatch(keyH3IntSeg, seg) {
			idx := keyRubyToI(seg)
			arr, ok := v.([]any)
			if !ok {
				return nil, false, &model.Error{Key: key, Message: fmt.Sprintf(
					"Hiera type mismatch: Got %s when Array was expected to access value using '%v' from key '%s'",
					model.ClassName(v), idx, key)}
			}
			i, small := idx.(int64)
			if !small || i >= int64(len(arr)) {
				return nil, false, nil
			}
			v = arr[i]
			continue
		}
		h, ok := v.(*model.Hash)
		if !ok {
			return nil, false, &model.Error{Key: key, Message: fmt.Sprintf(
				"Hiera type mismatch: Got %s when a hash-like object was expected to access value using '%s' from key '%s'",
				model.ClassName(v), seg, key)}
		}
		if v, ok = h.Get(seg); !ok {
			return nil, false, nil
		}
	}
	return v, true, nil
}
