// Where a lookup that found nothing looked, for "not found" diagnostics.
package hiera

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/hieraconfig"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Miss says where a lookup that found nothing looked (Engine.ExplainMiss): enough for a user to
// see a data file in the wrong place, a typo in the key, or a key whose root exists.
type Miss struct {
	// KeyRoot is the root key looked for (the key itself, or a dotted key's first segment).
	KeyRoot string
	// Files are the data files the key's hierarchies name for the node, in the order the lookup
	// searches them (a module's default_hierarchy last); at most maxMissFiles, FileCount counts all.
	Files     []MissFile
	FileCount int
	// Root is set for a dotted key whose root key has a value: where it came from and what the rest
	// of the key did not find.
	Root *MissRoot
	// Suggestions are root keys of the files the node reaches that are close to the key's root
	// ("did you mean"), nearest first. Root keys are written in the files as they are, never
	// decrypted or interpolated, so they hold no secret.
	Suggestions []string
	// Notes are other reasons the key may be missing (a module with data but no hiera.yaml).
	Notes []string

	compared int // candidate keys compared for the suggestions, bounded by maxSuggestionKeys
}

// MissFile is one data file a lookup looked in.
type MissFile struct {
	Source
	Exists bool // the file exists
	HasKey bool // and holds the key's root
}

// MissRoot is the root key of a dotted key that was found although the whole key was not.
type MissRoot struct {
	Key     string
	Sources []Source // the files that gave it its value, as Result.Sources
	// Missing says, as a sentence, what the rest of the key did not find ("ntp::servers is an
	// array of 3 elements: it has no index 5"); details are withheld when the value is secret.
	Missing string
}

// maxMissFiles bounds Miss.Files: globs can name any number of files.
const maxMissFiles = 1000

// ExplainMiss tells where req's lookup looked when it found nothing: every data file of the key's
// layers in search order, whether it exists and has the key's root, the nearest existing keys,
// and, for a dotted key whose root was found, what is missing. It is meant for the error path of a
// lookup that returned Found false; the answers are those of the lookup it explains.
func (e *Engine) ExplainMiss(ctx context.Context, req Request) (miss Miss, err error) {
	defer func() {
		if r := recover(); r != nil {
			miss, err = Miss{}, internalError(r, req.Key)
		}
	}()
	key := req.Key
	if key == "" && len(req.Keys) > 0 {
		key = req.Keys[0]
	}
	req.Explain = false
	inv, err := e.start(ctx, req)
	if err != nil {
		return Miss{}, err
	}
	root, segs := key, []any{key}
	if !plainKey(key) {
		if segs, err = parseKey(key); err != nil {
			return Miss{}, err
		}
		root = keyRoot(segs)
	}
	layers, err := inv.layersFor(root)
	if err != nil {
		return Miss{}, err
	}
	miss.KeyRoot = root
	near := newNearKeys(root)
	rootFound := false
	for _, l := range layers {
		if l.cfg == nil {
			miss.Notes = append(miss.Notes, inv.engine.moduleNote(l, root)...)
			continue
		}
		if err := inv.missFiles(l, root, &miss, near); err != nil {
			return Miss{}, err
		}
	}
	for _, f := range miss.Files {
		rootFound = rootFound || f.HasKey
	}
	miss.compared = near.compared
	if !rootFound {
		miss.Suggestions = near.best()
		return miss, nil
	}
	if len(segs) > 1 {
		miss.Root = inv.missingPart(root, segs, key, req)
	}
	return miss, nil
}

// missFiles adds the data files of layer l to m, and their keys to the candidates near the root.
func (inv *invocation) missFiles(l *layer, root string, m *Miss, near *nearKeys) error {
	prefix := ""
	if l.place == hieraconfig.Module {
		prefix = l.module + "::" // a module answers only its own keys
	}
	return inv.eachDataFile(l, func(e *entry, loc location, df *dataFile) bool {
		f := MissFile{Source: Source{Layer: layerName(l.place), Module: l.module, Level: e.Name, File: loc.path}, Exists: df != nil}
		if df != nil && df.err == nil {
			keys := df.keys()
			_, f.HasKey = keys.Get(root)
			keys.Each(func(k, _ any) bool {
				ks, isStr := k.(string)
				if !isStr || ks == "lookup_options" || !strings.HasPrefix(ks, prefix) {
					return true
				}
				return near.add(ks)
			})
		}
		m.FileCount++
		if len(m.Files) < maxMissFiles {
			m.Files = append(m.Files, f)
		}
		return true
	})
}

