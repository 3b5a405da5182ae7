package hiera

// Which level could read a data file that may not exist yet: the provider's hiera_data checks that
// the file it is to write is one the hierarchy reads.

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// LevelReading is a level that reads a data file: where it is, and its data function's name
// (yaml_data, eyaml_lookup_key, ...).
type LevelReading struct {
	Source
	Function string
}

// LevelsReading are the levels, of every layer (global, environment, each module of the
// modulepath), whose data function reads the file at path (absolute) for some node, in search
// order: a level path (or glob, or mapped path) joined to its datadir, with each %{...} standing
// for any text, names it. None: no lookup ever reads the file. err is a hiera.yaml that does not
// validate.
func (e *Engine) LevelsReading(ctx context.Context, path string) (levels []LevelReading, err error) {
	defer func() {
		if r := recover(); r != nil {
			levels, err = nil, internalError(r, "")
		}
	}()
	inv, err := e.start(ctx, Request{})
	if err != nil {
		return nil, err
	}
	layers := []*layer{inv.global, inv.env}
	names, _, _ := e.moduleNames()
	for _, name := range names {
		if l, _, err := e.moduleLayer(name); err == nil {
			layers = append(layers, l)
		}
	}
	path = filepath.Clean(path)
	for _, l := range layers {
		if l == nil || l.cfg == nil {
			continue
		}
		for _, en := range slices.Concat(l.cfg.Entries, l.cfg.DefaultEntries) {
			if en.Function == nil || en.Function.Refusal != "" || en.Function.Custom || strings.HasPrefix(en.LocKind, "uri") || en.LocKind == "" {
				continue
			}
			if levelNames(en, joinPath(l.cfg.Dir, en.Datadir), path) {
				levels = append(levels, LevelReading{Source: Source{Layer: layerName(l.place), Module: l.module, Level: en.Name, File: path}, Function: en.Function.Name})
			}
		}
	}
	return levels, nil
}

// levelNames tells whether one of en's paths, under the datadir template dir, names path.
func levelNames(en *entry, dir, path string) bool {
	templates := en.Locs
	if en.LocKind == "mapped_paths" && len(en.Locs) == 3 {
		templates = en.Locs[2:]
	}
	isGlob := en.LocKind == "glob" || en.LocKind == "globs"
	for _, t := range templates {
		if templatePattern(joinPath(dir, t), isGlob).MatchString(path) {
			return true
		}
	}
	return false
}

// templatePattern is a path template as a regular expression: each %{...} any text, a glob's
// wildcards as Ruby's Dir.glob reads them (** any directories, * and ? within a name, {a,b}
// alternatives, [...] classes), everything else literal.
func templatePattern(t string, isGlob bool) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`\A`)
	for i := 0; i < len(t); i++ {
		if strings.HasPrefix(t[i:], "%{") {
			if j := strings.IndexByte(t[i:], '}'); j > 0 {
				b.WriteString(`.*`)
				i += j
				continue
			}
		}
		c := t[i]
		if isGlob {
			switch {
			case strings.HasPrefix(t[i:], "**/"):
				b.WriteString(`(?:.*/)?`)
				i += 2
				continue
			case c == '*':
				b.WriteString(`[^/]*`)
				continue
			case c == '?':
				b.WriteString(`[^/]`)
				continue
			case c == '{':
				b.WriteString(`(?:`)
				continue
			case c == '}':
				b.WriteString(`)`)
				continue
			case c == ',':
				b.WriteString(`|`)
				continue
			case c == '[':
				if j := strings.IndexByte(t[i:], ']'); j > 0 {
					b.WriteString(t[i : i+j+1])
					i += j
					continue
				}
			}
		}
		b.WriteString(regexp.QuoteMeta(string(c)))
	}
	b.WriteString(`\z`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return regexp.MustCompile(`\A` + regexp.QuoteMeta(t) + `\z`)
	}
	return re
}
