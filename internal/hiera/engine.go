package hiera

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/hieraconfig"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/hocon"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/ptype"
)

// MaxDataFileSize bounds the memory one data file can take; larger files are a clear error (to
// read, and to edit: the provider's hiera_data).
const MaxDataFileSize = 64 << 20

// StampCheckInterval is how long the engine trusts what it last saw of a file (hiera.yaml, a data
// file, present or absent) before it looks at the file's size and modification time again. Stat
// calls were a quarter of a warm lookup; an edit is seen within this interval, and by every new
// provider process (each terraform command starts its own) at once.
const StampCheckInterval = 250 * time.Millisecond

// maxAbsentFiles bounds how many absent data files the engine remembers as absent: their paths come
// from facts, so a long-lived process could meet any number of them.
const maxAbsentFiles = 1 << 16

// Engine answers lookups against one hiera.yaml, or Puppet's three layers (NewLayeredEngine). It
// parses each configuration and data file once, re-reading a file only when its size or
// modification time changes (checked at most every StampCheckInterval), and is safe for
// concurrent lookups.
type Engine struct {
	configPath string // the global hiera.yaml, "" for none
	layers     Layers
	envName    string           // %{environment}: the environment directory's name
	envConfig  string           // the environment's hiera.yaml, "" for no environment
	now        func() time.Time // time.Now; tests move it on

	configs struct {
		sync.RWMutex
		m map[configKey]*configSlot
	}
	envConf envConfCache
	// envDefault is the environment layer's default configuration (envDataProvider), globalDefault
	// the global layer's for a missing hiera.yaml (Layers.DefaultConfig), each made once.
	envDefault, globalDefault struct {
		once sync.Once
		cfg  *config
		err  error
	}

	files      sync.Map  // fileKey -> *fileSlot
	parsed     fileCache // which slots keep their parse (filecache.go)
	absent     atomic.Int64
	decryptors sync.Map // decryptorKey -> *eyaml.Decryptor
	share      model.Sharing
	results    resultCache
	signatures signatureCache
	layerIDs   internTable
	modules    moduleCache
	selected   selectedCache
	valueTypes valueTypeCache
	pitfalls   scopePitfallCache
	// nestedComputed counts the nested lookups computed (not answered from memory, answers.go):
	// work a test can bound.
	nestedComputed atomic.Int64
	// fileParses counts the data files parsed: work a test can bound (filecache.go).
	fileParses atomic.Int64
}

// valueTypeCache holds the value_types parsed, by their text: a Pattern compiles its regexps once,
// not at every lookup. Texts come from callers: the cache is bounded, and starts over when full.
type valueTypeCache struct {
	mu    sync.RWMutex
	types map[string]*ptype.Type
}

// maxCachedValueTypes bounds valueTypeCache; a configuration writes a handful.
const maxCachedValueTypes = 256

func (c *valueTypeCache) parse(text string) (*ptype.Type, error) {
	c.mu.RLock()
	t := c.types[text]
	c.mu.RUnlock()
	if t != nil {
		return t, nil
	}
	t, err := ptype.Parse(text)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.types == nil || len(c.types) >= maxCachedValueTypes {
		c.types = map[string]*ptype.Type{}
	}
	c.types[text] = t
	return t, nil
}

// fileStamp identifies a version of a file cheaply.
type fileStamp struct {
	size  int64
	mtime time.Time
}

func stampOf(fi fs.FileInfo) fileStamp { return fileStamp{size: fi.Size(), mtime: fi.ModTime()} }

// dataFile is one parsed data file, immutable once stored.
type dataFile struct {
	stamp   fileStamp
	data    *model.Hash
	invalid map[string]string  // root keys whose values are not RichData, with their types
	lazy    *datafile.LazyYAML // instead of data and invalid: values built on first use
	warning string
	err     error
	// includes are the other files the reader read (HOCON includes)
	includes []includedFile
	// qualified holds, per module name, whether the file's keys are all the module's
	// (qualifiedKeys): a module layer's lookups ask it at every search of the file.
	qualified sync.Map
}

// qualifiedFor is qualifiedKeys of the file's keys, worked out once per module.
func (df *dataFile) qualifiedFor(module string) bool {
	if q, ok := df.qualified.Load(module); ok {
		b, _ := q.(bool) // only bools are stored
		return b
	}
	q := qualifiedKeys(df.keys(), module)
	df.qualified.Store(module, q)
	return q
}

// current tells whether a cached parse is of the file's version stamp (and of its includes').
func (df *dataFile) current(stamp fileStamp) bool {
	return df != nil && df.stamp == stamp && includesUnchanged(df.includes)
}

