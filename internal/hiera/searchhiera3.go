package hiera

import (
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// searchHiera3 is hiera_hash / hiera_array over a version 3 hiera.yaml, with Hiera 3's own
// resolution: every found value, in priority order, folded by :merge_behavior: or array rules.
// root is the parsed key's root: a quoted 'a.b' is one segment, which Hiera 3 looks up as the key
// a.b; dotted says the key has more segments.
func (inv *invocation) searchHiera3(key, root string, dotted bool) (any, bool, error) {
	if dotted {
		kind := ":hash"
		if inv.req.Function == FuncArray {
			kind = ":array"
		}
		return nil, false, model.Errorf("Resolution type %s is illegal when accessing values using dotted keys. Offending key was '%s'", kind, key)
	}
	key = root
	// Hiera 3 resolves each backend over the whole hierarchy, then merges the backends' answers.
	var perBackend []any
	for _, e := range inv.cfg.Entries {
		var found []any
		inv.noteSearched(e.Name)
		locs, err := inv.entryLocations(e)
		if err != nil {
			return nil, false, err
		}
		for _, loc := range locs {
			v, ok, err := inv.lookupInLocation(e, loc, key)
			if err != nil {
				return nil, false, err
			}
			if ok {
				found = append(found, v)
			}
		}
		if len(found) > 0 {
			v, err := inv.resolveHiera3(key, found)
			if err != nil {
				return nil, false, err
			}
			perBackend = append(perBackend, v)
		}
	}
	switch len(perBackend) {
	case 0:
		return nil, false, nil
	case 1:
		return perBackend[0], true, nil
	}
	v, err := inv.resolveHiera3(key, perBackend)
	return v, err == nil, err
}

func (inv *invocation) resolveHiera3(key string, found []any) (any, error) {
	if inv.req.Function == FuncArray {
		return merge.Hiera3Array(key, found)
	}
	return merge.Hiera3Hash(key, inv.cfg.V3, found)
}
