package hiera

// Levels served by data functions the engine does not provide: a module's or a site's own
// (wmflib::regex_data, a Vault or Consul backend). Puppet loads a level's function when a lookup
// first reaches the level with a location that exists (function_provider.rb, load_function), so a
// key found before it is answered. The engine runs no code: a lookup that reaches such a level
// fails naming it, unless the function is one the user named in Layers.IgnoreFunctions, whose
// levels then hold no data.
//
// Puppet reaches every level for lookup_options too, which it merges over the whole hierarchy
// before each lookup. What a custom function gives for the key "lookup_options" is unknown: the
// engine takes it as none, and says so in a warning on every lookup of such a hierarchy.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/hieraconfig"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// ErrCustomFunction is wrapped by the error of a lookup that reaches a level served by a custom
// function (errors.Is(err, ErrCustomFunction)): its answer is the function's, which the engine
// does not run.
var ErrCustomFunction = errors.New("custom data function")

// functionPlace is where Puppet would load a custom function from, as far as the engine sees.
type functionPlace struct {
	file    string // the function's file, when the engine found it
	missing bool   // no module or environment the engine reads has it: Puppet cannot load it
	// unseen says why the engine cannot tell (the function's module is not on the modulepath)
	unseen string
}

// findFunction looks for a function where Puppet's loaders look (loaders.rb): a qualified name in
// its module's functions/ (Puppet language) or lib/puppet/functions/ (Ruby), environment::name in
// the environment's lib/puppet/functions/environment/, an unqualified name in the Ruby functions of the environment and of every
// module (Puppet 4 API, or Puppet 3's parser/functions).
func (e *Engine) findFunction(name string) functionPlace {
	parts := strings.Split(name, "::")
	var candidates []string
	switch {
	case len(parts) == 1:
		var dirs []string
		if e.layers.Environment != "" {
			dirs = append(dirs, e.layers.Environment)
		}
		mods, _, _ := e.Modules()
		for _, m := range mods {
			dirs = append(dirs, m.Dir)
		}
		for _, d := range dirs {
			candidates = append(candidates, filepath.Join(d, "lib", "puppet", "functions", name+".rb"),
				filepath.Join(d, "lib", "puppet", "parser", "functions", name+".rb"))
		}
	case parts[0] == "environment":
		if e.layers.Environment != "" { // Ruby only: Puppet 7.23 finds no functions/*.pp there (asked)
			candidates = functionFiles(e.layers.Environment, parts)[1:]
		}
	default:
		dir, _, err := e.moduleDir(parts[0])
		if err != nil || dir == "" {
			unseen := fmt.Sprintf("no module %q is on the modulepath", parts[0])
			if !e.layered() {
				unseen = fmt.Sprintf("no modulepath is given to find module %q in", parts[0])
			}
			return functionPlace{unseen: unseen}
		}
		candidates = functionFiles(dir, parts)
	}
	for _, c := range candidates {
		if fi, err := os.Stat(c); err == nil && !fi.IsDir() {
			return functionPlace{file: c}
		}
	}
	return functionPlace{missing: true}
}

// functionFiles are the files of a qualified function in dir (a module's or the environment's):
// functions/<rest>.pp and lib/puppet/functions/<all parts>.rb.
func functionFiles(dir string, parts []string) []string {
	return []string{
		filepath.Join(dir, "functions", filepath.Join(parts[1:]...)+".pp"),
		filepath.Join(dir, "lib", "puppet", "functions", filepath.Join(parts...)+".rb"),
	}
}

// functionPlace is findFunction, once per invocation and function.
func (inv *invocation) functionPlace(name string) functionPlace {
	if p, ok := inv.customPlaces[name]; ok {
		return p
	}
	p := inv.engine.findFunction(name)
	if inv.customPlaces == nil {
		inv.customPlaces = map[string]functionPlace{}
	}
	inv.customPlaces[name] = p
	return p
}

// ignored reports whether the user asked for a function's levels to hold no data.
func (e *Engine) ignored(f *hieraconfig.Function) bool {
	return f.Custom && slices.Contains(e.layers.IgnoreFunctions, f.Name)
}

