package manifest

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
)

// Bounds of what Read reads: far above real code (the largest Forge manifests are a few hundred
// KB; a module has a few hundred files).
const (
	MaxFileSize = 8 << 20
	MaxFiles    = 100000
)

// Code is what the manifests under some directories define and look up.
type Code struct {
	Files    []*File
	Problems []*Problem // the files skipped, each once
	classes  map[string]*Class
	aliases  map[string]*Alias
}

// Read reads every .pp file under each directory (recursively, in name order; a directory that
// does not exist holds none), skipping, with a Problem, each file it cannot read.
func Read(dirs ...string) *Code {
	c := &Code{classes: map[string]*Class{}, aliases: map[string]*Alias{}}
	var paths []string
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				if path != dir || !errors.Is(err, fs.ErrNotExist) {
					c.Problems = append(c.Problems, &Problem{File: path, Message: err.Error()})
				}
				return nil
			case len(paths) >= MaxFiles:
				return fs.SkipAll
			case !d.IsDir() && strings.HasSuffix(path, ".pp"):
				paths = append(paths, path)
			}
			return nil
		})
		if err != nil {
			c.Problems = append(c.Problems, &Problem{File: dir, Message: err.Error()})
		}
	}
	if len(paths) >= MaxFiles {
		c.Problems = append(c.Problems, &Problem{File: dirs[0], Message: fmt.Sprintf("more than %d manifests: the rest are not read", MaxFiles)})
	}
	sort.Strings(paths)
	var scratch []byte
	for _, path := range paths {
		src, err := boundedfile.ReadInto(path, MaxFileSize, scratch)
		if err != nil {
			c.Problems = append(c.Problems, &Problem{File: path, Message: "cannot be read: " + strings.TrimPrefix(err.Error(), path+" ")})
			continue
		}
		scratch = src[:0]
		f, err := Parse(path, src)
		if err != nil {
			var p *Problem // Parse returns only these
			if !errors.As(err, &p) {
				p = &Problem{File: path, Line: 1, Message: err.Error()}
			}
			c.Problems = append(c.Problems, p)
			continue
		}
		c.add(f)
	}
	return c
}

func (c *Code) add(f *File) {
	c.Files = append(c.Files, f)
	for _, cl := range f.Classes {
		if _, dup := c.classes[cl.Name]; !dup {
			c.classes[cl.Name] = cl
		}
	}
	for _, a := range f.Aliases {
		if k := strings.ToLower(a.Name); c.aliases[k] == nil {
			c.aliases[k] = a
		}
	}
}

// Class is the class of that name (lower case), nil when no manifest defines it.
func (c *Code) Class(name string) *Class { return c.classes[strings.ToLower(name)] }

// Alias is the type alias of that name (any case, as Puppet's loaders find it), nil when none.
func (c *Code) Alias(name string) *Alias { return c.aliases[strings.ToLower(name)] }
