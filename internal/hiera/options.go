package hiera

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/convert"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/hieraconfig"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/rubyre"
)

// keyOptions are the lookup_options that apply to one key.
type keyOptions struct {
	merge     *merge.Merge
	convertTo any
}

// patternCache holds compiled lookup_options patterns, shared by all engines (patterns are pure).
var patternCache sync.Map // pattern string -> *regexp.Regexp or error

func compilePattern(p string) (*regexp.Regexp, error) {
	if v, ok := patternCache.Load(p); ok {
		switch cached := v.(type) {
		case *regexp.Regexp:
			return cached, nil
		case error:
			return nil, cached
		}
	}
	re, err := rubyre.Compile(p)
	if err != nil {
		patternCache.Store(p, err)
		return nil, err
	}
	patternCache.Store(p, re)
	return re, nil
}

// assembledOptions are the lookup_options for keys of a module ("" for keys of none), as Puppet
// assembles them: the global layer's over the environment's, over the module's (which may only
// name the module's own keys). Once per invocation and module.
//
// A lookup_options value may interpolate a lookup, which needs lookup_options in turn. Puppet
// searches each layer's lookup_options with "lookup_options" on its recursion stack, and marks the
// global layer's as none while it assembles them: a lookup they interpolate sees no global options,
// and fails as recursion if it must search the environment's or a module's; what such a lookup
// assembled for its module stays remembered, as Puppet's adapter keeps it.
func (inv *invocation) assembledOptions(module string) (*model.Hash, error) {
	if opts, ok := inv.rememberedOptions(module); ok {
		return opts, nil
	}
	inv.optionsAssembled++
	ex := inv.ex
	inv.ex = nil // Puppet explains this search apart; keep the trace about the key itself
	defer func() { inv.ex = ex }()
	base, err := inv.baseLayersOptions()
	if err != nil {
		return nil, err
	}
	opts := base
	if module != "" {
		if !inv.baseDone { // Puppet keeps the module-less keys' options of a lookup inside the global ones
			inv.rememberOptionsOnce("", base)
		}
		l, err := inv.moduleLayer(module)
		if err != nil {
			return nil, err
		}
		mo, err := inv.layerOptions(l)
		if err != nil {
			return nil, err
		}
		if opts, err = combineOptions(opts, mo); err != nil {
			return nil, err
		}
	}
	inv.rememberOptions(module, opts)
	return opts, nil
}

// baseLayersOptions are the global and environment layers' lookup_options. The global layer's are
// none while they are being assembled (to a lookup they interpolate), as in Puppet.
func (inv *invocation) baseLayersOptions() (*model.Hash, error) {
	if inv.baseDone {
		return inv.baseOptions, nil
	}
	outer := !inv.globalStarted
	if outer {
		inv.globalStarted = true
		global, err := inv.layerOptions(inv.global)
		if err != nil {
			// Puppet's lookup adapter, shared by one compile's lookups, keeps the global lookup_options
			// as none once reading them failed (lookup_adapter.rb, global_lookup_options): in a node
			// read only the first key meets the error. The environment's and modules' are read again.
			return nil, err
		}
		inv.globalOptions = global
	}
	env, err := inv.layerOptions(inv.env)
	if err != nil {
		return nil, err
	}
	base, err := combineOptions(inv.globalOptions, env)
	if err != nil {
		return nil, err
	}
	if outer {
		inv.baseOptions, inv.baseDone = base, true
	}
	return base, nil
}

// rememberedOptions are the options assembled for a module earlier in the invocation.
func (inv *invocation) rememberedOptions(module string) (*model.Hash, bool) {
	if o := &inv.firstOptions; o.done && o.module == module {
		return o.opts, true
	}
	opts, ok := inv.options[module]
	return opts, ok
}

// rememberOptions keeps a module's assembled options, replacing what a lookup inside the
// assembly left.
func (inv *invocation) rememberOptions(module string, opts *model.Hash) {
	switch o := &inv.firstOptions; {
	case !o.done || o.module == module:
		o.module, o.opts, o.done = module, opts, true
	case inv.options == nil:
		inv.options = map[string]*model.Hash{module: opts}
	default:
		inv.options[module] = opts
	}
}

func (inv *invocation) rememberOptionsOnce(module string, opts *model.Hash) {
	if _, ok := inv.rememberedOptions(module); !ok {
		inv.rememberOptions(module, opts)
	}
}

