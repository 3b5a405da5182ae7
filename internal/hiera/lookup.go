package hiera

import (
	"strings"
)

// lookupTop is a whole lookup of one key: lookup_options, merge, dig, convert_to. fn is the
// Puppet function it acts as (interpolated lookups act as lookup()).
func (inv *invocation) lookupTop(key string, explicit *Merge, fn Function) (any, bool, error) {
	if err := inv.ctx.Err(); err != nil {
		return nil, false, err
	}
	if key == "lookup_options" || strings.HasPrefix(key, "lookup_options.") {
		inv.ex.line("Invalid key \"lookup_options\"")
		return nil, false, nil
	}
	segs, err := parseKey(key)
	if err != nil {
		return nil, false, err
	}
	root := keyRoot(segs)
	opts, err := inv.optionsFor(root)
	if err != nil {
		return nil, false, err
	}
	if isSensitiveType(opts.convertTo) {
		inv.redact = true
	}
	merge := explicit
	if merge == nil {
		switch fn {
		case FuncHash:
			merge = &Merge{Strategy: "hash"}
		case FuncArray:
			merge = &Merge{Strategy: "unique"}
		default:
			if opts.merge != nil {
				merge = opts.merge
				inv.ex.line("Using merge options from \"lookup_options\" hash")
			} else {
				merge = &Merge{Strategy: "first"}
			}
		}
	}
	inv.ex.line("Searching for %q", key)
	inv.ex.push()
	defer inv.ex.pop()

	var value any
	var found bool
	err = inv.check(key, func() error {
		if inv.cfg.v3 != nil && explicit == nil && fn != FuncLookup {
			value, found, err = inv.searchHiera3(key, segs)
			return err
		}
		if value, found, err = inv.cachedSearch(root, merge); err != nil || !found {
			return err
		}
		if len(segs) > 1 {
			value, found, err = inv.digValue(value, segs, key)
		}
		return err
	})
	if err != nil || !found {
		return nil, false, err
	}
	if opts.convertTo != nil {
		inv.ex.line("Applying convert_to lookup_option with arguments %s", convertToText(opts.convertTo))
		out, sensitive, err := convertTo(key, value, opts.convertTo)
		if err != nil {
			return nil, false, err // quoting the value: withheld by run() if it is secret
		}
		value = out
		inv.sensitive = inv.sensitive || sensitive
		if sensitive && len(inv.nameStack) == 0 {
			inv.wrapped = true
		}
	}
	return value, true, nil
}

// convertToText is how Puppet's explain prints convert_to: an array whose first element is the
// type (shown bare, as a type is), e.g. [Array, true] or [Integer].
func convertToText(spec any) string {
	list, isList := spec.([]any)
	if !isList {
		list = []any{spec}
	}
	parts := make([]string, len(list))
	for i, a := range list {
		if s, isStr := a.(string); isStr && i == 0 {
			parts[i] = s
		} else {
			parts[i] = rubyInspect(a)
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (inv *invocation) digValue(value any, segs []any, key string) (any, bool, error) {
	if inv.cfg.v3 != nil {
		inv.explainDig(value, segs, key)
		return dig3(value, key)
	}
	v, found, err := dig(value, segs, key)
	if err == nil {
		inv.explainDig(value, segs, key)
	}
	return v, found, err
}

// explainDig traces the dig phase as Puppet does: the sub key, then each segment found or not.
func (inv *invocation) explainDig(value any, segs []any, key string) {
	if inv.ex == nil {
		return
	}
	parts := make([]string, 0, len(segs)-1)
	for _, s := range segs[1:] {
		parts = append(parts, rubyToS(s))
	}
	inv.ex.line("Sub key: %q", strings.Join(parts, "."))
	inv.ex.push()
	defer inv.ex.pop()
	for i := 2; i <= len(segs); i++ {
		v, found, err := dig(value, segs[:i], key)
		if err != nil || !found {
			inv.ex.line("No such key: %q", parts[i-2])
			return
		}
		inv.ex.line("Found key: %q value: %s", parts[i-2], inv.show(v))
	}
}

// search merges the root key's values over the hierarchy (Puppet's entry and location stages),
// then applies the layer stage: with the environment and module layers empty, that is the
// strategy's convert step on the one value found.
func (inv *invocation) search(root string, m *Merge) (any, bool, error) {
	if !m.IsFirst() && inv.ex != nil {
		inv.ex.line("Merge strategy %s", m.String())
		if oh := m.OptionsHash(); oh != nil {
			inv.ex.line("  Options: %s", prettyInspect(oh, 2))
		}
	}
	entries := inv.cfg.entries
	v, found, err := mergeVariants(m, len(entries), func(i int) (any, bool, error) {
		return inv.searchEntry(entries[i], root, m)
	})
	if err != nil || !found {
		return nil, found, err
	}
	if !m.IsFirst() {
		v = m.Convert(v)
		inv.ex.line("Merged result: %s", inv.show(v))
	}
	return v, true, nil
}

func (inv *invocation) searchEntry(e *entry, root string, m *Merge) (any, bool, error) {
	inv.ex.line("Hierarchy entry %q", e.name)
	inv.ex.push()
	defer inv.ex.pop()
	if root != "lookup_options" {
		inv.noteSearched(e.name)
	}
	locs, err := inv.entryLocations(e)
	if err != nil {
		return nil, false, err
	}
	return mergeVariants(m, len(locs), func(j int) (any, bool, error) {
		return inv.lookupInLocation(e, locs[j], root)
	})
}

// mergeVariants is Puppet's "merge over variants" (hiera-semantics.md §4.1) for one stage.
func mergeVariants(m *Merge, n int, lookup func(i int) (any, bool, error)) (any, bool, error) {
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

// lookupInLocation reads the root key from one location and interpolates what it finds.
func (inv *invocation) lookupInLocation(e *entry, loc location, root string) (any, bool, error) {
	if loc.uri {
		inv.ex.line("URI %q", loc.path)
	} else {
		inv.ex.line("Path %q", loc.path)
	}
	inv.ex.push()
	defer inv.ex.pop()
	inv.ex.line("Original path: %q", loc.original)
	df, exists := inv.data(loc.path, e.fn)
	if !exists {
		inv.ex.line("Path not found")
		return nil, false, nil
	}
	if df.err != nil {
		return nil, false, withLevel(df.err, e.name)
	}
	if df.warning != "" {
		inv.warn(df.warning)
		inv.volatile++ // a cached result would lose the warning
	}
	v, ok := df.data.Get(root)
	if !ok {
		inv.ex.line("No such key: %q", root)
		return nil, false, nil
	}
	if typ, bad := df.invalid[root]; bad {
		return nil, false, withLevel(richDataError(root, e.fn.name, loc.path, typ), e.name)
	}
	decrypted := false
	if e.fn.decrypt != nil {
		dec, err := e.fn.decrypt(inv, e, v)
		if err != nil {
			return nil, false, withLevel(err, e.name)
		}
		decrypted = !sameRef(dec, v)
		v = dec
	}
	raw := v
	v, err := inv.interpolateValue(v)
	if err != nil {
		return nil, false, withFile(err, e.name, loc.path) // quoting the text: withheld by run() if it is secret
	}
	if decrypted || !sameRef(raw, v) {
		inv.volatile++ // the value depends on the scope or is secret: not for the result cache
	}
	if inv.ex != nil {
		inv.ex.line("Found key: %q value: %s", root, inv.show(v))
	}
	return v, true, nil
}
