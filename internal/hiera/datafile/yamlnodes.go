package datafile

// The node builder: yaml.v3's node tree turned into engine values, with aliases, merge keys and tags.

import (
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"gopkg.in/yaml.v3"
)

// yamlMaxAliasValues bounds how many values aliases and merge keys may add to a document. Values built from
// an alias are shared, not copied, but whoever walks the result (merges, JSON output) sees them expanded,
// so a "billion laughs" file must be refused here.
const yamlMaxAliasValues = 10_000_000

// yamlAnchored is the value built for an anchored node, reused by every alias to it.
type yamlAnchored struct {
	v    any
	size int // number of values in v once expanded, for the alias budget
	done bool
}

type yamlReader struct {
	lines     map[*model.Hash]int
	anchors   map[*yaml.Node]*yamlAnchored
	aliased   int  // values added by aliases and merge keys, against yamlMaxAliasValues
	symbols   bool // some scalar was a Ruby symbol: keys must be converted
	noSymbols bool // refuse symbols (yamlSetup.noSymbols)
	// Values of the untagged plain and quoted scalars read so far, by text: a file repeats most of
	// its keys and many values, which then share one value (less memory, and plain ones are read once).
	plain, quoted map[string]any
	share         *model.Sharing
}

// yamlInternMax is the longest scalar text kept in the yamlReader's caches.
const yamlInternMax = 128

// yamlSetup says what a yamlReader records and shares.
type yamlSetup struct {
	lines      bool           // record the line where each hash starts
	share      *model.Sharing // what to share with other files; nil shares nothing
	maxNesting int            // refuse arrays and hashes nested deeper; 0: no limit
	lazy       bool           // a *LazyYAML where possible (ReadYAML); lines are then not recorded
	noSymbols  bool           // refuse Ruby symbols, as safe_load without permitted classes does
	maxText    int            // refuse documents holding more text once aliases are expanded; 0: no limit
}

func newYAMLReader(setup yamlSetup) *yamlReader {
	r := &yamlReader{anchors: map[*yaml.Node]*yamlAnchored{}, plain: map[string]any{}, quoted: map[string]any{},
		share: setup.share, noSymbols: setup.noSymbols}
	if setup.lines {
		r.lines = map[*model.Hash]int{}
	}
	return r
}

// setLine records where h starts, if lines are being recorded.
func (r *yamlReader) setLine(h *model.Hash, line int) {
	if r.lines != nil {
		r.lines[h] = line
	}
}

// spend adds n values to the alias budget.
func (r *yamlReader) spend(n int, at *yaml.Node) error {
	r.aliased += n
	if r.aliased > yamlMaxAliasValues {
		return yamlNodeError(at, "document too large after alias expansion (more than %d values)", yamlMaxAliasValues)
	}
	return nil
}

// build returns the value of node n and its expanded size.
func (r *yamlReader) build(n *yaml.Node) (any, int, error) {
	if n.Kind == yaml.AliasNode {
		a := r.anchors[n.Alias]
		if a == nil || !a.done {
			return nil, 0, yamlNodeError(n, "alias *%s refers to a collection that contains it (recursive data is not supported)", n.Value)
		}
		if err := r.spend(a.size, n); err != nil {
			return nil, 0, err
		}
		return a.v, a.size, nil
	}
	var a *yamlAnchored
	if n.Anchor != "" {
		a = &yamlAnchored{}
		r.anchors[n] = a
	}
	var v any
	size := 1
	var err error
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, 1, nil
		}
		return r.build(n.Content[0])
	case yaml.ScalarNode:
		v, err = r.scalar(n)
	case yaml.SequenceNode:
		v, size, err = r.sequence(n)
	case yaml.MappingNode:
		v, size, err = r.mapping(n)
	default:
		err = yamlNodeError(n, "unexpected YAML node kind %d", n.Kind)
	}
	if err != nil {
		return nil, 0, err
	}
	if a != nil {
		a.v, a.size, a.done = v, size, true
	}
	return v, size, nil
}

// psychTag is the node's explicit tag as Psych sees it ("" when there is none).
func psychTag(n *yaml.Node) string {
	if n.Kind == yaml.AliasNode || n.Style&yaml.TaggedStyle == 0 {
		return ""
	}
	if strings.HasPrefix(n.Tag, "!!") {
		return yamlTagPrefix + n.Tag[2:]
	}
	return n.Tag
}

// sequence builds a list. Psych reads !!omap into a hash and refuses class tags.
func (r *yamlReader) sequence(n *yaml.Node) (any, int, error) {
	tag := psychTag(n)
	if tag == "!omap" || tag == yamlTagPrefix+"omap" {
		return r.omap(n)
	}
	if m := psychSeqClassRE.FindStringSubmatch(tag); m != nil {
		return nil, 0, psychDisallowed(n, m[1])
	}
	list := make([]any, 0, len(n.Content))
	size := 1
	for _, c := range n.Content {
		v, s, err := r.build(c)
		if err != nil {
			return nil, 0, err
		}
		list = append(list, v)
		size = yamlAddSize(size, s)
	}
	return list, size, nil
}

// omap reads "!!omap [{a: 1}, {b: 2}]": each entry's first key and last value, as Psych does.
func (r *yamlReader) omap(n *yaml.Node) (any, int, error) {
	h := model.NewHash(len(n.Content))
	r.setLine(h, n.Line)
	size := 1
	for _, c := range n.Content {
		if c.Kind != yaml.MappingNode || len(c.Content) < 2 {
			return nil, 0, yamlNodeError(c, "each entry of an !!omap must be a mapping")
		}
		k, ks, err := r.build(c.Content[0])
		if err != nil {
			return nil, 0, err
		}
		v, vs, err := r.build(c.Content[len(c.Content)-1])
		if err != nil {
			return nil, 0, err
		}
		if err := yamlCheckKey(c.Content[0], k); err != nil {
			return nil, 0, err
		}
		h.Set(yamlHashKey(k), v)
		size = yamlAddSize(size, ks+vs)
	}
	return h, size, nil
}

