package merge

import "github.com/hieraform/terraform-provider-hiera/internal/hiera/model"

// The resolution types of Hiera 3.10 itself (hiera/backend.rb and backend/yaml_backend.rb), used for a
// version 3 hiera.yaml. Hiera 3 folds the values of each backend and then folds the backends' results
// the same way, so the lookup code calls these once per backend and once over the backends.

// Hiera3Array is the array resolution: every found value (in priority order) must be an Array or a
// String; the answer is [values].flatten.uniq.compact. found must not be empty.
func Hiera3Array(key string, found []any) (any, error) {
	for _, v := range found {
		switch v.(type) {
		case []any, string:
		default:
			return nil, model.Errorf("Hiera type mismatch for key '%s': expected Array and got %s", key, model.ClassName(v))
		}
	}
	all := rubyUnion(flatten(nil, found), nil)
	out := make([]any, 0, len(all))
	for _, v := range all {
		if v != nil {
			out = append(out, v)
		}
	}
	return out, nil
}

// Hiera3Hash is the hash resolution: every found value (in priority order) must be a Hash; they are
// folded with answer = merge_answer(lower, answer) under the config's :merge_behavior: (native, deep
// or deeper) and :deep_merge_options:. found must not be empty.
func Hiera3Hash(key string, settings *V3Settings, found []any) (any, error) {
	var answer any = model.NewHash(0)
	for _, v := range found {
		lower, ok := v.(*model.Hash)
		if !ok {
			return nil, model.Errorf("Hiera type mismatch for key '%s': expected Hash and got %s", key, model.ClassName(v))
		}
		var err error
		if answer, err = hiera3MergeAnswer(settings, lower, answer); err != nil {
			return nil, err
		}
	}
	return answer, nil
}

// hiera3MergeAnswer is Backend.merge_answer(lower, higher).
func hiera3MergeAnswer(settings *V3Settings, lower *model.Hash, higher any) (any, error) {
	behavior := settings.MergeBehavior
	if behavior != "deep" && behavior != "deeper" {
		high, isHash := higher.(*model.Hash)
		if !isHash { // cannot happen: Hiera3Hash starts from a Hash and a native merge keeps it one
			return nil, model.Errorf("Hiera type mismatch: expected Hash and got %s", model.ClassName(higher))
		}
		return Hashes(high, lower), nil // lower.merge(higher)
	}
	// deeper is Hash#deeper_merge!, deep is Hash#deeper_merge: the same merge but keeping the lower
	// value whenever the two cannot be merged.
	dm, err := newDeepMerger(settings.DeepOptions, behavior == "deep")
	if err != nil {
		return nil, err
	}
	dm.unpack = settings.UnpackArrays
	return dm.merge(higher, model.Copy(lower))
}

// V3Settings are the parts of a version 3 hiera.yaml that change how lookups behave.
type V3Settings struct {
	MergeBehavior string      // native, deep or deeper: used by hiera_hash
	DeepOptions   DeepOptions // :deep_merge_options:
	UnpackArrays  string      // :deep_merge_options: {:unpack_arrays: ','}: arrays are joined and split on it
}
