package hiera

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
// directory or the hiera.yaml's directory; anything else is refused, so a data file cannot pull in
// arbitrary files.
func readHOCONData(src dataSource) (any, []includedFile, error) {
	path, text, configDir := src.path, src.text, src.configDir
	if !utf8.Valid(text) {
		return nil, nil, errors.New("invalid UTF-8 byte sequence: HOCON data files must be UTF-8 text")
	}
	roots := []string{filepath.Dir(path), configDir}
	var included []includedFile
	read := func(name string) ([]byte, bool, error) {
		clean := filepath.Clean(name)
		if !glob.Within(clean, roots[0]) && !glob.Within(clean, roots[1]) {
			return nil, false, fmt.Errorf("the file is outside %s and %s, the directories an include may read", roots[0], roots[1])
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
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = hoconValue(e)
		}
		return out
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
