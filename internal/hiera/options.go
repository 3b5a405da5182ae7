package hiera

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// keyOptions are the lookup_options that apply to one key.
type keyOptions struct {
	merge     *Merge
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
	re, err := compileRubyRegexp(p)
	if err != nil {
		patternCache.Store(p, err)
		return nil, err
	}
	patternCache.Store(p, re)
	return re, nil
}

// assembledOptions is the hash merge of lookup_options over the hierarchy, once per invocation.
func (inv *invocation) assembledOptions() (*Hash, error) {
	if inv.optionsDone {
		return inv.options, nil
	}
	inv.optionsDone = true
	ex := inv.ex
	inv.ex = nil // Puppet explains this search apart; keep the trace about the key itself
	v, found, err := inv.cachedSearch("lookup_options", &Merge{Strategy: "hash"})
	inv.ex = ex
	if err != nil {
		return nil, wrapOptionsError(err)
	}
	if !found || v == nil {
		return nil, nil
	}
	h, ok := v.(*Hash)
	if !ok {
		return nil, errorf("value of lookup_options must be a hash")
	}
	inv.options = h
	return h, nil
}

// wrapOptionsError names the lookup_options search in a failure of it, as Puppet does, except
// for a problem of hiera.yaml itself (a location that does not resolve).
func wrapOptionsError(err error) error {
	if e, ok := err.(*Error); ok {
		c := *e
		if !c.ofConfig && !strings.HasPrefix(c.Message, "Lookup of key") {
			c.Message = "Lookup of key 'lookup_options' failed: " + c.Message
		}
		return &c
	}
	return fmt.Errorf("Lookup of key 'lookup_options' failed: %w", err)
}

// optionsFor selects the lookup_options entry for a root key: an exact key first, else the first
// pattern (a key starting with ^) that matches, in the assembled hash's order.
func (inv *invocation) optionsFor(root string) (keyOptions, error) {
	all, err := inv.assembledOptions()
	if err != nil || all == nil {
		return keyOptions{}, err
	}
	entry, ok := all.Get(root)
	if !ok {
		for _, k := range all.Keys() {
			p, isStr := k.(string)
			if !isStr || !strings.HasPrefix(p, "^") {
				continue
			}
			re, err := compilePattern(p)
			if err != nil {
				return keyOptions{}, err
			}
			if re.MatchString(root) {
				entry, ok = all.Get(k)
				break
			}
		}
	}
	if !ok {
		return keyOptions{}, nil
	}
	return parseKeyOptions(root, entry)
}

func parseKeyOptions(root string, entry any) (keyOptions, error) {
	var opts keyOptions
	switch t := entry.(type) {
	case nil:
		return opts, nil
	case *Hash:
		if m, ok := t.Get("merge"); ok && m != nil {
			merge, err := ParseMerge(m)
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
			_, err := ParseMerge("merge")
			return opts, err
		}
		if strings.Contains(t, "convert_to") {
			opts.convertTo = "convert_to"
		}
		return opts, nil
	}
	return opts, errorf("lookup_options for key '%s' must be a hash, got %s", root, puppetTypeName(entry))
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
	name, _ := convParseType(s) // as convertTo reads it: ' Sensitive', 'Sensitive ', '::Sensitive'
	return name == "Sensitive" || strings.HasPrefix(name, "Sensitive[")
}
