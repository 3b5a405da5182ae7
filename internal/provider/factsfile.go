package provider

// facts_file: a node's facts from a file as Puppet users have them, read once per file.

import (
	"os"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/facts"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// factsFileCache holds the facts files read, by their names as given (relative ones to the working
// directory, which the provider's process keeps): a fleet's data sources name a few files thousands
// of times, and looking a name up costs no system call. As the engine's data files are, a file is looked at again (size and
// modification time) only after hiera.StampCheckInterval, and read again when it changed.
type factsFileCache struct {
	mu    sync.Mutex
	files map[string]*factsFile
	bytes int64 // the sizes of the files held
	now   func() time.Time
}

// factsFile is one file as last read: its facts (in the file's order), or why it has none.
type factsFile struct {
	size    int64
	modTime time.Time
	until   time.Time // looked at again after this
	facts   *model.Hash
	err     error
}

// The cache is bounded in files and in their bytes (a parsed file takes a small multiple of its
// size; facter's output is tens of kilobytes); full, it starts over.
const (
	maxFactsFiles     = 1 << 10
	maxFactsFileBytes = 64 << 20
)

func newFactsFileCache() *factsFileCache {
	return &factsFileCache{files: map[string]*factsFile{}, now: time.Now}
}

// get returns the file at name (relative to the working directory, as Terraform's file() takes
// it): its facts, or an error naming the file (and line) that says why it gives none.
func (c *factsFileCache) get(name string) *factsFile {
	now := c.now()
	c.mu.Lock()
	had := c.files[name]
	c.mu.Unlock()
	if had != nil && now.Before(had.until) {
		return had
	}
	f := &factsFile{until: now.Add(hiera.StampCheckInterval)}
	fi, err := os.Stat(name)
	switch {
	case err != nil:
		f.facts, f.err = readFactsFile(name) // fails, saying why as for any facts file
	case fi.IsDir():
		f.err = &facts.Error{File: name, Msg: "it is a directory: facts_file names one node's facts file " +
			"(the hieraform command reads a directory of them)"}
	case had != nil && had.err == nil && fi.Size() == had.size && fi.ModTime().Equal(had.modTime):
		f.facts = had.facts // unchanged: the same hash, which the engine's caches know
	default:
		f.facts, f.err = readFactsFile(name)
	}
	if fi != nil {
		f.size, f.modTime = fi.Size(), fi.ModTime()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.files[name]; old != nil {
		c.bytes -= old.held()
	}
	if len(c.files) >= maxFactsFiles || c.bytes+f.held() > maxFactsFileBytes {
		c.files, c.bytes = map[string]*factsFile{}, 0
	}
	c.files[name], c.bytes = f, c.bytes+f.held()
	return f
}

// readFactsFile reads one node's facts from the file at name.
func readFactsFile(name string) (*model.Hash, error) {
	n, err := facts.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return n.Facts, nil
}

// held is the bytes the file counts for in the bounds of the caches that keep its facts: its size
// when it has facts.
func (f *factsFile) held() int64 {
	if f.facts == nil {
		return 0
	}
	return f.size
}

// stamp is what identifies the file's content for the scope cache: its size and modification time.
func (f *factsFile) stamp() (int64, int64) { return f.size, f.modTime.UnixNano() }

// overlay returns base with the top-level keys of over replacing or joining its own: base's keys
// in base's order, then over's new ones (as Ruby's Hash#merge orders them). Neither is changed.
func overlay(base, over *model.Hash) *model.Hash {
	switch {
	case over == nil || over.Len() == 0:
		return base
	case base == nil || base.Len() == 0:
		return over
	}
	return merge.Hashes(over, base)
}

// factsFileArg reads a facts_file argument: nil facts when it is null.
func (pd *providerData) factsFileArg(v types.String) (*model.Hash, error) {
	switch {
	case v.IsNull():
		return nil, nil
	case v.IsUnknown():
		return nil, errUnknown
	}
	f := pd.factsFiles.get(v.ValueString())
	return f.facts, f.err
}

const factsFileDescription = "A file of the node's facts as Puppet users have them: the output of `facter -j` or `puppet facts show` " +
	"(JSON or YAML; the wrapped form `{\"name\": ..., \"values\": {...}}` too), a Puppet Server facts cache file, or PuppetDB's " +
	"list of one node's facts. Its facts come first and `facts` is merged over them, top-level key by key. The file's key order is " +
	"kept, as Puppet keeps it (facts written in HCL are sorted by Terraform: where a hierarchy iterates a hash fact, as " +
	"`mapped_paths` does, only a file gives Puppet's order). Only the facts are read (not the wrapped form's `name`): `trusted` " +
	"is their `trusted` fact when it holds the node's trusted data (`authenticated`, `certname` and `extensions`, as PuppetDB " +
	"stores it), as Puppet takes it; else it comes from their `clientcert` or `fqdn` fact as for `facts` (else their " +
	"`networking.fqdn`, as Facter 4's `facter -j` prints facts, with a warning); `scope` overrides it. A relative path " +
	"is taken from Terraform's working directory; use `${path.module}/facts/web01.json` in modules."
