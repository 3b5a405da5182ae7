package hiera

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"gopkg.in/yaml.v3"
)

// config is a parsed and validated hiera.yaml (version 5, or version 3 converted as Puppet does).
type config struct {
	src     []byte // the file's text, while it is validated (for error lines)
	path    string // absolute path of hiera.yaml
	dir     string // its directory: the base of relative datadirs
	place   place
	version int
	entries []*entry
	// defaultEntries are a module's default_hierarchy, searched when no layer has the key.
	defaultEntries []*entry
	v3             *merge.V3Settings // set for a version 3 file
	// ignored is the warning for a file Puppet ignores (version 3 outside the global layer).
	ignored string

	locCache sync.Map // locationKey -> []location, for this version of the file
}

// entry is one hierarchy level.
type entry struct {
	name    string
	line    int
	fn      *dataFunction // its data function
	datadir string        // as written (interpolated per lookup)
	locKind string        // path, paths, glob, globs, uri, uris, mapped_paths, or "" for none
	locs    []string
	options *model.Hash // entry options (replace defaults.options entirely), may be nil
}

var (
	v5TopKeys     = []string{"version", "defaults", "hierarchy", "default_hierarchy", "plan_hierarchy"}
	v5DefaultKeys = []string{"data_hash", "lookup_key", "data_dig", "datadir", "options"}
	v5EntryKeys   = []string{"name", "data_hash", "lookup_key", "data_dig", "hiera3_backend", "path", "paths",
		"glob", "globs", "uri", "uris", "mapped_paths", "datadir", "options"}
	functionKeys = []string{"data_hash", "lookup_key", "data_dig", "hiera3_backend"}
	locationKeys = []string{"path", "paths", "glob", "globs", "uri", "uris", "mapped_paths"}
	// Puppet's option-name pattern, including its literal optional ':' (a typo Puppet ships with).
	optionKeyPattern = regexp.MustCompile(`\A[A-Za-z](:?[0-9A-Za-z_-]*[0-9A-Za-z])?\z`)
)

// parseConfig validates the content of a hiera.yaml read for a place (global, environment, module).
func parseConfig(path string, data []byte, p place) (*config, error) {
	v, lines, err := datafile.ParseYAML(data)
	if err != nil {
		return nil, &model.Error{Message: "Unable to parse hiera.yaml: " + err.Error(), File: path, Line: errorLine(err), Err: err}
	}
	cfg := &config{src: data, path: path, dir: filepath.Dir(path), place: p}
	defer func() { cfg.src = nil }()
	top, ok := v.(*model.Hash)
	if !ok {
		if p != placeGlobal {
			// Puppet reads the Hiera 3 default config instead, which it then ignores here
			cfg.ignored = fmt.Sprintf("%s: File exists but does not contain a valid YAML hash. Falling back to Hiera version 3 default config; %s", path, v3IgnoredWarning(p))
			return cfg, nil
		}
		// Puppet falls back to the Hiera 3 default config here, whose datadir lies outside the
		// project; a Terraform user is better served by an error.
		return nil, &model.Error{Message: "hiera.yaml does not contain a valid YAML hash", File: path}
	}
	version := int64(3)
	if vv, ok := top.Get("version"); ok {
		n, isInt := vv.(int64)
		if !isInt {
			return nil, &model.Error{Message: fmt.Sprintf("This runtime does not support hiera.yaml version %s", model.ToS(vv)), File: path}
		}
		version = n
	}
	switch {
	case version == 5:
		cfg.version = 5
		return cfg, cfg.parseV5(top, lines)
	case version == 3 && p != placeGlobal:
		cfg.version = 3
		cfg.ignored = path + ": " + v3IgnoredWarning(p)
		return cfg, nil
	case version == 3:
		cfg.version = 3
		return cfg, cfg.parseV3(top)
	case version == 4 && p == placeGlobal:
		return nil, &model.Error{Message: "hiera.yaml version 4 cannot be used in the global layer", File: path}
	case version == 4:
		cfg.version = 4
		return cfg, cfg.parseV4(top, lines)
	}
	return nil, &model.Error{Message: fmt.Sprintf("This runtime does not support hiera.yaml version %d", version), File: path}
}

func (c *config) typeError(detail string) error {
	return &model.Error{Message: fmt.Sprintf("The Lookup Configuration at '%s' has wrong type, %s", c.path, detail), File: c.path}
}

