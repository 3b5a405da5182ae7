// Finding the data file behind a failure, for errors that Puppet words without one.
package hiera

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// eachDataFile calls fn with every data file layer l's hierarchy and default_hierarchy name for the
// node, in search order (df is nil for a file that does not exist), until fn returns false. It runs
// on error paths: it reads what a lookup would read, through the invocation's memo.
func (inv *invocation) eachDataFile(l *layer, fn func(e *entry, loc location, df *dataFile) bool) error {
	if l.cfg == nil {
		return nil
	}
	defer inv.leave(inv.enter(l))
	for _, e := range slices.Concat(l.cfg.Entries, l.cfg.DefaultEntries) {
		if err := inv.ctx.Err(); err != nil {
			return err
		}
		if e.Function.Custom { // its function reads its files (customlevels.go)
			continue
		}
		locs, err := inv.entryLocations(e)
		if err != nil {
			return err
		}
		for _, loc := range locs {
			df, _, _ := inv.data(loc.path, e.Function)
			if !fn(e, loc, df) {
				return nil
			}
		}
	}
	return nil
}

// rootValue is the raw value of root in a data file, when the file has it.
func rootValue(df *dataFile, root string) (any, bool) {
	if df == nil || df.err != nil {
		return nil, false
	}
	v, ok, _, err := df.value(root)
	return v, ok && err == nil
}

// optionsEntryFile finds the data file of layer l whose lookup_options hold key (the most specific
// one); ok is false when none does.
func (inv *invocation) optionsEntryFile(l *layer, key string) (level, file string, ok bool) {
	_ = inv.eachDataFile(l, func(e *entry, loc location, df *dataFile) bool {
		opts, _ := rootValue(df, "lookup_options")
		if h, isHash := opts.(*model.Hash); isHash {
			if _, ok = h.Get(key); ok {
				level, file = e.Name, loc.path
			}
		}
		return !ok
	})
	return level, file, ok
}

// locateOptionsError names the data file and entry of a lookup_options entry that does not parse
// (an unknown merge strategy): Puppet names neither.
func (inv *invocation) locateOptionsError(err error, root string, all *model.Hash) error {
	var e *model.Error
	if !errors.As(err, &e) || e.File != "" {
		return err
	}
	entryKey := root
	if _, exact := all.Get(root); !exact {
		entryKey = matchingPattern(all, root)
	}
	layers, lerr := inv.layersFor(root)
	if lerr != nil || entryKey == "" {
		return err
	}
	c := *e
	for _, l := range layers {
		if level, file, ok := inv.optionsEntryFile(l, entryKey); ok {
			c.Level, c.File, c.Line = level, file, keyLine(file, "lookup_options", entryKey)
			break
		}
	}
	c.Hint = optionsEntryHint(entryKey, c.Message)
	return &c
}

// optionsEntryHint names the lookup_options entry a message is about, and the merges there are.
func optionsEntryHint(entryKey, message string) string {
	if strings.HasPrefix(message, "Unknown merge strategy") {
		return fmt.Sprintf("In the lookup_options entry %q: merge must be one of %s", entryKey, strings.Join(merge.Strategies, ", "))
	}
	return fmt.Sprintf("In the lookup_options entry %q", entryKey)
}

// matchingPattern is the lookup_options pattern (a key starting with ^) selectOptions stops at for
// root: the first one that matches it, or that does not compile.
func matchingPattern(all *model.Hash, root string) string {
	for _, k := range all.Keys() {
		p, isStr := k.(string)
		if !isStr || !strings.HasPrefix(p, "^") {
			continue
		}
		if re, err := compilePattern(p); err != nil || re.MatchString(root) {
			return p
		}
	}
	return ""
}

// locateLayerOptionsError names the data file behind a layer's lookup_options that Puppet checks
// merged and reports with no file: one that is not a hash, or a module's entry for a key that is not
// the module's own (that key named too). Without such a file, the layer's hiera.yaml is named.
func (inv *invocation) locateLayerOptionsError(err error, l *layer, v any) error {
	e, ok := err.(*model.Error)
	if !ok || e.File != "" {
		return err
	}
	c := *e
	c.File = l.cfg.Path
	h, isHash := v.(*model.Hash)
	key := ""
	if isHash {
		key = foreignOptionsKey(h, l.module)
	}
	_ = inv.eachDataFile(l, func(en *entry, loc location, df *dataFile) bool {
		opts, found := rootValue(df, "lookup_options")
		oh, optsHash := opts.(*model.Hash)
		_, hasKey := oh.Get(key)
		if found && (!isHash && !optsHash || isHash && optsHash && hasKey) {
			c.Level, c.File, c.Line = en.Name, loc.path, keyLine(loc.path, "lookup_options", key)
			return false
		}
		return true
	})
	c.Hint = foreignOptionsHint(key, l.module)
	return &c
}

// foreignOptionsHint says why a module's lookup_options key is refused ("" for no key).
func foreignOptionsHint(key, module string) string {
	if key == "" {
		return ""
	}
	return fmt.Sprintf("The lookup_options key %q is not module %q's own: a module's data may only give lookup_options for "+
		"keys starting with %q (patterns \"^%s\"); options for other keys belong in the environment's or the global data",
		key, module, module+"::", module+"::")
}

// locateMergeTypeError names the data files whose value for root the merge cannot take, and
// what to use instead: Puppet says only which element of the merge has the wrong type.
func (inv *invocation) locateMergeTypeError(err error, root string, m *merge.Merge, fn Function) error {
	var e *model.Error
	if !errors.Is(err, merge.ErrMergeType) || !errors.As(err, &e) || e.File != "" || m == nil {
		return err
	}
	layers, lerr := inv.layersFor(root)
	if lerr != nil {
		return err
	}
	wantHash := m.Strategy == "hash" || m.Strategy == "deep"
	var wrong []string
	c := *e
	for _, l := range layers {
		_ = inv.eachDataFile(l, func(en *entry, loc location, df *dataFile) bool {
			v, ok := rootValue(df, root)
			if _, isHash := v.(*model.Hash); ok && v != nil && isHash != wantHash {
				if len(wrong) == 0 {
					c.Level, c.File, c.Line = en.Name, loc.path, keyLine(loc.path, root)
				}
				wrong = append(wrong, fmt.Sprintf("%s in %s", kindOf(v), loc.path))
			}
			return len(wrong) < 3
		})
	}
	if len(wrong) == 0 {
		return err
	}
	c.Hint = fmt.Sprintf("The %s merge takes %s, and %q holds %s", m.Strategy, map[bool]string{true: "hashes only", false: "arrays and scalars only"}[wantHash],
		root, strings.Join(wrong, ", "))
	switch fn {
	case FuncHash:
		c.Hint += ": hiera_hash merges hashes; use hiera_array for arrays, or hiera_lookup for a value of any type"
	case FuncArray:
		c.Hint += ": hiera_array merges arrays; use hiera_hash for hashes, or hiera_lookup for a value of any type"
	}
	return &c
}

// kindOf names a value's kind as a user of YAML would: "an array", "a hash", "a string".
func kindOf(v any) string {
	switch v.(type) {
	case *model.Hash:
		return "a hash"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return "a number"
}
