package hiera

// A node as a whole: the keys its hierarchies reach, each looked up as lookup() looks it up.

import (
	"context"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/hieraconfig"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// NodeRequest asks for many keys of one node at once (Engine.LookupNode).
type NodeRequest struct {
	Scope Scope
	// Keys, when not nil, are the keys to look up, in this order (dotted subkeys allowed, as in
	// Request.Key). nil: the node's keys, as Engine.NodeKeys lists them.
	Keys []string
	// Prefixes, when not empty, keep only the keys that start with one of them.
	Prefixes []string
	// Only, when not nil, keeps only the keys for which it returns true (after Prefixes): a caller
	// that needs the listing (NodeResult.Files) but the answers of some keys only.
	Only func(key string) bool
	// EyamlKeys, when given, replace the key files every eyaml_lookup_key entry names (as Request.EyamlKeys).
	EyamlKeys EyamlKeys
	// Pitfalls asks for NodeResult.Pitfalls.
	Pitfalls bool
}

// NodeAnswer is the answer for one key of a node: Result as Engine.Lookup gives it for a
// FuncLookup request without Merge (Found, Value, Sensitive, Sources, and Searched when not
// found), or Err, the error that lookup fails with. Result.Warnings are in NodeResult.Warnings.
type NodeAnswer struct {
	Key    string
	Result Result
	Err    error
}

// NodeResult is the answer of Engine.LookupNode.
type NodeResult struct {
	// Answers has one answer per key: in NodeRequest.Keys' order, else in the listing's.
	Answers []NodeAnswer
	// Warnings are the soft problems met on the way, each once.
	Warnings []string
	// Pitfalls, when NodeRequest.Pitfalls is set, are the silent traps Puppet has too that the
	// node's lookups met (as Result.Pitfalls: a variable a hierarchy path or a value interpolates
	// that is not set, so that a level finds nothing or a value holds an empty string; a fact with a
	// dot in its name; a certname taken from networking.fqdn), each once, at most maxPitfalls.
	Pitfalls []string
	// ListErr, without NodeRequest.Keys, when not nil, is why the node cannot be read as a whole: the
	// error of a lookup of a key no file has (probeNode), as Puppet would meet it: a
	// hiera.yaml that does not validate, a level that does not resolve, a data file that does not
	// parse. Answers then hold the keys that could be: their lookups mostly fail with that error.
	// With NodeRequest.Keys, it is set when the configuration cannot be read at all.
	ListErr error
	// Files, without NodeRequest.Keys, are the data files the node's hierarchies reach (that
	// exist), in the listing's order, each once: the files whose keys were listed.
	Files []Source
}

// NodeKeys lists the candidate keys of the node that scope describes: every root key of every
// data file that the node's hierarchies reach, in every layer, a module's default_hierarchy and a
// version 3 hiera.yaml included; in the global and environment layers every key, in a module's
// only the keys qualified with the module's name (the only ones a lookup reaches there); never
// "lookup_options", "" or a root key that is not a string (no lookup key names one). Layers
// Puppet ignores (an environment or module without hiera.yaml, a version 3 hiera.yaml outside the
// global layer) contribute nothing. The order is the lookups' (global, environment, modules in
// modulepath order; levels most specific first; each file's keys in the file's order), each key
// once.
//
// Listing fails, with the error a lookup would meet, when some data the node reaches cannot be
// read: a hiera.yaml that does not validate, a hierarchy path that does not resolve, a data file
// that does not parse, lookup_options that are not a hash. It goes on past such a part, and
// returns the keys of the rest with the first error; the root keys of a data file that does not
// read as its function reads it but parses as YAML are listed too. A key listed may still not be
// found (a dotted root key "a.b" digs into "a", as any lookup key does) or fail to look up.
func (e *Engine) NodeKeys(ctx context.Context, scope Scope) (keys []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = internalError(r, "")
		}
	}()
	inv, err := e.start(ctx, Request{Scope: scope})
	if err != nil {
		return nil, err
	}
	keys, _, err = inv.nodeKeys()
	return keys, err
}

