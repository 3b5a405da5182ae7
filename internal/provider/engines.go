// What the provider hands its data sources: the configured facts and scope, and one engine per hiera.yaml.
package provider

import (
	"fmt"
	"path/filepath"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// defaultConfig is used when neither the provider nor the data source names a hiera.yaml.
const defaultConfig = "hiera.yaml"

// providerData is what the provider hands to its data sources after Configure.
type providerData struct {
	engines *engineCache
	config  string    // the provider's hiera.yaml, possibly relative to the working directory
	facts   engineArg // the provider's facts
	scope   engineArg
	// unknown is set when a provider argument is not known yet (it depends on something computed
	// at apply time), so no lookup can be answered during this plan.
	unknown bool
}

// engineArg is the provider's facts or scope, converted for the engine once per Configure rather
// than on every lookup.
type engineArg struct {
	top  map[string]any // top-level names to engine values, for merging a data source's own over
	hash *hiera.Hash    // the whole; nil when unset
}

func newEngineArg(given map[string]any) (engineArg, error) {
	if given == nil {
		return engineArg{}, nil
	}
	top := make(map[string]any, len(given))
	for k, v := range given {
		ev, err := hiera.FromGo(v)
		if err != nil {
			return engineArg{}, err
		}
		top[k] = ev
	}
	h, err := toHash(top)
	return engineArg{top: top, hash: h}, err
}

// with returns the argument with the top-level names of own (a data source's) replacing its own.
// Only own is converted: the provider's values are engine values already.
func (a engineArg) with(own map[string]any) (*hiera.Hash, error) {
	if own == nil {
		return a.hash, nil
	}
	return toHash(mergeOver(a.top, own))
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

// engineCache keeps one engine per hiera.yaml, so every data source naming the same file shares
// its parsed configuration and data files instead of reading them again.
type engineCache struct {
	mu      sync.Mutex
	engines map[string]*hiera.Engine
}

func newEngineCache() *engineCache {
	return &engineCache{engines: map[string]*hiera.Engine{}}
}

// get returns the engine for configPath, which is made absolute against the working directory
// (Terraform's, since it starts the provider there) so that two spellings of one file share it.
func (c *engineCache) get(configPath string) (*hiera.Engine, error) {
	abs, err := filepath.Abs(configPath)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve the hiera.yaml path %q: %w", configPath, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.engines[abs]
	if !ok {
		e = hiera.NewEngine(abs)
		c.engines[abs] = e
	}
	return e, nil
}
