package hiera

// Where a result came from: the data files that gave it a value.

import "github.com/hieraform/terraform-provider-hiera/internal/hiera/hieraconfig"

// Source is a data file that gave a lookup's result a value (Result.Sources).
type Source struct {
	// Layer is "global", "environment" or "module".
	Layer string
	// Module is the module's name in the module layer, else "".
	Module string
	// Level is the hierarchy level's name, as hiera.yaml names it.
	Level string
	// File is the data file's absolute path (or the level's URI).
	File string
}

// layerName is a layer's name in a Source.
func layerName(p hieraconfig.Place) string {
	switch p {
	case hieraconfig.Environment:
		return "environment"
	case hieraconfig.Module:
		return "module"
	}
	return "global"
}

// noteSource records that the location loc of level e gave the root key being searched a value.
// The searches for lookup_options record nothing: they are not the key's value. A nested lookup
// (an interpolated lookup() or alias()) drops what it recorded when it ends (see keepSources).
func (inv *invocation) noteSource(e *entry, loc location, root string) {
	if root == "lookup_options" {
		return
	}
	inv.sources = append(inv.sources, Source{Layer: layerName(inv.layer.place), Module: inv.layer.module, Level: e.Name, File: loc.path})
}

// keepSources ends a key's lookup: the sources recorded since mark stay when the key is the
// request's own and was found, and are dropped otherwise (a key found nowhere, or a nested lookup,
// whose files gave the outer key no value of its own).
func (inv *invocation) keepSources(mark int, found, nested bool) {
	if !found || nested {
		inv.dropSources(mark)
	}
}

// dropSources drops the sources recorded since mark. The slice may be a cached result's, shared:
// its capacity goes too, so that the next source is appended to a copy.
func (inv *invocation) dropSources(mark int) { inv.sources = inv.sources[:mark:mark] }
