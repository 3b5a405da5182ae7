package hieraconfig

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Config is a parsed and validated hiera.yaml (version 5, or versions 3 and 4 converted as Puppet
// does).
type Config struct {
	src     []byte // the file's text, while it is validated (for error lines)
	Path    string // absolute path of hiera.yaml
	Dir     string // its directory: the base of relative datadirs
	Place   Place  // the layer it serves
	Version int
	Entries []*Entry
	// DefaultEntries are a module's default_hierarchy, searched when no layer has the key.
	DefaultEntries []*Entry
	V3             *merge.V3Settings // set for a version 3 file
	// Ignored is the warning for a file Puppet ignores (version 3 outside the global layer).
	Ignored string
}

// Place is the layer a hiera.yaml serves; Puppet's rules for a file depend on it.
type Place int

const (
	Global Place = iota
	Environment
	Module
)

// String is the place as Puppet's explain and messages name it.
func (p Place) String() string {
	switch p {
	case Environment:
		return "Environment"
	case Module:
		return "Module"
	}
	return "Global"
}

// Entry is one hierarchy level.
type Entry struct {
	Name     string
	Line     int
	Function *Function // its data function
	Datadir  string    // as written (interpolated per lookup)
	LocKind  string    // path, paths, glob, globs, uri, uris, mapped_paths, or "" for none
	Locs     []string
	Options  *model.Hash // entry options (replace defaults.options entirely), may be nil
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

// Parse validates the content of a hiera.yaml read for a layer (global, environment, module), with
// Puppet's messages: an error is a *model.Error naming the file, and the line and level where known.
func Parse(path string, data []byte, p Place) (*Config, error) {
	v, lines, err := datafile.ParseYAML(data)
	if err != nil {
		return nil, &model.Error{Message: "Unable to parse hiera.yaml: " + err.Error(), File: path, Line: yamlErrorLine(err), Err: err}
	}
	cfg := &Config{src: data, Path: path, Dir: filepath.Dir(path), Place: p}
	defer func() { cfg.src = nil }()
	top, ok := v.(*model.Hash)
	if !ok {
		// Puppet reads the Hiera 3 default config instead: ignored in an environment or module; in
		// the global layer its datadir (/etc/puppetlabs/code/environments/%{environment}/hieradata)
		// lies outside every root the engine reads, so the layer reads nothing there either.
		ignored := "the global layer reads nothing: that configuration's datadir lies outside the directories this engine reads"
		if p != Global {
			ignored = v3IgnoredWarning(p)
		}
		cfg.Ignored = fmt.Sprintf("%s: File exists but does not contain a valid YAML hash. Falling back to Hiera version 3 default config; %s", path, ignored)
		return cfg, nil
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
		cfg.Version = 5
		return cfg, cfg.parseV5(top, lines)
	case version == 3 && p != Global:
		cfg.Version = 3
		cfg.Ignored = path + ": " + v3IgnoredWarning(p)
		return cfg, nil
	case version == 3:
		cfg.Version = 3
		return cfg, cfg.parseV3(top)
	case version == 4 && p == Global:
		return nil, &model.Error{Message: "hiera.yaml version 4 cannot be used in the global layer", File: path}
	case version == 4:
		cfg.Version = 4
		return cfg, cfg.parseV4(top, lines)
	}
	return nil, &model.Error{Message: fmt.Sprintf("This runtime does not support hiera.yaml version %d", version), File: path}
}

func (c *Config) typeError(detail string) *model.Error {
	return &model.Error{Message: fmt.Sprintf("The Lookup Configuration at '%s' has wrong type, %s", c.Path, detail), File: c.Path}
}

func (c *Config) errAt(line int, format string, args ...any) *model.Error {
	return &model.Error{Message: fmt.Sprintf(format, args...), File: c.Path, Line: line}
}

// entryErr is errAt for a problem of one hierarchy entry: the error names the level too.
func (c *Config) entryErr(e *Entry, line int, format string, args ...any) error {
	return &model.Error{Message: fmt.Sprintf(format, args...), File: c.Path, Line: line, Level: e.Name}
}

func (c *Config) parseV5(top *model.Hash, lines map[*model.Hash]int) error {
	for _, k := range top.Keys() {
		if !contains(v5TopKeys, k) {
			return c.typeError(fmt.Sprintf("unrecognized key '%s'", model.ToS(k)))
		}
	}
	if _, ok := top.Get("default_hierarchy"); ok && c.Place != Module {
		return c.errAt(datafile.SourceLine(c.src, "default_hierarchy"), "'default_hierarchy' is only allowed in the module layer")
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
	if c.Entries, err = c.parseHierarchy(top, "hierarchy", defaults, lines); err != nil {
		return err
	}
	if _, ok := top.Get("default_hierarchy"); ok {
		c.DefaultEntries, err = c.parseHierarchy(top, "default_hierarchy", defaults, lines)
	}
	return err
}

// parseHierarchy parses the list of levels under key (hierarchy or default_hierarchy).
func (c *Config) parseHierarchy(top *model.Hash, key string, defaults *model.Hash, lines map[*model.Hash]int) ([]*Entry, error) {
	hier := []any{map2hash("name", "Common", "path", "common.yaml")}
	if h, ok := top.Get(key); ok {
		list, isList := h.([]any)
		if !isList {
			return nil, c.typeError(fmt.Sprintf("entry '%s' expects an Array value, got %s", key, model.TypeName(h)))
		}
		hier = list
	}
	var entries []*Entry
	seen := map[string]int{}
	for i, raw := range hier {
		e, err := c.parseEntry(key, i, raw, defaults, lines)
		if err != nil {
			return nil, err
		}
		if first, dup := seen[e.Name]; dup {
			return nil, c.errAt(e.Line, "Hierarchy name '%s' defined more than once. First defined at (line: %d)", e.Name, first)
		}
		seen[e.Name] = e.Line
		entries = append(entries, e)
	}
	return entries, nil
}

// v3IgnoredWarning is Puppet's warning for a version 3 hiera.yaml outside the global layer.
func v3IgnoredWarning(p Place) string {
	if p == Module {
		return "hiera.yaml version 3 found at module root was ignored"
	}
	return "hiera.yaml version 3 found at the environment root was ignored"
}

func (c *Config) parseEntry(key string, i int, raw any, defaults *model.Hash, lines map[*model.Hash]int) (*Entry, error) {
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
	e := &Entry{Line: lines[h]}
	name, _ := h.Get("name")
	s, isStr := name.(string)
	if !isStr || s == "" {
		return nil, c.typeError(at + " expects a value for key 'name'")
	}
	e.Name = s
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
	if err := c.checkOptions(h, fmt.Sprintf("hierarchy '%s'", e.Name), at); err != nil {
		err.Level = e.Name
		return nil, err
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
			return nil, c.entryErr(e, 0, "One of data_hash, lookup_key, data_dig, or hiera3_backend must be defined in hierarchy '%s'", e.Name)
		}
	case 1:
		for _, k := range functionKeys {
			if v, ok := h.Get(k); ok {
				kind, function = k, model.ToS(v) // validated as a string above
			}
		}
	default:
		return nil, c.entryErr(e, 0, "Only one of data_hash, lookup_key, data_dig, or hiera3_backend can be defined in hierarchy '%s'", e.Name)
	}
	if countKeys(h, locationKeys) > 1 {
		return nil, c.entryErr(e, 0, "Only one of path, paths, glob, globs, uri, uris, or mapped_paths can be defined in hierarchy '%s'", e.Name)
	}
	for _, k := range locationKeys {
		if v, ok := h.Get(k); ok {
			e.LocKind = k
			if s, isStr := v.(string); isStr {
				e.Locs = []string{s}
			} else {
				list, _ := v.([]any) // validated as an array of strings above
				for _, el := range list {
					e.Locs = append(e.Locs, model.ToS(el))
				}
			}
		}
	}
	fn, err := c.dataFunction(key, i, e, kind, function)
	if err != nil {
		return nil, err
	}
	e.Function = fn
	e.Datadir = "data"
	if v, ok := h.Get("datadir"); ok {
		e.Datadir, _ = v.(string) // validated as a String[1] above
	} else if v, ok := defaults.Get("datadir"); ok {
		if s, isStr := v.(string); isStr {
			e.Datadir = s
		}
	}
	if v, ok := h.Get("options"); ok {
		e.Options, _ = v.(*model.Hash)
	} else if v, ok := defaults.Get("options"); ok {
		e.Options, _ = v.(*model.Hash)
	}
	return e, nil
}

// dataFunction finds an entry's row in Functions from the kind and name hiera.yaml gives; a name
// of no row is a Custom function, which a lookup meets only when it reaches the level. i is the
// entry's index in the hierarchy.
func (c *Config) dataFunction(key string, i int, e *Entry, kind, name string) (*Function, error) {
	if kind == "hiera3_backend" {
		if c.Place != Global {
			return nil, c.entryErr(e, datafile.SourceLine(c.src, key, i, "hiera3_backend"), "'hiera3_backend' is only allowed in the global layer")
		}
		// Puppet's advice for a Hiera 3 backend that has a Hiera 5 data_hash function
		if f := FunctionNamed(name + "_data"); f != nil && f.Kind == "data_hash" {
			return nil, c.entryErr(e, datafile.SourceLine(c.src, key, i, "hiera3_backend"), "Use \"data_hash: %s_data\" instead of \"hiera3_backend: %s\"", name, name)
		}
		return nil, c.entryErr(e, e.Line, "Hierarchy entry '%s' uses hiera3_backend '%s': Hiera 3 backends are Ruby code, which this provider does not run", e.Name, name)
	}
	f := FunctionNamed(name)
	if f != nil && f.Refusal != "" {
		return nil, c.entryErr(e, e.Line, "Hierarchy entry '%s' uses %s '%s', %s (only %s)", e.Name, kind, name, f.Refusal, servedNames(func(f *Function) string { return f.Name }))
	}
	if f == nil {
		return &Function{Name: name, Kind: kind, Custom: true}, nil
	}
	if f.Kind != kind {
		return nil, c.entryErr(e, 0, "Unable to find '%s' function named '%s'", kind, name)
	}
	return f, nil
}

// checkOptions validates an options hash: Puppet's key pattern and its reserved keys.
func (c *Config) checkOptions(h *model.Hash, where, at string) *model.Error {
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

func map2hash(kv ...string) *model.Hash {
	h := model.NewHash(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

// yamlErrorLine is the line of a YAML parse error, when it has one.
func yamlErrorLine(err error) int {
	var ye *datafile.YAMLError
	if errors.As(err, &ye) {
		return ye.Line
	}
	return 0
}