// LookupNode looks up many keys of one node, each as Engine.Lookup does for a FuncLookup request
// without Merge (lookup_options, interpolation, convert_to, Puppet's layers), with the engine's
// caches and one resolution of the node's hierarchies for all of them: a whole node of thousands
// of keys costs milliseconds. A key's failure is its answer's Err; a listing's failure is
// NodeResult.ListErr (the keys that could be listed are answered still). The error returned is
// only the context's, or an internal error.
func (e *Engine) LookupNode(ctx context.Context, req NodeRequest) (res NodeResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = NodeResult{}, internalError(r, "")
		}
	}()
	inv, err := e.start(ctx, Request{Scope: req.Scope, EyamlKeys: req.EyamlKeys, Pitfalls: req.Pitfalls})
	if err != nil { // a hiera.yaml that cannot be read: every lookup fails with its error
		keys := req.Keys
		if keys == nil {
			res.ListErr, keys = err, e.keysBeside()
		}
		for _, key := range keys {
			res.Answers = append(res.Answers, NodeAnswer{Key: key, Err: withKey(err, key)})
		}
		return res, nil
	}
	keys, modules := req.Keys, []string(nil)
	if keys == nil {
		keys, modules, _ = inv.nodeKeys()
		res.Files = inv.listed
	}
	if len(req.Prefixes) > 0 || req.Only != nil {
		keys = slices.DeleteFunc(slices.Clone(keys), func(k string) bool {
			return len(req.Prefixes) > 0 && !slices.ContainsFunc(req.Prefixes, func(p string) bool { return strings.HasPrefix(k, p) }) ||
				req.Only != nil && !req.Only(k)
		})
	}
	inv.nodeRead = true
	if req.Pitfalls { // the node's own first: its scope, and its global and environment hierarchies
		inv.findPitfalls(probeKey)
	}
	res.Warnings = slices.Clone(inv.warnings)
	res.Answers = make([]NodeAnswer, len(keys))
	first := 0
	if req.Keys == nil {
		first = inv.pathOrderFirst(keys)
	}
	for n := range keys {
		if err := ctx.Err(); err != nil {
			return NodeResult{}, err
		}
		i := n // keys[first] first, then the others in order
		switch {
		case n == 0:
			i = first
		case n <= first:
			i = n - 1
		}
		key := keys[i]
		r, err := inv.lookupNodeKey(key)
		res.Warnings = append(res.Warnings, r.Warnings...)
		r.Warnings, r.Pitfalls = nil, nil
		res.Answers[i] = NodeAnswer{Key: key, Result: r, Err: err}
	}
	if req.Keys == nil {
		res.ListErr = inv.probeNode(modules, &res.Warnings)
	}
	res.Pitfalls = slices.Clone(inv.pitfalls)
	return res, nil
}

// pathOrderFirst is the index in keys of the key a whole-node read looks up first: the first
// candidate of the listed data file whose path sorts first (0 when none is in keys). Puppet's lookup
// adapter, shared by one compile's lookups, keeps the global lookup_options as none once reading
// them failed, so that only the compile's first lookup meets that error (options.go). Puppet's
// answers for a node's keys are one compile's lookups of them file by file, in path order (as the
// oracle's node_record.py asks them): the key that fails is that file's first.
func (inv *invocation) pathOrderFirst(keys []string) int {
	for _, path := range slices.Sorted(maps.Keys(inv.firstKeys)) {
		if i := slices.Index(keys, inv.firstKeys[path]); i >= 0 {
			return i
		}
	}
	return 0
}

// probeKey is a key no data file has. A lookup of it walks every level of every layer the node
// reaches, as listing the node's keys does.
const probeKey = "hieraform_node_probe_no_such_key"

