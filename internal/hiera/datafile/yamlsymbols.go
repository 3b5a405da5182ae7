package datafile

// Ruby symbols in YAML, and Puppet's symkeys_to_string on a finished document.

import (
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// fixSymbols turns the symbol keys of a finished document into strings, if it has any.
func (r *yamlReader) fixSymbols(v any) (any, error) {
	if !r.symbols {
		return v, nil
	}
	_, isHash := v.(*model.Hash)
	fix := &yamlSymbolFixer{strict: isHash, lines: r.lines, hashes: map[*model.Hash]*model.Hash{}, lists: map[*any][]any{}}
	v, _, err := fix.Value(v)
	return v, err
}

// psychSymbolName is the name of the symbol written ":name" (or :"name", :'name').
func psychSymbolName(s string) string {
	if q := s[1]; q == '"' || q == '\'' {
		if end := strings.LastIndexByte(s, q); end > 1 {
			return strings.TrimPrefix(s[2:end], ":")
		}
	}
	return s[1:]
}

// yamlSymbolFixer does Puppet's symkeys_to_string on the finished document: symbol keys become strings.
// With strict set (the document is a hash, which Puppet validates), a symbol left as a value is
// nonData; otherwise (Puppet ignores a document that is not a hash) it just becomes its name.
// Shared (aliased) collections are converted once, and collections without symbols are kept as they are.
type yamlSymbolFixer struct {
	strict bool
	lines  map[*model.Hash]int
	hashes map[*model.Hash]*model.Hash
	lists  map[*any][]any
}

// Value returns v converted and whether that made a new value.
func (f *yamlSymbolFixer) Value(v any) (any, bool, error) {
	switch t := v.(type) {
	case model.Symbol:
		if f.strict { // fails the lookup of its root key only, as in Puppet
			return nonData{typ: "Runtime[ruby, 'Symbol']"}, true, nil
		}
		return t.Name, true, nil
	case *model.Hash:
		if done, ok := f.hashes[t]; ok {
			return done, done != t, nil
		}
		out := model.NewHash(t.Len())
		changed := false
		for i, k := range t.RawKeys() {
			if s, ok := k.(model.Symbol); ok {
				k, changed = s.Name, true
			}
			e, c, err := f.Value(t.Vals[i])
			if err != nil {
				return nil, false, err
			}
			changed = changed || c
			out.Set(k, e)
		}
		if !changed {
			out = t
		} else if line, ok := f.lines[t]; ok {
			f.lines[out] = line // f.lines is nil when no lines are recorded, and then never ok
		}
		f.hashes[t] = out
		return out, changed, nil
	case []any:
		if len(t) == 0 {
			return t, false, nil
		}
		if done, ok := f.lists[&t[0]]; ok {
			return done, &done[0] != &t[0], nil
		}
		out := make([]any, len(t))
		changed := false
		for i, e := range t {
			ne, c, err := f.Value(e)
			if err != nil {
				return nil, false, err
			}
			changed = changed || c
			out[i] = ne
		}
		if !changed {
			out = t
		}
		f.lists[&t[0]] = out
		return out, changed, nil
	}
	return v, false, nil
}
