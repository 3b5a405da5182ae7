package hiera

// Listing the data files of every level of every layer, for checks that read all of them
// (FileCheck) rather than what one node reaches.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/glob"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/hieraconfig"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// DataFile is a file found under a hierarchy level's datadir (Engine.DataFiles), with the level
// that reads it.
type DataFile struct {
	Source
	fn    *hieraconfig.Function
	layer *layer
}

// DataFileList is what Engine.DataFiles found.
type DataFileList struct {
	Files []DataFile
	// Warnings name what was not listed: a datadir that depends on the node (with no scope given
	// to resolve it), a symbolic link leading out of its datadir or to a directory.
	Warnings []string
	// Problems are what a lookup fails on, or Puppet silently reads as no data: a hiera.yaml that
	// does not validate, a datadir that is not a readable directory.
	Problems []error
}

// Bounds of a listing: a control repository has hundreds of data files, a large site thousands;
// a datadir naming "/" must not walk the whole disk. Variables for a test of the bounds.
var (
	maxListedDataFiles = 1 << 17
	maxListedEntries   = 1 << 20 // files and directories visited, data or not
)

// dataFileExtensions are the names each data function reads under a datadir, besides the
// extensions its level's paths name (a Hiera 3 backend's :extension:).
var dataFileExtensions = map[string][]string{
	"yaml_data":        {".yaml", ".yml"},
	"json_data":        {".json"},
	"hocon_data":       {".conf"},
	"eyaml_lookup_key": {".eyaml", ".yaml", ".yml"},
}

// DataFiles lists every file under the datadir of every level (default_hierarchy included) of
// every layer (global, environment, each module of the modulepath) whose name its level's data
// function reads, each once, in search order. A file goes to the first level whose path could
// name it (a literal path first, then a path or glob with its variables as wildcards), else to the
// first level of its datadir that reads its extension. A datadir that interpolates a variable is
// resolved for each scope given (the environment's name needs none); with none, it is left out
// with a warning. Nothing outside a datadir is read: a symbolic link leading out is a warning.
// Directories whose name starts with a dot (.git) are not entered.
// The listing is bounded (files, entries visited): past the bound it fails.
func (e *Engine) DataFiles(ctx context.Context, scopes []Scope) (list DataFileList, err error) {
	defer func() {
		if r := recover(); r != nil {
			list, err = DataFileList{}, internalError(r, "")
		}
	}()
	inv, err := e.start(ctx, Request{})
	if err != nil {
		list.Problems = append(list.Problems, err)
		return list, nil
	}
	w := &walk{inv: inv, list: &list, seen: map[string]bool{}}
	for _, s := range scopes {
		node, err := e.start(ctx, Request{Scope: s})
		if err != nil {
			return list, err // the fact-less start succeeded: this is the context's
		}
		w.nodes = append(w.nodes, node)
	}
	list.Warnings = slices.Clone(inv.warnings)
	names, warnings, err := e.moduleNames()
	list.Warnings = append(list.Warnings, warnings...)
	if err != nil {
		list.Problems = append(list.Problems, err)
	}
	layers := []*layer{inv.global, inv.env}
	for _, name := range names {
		l, warnings, err := e.moduleLayer(name)
		list.Warnings = append(list.Warnings, warnings...)
		if err != nil {
			list.Problems = append(list.Problems, err)
			continue
		}
		layers = append(layers, l)
	}
	for _, l := range layers {
		if err := w.layer(l); err != nil {
			return list, err
		}
	}
	return list, nil
}

// walk is one DataFiles listing under way.
type walk struct {
	inv     *invocation   // without a node
	nodes   []*invocation // one per scope given, for datadirs that depend on the node
	list    *DataFileList
	seen    map[string]bool // files listed, datadirs walked
	entries int             // directory entries visited
}

