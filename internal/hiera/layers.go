package hiera

// Puppet's three layers: the global hiera.yaml, the environment's and the modules'.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/hieraconfig"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Layers says where the environment and module layers come from, as `puppet lookup --environment`
// finds them.
type Layers struct {
	// Environment is a Puppet environment directory: its hiera.yaml is the environment layer, its
	// name is %{environment}, its environment.conf modulepath names the module directories. "" for none.
	Environment string
	// EnvironmentName is %{environment}, "" for the Environment directory's name (an r10k control
	// repository, which is the environment, is checked out under any name).
	EnvironmentName string
	// Modulepath lists directories whose subdirectories are modules, the first holding a module of a
	// name winning. nil: the environment's environment.conf modulepath, else <Environment>/modules.
	Modulepath []string
	// DefaultConfig reads a global hiera.yaml that does not exist as Puppet does: Puppet's default
	// configuration (version 5, one level: data/common.yaml beside where the file would be), with a
	// warning. Without it, such a file is ErrConfigNotFound (a path nobody chose, as the provider's
	// default hiera.yaml, must not silently find nothing).
	DefaultConfig bool
	// IgnoreFunctions names custom data functions (ones the engine does not provide) whose levels
	// hold no data, as the user asks knowing they hold nothing needed here; every lookup of a
	// hierarchy with such levels warns so.
	IgnoreFunctions []string
}

// config is a hiera.yaml as the engine holds it: as read, with the locations its levels resolved to.
type config struct {
	*hieraconfig.Config
	locCache sync.Map // locationKey -> []location, for this version of the file
	// customWarnings are every lookup's warnings about the levels of custom functions (customlevels.go)
	customWarnings []string
}

// entry is one hierarchy level, as hiera.yaml gives it.
type entry = hieraconfig.Entry

// layer is one data provider of a lookup. cfg is nil when the layer contributes nothing (no
// environment, no module of the key's name, a module without hiera.yaml).
type layer struct {
	place  hieraconfig.Place
	module string // the module's name, for the module layer
	cfg    *config
	// confineTo, when set, is the directory every file of the layer must be in (a module's own
	// directory: modules are third-party code).
	confineTo string
}

// name is the data provider's name in Puppet's explain output.
func (l *layer) name() string {
	n := l.place.String() + " "
	if l.place == hieraconfig.Module {
		n += fmt.Sprintf("%q ", l.module)
	}
	return n + fmt.Sprintf("Data Provider (hiera configuration version %d)", l.cfg.Version)
}

// NewLayeredEngine returns an engine answering from Puppet's three layers: the global hiera.yaml at
// configPath ("" for none), the environment and the modules that layers names.
func NewLayeredEngine(configPath string, layers Layers) *Engine {
	e := &Engine{now: time.Now}
	if configPath != "" {
		e.configPath = absPath(configPath)
	}
	if layers.Environment != "" {
		layers.Environment = absPath(layers.Environment)
		e.envName = filepath.Base(layers.Environment)
		if layers.EnvironmentName != "" {
			e.envName = layers.EnvironmentName
		}
		e.envConfig = filepath.Join(layers.Environment, "hiera.yaml")
	}
	if layers.Modulepath != nil {
		mp := make([]string, len(layers.Modulepath))
		for i, d := range layers.Modulepath {
			mp[i] = absPath(d)
		}
		layers.Modulepath = mp
	}
	e.layers = layers
	return e
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// layered reports whether the engine has more than the global layer.
func (e *Engine) layered() bool { return e.layers.Environment != "" || e.layers.Modulepath != nil }

// configKey names a hiera.yaml as read for one place.
type configKey struct {
	path  string
	place hieraconfig.Place
}

// configSlot holds the current parse of one hiera.yaml.
type configSlot struct {
	mu     sync.Mutex
	loaded bool
	stamp  fileStamp
	fresh  time.Time // the parse (or the file's absence) is trusted without a stat until then
	absent bool
	cfg    *config
	err    error
}

// configAt returns the hiera.yaml at path parsed for a place, re-reading it when it changed on disk.
// A missing file is nil without error: only the global layer's hiera.yaml must exist.
func (e *Engine) configAt(path string, p hieraconfig.Place) (*config, error) {
	now := e.now()
	slot := e.configSlot(configKey{path: path, place: p})
	slot.mu.Lock()
	defer slot.mu.Unlock()
	if slot.loaded && now.Before(slot.fresh) {
		if slot.absent {
			return nil, nil
		}
		return slot.cfg, slot.err
	}
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			slot.loaded, slot.absent, slot.fresh = true, true, now.Add(StampCheckInterval)
			return nil, nil
		}
		return nil, &model.Error{Message: "cannot read hiera.yaml: " + err.Error(), File: path, Err: err}
	}
	if fi.IsDir() {
		return nil, &model.Error{Message: fmt.Sprintf("hiera.yaml path %s is a directory, not a file", path), File: path}
	}
	stamp := stampOf(fi)
	slot.fresh = now.Add(StampCheckInterval)
	if slot.loaded && !slot.absent && slot.stamp == stamp {
		return slot.cfg, slot.err
	}
	data, err := readLimited(path)
	if err != nil {
		slot.loaded = false
		return nil, &model.Error{Message: "cannot read hiera.yaml: " + err.Error(), File: path, Err: err}
	}
	slot.cfg, slot.err = parseConfig(path, data, p)
	if slot.cfg != nil {
		slot.cfg.customWarnings = e.customLevelsWarnings(slot.cfg)
	}
	slot.stamp, slot.loaded, slot.absent = stamp, true, false
	return slot.cfg, slot.err
}

