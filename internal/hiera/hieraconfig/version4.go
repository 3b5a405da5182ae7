package hieraconfig

import (
	"fmt"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

var (
	v4TopKeys   = []string{"version", "datadir", "hierarchy"}
	v4EntryKeys = []string{"backend", "name", "datadir", "path", "paths"}
)

// parseV4 converts a version 4 hiera.yaml (allowed in the environment and module layers only) into
// entries as Puppet's HieraConfigV4 does: a level reads paths, else [path], else [name], each with
// the backend's extension added when missing.
func (c *Config) parseV4(top *model.Hash, lines map[*model.Hash]int) error {
	for _, k := range top.Keys() {
		if !contains(v4TopKeys, k) {
			return c.typeError(fmt.Sprintf("unrecognized key '%s'", model.ToS(k)))
		}
	}
	datadir := "data"
	if v, ok := top.Get("datadir"); ok {
		s, isStr := v.(string)
		if !isStr || s == "" {
			return c.typeError("entry 'datadir' expects a String[1] value, got " + model.TypeName(v))
		}
		datadir = s
	}
	hier := []any{map2hash("name", "common", "backend", "yaml")}
	if h, ok := top.Get("hierarchy"); ok {
		list, isList := h.([]any)
		if !isList {
			return c.typeError("entry 'hierarchy' expects an Array value, got " + model.TypeName(h))
		}
		hier = list
	}
	seen := map[string]int{}
	for i, raw := range hier {
		e, err := c.parseV4Entry(i, raw, datadir, lines)
		if err != nil {
			return err
		}
		if first, dup := seen[e.Name]; dup {
			return c.errAt(e.Line, "Hierarchy name '%s' defined more than once. First defined at (line: %d)", e.Name, first)
		}
		seen[e.Name] = e.Line
		c.Entries = append(c.Entries, e)
	}
	return nil
}

func (c *Config) parseV4Entry(i int, raw any, datadir string, lines map[*model.Hash]int) (*Entry, error) {
	at := fmt.Sprintf("entry 'hierarchy' index %d", i)
	h, ok := raw.(*model.Hash)
	if !ok {
		return nil, c.typeError(at + " expects a Hash value, got " + model.TypeName(raw))
	}
	for _, k := range h.Keys() {
		if !contains(v4EntryKeys, k) {
			return nil, c.typeError(fmt.Sprintf("%s unrecognized key '%s'", at, model.ToS(k)))
		}
	}
	str := func(k string, required bool) (string, error) {
		v, ok := h.Get(k)
		if !ok {
			if required {
				return "", c.typeError(fmt.Sprintf("%s expects a value for key '%s'", at, k))
			}
			return "", nil
		}
		if s, isStr := v.(string); isStr && s != "" {
			return s, nil
		}
		return "", c.typeError(fmt.Sprintf("%s entry '%s' expects a String[1] value, got %s", at, k, model.TypeName(v)))
	}
	e := &Entry{Line: lines[h], LocKind: "paths", Datadir: datadir}
	var backend, path, dir string
	var err error
	if e.Name, err = str("name", true); err != nil {
		return nil, err
	}
	if backend, err = str("backend", true); err != nil {
		return nil, err
	}
	if path, err = str("path", false); err != nil {
		return nil, err
	}
	if dir, err = str("datadir", false); err != nil {
		return nil, err
	}
	if dir != "" {
		e.Datadir = dir
	}
	// Puppet's version 4 backends are its data_hash functions named <backend>_data
	switch e.Function = FunctionNamed(backend + "_data"); {
	case e.Function == nil || e.Function.Kind != "data_hash":
		return nil, c.entryErr(e, datafile.SourceLine(c.src, "hierarchy", i, "backend"), "No data provider is registered for backend '%s'", backend)
	case e.Function.Refusal != "":
		return nil, c.entryErr(e, e.Line, "Hierarchy entry '%s' uses backend '%s', %s", e.Name, backend, e.Function.Refusal)
	}
	switch v, ok := h.Get("paths"); {
	case ok:
		list, isList := v.([]any)
		if !isList {
			return nil, c.typeError(fmt.Sprintf("%s entry 'paths' expects an Array value, got %s", at, model.TypeName(v)))
		}
		for j, el := range list {
			s, isStr := el.(string)
			if !isStr || s == "" {
				return nil, c.typeError(fmt.Sprintf("%s entry 'paths' index %d expects a String[1] value, got %s", at, j, model.TypeName(el)))
			}
			e.Locs = append(e.Locs, s)
		}
	case path != "":
		e.Locs = []string{path}
	default:
		e.Locs = []string{e.Name}
	}
	ext := "." + backend
	for j, l := range e.Locs {
		if !strings.HasSuffix(l, ext) {
			e.Locs[j] = l + ext
		}
	}
	return e, nil
}
