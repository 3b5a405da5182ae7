package hiera

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
)

// maxDataFileSize bounds the memory one data file can take; larger files are a clear error.
const maxDataFileSize = 64 << 20

// maxDataNesting bounds how deeply arrays and hashes of a data file may nest. Hiera data is never
// that deep, and deeper values make merges and explain output quadratic in the depth (a 10,000
// level file took seconds and a 600 MB explanation).
const maxDataNesting = 1000

// Engine answers lookups against one hiera.yaml. It parses the configuration and each data file
// once, re-reading a file only when its size or modification time changes, and is safe for
// concurrent lookups.
type Engine struct {
	configPath string

	mu       sync.Mutex
	cfg      *config
	cfgErr   error
	cfgStamp fileStamp

	files      sync.Map // fileKey -> *fileSlot
	decryptors sync.Map // decryptorKey -> *eyaml.Decryptor
	share      sharing
	results    resultCache
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
	data    *Hash
	invalid map[string]string // root keys whose values are not RichData, with their types
	warning string
	err     error
}

// NewEngine returns an engine for the hiera.yaml at configPath. The file is read at the first lookup,
// so a missing file is reported there, naming the path.
func NewEngine(configPath string) *Engine {
	if abs, err := filepath.Abs(configPath); err == nil {
		configPath = abs
	}
	return &Engine{configPath: configPath}
}

// ConfigPath is the absolute path of the engine's hiera.yaml.
func (e *Engine) ConfigPath() string { return e.configPath }

// config returns the parsed hiera.yaml, re-reading it when it changed on disk.
func (e *Engine) config() (*config, error) {
	fi, err := os.Stat(e.configPath)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &Error{Message: fmt.Sprintf("hiera.yaml not found: no file at %s", e.configPath), File: e.configPath, Err: err}
		}
		return nil, &Error{Message: "cannot read hiera.yaml: " + err.Error(), File: e.configPath, Err: err}
	}
	if fi.IsDir() {
		return nil, &Error{Message: fmt.Sprintf("hiera.yaml path %s is a directory, not a file", e.configPath), File: e.configPath}
	}
	stamp := stampOf(fi)
	e.mu.Lock()
	defer e.mu.Unlock()
	if (e.cfg != nil || e.cfgErr != nil) && e.cfgStamp == stamp {
		return e.cfg, e.cfgErr
	}
	data, err := readLimited(e.configPath)
	if err != nil {
		return nil, &Error{Message: "cannot read hiera.yaml: " + err.Error(), File: e.configPath, Err: err}
	}
	e.cfg, e.cfgErr = nil, nil
	cfg, err := parseConfig(e.configPath, data)
	if err != nil {
		e.cfgErr = err
	} else {
		e.cfg = cfg
	}
	e.cfgStamp = stamp
	return e.cfg, e.cfgErr
}

// dataFor returns the parsed data hash of a data file; exists is false for a missing file.
func (e *Engine) dataFor(path string, fn *dataFunction) (df *dataFile, exists bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, false
	}
	if fi.IsDir() { // Ruby's File.read fails on it, and Puppet with it
		return &dataFile{err: &Error{Message: "Is a directory @ io_fread - " + path, File: path, valueFree: true}}, true
	}
	stamp := stampOf(fi)
	key := fileKey{fn: fn, path: path}
	v, ok := e.files.Load(key)
	if !ok {
		v, _ = e.files.LoadOrStore(key, &fileSlot{})
	}
	slot, isSlot := v.(*fileSlot)
	if !isSlot {
		return nil, false // cannot happen: e.files only holds *fileSlot values
	}
	if cached := slot.current.Load(); cached != nil && cached.stamp == stamp {
		return cached, true
	}
	// One parse per file version: concurrent lookups wait for it instead of parsing again.
	slot.mu.Lock()
	defer slot.mu.Unlock()
	if cached := slot.current.Load(); cached != nil && cached.stamp == stamp {
		return cached, true
	}
	df = parseDataFile(path, fn, stamp, &e.share)
	slot.current.Store(df)
	return df, true
}

// fileKey names a data file as read by one data function.
type fileKey struct {
	fn   *dataFunction
	path string
}

// fileSlot holds the current parse of one data file.
type fileSlot struct {
	mu      sync.Mutex
	current atomic.Pointer[dataFile]
}

func parseDataFile(path string, fn *dataFunction, stamp fileStamp, share *sharing) *dataFile {
	df := &dataFile{stamp: stamp}
	if stamp.size > maxDataFileSize {
		df.err = &Error{Message: fmt.Sprintf("Unable to parse (%s): the file is %d bytes, more than the limit of %d", path, stamp.size, maxDataFileSize), File: path, valueFree: true}
		return df
	}
	text, err := readLimited(path)
	if err != nil {
		df.err = &Error{Message: fmt.Sprintf("Unable to read (%s): %v", path, err), File: path, Err: err, valueFree: true}
		return df
	}
	v, err := fn.read(text, share)
	if err != nil {
		df.err = &Error{Message: fmt.Sprintf("Unable to parse (%s): %v", path, err), File: path, Line: errorLine(err), Err: err, valueFree: true}
		return df
	}
	switch t := v.(type) {
	case *Hash:
		df.data = t
		df.invalid = invalidRootKeys(t)
	case nil:
		df.data = NewHash(0) // an empty file
	default:
		if !fn.nonHashWarns {
			df.err = fn.nonHashError(path, v)
			return df
		}
		df.data = NewHash(0)
		df.warning = fmt.Sprintf("%s: file does not contain a valid yaml hash", path)
	}
	return df
}

// errorLine extracts the line from a parser error, when it has one.
func errorLine(err error) int {
	var ye *YAMLError
	if errors.As(err, &ye) {
		return ye.Line
	}
	var je *JSONError
	if errors.As(err, &je) {
		return je.Line
	}
	return 0
}

// readLimited reads a regular file of at most maxDataFileSize bytes.
func readLimited(path string) ([]byte, error) { return boundedfile.Read(path, maxDataFileSize) }

// Lookup runs one lookup. A key found nowhere is not an error: Result.Found is false and Value is
// the request's default, if it has one. Errors are *Error values; no panic escapes.
func (e *Engine) Lookup(ctx context.Context, req Request) (res Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &Error{Message: fmt.Sprintf("internal error in the hiera engine (please report): %v", r), Key: req.Key}
		}
	}()
	key := req.Key
	if key == "" && len(req.Keys) > 0 {
		key = req.Keys[0]
	}
	var valueType *ptype
	if req.HasValueType {
		if valueType, err = parseType(req.ValueType); err != nil {
			return Result{}, withKey(valueTypeError(err), key)
		}
	}
	cfg, err := e.config()
	if err != nil {
		return Result{}, withKey(err, key)
	}
	inv := newInvocation(ctx, e, cfg, req)
	inv.valueType = valueType
	return inv.run()
}