// keys returns a hash of the file's root keys (its values are not for use).
func (df *dataFile) keys() *model.Hash {
	if df.lazy != nil {
		return df.lazy.Keys
	}
	return df.data
}

// value returns the value of the root key root, and the type Puppet names for it when it is not
// RichData ("" when it is).
func (df *dataFile) value(root string) (v any, found bool, badType string, err error) {
	if df.lazy != nil {
		return df.lazy.Value(root)
	}
	v, found = df.data.Get(root)
	return v, found, df.invalid[root], nil
}

// NewEngine returns an engine for the hiera.yaml at configPath. The file is read at the first lookup,
// so a missing file is reported there, naming the path.
func NewEngine(configPath string) *Engine { return NewLayeredEngine(configPath, Layers{}) }

// ConfigPath is the absolute path of the engine's hiera.yaml ("" when it has no global layer).
func (e *Engine) ConfigPath() string { return e.configPath }

// dataFor returns the parsed data hash of a data file; exists is false for a missing file. Until
// until (Unix nanoseconds; 0 when the engine does not remember the file) it answers the same
// without looking at the file again.
func (e *Engine) dataFor(key fileKey) (df *dataFile, exists bool, until int64) {
	now := e.now().UnixNano()
	path, fn := key.path, key.fn
	v, known := e.files.Load(key)
	slot, _ := v.(*fileSlot) // e.files only holds *fileSlot values
	if known {
		if seen := slot.seen.Load(); seen != nil && now < seen.until {
			if !seen.exists {
				return nil, false, seen.until
			}
			if cached := slot.current.Load(); cached != nil && cached.stamp == seen.stamp {
				e.parsed.read(slot)
				return cached, true, seen.until
			}
		}
	}
	fi, err := os.Stat(path)
	if err == nil && fi.IsDir() { // Ruby's File.read fails on it, and Puppet with it
		return &dataFile{err: &model.Error{Message: "Is a directory @ io_fread - " + path, File: path, ValueFree: true, OfConfig: true}}, true, 0 // Puppet reports it unwrapped
	}
	exists = err == nil
	if !known {
		if !exists && e.absent.Load() >= maxAbsentFiles {
			return nil, false, 0 // not remembered: stat again next time
		}
		v, known = e.files.LoadOrStore(key, &fileSlot{})
		slot, _ = v.(*fileSlot)
		if !exists && !known {
			e.absent.Add(1)
		}
	}
	seen := &fileSeen{exists: exists, until: now + int64(StampCheckInterval)}
	if exists {
		seen.stamp = stampOf(fi)
	}
	slot.seen.Store(seen)
	if !exists {
		return nil, false, seen.until
	}
	stamp := seen.stamp
	if cached := slot.current.Load(); cached.current(stamp) {
		e.parsed.read(slot)
		return cached, true, seen.until
	}
	// One parse per file version: concurrent lookups wait for it instead of parsing again.
	slot.mu.Lock()
	defer slot.mu.Unlock()
	if cached := slot.current.Load(); cached.current(stamp) {
		e.parsed.read(slot)
		return cached, true, seen.until
	}
	df = parseDataFile(dataSource{path: path, configDir: key.configDir, share: &e.share}, fn, stamp)
	e.fileParses.Add(1)
	if fe, ok := df.err.(*model.Error); ok {
		fe.OfDataFile = true
	}
	e.parsed.store(slot, df)
	return df, true, seen.until
}

// fileKey names a data file as read by one data function for one layer: configDir, the directory
// of the layer's hiera.yaml, bounds what a HOCON include may read.
type fileKey struct {
	fn        *hieraconfig.Function
	path      string
	configDir string
}

// fileSlot holds the current parse of one data file (nil once the cache let it go), and what its
// last stat saw.
type fileSlot struct {
	mu      sync.Mutex
	current atomic.Pointer[dataFile]
	seen    atomic.Pointer[fileSeen]
	links   cacheLinks // its place in Engine.parsed
}

// fileSeen is a file's state at a stat, trusted until the given time (Unix nanoseconds).
type fileSeen struct {
	exists bool
	stamp  fileStamp
	until  int64
}

