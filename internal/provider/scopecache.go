package provider

// A data source's facts and scope converted for the engine once per distinct configuration bytes.

import (
	"context"
	"encoding/binary"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/provider/wire"
)

// A fleet plan gives each node's data sources the node's facts and scope: every key of a node
// carries the same bytes. Decoding them (msgpack, the framework's dynamic value, engine hashes) cost
// more than the lookup, and a new pair of engine hashes per data source also kept the engine from
// reusing the hierarchy it resolved for the node (its caches know a scope by its hashes). The
// server reads the two attributes' msgpack bytes, and data sources with the same bytes share one
// conversion: the same model values and the same engine hashes, which nothing changes.

// scopeCache holds the conversions of one provider configuration (the provider's facts and scope
// are merged in), bounded in entries and in bytes: its keys', and once each the facts files whose
// facts its entries keep (data sources naming one file with their own facts or scope share it);
// full, it starts over.
type scopeCache struct {
	mu      sync.Mutex
	entries map[string]*scopeArgs
	// files are the facts counted in bytes, by the hash the entries keep: a file looked at again
	// and unchanged keeps its hash, so it is not counted again.
	files map[*model.Hash]bool
	bytes int
}

// scopeArgs is a data source's facts, facts_file and scope as the model holds them and as the
// engine takes them, merged over the provider's.
type scopeArgs struct {
	facts, scope types.Dynamic
	factsFile    types.String
	puppetdbNode types.String
	engine       hiera.Scope
}

// The bounds keep a long-lived process from growing without limit: a plan meets one entry per node.
// The conversions take a small multiple of their keys' bytes.
const (
	maxScopeEntries = 1 << 12
	maxScopeBytes   = 16 << 20
)

// scopeAttributes are the attributes a scopeArgs holds.
var scopeAttributes = []string{"facts", "scope", "facts_file", "puppetdb_node"}

// scopeKey is the cache key of a configuration's facts, scope, facts_file and puppetdb_node
// encodings, and of the facts file's size and modification time as files last saw them (nil: the
// configuration is not a map holding all four), with that facts file (nil when none is named).
// The key is raw configuration: it may hold secrets, so it is never logged or shown.
func scopeKey(config []byte, files *factsFileCache) (key []byte, file *factsFile) {
	vals, ok := wire.AttributeBytes(config, scopeAttributes...)
	if !ok {
		return nil, nil
	}
	key = make([]byte, 0, len(vals[0])+len(vals[1])+len(vals[2])+len(vals[3])+32)
	for _, v := range vals { // msgpack items delimit themselves
		key = append(key, v...)
	}
	if name, ok := wire.StringValue(vals[2]); ok && files != nil {
		file = files.get(name)
		size, modTime := file.stamp()
		key = binary.AppendVarint(binary.AppendVarint(key, size), modTime)
	}
	return key, file
}

// get returns the conversion stored under key, or nil.
func (c *scopeCache) get(key []byte) *scopeArgs {
	if key == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[string(key)]
}

// put stores args under key (with file, the facts file it keeps facts of: scopeKey's) and returns
// what the cache holds there (an earlier conversion of the same bytes wins, so that all data
// sources share its hashes).
func (c *scopeCache) put(key []byte, file *factsFile, args *scopeArgs) *scopeArgs {
	if key == nil {
		return args
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if had, ok := c.entries[string(key)]; ok {
		return had
	}
	if c.entries == nil || len(c.entries) >= maxScopeEntries || c.bytes+c.weight(key, file) > maxScopeBytes {
		c.entries, c.files, c.bytes = map[string]*scopeArgs{}, map[*model.Hash]bool{}, 0
	}
	if weight := c.weight(key, file); weight <= maxScopeBytes {
		c.entries[string(key)], c.bytes = args, c.bytes+weight
		if file != nil {
			c.files[file.facts] = true
		}
	}
	return args
}

// weight is what an entry under key adds to the cache's bytes: its key's, and its facts file's
// unless an entry already counted them.
func (c *scopeCache) weight(key []byte, file *factsFile) int {
	if file == nil || c.files[file.facts] {
		return len(key)
	}
	return len(key) + int(file.held())
}

// scopeArgsOf converts m's facts and scope, or returns nil when they have a problem (the lookup
// then converts them again and reports it).
func (pd *providerData) scopeArgsOf(ctx context.Context, m *lookupArgs) *scopeArgs {
	s, diags := pd.engineScope(ctx, m)
	if diags.HasError() {
		return nil
	}
	return &scopeArgs{facts: m.Facts, scope: m.Scope, factsFile: m.FactsFile, puppetdbNode: m.PuppetDBNode, engine: s}
}