// parseConfig validates a hiera.yaml's text (hieraconfig.Parse) for the engine to hold.
func parseConfig(path string, data []byte, p hieraconfig.Place) (*config, error) {
	c, err := hieraconfig.Parse(path, data, p)
	if c == nil {
		return nil, err
	}
	return &config{Config: c}, err
}

// configSlot returns the slot of a hiera.yaml, made on first use.
func (e *Engine) configSlot(key configKey) *configSlot {
	e.configs.RLock()
	slot := e.configs.m[key]
	e.configs.RUnlock()
	if slot != nil {
		return slot
	}
	e.configs.Lock()
	defer e.configs.Unlock()
	if slot = e.configs.m[key]; slot == nil {
		if e.configs.m == nil {
			e.configs.m = map[configKey]*configSlot{}
		}
		slot = &configSlot{}
		e.configs.m[key] = slot
	}
	return slot
}

// globalConfig is the global layer's hiera.yaml, which must exist when the engine names one unless
// the engine takes Puppet's default configuration for a missing file (Layers.DefaultConfig); then
// warning says so.
func (e *Engine) globalConfig() (cfg *config, warning string, err error) {
	if e.configPath == "" {
		return nil, "", nil
	}
	cfg, err = e.configAt(e.configPath, hieraconfig.Global)
	switch {
	case err != nil || cfg != nil:
		return cfg, "", err
	case !e.layers.DefaultConfig:
		return nil, "", &model.Error{Message: fmt.Sprintf("hiera.yaml not found: no file at %s", e.configPath), File: e.configPath, Err: ErrConfigNotFound, ValueFree: true}
	}
	// Puppet's lookup adapter reads a missing global hiera.yaml as the default version 5
	// configuration, its datadir beside where the file would be.
	e.globalDefault.once.Do(func() {
		e.globalDefault.cfg, e.globalDefault.err = parseConfig(e.configPath, []byte("version: 5\n"), hieraconfig.Global)
	})
	return e.globalDefault.cfg, fmt.Sprintf("There is no hiera.yaml at %s: as Puppet does, the global layer is Puppet's default "+
		"configuration, one level reading %s", e.configPath, filepath.Join(filepath.Dir(e.configPath), "data", "common.yaml")), e.globalDefault.err
}

