package hiera

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/glob"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/hocon"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// hocon_data: the file is read by internal/hiera/hocon, which answers as the hocon 1.3.1 gem that
// Puppet's hocon_data calls (Hocon.parse). Here: which files an include may read, and the conversion
// to the engine's values.

// includedFile is a file an include statement read, with the version read, so the cache notices a
// change to it as it does to the data file itself.
type includedFile struct {
	path  string
	stamp fileStamp
}

// readHOCONData reads a hocon_data file. An include file() may read files below the data file's
// directory or the directory of the layer's hiera.yaml (a module's own directory, the
// environment's, the global hiera.yaml's), confined as the layer's data files are: symbolic links
// are resolved, so a link cannot lead out. The file and what it includes count together against
// the data-file size limit.
func readHOCONData(src dataSource) (any, []includedFile, error) {
	path, text := src.path, src.text
	if !utf8.Valid(text) {
		return nil, nil, errors.New("invalid UTF-8 byte sequence: HOCON data files must be UTF-8 text")
	}
	roots := []string{src.configDir}
	if dir := filepath.Dir(path); !glob.Within(dir, src.configDir) {
		roots = append(roots, dir)
	}
	var included []includedFile
	total := int64(len(text))
	read := func(name string) ([]byte, bool, error) {
		clean, err := includeConfined(name, roots)
		if err != nil {
			return nil, false, err
		}
		fi, err := os.Stat(clean)
		if errors.Is(err, os.ErrNotExist) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		if fi.IsDir() {
			return nil, false, errors.New("is a directory")
		}
		if total += fi.Size(); total > MaxDataFileSize {
			return nil, false, fmt.Errorf("the data file and the files it includes hold more than %d bytes together", MaxDataFileSize)
		}
		data, err := readLimited(clean)
		if err != nil {
			return nil, false, err
		}
		if !utf8.Valid(data) {
			return nil, false, errors.New("invalid UTF-8 byte sequence")
		}
		included = append(included, includedFile{path: clean, stamp: stampOf(fi)})
		return data, true, nil
	}
	obj, err := hocon.Parse(string(text), hocon.Options{ReadInclude: read})
	if err != nil {
		return nil, nil, err
	}
	return hoconHash(obj), included, nil
}

// includeConfined is an included file's clean path, or why the file is not one an include may read.
func includeConfined(name string, roots []string) (string, error) {
	var linkOut error
	for _, root := range roots {
		p, err := glob.Confine(name, root)
		if err == nil {
			return p, nil
		}
		if glob.Within(filepath.Clean(name), root) {
			linkOut = err // below the root, but a symbolic link leads out
		}
	}
	if linkOut != nil {
		return "", linkOut
	}
	return "", fmt.Errorf("the file is outside %s, where an include in this layer may read", strings.Join(roots, " and "))
}

func hoconHash(o *hocon.Object) *model.Hash {
	h := model.NewHash(len(o.Keys))
	for _, k := range o.Keys {
		h.Set(k, hoconValue(o.Values[k]))
	}
	return h
}

func hoconValue(v any) any {
	switch t := v.(type) {
	case *hocon.Object:
		return hoconHash(t)
	case []any: // converted in place: the hocon package keeps no reference to it
		for i, e := range t {
			t[i] = hoconValue(e)
		}
		return t
	}
	return v // nil, bool, int64, *big.Int, float64, string: already engine values
}

// includesUnchanged tells whether every file an include read is still the version read.
func includesUnchanged(files []includedFile) bool {
	for _, f := range files {
		fi, err := os.Stat(f.path)
		if err != nil || stampOf(fi) != f.stamp {
			return false
		}
	}
	return true
}
