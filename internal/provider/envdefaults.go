package provider

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// The environment variables that give the provider's arguments a value when its configuration
// leaves them out, as most providers offer: a laptop and a CI runner point the same configuration
// at their own checkout, and a CI runner's secret store usually hands an eyaml key over that way.
// An empty variable counts as unset.
var providerEnv = []struct {
	name, attr string
	set        func(m *hieraProviderModel, value string)
}{
	{"HIERA_CONFIG", "config", stringArg(func(m *hieraProviderModel) *types.String { return &m.Config })},
	{"HIERA_ENVIRONMENT", "environment", stringArg(func(m *hieraProviderModel) *types.String { return &m.Environment })},
	// A list in one variable, as Puppet's modulepath setting: directories separated by ":" (";" on
	// Windows).
	{"HIERA_MODULEPATH", "modulepath", func(m *hieraProviderModel, v string) {
		if !m.Modulepath.IsNull() {
			return
		}
		var dirs []attr.Value
		for _, d := range filepath.SplitList(v) {
			if d != "" {
				dirs = append(dirs, types.StringValue(d))
			}
		}
		if dirs != nil {
			m.Modulepath = types.ListValueMust(types.StringType, dirs)
		}
	}},
	{"HIERA_EXPLAIN_PATHS", "explain_paths", stringArg(func(m *hieraProviderModel) *types.String { return &m.ExplainPaths })},
	// The eyaml block's attributes, attribute by attribute (the block itself need not be written).
	{hiera.EyamlKeyEnv.PrivateKeyPath, "eyaml.private_key_path", stringArg(func(m *hieraProviderModel) *types.String { return &m.eyamlBlock().PrivateKeyPath })},
	{hiera.EyamlKeyEnv.PublicKeyPath, "eyaml.public_key_path", stringArg(func(m *hieraProviderModel) *types.String { return &m.eyamlBlock().PublicKeyPath })},
	{hiera.EyamlKeyEnv.PrivateKeyPEM, "eyaml.private_key_pem", stringArg(func(m *hieraProviderModel) *types.String { return &m.eyamlBlock().PrivateKeyPEM })},
	{hiera.EyamlKeyEnv.PublicKeyPEM, "eyaml.public_key_pem", stringArg(func(m *hieraProviderModel) *types.String { return &m.eyamlBlock().PublicKeyPEM })},
	// The puppetdb block's, likewise; a path's variable gives way to the PEM text the block gives.
	{puppetdbEnv["url"], "puppetdb.url", stringArg(func(m *hieraProviderModel) *types.String { return &m.puppetdbBlock().URL })},
	{puppetdbEnv["token"], "puppetdb.token", stringArg(func(m *hieraProviderModel) *types.String { return &m.puppetdbBlock().Token })},
	{puppetdbEnv["cacert"], "puppetdb.cacert", puppetdbPathArg(func(b *providerPuppetDBModel) (*types.String, types.String) { return &b.CACert, b.CACertPEM })},
	{puppetdbEnv["cert"], "puppetdb.cert", puppetdbPathArg(func(b *providerPuppetDBModel) (*types.String, types.String) { return &b.Cert, b.CertPEM })},
	{puppetdbEnv["key"], "puppetdb.key", puppetdbPathArg(func(b *providerPuppetDBModel) (*types.String, types.String) { return &b.Key, b.KeyPEM })},
}

// puppetdbPathArg sets a puppetdb block path the configuration leaves out, unless it gives the PEM
// text in its place.
func puppetdbPathArg(field func(b *providerPuppetDBModel) (path *types.String, pem types.String)) func(m *hieraProviderModel, v string) {
	return func(m *hieraProviderModel, v string) {
		if p, pem := field(m.puppetdbBlock()); p.IsNull() && pem.IsNull() {
			*p = types.StringValue(v)
		}
	}
}

// puppetdbBlock is m's puppetdb block, an empty one (every attribute null) added when it has none.
func (m *hieraProviderModel) puppetdbBlock() *providerPuppetDBModel {
	if m.PuppetDB == nil {
		m.PuppetDB = &providerPuppetDBModel{}
	}
	return m.PuppetDB
}

// stringArg sets the string argument field gives when the configuration leaves it out (null).
func stringArg(field func(m *hieraProviderModel) *types.String) func(m *hieraProviderModel, v string) {
	return func(m *hieraProviderModel, v string) {
		if s := field(m); s.IsNull() {
			*s = types.StringValue(v)
		}
	}
}

// eyamlBlock is m's eyaml block, an empty one (every attribute null) added when it has none.
func (m *hieraProviderModel) eyamlBlock() *providerEyamlModel {
	if m.Eyaml == nil {
		m.Eyaml = &providerEyamlModel{}
	}
	return m.Eyaml
}

// envDescription is the sentence each argument's description ends with.
func envDescription(attr string) string {
	for _, e := range providerEnv {
		if e.attr == attr {
			return fmt.Sprintf(" When not set, the `%s` environment variable gives it.", e.name)
		}
	}
	panic("no environment variable for " + attr) // a mistake in the schema, seen by every test
}

// withEnvDefaults gives m's unset arguments the values of their environment variables (getenv).
func withEnvDefaults(ctx context.Context, m *hieraProviderModel, getenv func(string) string) {
	for _, e := range providerEnv {
		if v := getenv(e.name); v != "" {
			e.set(m, v)
			tflog.Debug(ctx, "provider argument from the environment, unless set in the configuration", map[string]any{"variable": e.name, "attribute": e.attr})
		}
	}
}
