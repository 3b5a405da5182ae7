package provider

// What the provider hands its data sources: the configured facts and scope, and one engine per hiera.yaml.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// defaultConfig is used when neither the provider nor the data source names a hiera.yaml, an
// environment or a modulepath.
const defaultConfig = "hiera.yaml"

// providerData is what the provider hands to its data sources after Configure.
type providerData struct {
	engines    *engineCache
	factsFiles *factsFileCache // facts_file, read once per file (the provider's and the data sources')
	config     string          // the provider's hiera.yaml, possibly relative to the working directory; "" when unset
	// environment ("" when unset) and modulepath (nil when unset) are the provider's layers.
	environment string
	modulepath  []string
	// ignoreFunctions is ignore_functions: custom data functions whose levels hold no data
	ignoreFunctions []string
	facts           *model.Hash // the provider's facts (its facts_file's under them); nil when unset
	// factsFileMerge is facts_file_merge: a data source's facts_file merges over facts (else it
	// replaces them: the file names another node).
	factsFileMerge bool
	scope          *model.Hash
	eyaml          hiera.EyamlKeys // the provider's eyaml block
	// eyamlPublicKeyPEM is the eyaml block's public_key_pem: what hiera_data encrypts for.
	eyamlPublicKeyPEM string
	pitfalls          bool // pitfall_warnings: ask the engine for pitfalls and warn about them
	// explainPaths is the provider's explain_paths ("" for the default, absolute).
	explainPaths string
	// unknown is set when a provider argument is not known yet (it depends on something computed
	// at apply time), so no lookup can be answered during this plan.
	unknown bool
	scopes  scopeCache // data sources' facts and scope, converted (the direct server's reads)
	// puppetdb is the provider's puppetdb block; pdbNodes the nodes puppetdb_node read.
	puppetdb puppetdbSettings
	pdbNodes puppetdbNodes
}

// withOwn returns base (the provider's facts or scope, converted once per Configure) with the
// top-level names of file (a data source's facts_file) and then of own (its facts or scope)
// replacing its own, in that order. Only own is converted: the others are engine values already.
func withOwn(base, file *model.Hash, own map[string]any) (*model.Hash, error) {
	h := overlay(base, file)
	if own == nil {
		return h, nil
	}
	ownHash, err := toHash(own)
	return overlay(h, ownHash), err
}

// toProvider is the ProviderData type check every data source's Configure shares.
func toProvider(data any) (*providerData, diag.Diagnostics) {
	var diags diag.Diagnostics
	pd, ok := data.(*providerData)
	if !ok {
		diags.AddError("Unexpected Provider Data",
			fmt.Sprintf("Expected *providerData, got %T. This is a provider bug, please report it.", data))
	}
	return pd, diags
}

// engineCache keeps one engine per set of data sources (hiera.yaml, environment, modulepath), so
// every data source naming the same ones shares the parsed configuration and data files instead of
// reading them again.
type engineCache struct {
	params  classParamsCache // check_params: each engine's Puppet code, read once
	mu      sync.Mutex
	engines map[engineKey]*hiera.Engine
	envs    map[string]environmentSeen // environment directories as last looked at
	now     func() time.Time
}

// environmentSeen is why a path is not an environment directory ("" when it is), trusted until
// the given time.
type environmentSeen struct {
	problem string
	until   time.Time
}

// maxEnvironments bounds envs; full, it starts over.
const maxEnvironments = 1 << 10

// engineKey is a dataSources with its paths made absolute.
type engineKey struct {
	config, environment string
	modulepath          string // the directories joined with NUL
	hasModulepath       bool   // an empty modulepath (no modules) differs from none (the environment's)
	defaultConfig       bool   // hiera.Layers.DefaultConfig
	ignoreFunctions     string // hiera.Layers.IgnoreFunctions joined with NUL
}

func newEngineCache() *engineCache {
	return &engineCache{engines: map[engineKey]*hiera.Engine{}, envs: map[string]environmentSeen{}, now: time.Now}
}

// environmentProblem says why env is not a directory ("" when it is). Like the engine's files, it
// is looked at again only after hiera.StampCheckInterval.
func (c *engineCache) environmentProblem(env string) string {
	now := c.now()
	c.mu.Lock()
	seen, ok := c.envs[env]
	c.mu.Unlock()
	if ok && now.Before(seen.until) {
		return seen.problem
	}
	seen = environmentSeen{until: now.Add(hiera.StampCheckInterval)}
	switch fi, err := os.Stat(env); {
	case err != nil:
		seen.problem = err.Error()
		if near := hiera.NearestDirs(env); len(near) > 0 {
			seen.problem += fmt.Sprintf(" (did you mean %s?)", quoteList(near))
		}
	case !fi.IsDir():
		seen.problem = "it is a file"
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.envs) >= maxEnvironments {
		c.envs = map[string]environmentSeen{}
	}
	c.envs[env] = seen
	return seen.problem
}

// get returns the engine for src, whose paths are made absolute against the working directory
// (Terraform's, since it starts the provider there) so that two spellings of one file share it.
func (c *engineCache) get(src dataSources) (*hiera.Engine, error) {
	abs := func(p, what string) (string, error) {
		if p == "" {
			return "", nil
		}
		a, err := filepath.Abs(p)
		if err != nil {
			return "", fmt.Errorf("cannot resolve the %s path %q: %w", what, p, err)
		}
		return a, nil
	}
	var k engineKey
	var err error
	if k.config, err = abs(src.config, "hiera.yaml"); err != nil {
		return nil, err
	}
	if k.environment, err = abs(src.layers.Environment, "environment"); err != nil {
		return nil, err
	}
	k.defaultConfig = src.layers.DefaultConfig
	layers := hiera.Layers{Environment: k.environment, DefaultConfig: k.defaultConfig, IgnoreFunctions: src.layers.IgnoreFunctions}
	k.ignoreFunctions = strings.Join(src.layers.IgnoreFunctions, "\x00")
	if src.layers.Modulepath != nil {
		layers.Modulepath = make([]string, len(src.layers.Modulepath))
		for i, d := range src.layers.Modulepath {
			if layers.Modulepath[i], err = abs(d, "modulepath"); err != nil {
				return nil, err
			}
		}
		k.modulepath, k.hasModulepath = strings.Join(layers.Modulepath, "\x00"), true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.engines[k]
	if !ok {
		e = hiera.NewLayeredEngine(k.config, layers)
		c.engines[k] = e
	}
	return e, nil
}
