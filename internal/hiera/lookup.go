package hiera

import (
	"fmt"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/convert"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/hieraconfig"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// lookupTop is a whole lookup of one key: lookup_options, merge, dig, convert_to. fn is the
// Puppet function it acts as (interpolated lookups act as lookup()).
func (inv *invocation) lookupTop(key string, explicit *merge.Merge, fn Function) (any, bool, error) {
	if err := inv.ctx.Err(); err != nil {
		return nil, false, err
	}
	if key == "lookup_options" || strings.HasPrefix(key, "lookup_options.") {
		inv.ex.invalidKey()
		return nil, false, nil
	}
	root, segs := key, []any(nil) // segs stays nil for a plain key (most): no allocation
	if !plainKey(key) {
		var err error
		if segs, err = parseKey(key); err != nil {
			return nil, false, err
		}
		root = keyRoot(segs)
	}
	opts, err := inv.optionsFor(root)
	if err != nil {
		return nil, false, err
	}
	if isSensitiveType(opts.convertTo) {
		inv.redact = true
	}
	mergeOpts := explicit
	if mergeOpts == nil {
		switch fn {
		case FuncHash:
			mergeOpts = &merge.Merge{Strategy: "hash"}
		case FuncArray:
			mergeOpts = &merge.Merge{Strategy: "unique"}
		default:
			if opts.merge != nil {
				mergeOpts = opts.merge
				inv.ex.mergeFromOptions()
			} else {
				mergeOpts = &merge.Merge{Strategy: "first"}
			}
		}
	}
	inv.ex.enterKey(key)
	defer inv.ex.leave()

	var value any
	var found bool
	mark, nested := len(inv.sources), len(inv.nameStack) > 0
	defer func() { inv.keepSources(mark, found, nested) }()
	err = inv.check(key, func() error {
		if inv.cfg.V3 != nil && explicit == nil && fn != FuncLookup {
			value, found, err = inv.searchHiera3(key, root, len(segs) > 1)
			return err
		}
		if value, found, err = inv.search(root, mergeOpts); err != nil {
			return err
		}
		if found && len(segs) > 1 {
			value, found, err = inv.digValue(value, segs, key)
		}
		if err != nil || found {
			return err
		}
		inv.dropSources(mark) // the root's files, where the dig found nothing
		// Puppet's do_lookup failed (a dig included): the module's default_hierarchy
		if value, found, err = inv.searchDefaultHierarchy(key, root); err != nil || !found {
			return err
		}
		if len(segs) > 1 {
			value, found, err = inv.digValue(value, segs, key)
		}
		return err
	})
	if err != nil {
		return nil, false, inv.locateMergeTypeError(err, root, mergeOpts, fn)
	}
	if !found {
		return nil, false, nil
	}
	if opts.convertTo != nil {
		inv.ex.convertTo(opts.convertTo)
		out, sensitive, err := convert.To(key, value, opts.convertTo)
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

func (inv *invocation) digValue(value any, segs []any, key string) (any, bool, error) {
	if inv.cfg.V3 != nil {
		inv.ex.dig(value, segs, key)
		return dig3(value, key)
	}
	v, found, err := dig(value, segs, key)
	if err == nil {
		inv.ex.dig(value, segs, key)
	}
	return v, found, err
}

// search merges the root key's values over Puppet's three layers (global, environment, the key's
// module), each merging over its hierarchy (entries, then locations). Puppet's layer stage always
// has the three variants, so the strategy's convert step applies even to one value found.
func (inv *invocation) search(root string, m *merge.Merge) (any, bool, error) {
	layers, err := inv.layersFor(root)
	if err != nil {
		return nil, false, err
	}
	return inv.cachedSearch(layers, root, m, func() (any, bool, error) {
		return inv.searchLayers(layers, root, m)
	})
}

func (inv *invocation) searchLayers(layers []*layer, root string, m *merge.Merge) (any, bool, error) {
	return inv.tracedMerge(m, len(layers), func(i int) (any, bool, error) {
		return inv.searchLayer(layers[i], root, m, false)
	})
}

// tracedMerge is merge.Variants, reported to the explainer (which traces none for first found,
// whose variants are tried in turn).
func (inv *invocation) tracedMerge(m *merge.Merge, n int, lookup func(i int) (any, bool, error)) (v any, found bool, err error) {
	if inv.ex == nil || m.IsFirst() || n < 2 {
		return merge.Variants(m, n, lookup)
	}
	inv.ex.openMerge()
	defer func() { inv.ex.closeMerge(m, v, found && err == nil) }()
	return merge.Variants(m, n, lookup)
}

// searchLayer merges the root key's values over one layer's hierarchy (its default_hierarchy when
// inDefault is set).
func (inv *invocation) searchLayer(l *layer, root string, m *merge.Merge, inDefault bool) (any, bool, error) {
	if l.cfg == nil {
		if l.place == hieraconfig.Module && l.module != "" {
			inv.ex.moduleNotFound(l.module, l.confineTo != "")
		}
		return nil, false, nil
	}
	inv.ex.enterLayer(l)
	defer inv.ex.leave()
	defer inv.leave(inv.enter(l))
	entries := l.cfg.Entries
	if inDefault {
		entries = l.cfg.DefaultEntries
	}
	return inv.tracedMerge(m, len(entries), func(i int) (any, bool, error) {
		return inv.searchEntry(entries[i], root, m)
	})
}

// qualifiedKeys reports whether a module's data holds only keys of the module (and lookup_options),
// as Puppet requires; Puppet warns about the others, which no lookup of the module's keys can reach.
func qualifiedKeys(data *model.Hash, module string) bool {
	prefix := module + "::"
	for _, k := range data.Keys() {
		if ks, isStr := k.(string); !isStr || (ks != "lookup_options" && !strings.HasPrefix(ks, prefix)) {
			return false
		}
	}
	return true
}

// searchDefaultHierarchy is Puppet's last resort for a module's key that no layer has: the
// module's default_hierarchy, with the merge its own lookup_options give (the requested merge
// does not apply there).
func (inv *invocation) searchDefaultHierarchy(key, root string) (any, bool, error) {
	l, err := inv.moduleLayer(moduleOf(root))
	if err != nil || l.cfg == nil || len(l.cfg.DefaultEntries) == 0 {
		return nil, false, err
	}
	inv.ex.enterDefaultHierarchy(l.module)
	defer inv.ex.leave()
	inv.ex.enterKey(optionsKey)
	var optsValue any
	var found bool
	err = inv.check(optionsKey, func() (err error) { // as every lookup_options search (layerOptions)
		optsValue, found, err = inv.searchLayer(l, optionsKey, &merge.Merge{Strategy: "hash"}, true)
		return err
	})
	inv.ex.leave()
	if err != nil {
		return nil, false, err
	}
	mergeOpts := &merge.Merge{Strategy: "first"}
	if found {
		opts, err := checkLayerOptions(optsValue, l.module)
		if err != nil {
			return nil, false, err
		}
		inv.markSecretEntry(opts, root)
		ko, err := selectOptions(opts, root)
		if err != nil {
			return nil, false, err
		}
		if ko.merge != nil {
			mergeOpts = ko.merge
		}
	}
	inv.ex.enterKey(key)
	defer inv.ex.leave()
	return inv.searchLayer(l, root, mergeOpts, true)
}

func (inv *invocation) searchEntry(e *entry, root string, m *merge.Merge) (any, bool, error) {
	inv.ex.enterEntry(e)
	defer inv.ex.leave()
	if root != "lookup_options" {
		inv.noteSearched(e.Name)
	}
	locs, err := inv.entryLocations(e)
	if err != nil {
		return nil, false, err
	}
	if e.Function.Custom {
		return nil, false, inv.customLevel(e, locs, root)
	}
	return inv.tracedMerge(m, len(locs), func(j int) (any, bool, error) {
		return inv.lookupInLocation(e, locs[j], root)
	})
}

// lookupInLocation reads the root key from one location and interpolates what it finds.
func (inv *invocation) lookupInLocation(e *entry, loc location, root string) (any, bool, error) {
	inv.ex.enterLocation(loc.path, loc.original, loc.uri)
	defer inv.ex.leave()
	df, exists, _ := inv.data(loc.path, e.Function)
	if !exists {
		inv.ex.pathNotFound()
		return nil, false, nil
	}
	if df.err != nil {
		return nil, false, withLevel(df.err, e.Name)
	}
	if df.warning != "" {
		inv.warn(df.warning)
		inv.volatile++ // a cached result would lose the warning
	}
	if l := inv.layer; l.place == hieraconfig.Module && e.Function.Kind == "data_hash" && !df.qualifiedFor(l.module) {
		inv.warn(fmt.Sprintf("Module '%s': Value returned from data_hash function '%s', when using location '%s', must use keys qualified with the name of the module", l.module, e.Function.Name, loc.path))
		inv.volatile++
	}
	v, ok, badType, err := df.value(root)
	if err != nil {
		return nil, false, withLevel(&model.Error{Message: fmt.Sprintf("Unable to parse (%s): %v", loc.path, err), File: loc.path, ValueFree: true}, e.Name)
	}
	if ok && inv.req.Without.omits(loc.path, root) {
		ok = false
	}
	if !ok {
		inv.ex.noSuchKey(root)
		return nil, false, nil
	}
	if badType != "" {
		return nil, false, withLevel(atKey(richDataError(root, e.Function.Name, loc.path, badType), root), e.Name)
	}
	written, decrypted := v, false
	if e.Function.Encrypted {
		sensitive := inv.sensitive
		dec, err := inv.decryptValue(e, v)
		if err != nil {
			return nil, false, withLevel(err, e.Name)
		}
		decrypted = !sameRef(dec, v)
		if root == optionsKey {
			inv.sensitive = sensitive // secret entries are marked one by one (interpolateOptions)
		}
		v = dec
	}
	raw := v
	if root == optionsKey {
		v, err = inv.interpolateOptions(written, v)
	} else {
		v, err = inv.interpolateValue(v)
	}
	if err != nil {
		// quoting the text: withheld by run() if it is secret
		return nil, false, inv.interpolationError(err, e.Name, loc.path, root)
	}
	if decrypted || !sameRef(raw, v) {
		inv.volatile++ // the value depends on the scope or is secret: not for the result cache
	}
	inv.ex.found(root, v)
	inv.noteSource(e, loc, root)
	return v, true, nil
}

func richDataError(key, function, path, typ string) error {
	return &model.Error{Message: fmt.Sprintf("Value for key '%s', in hash returned from data_hash function '%s', when using location '%s', has wrong type, expects Puppet::LookupValue, got %s", key, function, path, typ), File: path, ValueFree: true}
}