// customLevel is the search of root at a level served by a custom function: nothing found when
// the function's levels are ignored, when none of its locations exists (Puppet then never calls
// it), or, for lookup_options, when the function is one Puppet loads (its answer is unknown: taken
// as none). Otherwise the error of a lookup that reaches it: Puppet's when Puppet cannot load the
// function, else the engine's own, naming the level and the function.
func (inv *invocation) customLevel(e *entry, locs []location, root string) error {
	if inv.engine.ignored(e.Function) {
		inv.ex.customSkipped("Skipped: ignore_functions reads the levels of %s function '%s' as holding no data", e.Function.Kind, e.Function.Name)
		return nil
	}
	reached, done := inv.reaches(e, locs)
	defer done()
	if !reached {
		return nil
	}
	place := inv.functionPlace(e.Function.Name)
	if place.missing { // Puppet's error, which every lookup meets through lookup_options
		return &model.Error{Message: fmt.Sprintf("Unable to find '%s' function named '%s'", e.Function.Kind, e.Function.Name),
			File: inv.cfg.Path, Level: e.Name, OfConfig: true, ValueFree: true,
			Hint: "No module or environment this engine reads has it: give the modulepath that holds it, or name it in ignore_functions (--ignore-function) to read its levels as holding no data"}
	}
	if root == optionsKey || inv.probing {
		inv.ex.customSkipped("Skipped: %s function '%s' is custom code, which hieraform does not run (lookup_options it may hold are not applied)", e.Function.Kind, e.Function.Name)
		return nil
	}
	inv.ex.customSkipped("Skipped: %s function '%s' is custom code, which hieraform does not run: the lookup cannot be answered", e.Function.Kind, e.Function.Name)
	return customLevelError(e, place, inv.cfg.Path)
}

// customLevelError is the error of a lookup that reaches a level served by a custom function.
func customLevelError(e *entry, place functionPlace, configPath string) error {
	from := "found at " + place.file
	if place.file == "" {
		from = "not found: " + place.unseen
	}
	return &model.Error{
		Message: fmt.Sprintf("%s function '%s' (%s) gives this level's data: custom code, which hieraform does not run", e.Function.Kind, e.Function.Name, from),
		File:    configPath, Line: e.Line, Level: e.Name, Err: ErrCustomFunction, ValueFree: true, OfConfig: true,
		Hint: "Keys found in the levels before it are answered. To read its levels as holding no data, name it in ignore_functions (--ignore-function)",
	}
}

// reaches reports whether Puppet calls a level's function: with no location (the function reads
// its options), at a URI, or at a path that exists (a directory too: Pathname#exist?). done closes
// the explanation of the location reached.
func (inv *invocation) reaches(e *entry, locs []location) (reached bool, done func()) {
	if len(locs) == 0 {
		return e.LocKind == "", func() {}
	}
	for _, loc := range locs {
		inv.ex.enterLocation(loc.path, loc.original, loc.uri)
		if loc.uri {
			return true, inv.ex.leave
		}
		if _, exists, _ := inv.data(loc.path, e.Function); exists {
			return true, inv.ex.leave
		}
		inv.ex.pathNotFound()
		inv.ex.leave()
	}
	return false, func() {}
}

// customLevelsWarnings are the warnings of every lookup in a hierarchy with levels served by
// custom functions: which levels hold no data as asked (ignore_functions), which the engine cannot
// read (the lookups that reach them fail; their lookup_options are taken as none). A function
// Puppet cannot load has no warning: its error says it.
func (e *Engine) customLevelsWarnings(cfg *config) []string {
	var ignored, custom []string
	for _, en := range slices.Concat(cfg.Entries, cfg.DefaultEntries) {
		f := en.Function
		switch {
		case f == nil || !f.Custom:
		case e.ignored(f):
			ignored = append(ignored, fmt.Sprintf("%q (%s %s)", en.Name, f.Kind, f.Name))
		case !e.findFunction(f.Name).missing:
			custom = append(custom, fmt.Sprintf("%q (%s %s)", en.Name, f.Kind, f.Name))
		}
	}
	var warnings []string
	if len(ignored) > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: hierarchy levels read as holding no data, as ignore_functions asks: %s", cfg.Path, strings.Join(ignored, ", ")))
	}
	if len(custom) > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: hierarchy levels served by custom functions, which hieraform does not run: %s. "+
			"A lookup that reaches one fails; lookup_options they may hold are not applied (ignore_functions reads their levels as holding no data)", cfg.Path, strings.Join(custom, ", ")))
	}
	return warnings
}