// moduleNote says why the module layer of a key's module contributed nothing, when that may
// surprise: the module is not in the modulepath, or has data but no hiera.yaml.
func (e *Engine) moduleNote(l *layer, root string) []string {
	name := moduleOf(root)
	if l.place != hieraconfig.Module || name == "" || name != l.module || !e.layered() {
		return nil
	}
	if l.confineTo == "" {
		return []string{fmt.Sprintf("No module %q is in the modulepath, so the module layer has no data for %q.", name, root)}
	}
	if note := moduleWithoutConfig(l); note != "" {
		return []string{note}
	}
	return nil
}

// moduleWithoutConfig says that module layer l has a data directory but no hiera.yaml ("" when
// not): Puppet reads none of that data, silently.
func moduleWithoutConfig(l *layer) string {
	if l.cfg != nil || l.confineTo == "" {
		return ""
	}
	if fi, err := os.Stat(filepath.Join(l.confineTo, "data")); err != nil || !fi.IsDir() {
		return ""
	}
	if _, err := os.Stat(filepath.Join(l.confineTo, "hiera.yaml")); err == nil {
		return "" // a hiera.yaml that Puppet ignores (version 3) has its own warning
	}
	return fmt.Sprintf("Module %q has a data directory (%s) but no hiera.yaml, so Puppet and this provider read none of its data: "+
		"a module's data needs a version 5 hiera.yaml in the module's directory.", l.module, filepath.Join(l.confineTo, "data"))
}

// missingPart looks the root of a dotted key up and says which part of the rest is missing.
func (inv *invocation) missingPart(root string, segs []any, key string, req Request) *MissRoot {
	v, found, err := inv.lookupTop(root, req.Merge, req.Function)
	if err != nil || !found {
		return nil
	}
	r := &MissRoot{Key: root, Sources: slices.Clone(inv.sources)}
	at := root
	for _, seg := range segs[1:] {
		segText := model.ToS(seg)
		child, ok, err := dig(v, []any{root, seg}, key)
		if err != nil {
			return nil
		}
		if !ok {
			if inv.secret() {
				r.Missing = fmt.Sprintf("%s has no %q (details withheld: the value is secret).", at, segText)
			} else {
				r.Missing = missingIn(at, v, seg)
			}
			return r
		}
		v, at = child, at+"."+segText
	}
	return nil // found after all (the lookup it explains did not find it: a default_hierarchy case)
}

// missingIn says that container, the value at path at, has no seg.
func missingIn(at string, container, seg any) string {
	switch c := container.(type) {
	case nil:
		return fmt.Sprintf("%s is null (~), so it has no %q.", at, model.ToS(seg))
	case []any:
		switch {
		case len(c) == 0:
			return fmt.Sprintf("%s is an empty array: it has no index %s.", at, model.ToS(seg))
		case isIndex(seg):
			return fmt.Sprintf("%s is an array of %d elements (indexes 0 to %d): it has no index %s.", at, len(c), len(c)-1, model.ToS(seg))
		}
	case *model.Hash:
		keys := make([]string, 0, min(c.Len(), 10))
		near := newNearKeys(model.ToS(seg))
		c.Each(func(k, _ any) bool {
			if len(keys) < cap(keys) {
				keys = append(keys, model.Inspect(k))
			}
			if ks, isStr := k.(string); isStr {
				near.add(ks)
			}
			return true
		})
		more := ""
		if c.Len() > len(keys) {
			more = fmt.Sprintf(" and %d more", c.Len()-len(keys))
		}
		msg := fmt.Sprintf("%s is a hash without the key %q (its keys: %s%s).", at, model.ToS(seg), strings.Join(keys, ", "), more)
		if c.Len() == 0 {
			msg = fmt.Sprintf("%s is an empty hash: it has no key %q.", at, model.ToS(seg))
		}
		if best := near.best(); len(best) > 0 {
			msg += fmt.Sprintf(" Did you mean %q?", best[0])
		}
		return msg
	}
	return fmt.Sprintf("%s has no %q.", at, model.ToS(seg))
}

func isIndex(seg any) bool {
	switch seg.(type) {
	case int64, *big.Int:
		return true
	}
	return false
}
