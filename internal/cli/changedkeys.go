package cli

// The keys a change can reach: a fleet diff looks up only these on every node, not every key.
//
// A key's answer depends on the hiera.yaml files, environment.conf, the key's own values in the
// data files, lookup_options, the facts (the same on both sides) and, through interpolation, other
// keys. So when the two sides' trees differ only in data files, and not in lookup_options, a key
// whose values are the same in every file on both sides has the same answer on both, except a key
// that interpolates (it may read a changed key) and a dotted root key naming a changed key's
// subkey ("a.b" is looked up by digging into "a"). Anything else that differs (a hiera.yaml, a
// file that is not data or does not parse, a symbolic link to a directory or out of the tree, a
// file the engine would not read: a pipe, a device, one past its bound) makes the diff compare
// every key of every node instead, where the engine's own refusals apply.

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
	"github.com/hieraform/terraform-provider-hiera/internal/facts"
	"github.com/hieraform/terraform-provider-hiera/internal/fleet"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/glob"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// maxComparedFiles bounds the files the comparison reads per side; past it, every key is compared.
const maxComparedFiles = 100000

// dataExtensions are the files read as data: their root keys are compared.
var dataExtensions = map[string]bool{".yaml": true, ".yml": true, ".json": true, ".eyaml": true}

// ignoredFiles are files the engine never reads whatever a hiera.yaml says (Puppet code, docs,
// scripts): a change to them changes no answer. By extension, then by name.
var (
	ignoredExtensions = map[string]bool{".pp": true, ".epp": true, ".erb": true, ".rb": true, ".md": true, ".markdown": true,
		".txt": true, ".rst": true, ".sh": true, ".py": true, ".lock": true}
	ignoredNames = map[string]bool{"Puppetfile": true, "Gemfile": true, "Rakefile": true, "LICENSE": true, "README": true,
		"CHANGELOG": true, "CODEOWNERS": true, ".gitignore": true, ".gitattributes": true}
)

// errEveryKey says why only comparing every key is correct.
type errEveryKey struct{ why string }

func (e errEveryKey) Error() string { return e.why }

// sideRoots are the directories the side's data lies in, by role, so that the two sides' files
// pair up: the global hiera.yaml's directory, the environment's, each module directory given.
func sideRoots(st setup) []string {
	roots := []string{"", st.environmentDir()}
	if st.config != "" {
		roots[0] = filepath.Dir(st.config)
	}
	if st.modulepath != "" {
		roots = append(roots, filepath.SplitList(st.modulepath)...)
	}
	return roots
}