// probeNode tells whether the node's data can be read as a whole, as Puppet would see it: it looks
// up a key no data file has, globally and once in each module (`<module>::` + the key), and returns
// the first error met. A failing part that such a lookup does not meet (lookup_options that are not
// a hash, read only for the keys they may apply to) fails only the keys it reaches. The probe
// passes the levels of custom functions: the keys that reach them fail one by one, the others are
// the node's.
func (inv *invocation) probeNode(modules []string, warnings *[]string) error {
	inv.probing = true
	defer func() { inv.probing = false }()
	for _, key := range slices.Concat([]string{probeKey}, modules) {
		if key != probeKey {
			key += "::" + probeKey
		}
		r, err := inv.lookupNodeKey(key)
		*warnings = append(*warnings, r.Warnings...)
		if err != nil {
			return err
		}
	}
	return nil
}

// lookupNodeKey runs one key's lookup in an invocation that looked up other keys of the node
// before: their resolved hierarchies, data files, module layers and lookup_options are the same.
// What belongs to one key is set anew; warnings already given are not given again.
func (inv *invocation) lookupNodeKey(key string) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = Result{}, internalError(r, key)
			inv.enter(inv.global)
		}
	}()
	inv.req.Key = key
	inv.nameStack, inv.sources, inv.searched, inv.warnings = inv.nameStack[:0], nil, nil, nil
	inv.nestedLookups, inv.interpolated, inv.sensitive, inv.wrapped, inv.redact = 0, 0, false, false, false
	inv.undecrypted = nil
	return inv.run()
}

// nodeKeys is NodeKeys in a fresh invocation, with the modulepath's module names. It lists what it
// can: past a part it cannot read (a module's hiera.yaml, a level, a data file) it goes on, so that
// the keys of the rest are still listed (their lookups then fail with that part's error, which
// names them), and returns the first such error with the keys.
func (inv *invocation) nodeKeys() ([]string, []string, error) {
	var first firstError
	names, warnings, err := inv.engine.moduleNames()
	for _, w := range warnings {
		inv.warn(w)
	}
	first.note(err)
	layers := []*layer{inv.global, inv.env}
	for _, name := range names {
		l, err := inv.moduleLayer(name)
		if err != nil {
			first.note(err)
			continue
		}
		layers = append(layers, l)
	}
	var keys []string
	seen := map[string]bool{}
	for _, l := range layers {
		if l.cfg == nil {
			continue
		}
		first.note(inv.layerKeys(l, func(k string) {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}))
		// every lookup of the layer's keys reads its lookup_options
		_, err := inv.assembledOptions(l.module)
		first.note(inv.guard(err))
	}
	inv.globalStarted = false // listing is no lookup: the first key's lookup meets an error there, as in Puppet
	return keys, names, first.err
}

// firstError keeps the first of the errors it is given.
type firstError struct{ err error }

func (f *firstError) note(err error) {
	if f.err == nil {
		f.err = err
	}
}

// layerKeys calls add with the candidate keys of every data file a layer's hierarchy and
// default_hierarchy reach, and returns the first problem met on the way (see nodeKeys).
func (inv *invocation) layerKeys(l *layer, add func(key string)) error {
	defer inv.leave(inv.enter(l))
	prefix := ""
	if l.place == hieraconfig.Module {
		prefix = l.module + "::"
	}
	var first firstError
	for _, e := range slices.Concat(l.cfg.Entries, l.cfg.DefaultEntries) {
		if err := inv.ctx.Err(); err != nil {
			return err
		}
		if e.Function.Custom { // what it holds, only its function knows (customlevels.go)
			continue
		}
		locs, err := inv.entryLocations(e)
		if err != nil {
			first.note(err)
			if locs, err = inv.resolveLocations(e); err != nil { // the files, when only the options are wrong
				continue
			}
		}
		for _, loc := range locs {
			df, exists, _ := inv.data(loc.path, e.Function)
			var keys *model.Hash
			if !exists {
				continue
			}
			if !slices.ContainsFunc(inv.listed, func(s Source) bool { return s.File == loc.path }) {
				inv.listed = append(inv.listed, Source{Layer: layerName(l.place), Module: l.module, Level: e.Name, File: loc.path})
			}
			switch {
			case df.err != nil:
				first.note(withLevel(df.err, e.Name))
				keys = unreadableKeys(loc.path)
			default:
				keys = df.keys()
			}
			firstOfFile := true
			keys.Each(func(k, _ any) bool {
				if ks, isStr := k.(string); isStr && ks != "" && ks != "lookup_options" && strings.HasPrefix(ks, prefix) {
					if firstOfFile {
						inv.noteFirstKey(loc.path, ks)
						firstOfFile = false
					}
					add(ks)
				}
				return true
			})
		}
	}
	return first.err
}