func (c *config) errAt(line int, format string, args ...any) error {
	return &model.Error{Message: fmt.Sprintf(format, args...), File: c.path, Line: line}
}

// entryErr is errAt for a problem of one hierarchy entry: the error names the level too.
func (c *config) entryErr(e *entry, line int, format string, args ...any) error {
	return &model.Error{Message: fmt.Sprintf(format, args...), File: c.path, Line: line, Level: e.name}
}

func (c *config) parseV5(top *model.Hash, lines map[*model.Hash]int) error {
	for _, k := range top.Keys() {
		if !contains(v5TopKeys, k) {
			return c.typeError(fmt.Sprintf("unrecognized key '%s'", model.ToS(k)))
		}
	}
	if _, ok := top.Get("default_hierarchy"); ok && c.place != placeModule {
		return c.errAt(sourceLine(c.src, "default_hierarchy"), "'default_hierarchy' is only allowed in the module layer")
	}
	defaults := model.NewHash(2)
	defaults.Set("datadir", "data")
	defaults.Set("data_hash", "yaml_data")
	if d, ok := top.Get("defaults"); ok && d != nil { // a defaults: holding only comments is no defaults
		dh, isHash := d.(*model.Hash)
		if !isHash {
			return c.typeError("entry 'defaults' expects a Hash value, got " + model.TypeName(d))
		}
		for _, k := range dh.Keys() {
			if !contains(v5DefaultKeys, k) {
				return c.typeError(fmt.Sprintf("entry 'defaults' unrecognized key '%s'", model.ToS(k)))
			}
		}
		if n := countKeys(dh, functionKeys); n > 1 {
			return c.errAt(0, "Only one of data_hash, lookup_key, data_dig, or hiera3_backend can be defined in defaults")
		}
		if err := c.checkOptions(dh, "defaults", "entry 'defaults'"); err != nil {
			return err
		}
		defaults = dh
	}
	var err error
	if c.entries, err = c.parseHierarchy(top, "hierarchy", defaults, lines); err != nil {
		return err
	}
	if _, ok := top.Get("default_hierarchy"); ok {
		c.defaultEntries, err = c.parseHierarchy(top, "default_hierarchy", defaults, lines)
	}
	return err
}

// parseHierarchy parses the list of levels under key (hierarchy or default_hierarchy).
func (c *config) parseHierarchy(top *model.Hash, key string, defaults *model.Hash, lines map[*model.Hash]int) ([]*entry, error) {
	hier := []any{map2hash("name", "Common", "path", "common.yaml")}
	if h, ok := top.Get(key); ok {
		list, isList := h.([]any)
		if !isList {
			return nil, c.typeError(fmt.Sprintf("entry '%s' expects an Array value, got %s", key, model.TypeName(h)))
		}
		hier = list
	}
	var entries []*entry
	seen := map[string]int{}
	for i, raw := range hier {
		e, err := c.parseEntry(key, i, raw, defaults, lines)
		if err != nil {
			return nil, err
		}
		if first, dup := seen[e.name]; dup {
			return nil, c.errAt(e.line, "Hierarchy name '%s' defined more than once. First defined at (line: %d)", e.name, first)
		}
		seen[e.name] = e.line
		entries = append(entries, e)
	}
	return entries, nil
}

// v3IgnoredWarning is Puppet's warning for a version 3 hiera.yaml outside the global layer.
func v3IgnoredWarning(p place) string {
	if p == placeModule {
		return "hiera.yaml version 3 found at module root was ignored"
	}
	return "hiera.yaml version 3 found at the environment root was ignored"
}