// changedKeys returns the keys whose answers the change between the sides can reach, sorted, or
// an errEveryKey when it cannot tell.
func changedKeys(sides [2]setup) ([]string, error) {
	var roots [2][]string
	for i := range sides {
		roots[i] = sideRoots(sides[i])
	}
	if len(roots[0]) != len(roots[1]) {
		return nil, errEveryKey{"the sides have different numbers of module directories"}
	}
	var trees [2]map[string]string // role and relative path -> file
	for i := range trees {
		trees[i] = map[string]string{}
		for r, root := range roots[i] {
			if root == "" {
				continue
			}
			if err := listFiles(root, fmt.Sprint(r), trees[i]); err != nil {
				return nil, err
			}
		}
	}
	c := &keyCollector{keys: map[string]bool{}}
	for _, rel := range unionKeys(trees[0], trees[1]) {
		if err := c.compare(trees[0][rel], trees[1][rel]); err != nil {
			return nil, err
		}
	}
	if len(c.keys) == 0 {
		return nil, nil
	}
	// Keys that interpolate may read a changed key; dotted root keys may dig into one.
	for i := range trees {
		for _, file := range trees[i] {
			if err := c.dependents(file); err != nil {
				return nil, err
			}
		}
	}
	keys := make([]string, 0, len(c.keys))
	for k := range c.keys {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, nil
}

// dataWithinRoots says whether every data file of each side lies under the side's roots, where
// changedKeys compares them (a datadir "../data" beside hiera.yaml's directory, a module directory
// environment.conf names outside the environment, does not).
func dataWithinRoots(ctx context.Context, engines [2]*hiera.Engine, sides [2]setup, nodes []fleet.Node) bool {
	scopes := make([]hiera.Scope, len(nodes))
	for i, n := range nodes {
		scopes[i] = facts.Scope(n.Facts, n.Name)
	}
	for i, e := range engines {
		list, err := e.DataFiles(ctx, scopes)
		if err != nil || len(list.Problems) > 0 {
			return false
		}
		var roots []string
		for _, root := range sideRoots(sides[i]) {
			if abs, err := filepath.Abs(root); root != "" && err == nil { // data files are named absolute
				roots = append(roots, abs)
			}
		}
		for _, f := range list.Files {
			if !slices.ContainsFunc(roots, func(root string) bool {
				rel, err := filepath.Rel(root, f.File)
				return err == nil && filepath.IsLocal(rel)
			}) {
				return false
			}
		}
	}
	return true
}

// listFiles puts every file under root in files, keyed by role and path relative to root. .git is
// not entered; a symbolic link to a directory (the engine may read through it) or leading out of
// root (the engine does not follow it out of a datadir; the comparison does not read it: a link to
// /dev/zero, or to a file whose keys are not the repository's) is an errEveryKey.
func listFiles(root, role string, files map[string]string) error {
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil //nolint:nilerr // the engine reads nothing there, on this side
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return errEveryKey{err.Error()}
	}
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(path); err == nil && fi.IsDir() {
				return errEveryKey{path + " is a symbolic link to a directory"}
			}
			rel, _ := filepath.Rel(root, path)
			if _, err := glob.Confine(filepath.Join(absRoot, rel), absRoot); err != nil {
				return errEveryKey{path + " is a symbolic link leading out of " + root}
			}
		}
		if len(files) >= maxComparedFiles {
			return errEveryKey{fmt.Sprintf("more than %d files", maxComparedFiles)}
		}
		rel, _ := filepath.Rel(root, path)
		files[role+"\x00"+rel] = path
		return nil
	})
}

func unionKeys(a, b map[string]string) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// keyCollector gathers the keys a change reaches.
type keyCollector struct {
	keys map[string]bool
}

// compare adds the root keys whose values differ between two versions of a file ("" for a side
// without it).
func (c *keyCollector) compare(left, right string) error {
	var data [2][]byte
	for i, path := range []string{left, right} {
		if path == "" {
			continue
		}
		b, err := readCompared(path)
		if err != nil {
			return err
		}
		data[i] = b
	}
	if left != "" && right != "" && bytes.Equal(data[0], data[1]) {
		return nil
	}
	name := filepath.Base(cmp.Or(left, right))
	ext := strings.ToLower(filepath.Ext(name))
	switch {
	case name == "hiera.yaml" || name == "environment.conf":
		return errEveryKey{name + " differs"}
	case ignoredExtensions[ext] || ignoredNames[name]:
		return nil
	case !dataExtensions[ext]:
		return errEveryKey{name + " differs, and is not a data file"}
	}
	var hashes [2]*model.Hash
	for i := range data {
		h, err := rootHash(data[i], ext)
		if err != nil {
			return errEveryKey{fmt.Sprintf("%s does not read as a data file: %v", name, err)}
		}
		hashes[i] = h
	}
	if v0, ok0 := hashes[0].Get("lookup_options"); ok0 {
		if v1, ok1 := hashes[1].Get("lookup_options"); !ok1 || !model.Equal(v0, v1) {
			return errEveryKey{"lookup_options differ"}
		}
	} else if _, ok1 := hashes[1].Get("lookup_options"); ok1 {
		return errEveryKey{"lookup_options differ"}
	}
	for i, h := range hashes {
		other := hashes[1-i]
		h.Each(func(k, v any) bool {
			key, isString := k.(string)
			if !isString {
				return true // no lookup reaches it
			}
			if ov, ok := other.Get(k); !ok || !model.Equal(v, ov) {
				c.keys[key] = true
			}
			return true
		})
	}
	return nil
}