// envDataProvider is the environment layer's configuration when the environment has no version 5
// hiera.yaml (cfg: its version 4 one, or nil), as Puppet's lookup adapter (initialize_env_provider)
// reads environment.conf's deprecated environment_data_provider: none unsets the layer; "hiera"
// keeps cfg, or gives the default version 5 configuration (data/common.yaml in the environment);
// "function" would run the environment's Puppet function environment::data (refused: the engine
// runs no code); any other name is Puppet's error. Without the setting, cfg.
func (e *Engine) envDataProvider(cfg *config) (*config, error) {
	conf, err := e.environmentConf()
	switch {
	case err != nil || conf.dataProvider == "": // a broken environment.conf fails where its modulepath is read
		return cfg, nil //nolint:nilerr
	case conf.dataProvider == "none":
		return nil, nil
	case cfg != nil && conf.dataProvider == "hiera":
		return cfg, nil
	}
	confPath := filepath.Join(e.layers.Environment, "environment.conf")
	switch conf.dataProvider {
	case "hiera":
		e.envDefault.once.Do(func() {
			e.envDefault.cfg, e.envDefault.err = parseConfig(e.envConfig, []byte("version: 5\n"), hieraconfig.Environment)
		})
		return e.envDefault.cfg, e.envDefault.err
	case "function":
		return nil, &model.Error{Message: "environment_data_provider = function reads the environment's data from its Puppet function environment::data, which this provider does not run (give the environment a hiera.yaml)", File: confPath, ValueFree: true}
	}
	return nil, &model.Error{Message: fmt.Sprintf("Environment '%s', cannot find environment_data_provider '%s'", e.envName, conf.dataProvider), File: confPath, ValueFree: true}
}

// baseLayers sets global and env to the global and environment layers, the same for every key.
func (e *Engine) baseLayers(global, env *layer) (warnings []string, err error) {
	*global, *env = layer{place: hieraconfig.Global}, layer{place: hieraconfig.Environment}
	var missing string
	if global.cfg, missing, err = e.globalConfig(); err != nil {
		return nil, err
	}
	switch {
	case missing != "":
		warnings = append(warnings, missing)
	case global.cfg != nil && global.cfg.Ignored != "":
		warnings = append(warnings, global.cfg.Ignored)
		global.cfg = nil
	}
	if e.envConfig != "" {
		if env.cfg, err = e.configAt(e.envConfig, hieraconfig.Environment); err != nil {
			return nil, err
		}
		if env.cfg == nil || env.cfg.Version < 5 {
			if env.cfg, err = e.envDataProvider(env.cfg); err != nil {
				return nil, err
			}
		}
	}
	if env.cfg != nil && env.cfg.Ignored != "" {
		warnings = append(warnings, env.cfg.Ignored)
		env.cfg = nil
	}
	for _, l := range []*layer{global, env} {
		if l.cfg != nil {
			warnings = append(warnings, l.cfg.customWarnings...)
		}
	}
	return warnings, nil
}

// moduleLayer is the layer of module name: nil cfg when no module of that name exists or it has no
// hiera.yaml.
func (e *Engine) moduleLayer(name string) (*layer, []string, error) {
	l := &layer{place: hieraconfig.Module, module: name}
	dir, warnings, err := e.moduleDir(name)
	if err != nil || dir == "" {
		return l, warnings, err
	}
	l.confineTo = dir
	if l.cfg, err = e.configAt(filepath.Join(dir, "hiera.yaml"), hieraconfig.Module); err != nil {
		return nil, warnings, err
	}
	if l.cfg != nil && l.cfg.Ignored != "" {
		warnings = append(warnings, l.cfg.Ignored)
		l.cfg = nil
	}
	if l.cfg != nil {
		warnings = append(warnings, l.cfg.customWarnings...)
	}
	return l, warnings, nil
}

// Module is a module of the modulepath: its name and its directory.
type Module struct{ Name, Dir string }

// Modules lists the modules of the modulepath in name order, each once (the first directory
// holding a module of a name wins, as for data); directories whose names Puppet does not take
// for modules are left out. The warnings are the environment.conf's.
func (e *Engine) Modules() ([]Module, []string, error) {
	dirs, warnings, err := e.modulepath()
	if err != nil {
		return nil, warnings, err
	}
	seen := map[string]bool{}
	var mods []Module
	for _, d := range dirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue // Puppet skips a modulepath entry that is not a directory
		}
		for _, ent := range entries {
			name := ent.Name()
			if seen[name] || !moduleNamePattern.MatchString(name) {
				continue
			}
			if fi, err := os.Stat(filepath.Join(d, name)); err == nil && fi.IsDir() {
				seen[name] = true
				mods = append(mods, Module{Name: name, Dir: filepath.Join(d, name)})
			}
		}
	}
	sort.Slice(mods, func(i, j int) bool { return mods[i].Name < mods[j].Name })
	return mods, warnings, nil
}