// layer lists the files of one layer's levels, datadir by datadir.
func (w *walk) layer(l *layer) error {
	if l.cfg == nil {
		return nil
	}
	levels := slices.DeleteFunc(slices.Concat(l.cfg.Entries, l.cfg.DefaultEntries), func(en *entry) bool {
		return en.Function == nil || en.Function.Refusal != "" || strings.HasPrefix(en.LocKind, "uri") || en.LocKind == ""
	})
	var dirs []string
	byDir := map[string][]*entry{}
	for _, en := range levels {
		for _, dir := range w.datadirs(l, en) {
			if _, ok := byDir[dir]; !ok {
				dirs = append(dirs, dir)
			}
			byDir[dir] = append(byDir[dir], en)
		}
	}
	for _, dir := range dirs {
		if err := w.dir(l, dir, byDir[dir]); err != nil {
			return err
		}
	}
	return nil
}

// datadirs resolves a level's datadir as lookups do (confined to a module's directory): once
// when it names no variable but the environment, else once per scope given.
func (w *walk) datadirs(l *layer, en *entry) []string {
	invs := []*invocation{w.inv}
	if dependsOnNode(en.Datadir) {
		if len(w.nodes) == 0 {
			w.list.Warnings = append(w.list.Warnings, fmt.Sprintf("%s, level %q: the datadir %q depends on the node; its files are not checked (give --facts to check them)",
				l.cfg.Path, en.Name, en.Datadir))
			return nil
		}
		invs = w.nodes
	}
	var dirs []string
	for _, inv := range invs {
		prev := inv.enter(l)
		dir, err := inv.resolveDir(en, en.Datadir, l.cfg.Dir)
		inv.leave(prev)
		switch {
		case err != nil:
			w.list.Problems = append(w.list.Problems, withLevel(err, en.Name))
		case !slices.Contains(dirs, dir):
			dirs = append(dirs, dir)
		}
	}
	return dirs
}

// dependsOnNode reports whether a hiera.yaml template interpolates anything but the environment.
func dependsOnNode(template string) bool {
	for _, m := range tokenPattern.FindAllStringSubmatch(template, -1) {
		if expr := strings.TrimSpace(m[1]); expr != "environment" && expr != "::environment" {
			return true
		}
	}
	return false
}

// dir lists the data files under one datadir, for the levels that read it.
func (w *walk) dir(l *layer, dir string, levels []*entry) error {
	if w.seen[dir] {
		return nil
	}
	w.seen[dir] = true
	switch fi, err := os.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
		return nil // a level with no data yet, as for a lookup
	case err != nil:
		w.problem(l, levels[0], dir, fmt.Sprintf("the datadir cannot be read (%v): Puppet finds no data there", unwrapPath(err)))
		return nil
	case !fi.IsDir():
		w.problem(l, levels[0], dir, "the datadir is not a directory: Puppet finds no data there")
		return nil
	}
	claims := levelClaims(dir, levels)
	// the trailing separator makes a datadir that is a symbolic link walked as the directory it names
	return filepath.WalkDir(dir+string(filepath.Separator), func(path string, d fs.DirEntry, err error) error {
		if w.entries++; w.entries > maxListedEntries {
			return model.ValueFreef("more than %d files and directories under the datadirs (the last %s): a datadir names too much", maxListedEntries, dir)
		}
		if err != nil {
			w.problem(l, levels[0], path, fmt.Sprintf("cannot be read (%v): Puppet finds no data there", unwrapPath(err)))
			return nil // WalkDir skips what it could not read
		}
		switch {
		case d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != dir+string(filepath.Separator):
			return filepath.SkipDir // .git and the like: not data (Hiera's globs do not enter them either)
		case d.IsDir() || w.seen[path]:
			return w.inv.ctx.Err()
		}
		link := d.Type()&fs.ModeSymlink != 0
		if link && w.linkToDir(path) {
			return nil
		}
		en := claims.level(path, levels)
		if en == nil || en.Function.Custom || link && !w.linkInside(path, dir) {
			return nil // a custom function's files are its own to read (customlevels.go)
		}
		if len(w.list.Files) >= maxListedDataFiles {
			return model.ValueFreef("more than %d data files under the datadirs (the last %s)", maxListedDataFiles, dir)
		}
		w.seen[path] = true
		f := DataFile{Source: Source{Layer: layerName(l.place), Module: l.module, Level: en.Name, File: path}, fn: en.Function, layer: l}
		w.list.Files = append(w.list.Files, f)
		return w.inv.ctx.Err()
	})
}