// mapping builds a hash the way Psych's revive_hash does: later duplicate keys overwrite (keeping the
// first position) and "<<" merges where it stands.
func (r *yamlReader) mapping(n *yaml.Node) (any, int, error) {
	if err := psychCheckMappingTag(n); err != nil {
		return nil, 0, err
	}
	h := model.NewHash(len(n.Content) / 2)
	r.setLine(h, n.Line)
	size := 1
	var collectionKey bool // Ruby allows a collection as a key; Puppet fails the root key holding it
	var keys, vals []any
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		k, ks, err := r.build(kn)
		if err != nil {
			return nil, 0, err
		}
		v, vs, err := r.build(vn)
		if err != nil {
			return nil, 0, err
		}
		size = yamlAddSize(size, ks+vs)
		if !collectionKey && yamlCheckKey(kn, k) != nil {
			collectionKey = true
			keys, vals = append(keys, h.RawKeys()...), append(vals, h.Vals...)
		}
		if collectionKey {
			keys, vals = append(keys, k), append(vals, v)
			if yamlCheckKey(kn, k) != nil {
				continue
			}
		}
		if k == "<<" && psychTag(kn) != yamlTagPrefix+"str" {
			merged, err := r.merge(h, vn, v)
			if err != nil {
				return nil, 0, err
			}
			if merged {
				continue
			}
		}
		h.Set(yamlHashKey(k), v)
	}
	if collectionKey {
		return nonData{typ: hashLookupValueType(keys, vals), rest: h}, size, nil
	}
	return h, size, nil
}

// psychCheckMappingTag refuses the tags with which Psych would instantiate a Ruby class.
func psychCheckMappingTag(n *yaml.Node) error {
	tag := psychTag(n)
	if tag == "" {
		return nil
	}
	classOr := func(class, dflt string) error {
		if class == "" {
			class = dflt
		}
		return psychDisallowed(n, class)
	}
	switch {
	case psychStructTagRE.MatchString(tag):
		return classOr(psychStructTagRE.FindStringSubmatch(tag)[1], "Struct")
	case psychObjectTagRE.MatchString(tag):
		if class := psychObjectTagRE.FindStringSubmatch(tag)[1]; class != "Hash" {
			return classOr(class, "Object")
		}
	case psychExceptionTagRE.MatchString(tag):
		return classOr(psychExceptionTagRE.FindStringSubmatch(tag)[1], "Exception")
	case psychHashClassRE.MatchString(tag):
		return psychDisallowed(n, psychHashClassRE.FindStringSubmatch(tag)[1])
	case tag == "!ruby/range":
		return psychDisallowed(n, "Range")
	case tag == "!set" || tag == yamlTagPrefix+"set":
		return psychDisallowed(n, "Psych::Set")
	case tag == "!omap" || tag == yamlTagPrefix+"omap":
		return psychDisallowed(n, "Psych::Omap")
	case psychIvarsTagRE.MatchString(tag), psychStrTagRE.MatchString(tag), tag == yamlTagPrefix+"str":
		return yamlNodeError(n, "unsupported tag %s on a mapping", tag)
	}
	return nil
}

// yamlCheckKey refuses collection keys: Ruby allows them, but Hiera data cannot use them.
func yamlCheckKey(n *yaml.Node, k any) error {
	switch k.(type) {
	case *model.Hash, []any, nonData:
		return yamlNodeError(n, "a mapping or sequence cannot be used as a hash key")
	}
	return nil
}

// yamlHashKey drops a symbol's position so that equal symbols are equal keys.
func yamlHashKey(k any) any {
	if s, ok := k.(model.Symbol); ok {
		return model.Symbol{Name: s.Name}
	}
	return k
}

// merge applies a merge key to h as Psych does: a hash (alias or inline) is merged in, overwriting what
// is already there; a list of hashes is merged with earlier ones winning. Anything else is not a merge
// (false): the caller stores it under the key "<<".
func (r *yamlReader) merge(h *model.Hash, vn *yaml.Node, v any) (bool, error) {
	switch vn.Kind {
	case yaml.AliasNode, yaml.MappingNode:
		src, ok := v.(*model.Hash)
		if !ok {
			return false, nil
		}
		return true, r.copyEntries(h, src, vn)
	case yaml.SequenceNode:
		list, ok := v.([]any) // not so for an !!omap sequence, which is read as a hash
		if !ok {
			return false, nil
		}
		hashes := make([]*model.Hash, len(list))
		for i, e := range list {
			if hashes[i], ok = e.(*model.Hash); !ok {
				return false, nil
			}
		}
		tmp := model.NewHash(0)
		for i := len(hashes) - 1; i >= 0; i-- {
			if err := r.copyEntries(tmp, hashes[i], vn); err != nil {
				return false, err
			}
		}
		return true, r.copyEntries(h, tmp, vn)
	}
	return false, nil
}

func (r *yamlReader) copyEntries(dst, src *model.Hash, at *yaml.Node) error {
	if err := r.spend(src.Len(), at); err != nil {
		return err
	}
	src.Each(func(k, v any) bool {
		dst.Set(k, v)
		return true
	})
	return nil
}

// yamlAddSize adds without overflowing; sizes past the budget only need to stay past it.
func yamlAddSize(a, b int) int {
	if a+b > yamlMaxAliasValues || a+b < 0 {
		return yamlMaxAliasValues + 1
	}
	return a + b
}