// layerOptions is the hash merge of lookup_options over one layer's hierarchy, checked as Puppet
// checks it (a hash; in a module, only keys of the module). The search runs with "lookup_options"
// on the recursion guard, as Puppet's data provider does.
func (inv *invocation) layerOptions(l *layer) (*model.Hash, error) {
	if l.cfg == nil {
		return nil, nil
	}
	hash := &merge.Merge{Strategy: "hash"}
	layers := []*layer{l}
	var v any
	var found bool
	err := inv.check(optionsKey, func() (err error) {
		v, found, err = inv.cachedSearch(layers, optionsKey, hash, func() (any, bool, error) {
			return inv.searchLayer(l, optionsKey, hash, false)
		})
		return err
	})
	if err != nil {
		if l.place == hieraconfig.Global { // Puppet wraps the global layer's errors only
			return nil, wrapOptionsError(err)
		}
		return nil, err
	}
	if !found {
		return nil, nil
	}
	h, err := checkLayerOptions(v, l.module)
	if err != nil {
		return nil, inv.locateLayerOptionsError(err, l, v)
	}
	return h, nil
}

// checkLayerOptions is Puppet's validate_lookup_options: a hash, whose keys in a module's layer
// start with the module's name (patterns with ^name::).
func checkLayerOptions(v any, module string) (*model.Hash, error) {
	if v == nil {
		return nil, nil
	}
	h, ok := v.(*model.Hash)
	if !ok {
		return nil, model.Errorf("value of lookup_options must be a hash")
	}
	if module == "" {
		return h, nil
	}
	switch key := foreignOptionsKey(h, module); {
	case strings.HasPrefix(key, "^"):
		return nil, model.Errorf("all lookup_options patterns must match a key starting with module name '%s'", module)
	case key != "":
		return nil, model.Errorf("all lookup_options keys must start with module name '%s'", module)
	}
	return h, nil
}

// foreignOptionsKey is the first key of a module's lookup_options that is not the module's own
// (a key or a ^pattern not starting with the module's name), "" for none.
func foreignOptionsKey(h *model.Hash, module string) string {
	prefix := module + "::"
	for _, k := range h.Keys() {
		if ks := model.ToS(k); !strings.HasPrefix(strings.TrimPrefix(ks, "^"), prefix) {
			return ks
		}
	}
	return ""
}

// combineOptions merges the lookup_options of a higher layer over a lower one's.
func combineOptions(higher, lower *model.Hash) (*model.Hash, error) {
	switch {
	case higher == nil:
		return lower, nil
	case lower == nil:
		return higher, nil
	}
	v, err := (&merge.Merge{Strategy: "hash"}).Combine(higher, lower)
	if err != nil {
		return nil, err
	}
	h, _ := v.(*model.Hash) // a hash merge of two hashes is a hash
	return h, nil
}

// wrapOptionsError names the lookup_options search in a failure of it, as Puppet does, except
// for a problem of hiera.yaml itself (a location that does not resolve) or of a data file.
func wrapOptionsError(err error) error {
	if e, ok := err.(*model.Error); ok {
		c := *e
		if !c.OfConfig && !c.OfDataFile && !strings.HasPrefix(c.Message, "Lookup of key") {
			c.Message = "Lookup of key 'lookup_options' failed: " + c.Message
		}
		return &c
	}
	return fmt.Errorf("Lookup of key 'lookup_options' failed: %w", err)
}

// optionsFor selects the lookup_options entry for a root key: an exact key first, else the first
// pattern (a key starting with ^) that matches, in the assembled hash's order. A key whose entry
// came from a secret is secret (its value depends on the entry), and so is any failure to select
// an entry among secret ones.
func (inv *invocation) optionsFor(root string) (keyOptions, error) {
	all, err := inv.assembledOptions(moduleOf(root))
	if err != nil || all == nil {
		return keyOptions{}, err
	}
	inv.markSecretEntry(all, root)
	opts, err := inv.engine.selected.get(all, root)
	if err != nil {
		return opts, inv.locateOptionsError(err, root, all)
	}
	return opts, nil
}

// markSecretEntry makes the lookup secret when root's entry in lookup_options came from a secret,
// or cannot be selected among entries some of which did.
func (inv *invocation) markSecretEntry(all *model.Hash, root string) {
	if len(inv.secretOptions) > 0 && all != nil {
		entry, _, err := selectEntry(all, root)
		inv.sensitive = inv.sensitive || err != nil || inv.secretOptions[entry]
	}
}

// optionsKey is the reserved key of lookup_options in data files.
const optionsKey = "lookup_options"