func parseDataFile(src dataSource, fn *hieraconfig.Function, stamp fileStamp) *dataFile {
	path := src.path
	df := &dataFile{stamp: stamp}
	if fn.Custom { // only the file's existence matters (customlevels.go): its function reads it
		return df
	}
	if stamp.size > MaxDataFileSize {
		df.err = &model.Error{Message: fmt.Sprintf("Unable to parse (%s): the file is %d bytes, more than the limit of %d", path, stamp.size, MaxDataFileSize), File: path, ValueFree: true}
		return df
	}
	var scratch []byte
	reader := dataReaders[fn.Name]
	reuse := reader.textFree && stamp.size <= datafile.MaxReusedFile
	if reuse {
		if b, ok := textBuffers.Get().(*[]byte); ok {
			scratch = *b
		}
	}
	text, err := boundedfile.ReadInto(path, MaxDataFileSize, scratch)
	if err != nil {
		df.err = &model.Error{Message: fmt.Sprintf("Unable to read (%s): %v", path, err), File: path, Err: err, ValueFree: true}
		return df
	}
	src.text = text
	v, includes, err := reader.read(src)
	if lz, ok := v.(*datafile.LazyYAML); ok && reuse {
		lz.Text = bytes.Clone(lz.Text) // the buffer is reused (the text read may be a copy of it with "\n" line ends)
	}
	if reuse && cap(text) <= datafile.MaxReusedFile {
		textBuffers.Put(&text)
	}
	df.includes = includes
	if err != nil {
		df.err = &model.Error{Message: fmt.Sprintf("Unable to parse (%s): %v", path, err), File: path, Line: errorLine(err), Err: err, ValueFree: true}
		return df
	}
	switch t := v.(type) {
	case *datafile.LazyYAML:
		df.lazy = t
	case *model.Hash:
		df.data = t
		df.invalid = datafile.InvalidRootKeys(t)
	case nil:
		if !reader.nonHashWarns { // JSON's null is a value of the wrong type, not an empty file
			df.err = nonHashError(fn, path, v)
			return df
		}
		df.data = model.NewHash(0) // an empty file
	default:
		if !reader.nonHashWarns {
			df.err = nonHashError(fn, path, v)
			return df
		}
		df.data = model.NewHash(0)
		df.warning = fmt.Sprintf("%s: file does not contain a valid yaml hash", path)
	}
	return df
}

// errorLine extracts the line from a parser error, when it has one.
func errorLine(err error) int {
	var ye *datafile.YAMLError
	if errors.As(err, &ye) {
		return ye.Line
	}
	var je *datafile.JSONError
	if errors.As(err, &je) {
		return je.Line
	}
	var ie *hocon.IncludeError // the line of the include statement in the file named
	if errors.As(err, &ie) {
		return ie.Line
	}
	var he *hocon.Error
	if errors.As(err, &he) {
		return he.Line
	}
	return 0
}

// textBuffers holds the buffers of data files read and parsed, for reading the next ones: the
// text of a fleet's many small files was a third of the bytes its parse allocated.
var textBuffers sync.Pool // *[]byte

// readLimited reads a regular file of at most MaxDataFileSize bytes.
func readLimited(path string) ([]byte, error) { return boundedfile.Read(path, MaxDataFileSize) }

// Lookup runs one lookup. A key found nowhere is not an error: Result.Found is false and Value is
// the request's default, if it has one. Errors are *Error values; no panic escapes.
func (e *Engine) Lookup(ctx context.Context, req Request) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = internalError(r, req.Key)
		}
	}()
	key := req.Key
	if key == "" && len(req.Keys) > 0 {
		key = req.Keys[0]
	}
	var valueType *ptype.Type
	if req.HasValueType {
		if valueType, err = e.valueTypes.parse(req.ValueType); err != nil {
			return Result{}, withKey(valueTypeError(err), key)
		}
	}
	inv, err := e.start(ctx, req)
	if err != nil {
		return Result{}, withKey(err, key)
	}
	inv.valueType = valueType
	return inv.run()
}

// start begins the lookups of req: an invocation in the global layer, its base layers read.
func (e *Engine) start(ctx context.Context, req Request) (*invocation, error) {
	if e.configPath == "" && !e.layered() {
		return nil, &model.Error{Message: "no hiera.yaml, environment or modulepath to look up in"}
	}
	inv := newInvocation(ctx, e, req)
	warnings, err := e.baseLayers(inv.global, inv.env)
	if err != nil {
		return nil, err
	}
	inv.enter(inv.global)
	for _, w := range warnings {
		inv.warn(w)
	}
	return inv, nil
}

// internalError is a panic in the engine, as the error of the lookup of key.
func internalError(r any, key string) *model.Error {
	return &model.Error{Message: fmt.Sprintf("internal error in the hiera engine (please report): %v", r), Key: key}
}
