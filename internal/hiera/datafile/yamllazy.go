package datafile

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// A data file is mostly read for a few of its root keys (a fleet's node files: 4 of 100), and
// building the values of all of them was most of the provider's CPU in a fleet's plan. So a file
// that the fast reader takes, whose top is a mapping, is read whole at load (skimmed: every check
// that decides between the fast reader and yaml.v3 is made, so a syntax error anywhere still fails
// every lookup in it), but the value of a root key is built only when a lookup first asks for it,
// by reading again from where the skim found it starts.

// fastRoot is where the value of a root key starts: the fast reader's state after the key's ":",
// and the root mapping's indentation.
type fastRoot struct{ pos, cur, line, ind int }

// LazyYAML is a data file's root mapping whose values are built on first use. It is safe for
// concurrent use.
type LazyYAML struct {
	Keys  *model.Hash // the root keys as a full read makes them, each to its index in roots
	Text  []byte      // the file's text, kept for building values
	setup yamlSetup
	roots []lazyRoot
	mu    sync.Mutex  // held while building a value
	r     *yamlReader // of all builds: their scalar caches are shared, as in a full read
}

type lazyRoot struct {
	at    fastRoot
	built atomic.Bool // v, bad and err are set
	v     any
	bad   string // the type Puppet names when v is not RichData
	err   error
}

// skimFastYAML reads data (already checked by checkYAMLText, and simple) as fastYAMLParse does,
// without building the values of root keys. fast is false when fastYAMLParse would give up; lz is
// nil when the text is not to be read lazily (its top is not a mapping, or it has Ruby symbols,
// which are converted over the whole document): then fastYAMLParse is to read it.
func skimFastYAML(data []byte, setup yamlSetup) (lz *LazyYAML, fast bool) {
	defer func() {
		if recover() != nil { // a yamlFallback, or a bug: the caller reads it as fastYAMLParse would
			lz, fast = nil, false
		}
	}()
	p := &fastYAML{src: data, line: 1, r: newYAMLReader(setup), skim: true}
	p.r.plain = plainCache(len(data))
	defer releasePlainCache(p.r.plain, len(data))
	top, isHash := p.document().(*model.Hash)
	if !isHash || p.r.symbols {
		return nil, true
	}
	lz = &LazyYAML{Keys: top, Text: data, setup: setup, roots: make([]lazyRoot, len(p.roots))}
	for i, at := range p.roots {
		lz.roots[i].at = at
	}
	return lz, true
}

// Value returns the value of the root key root, and the type Puppet names for it when it is not
// RichData ("" when it is).
func (lz *LazyYAML) Value(root string) (v any, found bool, badType string, err error) {
	i, ok := lz.Keys.Get(root)
	if !ok {
		return nil, false, "", nil
	}
	idx, _ := i.(int) // lz.keys only holds indexes
	v, badType, err = lz.valueAt(idx)
	return v, true, badType, err
}

// valueAt returns the value of the root key with index i, built once.
func (lz *LazyYAML) valueAt(i int) (v any, badType string, err error) {
	r := &lz.roots[i]
	if !r.built.Load() {
		lz.buildRoot(r)
	}
	return r.v, r.bad, r.err
}

// buildRoot builds r's value, unless another lookup just did.
func (lz *LazyYAML) buildRoot(r *lazyRoot) {
	lz.mu.Lock()
	defer lz.mu.Unlock()
	if r.built.Load() {
		return
	}
	r.v, r.err = lz.build(r.at)
	if r.err == nil && !isRichData(r.v) {
		r.bad = lookupValueType(r.v)
	}
	r.built.Store(true)
}

// build reads the value that starts at at, as the skim read it.
func (lz *LazyYAML) build(at fastRoot) (v any, err error) {
	defer func() {
		// The skim read the same text the same way: a bug. What it panicked with is left out, as it
		// might quote the text (an eyaml file's, say).
		if recover() != nil {
			v, err = nil, fmt.Errorf("internal error reading the value at line %d", at.line)
		}
	}()
	if lz.r == nil {
		lz.r = newYAMLReader(lz.setup)
	}
	p := &fastYAML{src: lz.Text, pos: at.pos, cur: at.cur, line: at.line, begun: true, depth: 1, r: lz.r}
	return p.mappingValue(at.ind), nil
}