// interpolateOptions interpolates a data file's lookup_options (written: as the file has them,
// v: decrypted) as interpolateValue does, entry by entry, and remembers which entries come from a
// secret (an eyaml token, or an interpolated lookup of a secret): the keys they apply to are
// secret (optionsFor), the others not. Decrypting options does not make the lookup secret itself.
func (inv *invocation) interpolateOptions(written, v any) (any, error) {
	h, isHash := v.(*model.Hash)
	w, _ := written.(*model.Hash)
	if !isHash || w == nil || w.Len() != h.Len() {
		return inv.interpolateValue(v) // not a hash: checkLayerOptions refuses it without quoting it
	}
	sensitive, redact := inv.sensitive, inv.redact
	var out *model.Hash // made at the first entry that changes
	for i, k := range h.RawKeys() {
		inv.sensitive, inv.redact = hasEncToken(w.Vals[i]), false
		one := model.NewHash(1)
		one.Set(k, h.Vals[i])
		got, err := inv.interpolateValue(one)
		if err != nil { // withheld by run() if the entry is secret
			inv.sensitive, inv.redact = inv.sensitive || sensitive, inv.redact || redact
			return nil, err
		}
		gh, _ := got.(*model.Hash) // interpolating a hash gives a hash
		gk, gv := gh.RawKeys()[0], gh.Vals[0]
		if inv.secret() {
			if inv.secretOptions == nil {
				inv.secretOptions = map[string]bool{}
			}
			inv.secretOptions[model.ToS(gk)] = true
		}
		if out == nil && gh != one {
			out = model.NewHash(h.Len())
			for j, earlier := range h.RawKeys()[:i] {
				out.Set(earlier, h.Vals[j])
			}
		}
		if out != nil {
			out.Set(gk, gv)
		}
	}
	inv.sensitive, inv.redact = sensitive, redact
	if out == nil {
		return h, nil
	}
	return out, nil
}

// selectedCache remembers selectOptions' answers. Assembled lookup_options mostly come straight
// from the result cache, shared and never changed: the same hash then answers a root key as
// before, without matching its patterns again, until a file changes and a new hash is assembled.
type selectedCache struct {
	mu      sync.RWMutex
	entries map[selectedKey]selected
}

type selectedKey struct {
	all  *model.Hash
	root string
}

type selected struct {
	opts keyOptions
	err  error
}

const maxSelectedOptions = 1 << 12

func (c *selectedCache) get(all *model.Hash, root string) (keyOptions, error) {
	key := selectedKey{all, root}
	c.mu.RLock()
	s, ok := c.entries[key]
	c.mu.RUnlock()
	if ok {
		return s.opts, s.err
	}
	s.opts, s.err = selectOptions(all, root)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxSelectedOptions {
		c.entries = map[selectedKey]selected{} // simple bound: start over
	}
	c.entries[key] = s
	return s.opts, s.err
}

// selectOptions picks a root key's entry from assembled lookup_options.
func selectOptions(all *model.Hash, root string) (keyOptions, error) {
	if all == nil {
		return keyOptions{}, nil
	}
	name, ok, err := selectEntry(all, root)
	if err != nil || !ok {
		return keyOptions{}, err
	}
	entry, _ := all.Get(name)
	return parseKeyOptions(root, entry)
}

// selectEntry is the key of a root key's entry in assembled lookup_options: the root key itself,
// else the first pattern (a key starting with ^) that matches it.
func selectEntry(all *model.Hash, root string) (string, bool, error) {
	if _, ok := all.Get(root); ok {
		return root, true, nil
	}
	for _, k := range all.Keys() {
		p, isStr := k.(string)
		if !isStr || !strings.HasPrefix(p, "^") {
			continue
		}
		re, err := compilePattern(p)
		if err != nil {
			return "", false, err
		}
		if re.MatchString(root) {
			return p, true, nil
		}
	}
	return "", false, nil
}

func parseKeyOptions(root string, entry any) (keyOptions, error) {
	var opts keyOptions
	switch t := entry.(type) {
	case nil:
		return opts, nil
	case *model.Hash:
		if m, ok := t.Get("merge"); ok && m != nil {
			merge, err := merge.Parse(m)
			if err != nil {
				return opts, err
			}
			opts.merge = merge
		}
		if c, ok := t.Get("convert_to"); ok && c != nil {
			opts.convertTo = c
		}
		return opts, nil
	case string:
		// Ruby indexes a String entry with String#[]: a substring "merge" is the strategy "merge"
		if strings.Contains(t, "merge") {
			_, err := merge.Parse("merge")
			return opts, err
		}
		if strings.Contains(t, "convert_to") {
			opts.convertTo = "convert_to"
		}
		return opts, nil
	}
	return opts, model.Errorf("lookup_options for key '%s' must be a hash, got %s", root, model.TypeName(entry))
}

// isSensitiveType reports whether a convert_to option makes values Sensitive.
func isSensitiveType(spec any) bool {
	if list, ok := spec.([]any); ok && len(list) > 0 {
		spec = list[0]
	}
	s, ok := spec.(string)
	if !ok {
		return false
	}
	name, _ := convert.ParseType(s) // as convert.To reads it: ' Sensitive', 'Sensitive ', '::Sensitive'
	return name == "Sensitive" || strings.HasPrefix(name, "Sensitive[")
}