// readCompared reads a file of a side as the engine reads a data file (boundedfile: a regular
// file within the engine's bound, never a pipe or device); one it would refuse is an errEveryKey.
func readCompared(path string) ([]byte, error) {
	b, err := boundedfile.Read(path, maxDataFileSize)
	if err != nil {
		return nil, errEveryKey{err.Error()}
	}
	return b, nil
}

// rootHash reads a data file's text as its root hash (empty when there is no text).
func rootHash(data []byte, ext string) (*model.Hash, error) {
	var v any
	var err error
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return model.NewHash(0), nil
	case ext == ".json":
		v, err = datafile.ParseJSON(data)
	default:
		v, _, err = datafile.ParseYAML(data)
	}
	if err != nil {
		return nil, err
	}
	switch h := v.(type) {
	case *model.Hash:
		return h, nil
	case nil:
		return model.NewHash(0), nil
	}
	return nil, errors.New("its top is not a hash")
}

// dependents adds the keys of file that may read a changed key: any whose value interpolates, and
// a dotted root key whose first segment is a changed key. A file that holds no "%{" and names no
// changed key followed by a dot is not parsed.
func (c *keyCollector) dependents(file string) error {
	ext := strings.ToLower(filepath.Ext(file))
	if ignoredExtensions[ext] || ignoredNames[filepath.Base(file)] || filepath.Base(file) == "hiera.yaml" { // configuration, not data: its paths interpolate no key
		return nil
	}
	data, err := readCompared(file)
	if err != nil {
		return err
	}
	interpolates := bytes.Contains(data, []byte("%{"))
	if !interpolates && !c.namesDotted(data, ext) {
		return nil
	}
	if !dataExtensions[ext] {
		if interpolates {
			return errEveryKey{file + " interpolates and is not a data file this comparison reads"}
		}
		return nil
	}
	h, err := rootHash(data, ext)
	if err != nil {
		if interpolates {
			return errEveryKey{fmt.Sprintf("%s does not read as a data file: %v", file, err)}
		}
		return nil
	}
	h.Each(func(k, v any) bool {
		key, isString := k.(string)
		if !isString || key == "lookup_options" {
			return true
		}
		if head, _, dotted := strings.Cut(key, "."); dotted && c.keys[strings.Trim(head, `"'`)] {
			c.keys[key] = true
		}
		if interpolates && holdsInterpolation(v) {
			c.keys[key] = true
		}
		return true
	})
	return nil
}

// namesDotted says whether data may hold a dotted root key whose first segment is a changed key:
// a line of YAML that starts with one (a root key starts a line), any JSON file holding a dot.
func (c *keyCollector) namesDotted(data []byte, ext string) bool {
	if ext == ".json" {
		return bytes.Contains(data, []byte("."))
	}
	for line := range bytes.Lines(data) {
		if len(line) == 0 || line[0] == ' ' || line[0] == '#' || line[0] == '-' {
			continue
		}
		head, _, dotted := bytes.Cut(line, []byte("."))
		if dotted && c.keys[strings.Trim(string(head), `"'`)] {
			return true
		}
	}
	return false
}

// holdsInterpolation says whether v holds a string with "%{" (a hash's keys included).
func holdsInterpolation(v any) bool {
	switch t := v.(type) {
	case string:
		return strings.Contains(t, "%{")
	case []any:
		return slices.ContainsFunc(t, holdsInterpolation)
	case *model.Hash:
		found := false
		t.Each(func(k, v any) bool {
			found = holdsInterpolation(k) || holdsInterpolation(v)
			return !found
		})
		return found
	}
	return false
}