// noteFirstKey keeps key as the first candidate of the data file at path, unless it has one.
func (inv *invocation) noteFirstKey(path, key string) {
	if inv.firstKeys == nil {
		inv.firstKeys = map[string]string{}
	}
	if _, ok := inv.firstKeys[path]; !ok {
		inv.firstKeys[path] = key
	}
}

// unreadableKeys are the root keys of a data file that does not read as its function reads it (a
// YAML date, a value of an unknown tag) but parses as YAML, so that the read's error can name the
// keys that the file fails; nil when it does not parse at all.
func unreadableKeys(path string) *model.Hash {
	text, err := readLimited(path)
	var doc yaml.Node
	if err != nil || yaml.Unmarshal(text, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	root := doc.Content[0].Content
	keys := model.NewHash(len(root) / 2)
	for i := 0; i+1 < len(root); i += 2 {
		if k := root[i]; k.Kind == yaml.ScalarNode && k.Tag == "!!str" {
			keys.Set(k.Value, nil)
		}
	}
	return keys
}

// maxFilesBeside bounds how many files keysBeside reads.
const maxFilesBeside = 1000

// keysBeside lists, when a base layer's hiera.yaml cannot be read (so that no hierarchy can be
// followed and every lookup fails with its error), the root keys of the YAML and JSON files in
// the data directory beside the global hiera.yaml and the environment's (Hiera's default
// datadir), in path order: the keys whose lookups the read's error can name.
func (e *Engine) keysBeside() []string {
	var keys []string
	seen := map[string]bool{}
	files := 0
	for _, dir := range []string{filepath.Dir(e.configPath), e.layers.Environment} {
		if dir == "." || dir == "" {
			continue
		}
		_ = filepath.WalkDir(filepath.Join(dir, "data"), func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil || files >= maxFilesBeside:
				return filepath.SkipDir
			case d.IsDir() || !slices.Contains([]string{".yaml", ".yml", ".json", ".eyaml"}, filepath.Ext(path)):
				return nil
			}
			files++
			unreadableKeys(path).Each(func(k, _ any) bool {
				if ks, _ := k.(string); ks != "" && ks != "lookup_options" && !seen[ks] {
					seen[ks] = true
					keys = append(keys, ks)
				}
				return true
			})
			return nil
		})
	}
	return keys
}

// moduleNames lists the modules of the modulepath, as Puppet finds them: the directories with a
// module's name (lower case, digits, underscores) in each module directory, the first holding a
// name winning, in modulepath order and then by name. A module directory that does not exist
// holds none.
func (e *Engine) moduleNames() (names, warnings []string, err error) {
	dirs, warnings, err := e.modulepath()
	if err != nil {
		return nil, warnings, err
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		entries, err := os.ReadDir(d) // sorted by name
		if err != nil {
			continue
		}
		for _, de := range entries {
			name := de.Name()
			if seen[name] || !moduleNamePattern.MatchString(name) {
				continue
			}
			if fi, err := os.Stat(filepath.Join(d, name)); err == nil && fi.IsDir() { // links followed, as moduleDir does
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	return names, warnings, nil
}