// linkToDir reports whether a symbolic link in a datadir leads to a directory: not followed (as
// Ruby's glob does not), with a warning.
func (w *walk) linkToDir(path string) bool {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		w.list.Warnings = append(w.list.Warnings, fmt.Sprintf("%s: a symbolic link to a directory; its files are not checked (lookups may still read them)", path))
		return true
	}
	return false
}

// linkInside reports whether a symbolic link in a datadir stays inside it, as the engine's
// confinement rules have it; one leading out is not read, with a warning.
func (w *walk) linkInside(path, dir string) bool {
	if _, err := glob.Confine(path, dir); err != nil {
		w.list.Warnings = append(w.list.Warnings, fmt.Sprintf("%s: a symbolic link leading out of the datadir %s; not checked", path, dir))
		return false
	}
	return true
}

func (w *walk) problem(l *layer, en *entry, path, msg string) {
	w.list.Problems = append(w.list.Problems, &model.Error{Message: fmt.Sprintf("%s: %s", path, msg), File: l.cfg.Path, Line: en.Line, Level: en.Name, ValueFree: true})
}

// unwrapPath is an os error without the path it names (the message names it already).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// claims are the files each level's paths could name under one datadir: literal ones, and
// those of templates whose variables are read as wildcards.
type claims struct {
	literal, pattern map[string]*entry
	// under are the directories a custom function's level names (its function reads below them,
	// as wmflib::expand_path does), with the level
	under map[string]*entry
}

func levelClaims(dir string, levels []*entry) claims {
	c := claims{literal: map[string]*entry{}, pattern: map[string]*entry{}, under: map[string]*entry{}}
	for _, en := range levels {
		templates := en.Locs
		if en.LocKind == "mapped_paths" && len(en.Locs) == 3 {
			templates = en.Locs[2:]
		}
		isGlob := en.LocKind == "glob" || en.LocKind == "globs"
		for _, t := range templates {
			literal := !strings.Contains(t, "%{") && (!isGlob || !strings.ContainsAny(t, "*?[{"))
			if literal {
				p := joinPath(dir, t)
				if c.literal[p] == nil {
					c.literal[p] = en
				}
				if en.Function.Custom && c.under[p] == nil {
					c.under[p] = en
				}
				continue
			}
			matches, err := glob.Expand(joinPath(dir, wildcardTemplate(t, isGlob)), dir)
			if err != nil {
				continue // a pattern leading out of the datadir claims nothing
			}
			for _, m := range matches {
				if c.pattern[m] == nil {
					c.pattern[m] = en
				}
			}
		}
	}
	return c
}

// wildcardTemplate is a path or glob template as a glob: its variables become "*", a path's
// glob characters are escaped.
func wildcardTemplate(t string, isGlob bool) string {
	var b strings.Builder
	last := 0
	literal := func(s string) {
		for _, r := range s {
			if !isGlob && strings.ContainsRune(`*?[]{}\`, r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
	}
	for _, m := range tokenPattern.FindAllStringIndex(t, -1) {
		literal(t[last:m[0]])
		b.WriteByte('*')
		last = m[1]
	}
	literal(t[last:])
	return b.String()
}

// level is the level a file goes to, nil when none reads its extension.
func (c claims) level(path string, levels []*entry) *entry {
	if en := c.literal[path]; en != nil {
		return en
	}
	if en := c.pattern[path]; en != nil {
		return en
	}
	for d := filepath.Dir(path); len(c.under) > 0 && d != filepath.Dir(d); d = filepath.Dir(d) {
		if en := c.under[d]; en != nil {
			return en
		}
	}
	ext := strings.ToLower(filepath.Ext(path))
	for _, en := range levels {
		if en.Function.Custom {
			continue
		}
		if slices.Contains(dataFileExtensions[en.Function.Name], ext) {
			return en
		}
		for _, t := range en.Locs {
			if strings.ToLower(filepath.Ext(t)) == ext && ext != "" {
				return en
			}
		}
	}
	return nil
}
