package fleet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/facts"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Dir is a facts directory as a node source: one node per facts file directly inside it.
type Dir string

// Nodes reads every facts file of the directory (Facts), each node named by its certname.
func (d Dir) Nodes(ctx context.Context) ([]Node, error) {
	files, err := d.Facts(ctx)
	if err != nil {
		return nil, err
	}
	nodes := make([]Node, len(files))
	for i, n := range files {
		nodes[i] = Node{Name: certname(n, n.File), Facts: n.Facts, Origin: n.File}
	}
	return nodes, nil
}

// Facts reads every facts file of the directory, in name order, each File named as it lies in
// the directory. An empty directory, more than MaxNodes entries, a file that does not parse (its
// line) and a symlink leading out of the directory are errors naming the file or directory.
func (d Dir) Facts(ctx context.Context) ([]*facts.Node, error) {
	dir := string(d)
	files, err := d.files()
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, &facts.Error{File: dir, Msg: "the directory holds no facts files (*.json, *.yaml, *.yml); give one file per node"}
	}
	nodes := make([]*facts.Node, len(files))
	errs := make([]error, len(files))
	Each(ctx, len(files), func(i int) {
		n, err := facts.ReadFile(files[i].read)
		if err != nil {
			var fe *facts.Error
			if errors.As(err, &fe) {
				fe.File = files[i].path // the name the user knows, not the symlink's target
			}
			errs[i] = err
			return
		}
		n.File = files[i].path
		nodes[i] = n
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err // the first in the directory's order
		}
	}
	return nodes, nil
}

// factsFile is a facts file of the directory: its path in the directory, and the path to read
// (the same, or a symlink's target inside the directory).
type factsFile struct{ path, read string }

// files lists the directory's facts files in name order, refusing a directory of more than
// MaxNodes entries before reading them all, and symlinks whose targets lie outside it.
func (d Dir) files() ([]factsFile, error) {
	dir := string(d)
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, &facts.Error{File: dir, Msg: describeOpen(err)}
	}
	notDir := &facts.Error{File: dir, Msg: "not a directory: facts_dir names a directory of facts files, one per node"}
	if fi, err := os.Stat(root); err == nil && !fi.IsDir() {
		return nil, notDir // before opening it: opening a named pipe waits for a writer
	}
	f, err := os.Open(root)
	if err != nil {
		return nil, &facts.Error{File: dir, Msg: describeOpen(err)}
	}
	defer func() { _ = f.Close() }() // read-only
	if fi, err := f.Stat(); err != nil || !fi.IsDir() {
		return nil, notDir
	}
	var out []factsFile
	entries := 0
	for {
		batch, err := f.ReadDir(1024)
		for _, e := range batch {
			name := e.Name()
			if strings.HasPrefix(name, ".") {
				continue
			}
			if entries++; entries > MaxNodes {
				return nil, &facts.Error{File: dir, Msg: fmt.Sprintf("the directory holds more than %d files, more than a fleet may have nodes: "+
					"give a directory of at most %d facts files, one per node", MaxNodes, MaxNodes)}
			}
			if !facts.IsFactsFile(name) {
				continue
			}
			p := filepath.Join(dir, name)
			read := p
			switch t := e.Type(); {
			case t.IsDir():
				continue
			case t&os.ModeSymlink != 0:
				target, err := filepath.EvalSymlinks(filepath.Join(root, name))
				if err != nil {
					return nil, &facts.Error{File: p, Msg: "a symlink that leads nowhere: " + describeOpen(err)}
				}
				if !inside(root, target) {
					return nil, &facts.Error{File: p, Msg: fmt.Sprintf("a symlink leading out of the directory (to %s): "+
						"facts are read only from inside %s", target, dir)}
				}
				if fi, err := os.Stat(target); err == nil && fi.IsDir() {
					continue
				}
				read = target
			}
			out = append(out, factsFile{path: p, read: read})
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &facts.Error{File: dir, Msg: err.Error()}
		}
	}
	slices.SortFunc(out, func(a, b factsFile) int { return strings.Compare(a.path, b.path) })
	return out, nil
}

// inside tells whether target lies within root (both resolved).
func inside(root, target string) bool {
	rel, err := filepath.Rel(root, target)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func describeOpen(err error) string {
	if errors.Is(err, os.ErrNotExist) {
		return "no such file or directory"
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// certname is the node's name as Puppet names it: its trusted.certname fact, else the name the
// file gives, its clientcert, fqdn or networking.fqdn fact (facts.Node.Certname), else the file's name less its
// extension.
func certname(n *facts.Node, file string) string {
	if t, _ := n.Facts.Get("trusted"); t != nil {
		if th, ok := t.(*model.Hash); ok {
			if c, _ := th.Get("certname"); c != nil {
				if s, ok := c.(string); ok && s != "" {
					return s
				}
			}
		}
	}
	if c := n.Certname(); c != "" {
		return c
	}
	base := filepath.Base(file)
	return strings.TrimSuffix(base, filepath.Ext(base))
}
