package hieraconfig

import (
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// parseV3 converts a Hiera 3 configuration into one hierarchy entry per backend, each walking the
// whole :hierarchy:, which is the order Hiera 3 consults them in.
func (c *Config) parseV3(top *model.Hash) error {
	c.V3 = &merge.V3Settings{MergeBehavior: "native"}
	backends, err := c.v3StringList(top, "backends", []string{"yaml"})
	if err != nil {
		return err
	}
	hierarchy, err := c.v3StringList(top, "hierarchy", []string{"nodes/%{::trusted.certname}", "common"})
	if err != nil {
		return err
	}
	if v, ok := top.Get("merge_behavior"); ok {
		s := model.ToS(v)
		switch s {
		case "native", "deep", "deeper":
			c.V3.MergeBehavior = s
		default:
			return c.errAt(0, "Hiera 3 :merge_behavior: must be native, deep or deeper, got '%s'", s)
		}
	}
	if v, ok := top.Get("deep_merge_options"); ok && v != nil {
		opts, isHash := v.(*model.Hash)
		if !isHash {
			return c.errAt(0, ":deep_merge_options: must be a hash, got %s", model.TypeName(v))
		}
		opts.Each(func(k, val any) bool {
			switch model.ToS(k) {
			case "knockout_prefix":
				c.V3.DeepOptions.KnockoutPrefix, _ = val.(string)
			case "sort_merged_arrays":
				c.V3.DeepOptions.SortMergedArrays, _ = val.(bool)
			case "merge_hash_arrays":
				c.V3.DeepOptions.MergeHashArrays, _ = val.(bool)
			case "unpack_arrays":
				c.V3.UnpackArrays, _ = val.(string)
			}
			return true
		})
	}
	seen := map[string]int{}
	for j, b := range backends {
		if first, dup := seen[b]; dup {
			return c.errAt(datafile.SourceLine(c.src, "backends", j), "Backend '%s' is defined more than once. First defined at (line: %d)", b, datafile.SourceLine(c.src, "backends", first))
		}
		seen[b] = j
		fn := v3Function(b)
		if fn == nil {
			return c.errAt(0, "Hiera 3 backend '%s' is not supported (only %s)", b, servedNames(func(f *Function) string { return f.V3Backend }))
		}
		e := &Entry{Name: b, Function: fn, LocKind: "paths"}
		ext := fn.V3Extension
		settings, _ := top.Get(b)
		if sh, isHash := settings.(*model.Hash); isHash {
			if d, ok := sh.Get("datadir"); ok {
				e.Datadir, _ = d.(string)
			}
			if x, ok := sh.Get("extension"); ok && x != nil {
				ext = "." + model.ToS(x) // Puppet adds the dot, as Hiera 3 does
			}
			e.Options = v3Options(sh)
		}
		if e.Datadir == "" {
			return c.errAt(0, "Hiera 3 backend '%s' has no :datadir: (Puppet's default lies outside the configuration directory): set :%s: {:datadir: ...}", b, b)
		}
		for _, item := range hierarchy {
			if !strings.HasSuffix(item, ext) {
				item += ext
			}
			e.Locs = append(e.Locs, item)
		}
		c.Entries = append(c.Entries, e)
	}
	return nil
}

// v3Options keeps a backend's settings other than datadir/extension (the eyaml key paths).
func v3Options(settings *model.Hash) *model.Hash {
	opts := model.NewHash(2)
	settings.Each(func(k, v any) bool {
		if ks := model.ToS(k); ks != "datadir" && ks != "extension" {
			opts.Set(ks, v)
		}
		return true
	})
	if opts.Len() == 0 {
		return nil
	}
	return opts
}

func (c *Config) v3StringList(top *model.Hash, key string, dflt []string) ([]string, error) {
	v, ok := top.Get(key)
	if !ok || v == nil {
		return dflt, nil
	}
	if s, isStr := v.(string); isStr {
		return []string{s}, nil
	}
	list, isList := v.([]any)
	if !isList {
		return nil, c.errAt(0, ":%s: must be a string or an array of strings, got %s", key, model.TypeName(v))
	}
	out := make([]string, 0, len(list))
	for _, el := range list {
		s, isStr := el.(string)
		if !isStr {
			return nil, c.errAt(0, ":%s: must be a string or an array of strings, got an element %s", key, model.Inspect(el))
		}
		out = append(out, s)
	}
	return out, nil
}