func (c *config) parseEntry(key string, i int, raw any, defaults *model.Hash, lines map[*model.Hash]int) (*entry, error) {
	at := fmt.Sprintf("entry '%s' index %d", key, i)
	h, ok := raw.(*model.Hash)
	if !ok {
		return nil, c.typeError(at + " expects a Hash value, got " + model.TypeName(raw))
	}
	for _, k := range h.Keys() {
		if !contains(v5EntryKeys, k) {
			return nil, c.typeError(fmt.Sprintf("%s unrecognized key '%s'", at, model.ToS(k)))
		}
	}
	e := &entry{line: lines[h]}
	name, _ := h.Get("name")
	s, isStr := name.(string)
	if !isStr || s == "" {
		return nil, c.typeError(at + " expects a value for key 'name'")
	}
	e.name = s
	for _, k := range []string{"data_hash", "lookup_key", "data_dig", "hiera3_backend", "path", "glob", "uri", "datadir"} {
		if v, ok := h.Get(k); ok {
			if s, isStr := v.(string); !isStr || s == "" {
				return nil, c.typeError(fmt.Sprintf("%s entry '%s' expects a String[1] value, got %s", at, k, model.TypeName(v)))
			}
		}
	}
	for _, k := range []string{"paths", "globs", "uris", "mapped_paths"} {
		v, ok := h.Get(k)
		if !ok {
			continue
		}
		list, isList := v.([]any)
		if !isList {
			return nil, c.typeError(fmt.Sprintf("%s entry '%s' expects an Array value, got %s", at, k, model.TypeName(v)))
		}
		if k == "mapped_paths" && len(list) != 3 {
			return nil, c.typeError(fmt.Sprintf("%s entry 'mapped_paths' expects size to be 3, got %d", at, len(list)))
		}
		if len(list) == 0 {
			return nil, c.typeError(fmt.Sprintf("%s entry '%s' expects size to be at least 1, got 0", at, k))
		}
		for j, el := range list {
			if s, isStr := el.(string); !isStr || s == "" {
				return nil, c.typeError(fmt.Sprintf("%s entry '%s' index %d expects a String[1] value, got %s", at, k, j, model.TypeName(el)))
			}
		}
	}
	if err := c.checkOptions(h, fmt.Sprintf("hierarchy '%s'", e.name), at); err != nil {
		return nil, withLevel(err, e.name)
	}
	var kind, function string // as written: data_hash, lookup_key, data_dig or hiera3_backend, and a name
	switch countKeys(h, functionKeys) {
	case 0:
		for _, k := range functionKeys {
			if v, ok := defaults.Get(k); ok {
				kind, function = k, model.ToS(v)
			}
		}
		if kind == "" {
			return nil, c.entryErr(e, 0, "One of data_hash, lookup_key, data_dig, or hiera3_backend must be defined in hierarchy '%s'", e.name)
		}
	case 1:
		for _, k := range functionKeys {
			if v, ok := h.Get(k); ok {
				kind, function = k, model.ToS(v) // validated as a string above
			}
		}
	default:
		return nil, c.entryErr(e, 0, "Only one of data_hash, lookup_key, data_dig, or hiera3_backend can be defined in hierarchy '%s'", e.name)
	}
	if countKeys(h, locationKeys) > 1 {
		return nil, c.entryErr(e, 0, "Only one of path, paths, glob, globs, uri, uris, or mapped_paths can be defined in hierarchy '%s'", e.name)
	}
	for _, k := range locationKeys {
		if v, ok := h.Get(k); ok {
			e.locKind = k
			if s, isStr := v.(string); isStr {
				e.locs = []string{s}
			} else {
				list, _ := v.([]any) // validated as an array of strings above
				for _, el := range list {
					e.locs = append(e.locs, model.ToS(el))
				}
			}
		}
	}
	fn, err := c.dataFunction(key, i, e, kind, function)
	if err != nil {
		return nil, err
	}
	e.fn = fn
	e.datadir = "data"
	if v, ok := h.Get("datadir"); ok {
		e.datadir, _ = v.(string) // validated as a String[1] above
	} else if v, ok := defaults.Get("datadir"); ok {
		if s, isStr := v.(string); isStr {
			e.datadir = s
		}
	}
	if v, ok := h.Get("options"); ok {
		e.options, _ = v.(*model.Hash)
	} else if v, ok := defaults.Get("options"); ok {
		e.options, _ = v.(*model.Hash)
	}
	return e, nil
}