// EnvironmentDir is the environment's directory, "" when the engine has none.
func (e *Engine) EnvironmentDir() string { return e.layers.Environment }

// moduleNamePattern is Puppet's rule for a directory to be a module (Puppet::Module.is_module_directory_name?).
var moduleNamePattern = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// moduleDir finds module name in the modulepath: the first directory holding it wins. What it
// found is trusted for StampCheckInterval, as files are.
func (e *Engine) moduleDir(name string) (string, []string, error) {
	if !moduleNamePattern.MatchString(name) {
		return "", nil, nil
	}
	dirs, warnings, err := e.modulepath()
	if err != nil {
		return "", warnings, err
	}
	now := e.now().UnixNano()
	if seen, ok := e.modules.get(name); ok && now < seen.until && slices.Equal(seen.modulepath, dirs) {
		return seen.dir, warnings, nil
	}
	seen := moduleSeen{modulepath: dirs, until: now + int64(StampCheckInterval)}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			seen.dir = p
			break
		}
	}
	e.modules.put(name, seen)
	return seen.dir, warnings, nil
}

// moduleCache remembers where modules were found (or not), by name. Names come from keys: the
// cache is bounded, and starts over when full.
type moduleCache struct {
	mu      sync.RWMutex
	entries map[string]moduleSeen
}

// moduleSeen is a module's directory ("" for none) in a modulepath, trusted until the given time.
type moduleSeen struct {
	modulepath []string
	dir        string
	until      int64
}

const maxCachedModules = 1 << 12

func (c *moduleCache) get(name string) (moduleSeen, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	seen, ok := c.entries[name]
	return seen, ok
}

func (c *moduleCache) put(name string, seen moduleSeen) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxCachedModules {
		c.entries = map[string]moduleSeen{}
	}
	c.entries[name] = seen
}

// modulepath is the module directories: the engine's Modulepath, else the environment.conf
// modulepath, else <environment>/modules.
func (e *Engine) modulepath() ([]string, []string, error) {
	if e.layers.Modulepath != nil {
		return e.layers.Modulepath, nil, nil
	}
	if e.layers.Environment == "" {
		return nil, nil, nil
	}
	conf, err := e.environmentConf()
	if err != nil {
		return nil, nil, err
	}
	if conf.modulepath == nil {
		return []string{filepath.Join(e.layers.Environment, "modules")}, nil, nil
	}
	return conf.modulepath, conf.warnings, nil
}

// moduleOf is the module a key's root belongs to, as Puppet's LookupKey computes it: the text
// before the first "::" ("" for none; a root starting with "::" names no module directory).
func moduleOf(root string) string {
	i := strings.Index(root, "::")
	switch {
	case i < 0:
		return ""
	case i == 0:
		return root // Ruby's root[0..-1]: the whole key, never a module's name
	}
	return root[:i]
}

// layersFor are the layers a root key is searched in: global, environment and its module's.
func (inv *invocation) layersFor(root string) ([]*layer, error) {
	ml, err := inv.moduleLayer(moduleOf(root))
	if err != nil {
		return nil, err
	}
	return []*layer{inv.global, inv.env, ml}, nil
}

// noModule is the module layer of a key that names no module.
var noModule = &layer{place: hieraconfig.Module}

// moduleLayer returns the layer of module name, once per invocation.
func (inv *invocation) moduleLayer(name string) (*layer, error) {
	if name == "" || !inv.engine.layered() { // no modules without an environment or a modulepath
		return noModule, nil
	}
	if l, ok := inv.modules[name]; ok {
		return l, nil
	}
	l, warnings, err := inv.engine.moduleLayer(name)
	for _, w := range warnings {
		inv.warn(w)
	}
	if err != nil {
		return nil, err
	}
	if inv.modules == nil {
		inv.modules = map[string]*layer{}
	}
	inv.modules[name] = l
	return l, nil
}
