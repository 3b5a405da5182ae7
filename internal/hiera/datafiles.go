package hiera

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// DataFile is a file found under a hierarchy level's datadir, with the level that reads it.
type DataFile struct {
	Source
	fn *dataFunction
}

// maxListedDataFiles bounds DataFiles: a control repository has hundreds, a large site thousands.
const maxListedDataFiles = 1 << 17

// dataFileExtensions are the file names each data function reads under a datadir.
var dataFileExtensions = map[string][]string{
	"yaml_data":        {".yaml", ".yml"},
	"json_data":        {".json"},
	"hocon_data":       {".conf"},
	"eyaml_lookup_key": {".eyaml", ".yaml", ".yml"},
}

// DataFiles lists every file under the datadir of every level (default_hierarchy included) of
// every layer, global, environment and each module of the modulepath, whose name its level's data
// function reads (.yaml and .yml, .json, .conf, .eyaml), each once, with the first level that
// reaches it: the data files a check of a control repository reads whatever the node. A datadir
// that interpolates a variable cannot be listed without a node: it is skipped with a warning.
func (e *Engine) DataFiles(ctx context.Context) (files []DataFile, warnings []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = internalError(r, "")
		}
	}()
	inv, err := e.start(ctx, Request{})
	if err != nil {
		return nil, nil, err
	}
	warnings = slices.Clone(inv.warnings)
	names, w, err := e.moduleNames()
	warnings = append(warnings, w...)
	if err != nil {
		return nil, warnings, err
	}
	layers := []*layer{inv.global, inv.env}
	for _, name := range names {
		l, w, err := e.moduleLayer(name)
		warnings = append(warnings, w...)
		if err != nil {
			return nil, warnings, err
		}
		layers = append(layers, l)
	}
	seen := map[string]bool{}
	for _, l := range layers {
		if l.cfg == nil {
			continue
		}
		for _, entry := range slices.Concat(l.cfg.entries, l.cfg.defaultEntries) {
			var exts []string
			if entry.fn != nil {
				exts = dataFileExtensions[entry.fn.name]
			}
			if len(exts) == 0 || strings.HasPrefix(entry.locKind, "uri") {
				continue // a function that reads no files, or one the engine refuses
			}
			if strings.Contains(entry.datadir, "%{") {
				warnings = append(warnings, fmt.Sprintf("%s, level %q: the datadir %q depends on the node; give facts to check its files",
					l.cfg.path, entry.name, entry.datadir))
				continue
			}
			dir := joinPath(l.cfg.dir, entry.datadir)
			src := Source{Layer: l.place.layerName(), Module: l.module, Level: entry.name}
			err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !slices.Contains(exts, strings.ToLower(filepath.Ext(path))) || seen[path] {
					return nil // an unreadable or missing directory holds no data, as for a lookup
				}
				if len(files) >= maxListedDataFiles {
					return fmt.Errorf("more than %d data files under %s", maxListedDataFiles, dir)
				}
				seen[path] = true
				f := DataFile{Source: src, fn: entry.fn}
				f.File = path
				files = append(files, f)
				return ctx.Err()
			})
			if err != nil {
				return nil, warnings, err
			}
		}
	}
	return files, warnings, nil
}

// CheckDataFile reads a data file listed by DataFiles as its level's function reads it and returns
// the first problem a lookup reaching it would meet, as an *Error naming file, line and level: a
// file that does not parse, lookup_options that are not a hash, a module's lookup_options for
// keys not its own, a key's options that are not a hash or hold a merge Puppet rejects. Values
// are not interpolated: that takes a node (see Engine.LookupNode).
func (e *Engine) CheckDataFile(f DataFile) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = internalError(r, "")
		}
	}()
	df, exists, _ := e.dataFor(f.File, f.fn)
	if !exists {
		return nil
	}
	if df.err != nil {
		return withLevel(df.err, f.Level)
	}
	v, found, _, err := df.value("lookup_options")
	switch {
	case err != nil:
		return withLevel(err, f.Level)
	case !found:
		return nil
	}
	optionsError := func(err error, path ...any) error {
		me, ok := err.(*model.Error)
		if !ok {
			return withLevel(err, f.Level)
		}
		c := *me
		c.File, c.Level, c.Key = f.File, f.Level, "lookup_options"
		if text, rerr := boundedfile.Read(f.File, maxDataFileSize); rerr == nil && c.Line == 0 {
			c.Line = sourceLine(text, path...)
		}
		return &c
	}
	h, err := checkLayerOptions(v, f.Module)
	switch {
	case err != nil:
		return optionsError(err, "lookup_options")
	case h == nil:
		return nil
	}
	h.Each(func(k, entry any) bool {
		if _, perr := parseKeyOptions(model.ToS(k), entry); perr != nil {
			err = optionsError(perr, "lookup_options", model.ToS(k))
		}
		return err == nil
	})
	return err
}