// dataFunction finds an entry's row in dataFunctions from the kind and name hiera.yaml gives,
// rejecting functions this engine cannot run before any lookup uses them. i is the entry's index
// in the hierarchy.
func (c *config) dataFunction(key string, i int, e *entry, kind, name string) (*dataFunction, error) {
	if kind == "hiera3_backend" {
		if c.place != placeGlobal {
			return nil, c.entryErr(e, sourceLine(c.src, key, i, "hiera3_backend"), "'hiera3_backend' is only allowed in the global layer")
		}
		// Puppet's advice for a Hiera 3 backend that has a Hiera 5 data_hash function
		if f := dataFunctionNamed(name + "_data"); f != nil && f.kind == "data_hash" {
			return nil, c.entryErr(e, sourceLine(c.src, key, i, "hiera3_backend"), "Use \"data_hash: %s_data\" instead of \"hiera3_backend: %s\"", name, name)
		}
		return nil, c.entryErr(e, e.line, "Hierarchy entry '%s' uses hiera3_backend '%s': Hiera 3 backends are Ruby code, which this provider does not run", e.name, name)
	}
	f := dataFunctionNamed(name)
	if f != nil && f.refusal != "" {
		return nil, c.entryErr(e, e.line, "Hierarchy entry '%s' uses %s '%s', %s (only %s)", e.name, kind, name, f.refusal, servedNames(func(f *dataFunction) string { return f.name }))
	}
	if f == nil || f.kind != kind {
		return nil, c.entryErr(e, 0, "Unable to find '%s' function named '%s'", kind, name)
	}
	return f, nil
}

// checkOptions validates an options hash: Puppet's key pattern and its reserved keys.
func (c *config) checkOptions(h *model.Hash, where, at string) error {
	v, ok := h.Get("options")
	if !ok {
		return nil
	}
	opts, isHash := v.(*model.Hash)
	if !isHash {
		return c.typeError(fmt.Sprintf("%s entry 'options' expects a Hash value, got %s", at, model.TypeName(v)))
	}
	for _, k := range opts.Keys() {
		ks, isStr := k.(string)
		if !isStr || !optionKeyPattern.MatchString(ks) {
			return c.typeError(fmt.Sprintf("%s entry 'options' key of entry '%s' expects a match for Pattern[/%s/], got '%s'", at, model.ToS(k), optionKeyPattern.String(), model.ToS(k)))
		}
		if ks == "path" || ks == "uri" {
			return c.errAt(0, "Option key '%s' used in %s is reserved by Puppet", ks, where)
		}
	}
	return nil
}

func contains(list []string, k any) bool {
	s, ok := k.(string)
	if !ok {
		return false
	}
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func countKeys(h *model.Hash, keys []string) int {
	n := 0
	for _, k := range keys {
		if _, ok := h.Get(k); ok {
			n++
		}
	}
	return n
}

// sourceLine is the 1-based line of a node of a YAML (or JSON) text, reached from the top mapping
// by path: a string step selects a mapping key (exactly, or a symbol key without its ':') and gives
// the key's own line, as Puppet reports it; an integer step (int, or int64 as parseKey gives it)
// selects a sequence element. Where the path leaves the text, the line of the last step found; 0
// when not even the first is. Only error paths use it, so re-reading the text is fine.
func sourceLine(src []byte, path ...any) int {
	line, _ := sourcePathLine(src, path...)
	return line
}

// sourcePathLine is sourceLine, and whether every step of path was found.
func sourcePathLine(src []byte, path ...any) (line int, whole bool) {
	defer func() {
		if recover() != nil {
			line, whole = 0, false
		}
	}()
	var doc yaml.Node
	if yaml.Unmarshal(src, &doc) != nil || len(doc.Content) == 0 {
		return 0, false
	}
	n := doc.Content[0]
	for _, step := range path {
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		if i, ok := step.(int); ok {
			step = int64(i)
		}
		var next *yaml.Node
		switch s := step.(type) {
		case string:
			if n.Kind != yaml.MappingNode {
				return line, false
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k := n.Content[i]; k.Kind == yaml.ScalarNode && (k.Value == s || strings.TrimPrefix(k.Value, ":") == s) {
					next, line = n.Content[i+1], k.Line // a duplicate key: the last one wins
				}
			}
		case int64:
			if n.Kind == yaml.SequenceNode && s >= 0 && s < int64(len(n.Content)) {
				next = n.Content[s]
				line = next.Line
			}
		}
		if next == nil {
			return line, false
		}
		n = next
	}
	return line, true
}

func map2hash(kv ...string) *model.Hash {
	h := model.NewHash(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

// isAbs reports whether a path as written is absolute.
func isAbs(p string) bool { return strings.HasPrefix(p, "/") || filepath.IsAbs(p) }
