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
	config  string         // the provider's hiera.yaml, possibly relative to the working directory
	facts   map[string]any // the provider's facts, nil when unset
	scope   map[string]any
	// unknown is set when a provider argument is not known yet (it depends on something computed
	// at apply time), so no lookup can be answered during this plan.
	unknown bool
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
