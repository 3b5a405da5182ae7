package cli

// Reading a side of a comparison from a git revision: the tree as committed, written by git
// itself into a private temporary directory (no checkout, index or work tree touched), the
// paths the command was given mapped into it.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// revisionTree is the tree of one revision of a git repository, written under dir.
type revisionTree struct {
	rev  string // as the user named it
	repo string // the repository's top directory (its work tree)
	tmp  string // the temporary directory, removed after
	dir  string // the tree in it: a directory named as the repository's, so that a repository
	// that is an environment keeps the environment's name
	dirs map[string]bool // the directories of the tree written so far, relative to dir
}

// gitRepository is the top directory of the git repository that path lies in (path need not
// exist: a file the revision has and the work tree no longer has).
func gitRepository(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	dir := abs
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%s is not in a git repository", path)
		}
		dir = parent
	}
	out, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("%s is not in a git repository (--git-rev reads the repository the paths lie in): %w", path, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// relativeTo is path relative to repo's top directory, symbolic links resolved as git resolves
// its top directory; an error when it lies outside.
func relativeTo(repo, path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	// Resolve the longest existing part (git's top directory has its links resolved).
	existing, rest := abs, ""
	for {
		if resolved, err := filepath.EvalSymlinks(existing); err == nil {
			abs = filepath.Join(resolved, rest)
			break
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			break
		}
		rest, existing = filepath.Join(filepath.Base(existing), rest), parent
	}
	rel, err := filepath.Rel(repo, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the git repository %s: --git-rev reads the paths of one repository", path, repo)
	}
	return rel, nil
}

// resolveRevision is the commit rev names in repo; an error saying so when it names none.
func resolveRevision(repo, rev string) (string, error) {
	if strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("--git-rev %q: a revision does not start with '-'", rev)
	}
	out, err := git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("--git-rev %s: no such commit in the git repository %s", rev, repo)
	}
	return strings.TrimSpace(string(out)), nil
}

// readRevision writes the tree of commit (named rev by the user) of repo into a new temporary
// directory. The caller removes it (remove).
func readRevision(ctx context.Context, repo, rev, commit string) (*revisionTree, error) {
	tmp, err := os.MkdirTemp("", "hieraform-rev-")
	if err != nil {
		return nil, err
	}
	t := &revisionTree{rev: rev, repo: repo, tmp: tmp, dir: filepath.Join(tmp, filepath.Base(repo)), dirs: map[string]bool{}}
	if err := os.Mkdir(t.dir, 0o700); err != nil {
		t.remove()
		return nil, err
	}
	if err := t.write(ctx, commit); err != nil {
		t.remove()
		return nil, fmt.Errorf("--git-rev %s: reading the tree of %s: %w", rev, repo, err)
	}
	return t, nil
}

func (t *revisionTree) remove() { _ = os.RemoveAll(t.tmp) }

// treeEntry is one file of a tree, as git ls-tree lists it.
type treeEntry struct {
	mode, object, path string
}

// write writes every file of commit's tree: the list from git ls-tree, the contents streamed by
// one git cat-file --batch. Submodules (commits in the tree) are left out, as git archive
// leaves them.
func (t *revisionTree) write(ctx context.Context, commit string) error {
	list, err := git(t.repo, "ls-tree", "-r", "-z", "--full-tree", commit)
	if err != nil {
		return err
	}
	var entries []treeEntry
	var objects bytes.Buffer
	for _, line := range bytes.Split(list, []byte{0}) {
		if len(line) == 0 {
			continue
		}
		meta, path, ok := strings.Cut(string(line), "\t")
		fields := strings.Fields(meta)
		if !ok || len(fields) != 3 {
			return fmt.Errorf("unexpected git ls-tree line %q", line)
		}
		if fields[1] != "blob" {
			continue
		}
		if !filepath.IsLocal(filepath.FromSlash(path)) {
			return fmt.Errorf("the tree names a path outside itself: %q", path)
		}
		entries = append(entries, treeEntry{mode: fields[0], object: fields[2], path: filepath.FromSlash(path)})
		objects.WriteString(fields[2] + "\n")
	}
	cmd := exec.CommandContext(ctx, "git", "cat-file", "--batch") // killed on an interrupt
	cmd.Dir = t.repo
	cmd.Stdin = &objects
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	werr := t.writeObjects(bufio.NewReaderSize(stdout, 1<<16), entries)
	if werr != nil {
		_ = cmd.Process.Kill()
	}
	if err := cmd.Wait(); err != nil && werr == nil {
		werr = fmt.Errorf("git cat-file: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return werr
}

// writeObjects reads cat-file --batch's answers, one per entry in order, and writes each file.
func (t *revisionTree) writeObjects(r *bufio.Reader, entries []treeEntry) error {
	for _, e := range entries {
		header, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("git cat-file: %s: %w", e.path, err)
		}
		fields := strings.Fields(header)
		if len(fields) != 3 || fields[0] != e.object {
			return fmt.Errorf("git cat-file: unexpected answer %q for %s", strings.TrimSpace(header), e.path)
		}
		size, err := strconv.ParseInt(fields[2], 10, 64)
		if err != nil {
			return fmt.Errorf("git cat-file: unexpected answer %q for %s", strings.TrimSpace(header), e.path)
		}
		if err := t.writeFile(e, io.LimitReader(r, size), size); err != nil {
			return err
		}
		if b, err := r.ReadByte(); err != nil || b != '\n' {
			return fmt.Errorf("git cat-file: no end after %s", e.path)
		}
	}
	return nil
}

// maxLinkTarget is the longest target a link may have (Linux's PATH_MAX).
const maxLinkTarget = 4096

// writeFile writes one entry: a file with its executable bit, or a symbolic link (as committed:
// the engine does not follow a link out of a datadir).
func (t *revisionTree) writeFile(e treeEntry, content io.Reader, size int64) error {
	path := filepath.Join(t.dir, e.path)
	if err := t.makeParents(e.path); err != nil {
		return err
	}
	if e.mode == "120000" {
		if size > maxLinkTarget {
			return fmt.Errorf("the tree's link %s is %d bytes long, longer than a link may be", filepath.ToSlash(e.path), size)
		}
		target, err := io.ReadAll(content)
		if err != nil {
			return err
		}
		err = os.Symlink(string(target), path) // fails on anything already there, a link included
		if errors.Is(err, fs.ErrExist) {
			return twiceInTree(e.path)
		}
		return err
	}
	perm := os.FileMode(0o600)
	if e.mode == "100755" {
		perm = 0o700
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm) // O_EXCL: never through a link of the tree
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return twiceInTree(e.path)
		}
		return err
	}
	n, err := io.Copy(f, content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n != size {
		err = fmt.Errorf("git cat-file: %s cut short", e.path)
	}
	return err
}

// makeParents makes the directories rel lies in, each one a directory this tree made itself: a
// commit may hold a link and a directory of the same name (git fsck flags it, a clone accepts it),
// and a file written below the link would land wherever it points.
func (t *revisionTree) makeParents(rel string) error {
	parent := filepath.Dir(rel)
	if parent == "." || t.dirs[parent] {
		return nil
	}
	if err := t.makeParents(parent); err != nil {
		return err
	}
	if err := os.Mkdir(filepath.Join(t.dir, parent), 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return twiceInTree(parent)
		}
		return err
	}
	t.dirs[parent] = true
	return nil
}

// twiceInTree is the error of a tree naming path twice: as a directory and as a file or link.
func twiceInTree(path string) error {
	return fmt.Errorf("the tree holds %s twice, as a directory and as a file or link (git fsck reports it): "+
		"nothing is written through it; fix the commit", filepath.ToSlash(path))
}

// git runs git in dir and returns its standard output; an error carries what git said.
func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var exitErr *exec.ExitError
		if msg := strings.TrimSpace(stderr.String()); msg != "" && errors.As(err, &exitErr) {
			return out, errors.New(msg)
		}
		if errors.Is(err, exec.ErrNotFound) {
			return out, errors.New("git is not installed (--git-rev reads revisions with git)")
		}
		return out, err
	}
	return out, nil
}

// revisionSides are the sides of `--git-rev A --git-rev B`: the data paths given (each once, or
// their defaults) mapped into the tree of each revision of the repository they lie in. The facts
// are read where they are. The trees are the caller's to remove, also when err is set.
func revisionSides(ctx context.Context, src *sourceFlags, revs []string) (sides [2]setup, trees []*revisionTree, err error) {
	for _, f := range []struct {
		name string
		list stringList
	}{{"config", src.config}, {"environment", src.environment}, {"environment-dir", src.environmentDir}, {"environmentpath", src.environmentpath}, {"modulepath", src.modulepath}} {
		if len(f.list) > 1 {
			return sides, nil, fmt.Errorf("--%s is given %d times: with --git-rev give it once, each revision's tree is read at that path", f.name, len(f.list))
		}
	}
	var repo string
	var commits [2]string
	for i := range sides {
		if sides[i], err = src.side(i, 2); err != nil {
			return sides, nil, err
		}
		sides[i].setDefaultPaths()
		if repo == "" {
			if repo, err = gitRepository(sides[i].dataPaths()[0]); err != nil {
				return sides, nil, err
			}
		}
		for _, p := range sides[i].dataPaths() {
			if _, err := relativeTo(repo, p); err != nil {
				return sides, nil, err
			}
		}
		if commits[i], err = resolveRevision(repo, revs[i]); err != nil {
			return sides, nil, err
		}
	}
	for i := range sides {
		tree, err := readRevision(ctx, repo, revs[i], commits[i])
		if err != nil {
			return sides, trees, err
		}
		trees = append(trees, tree)
		err = sides[i].mapPaths(func(p string) (string, error) {
			rel, err := relativeTo(repo, p)
			if err != nil {
				return "", err
			}
			mapped := filepath.Join(tree.dir, rel)
			if uncommittedDirectory(p, mapped) {
				return "", fmt.Errorf("%s is a directory here but not in the tree of %s: --git-rev reads only what is committed "+
					"(modules that r10k or a Puppetfile installs are not; commit them, or compare two checkouts with --environmentpath twice)", p, revs[i])
			}
			return mapped, nil
		})
		if err != nil {
			return sides, trees, err
		}
		sides[i].rev = tree
	}
	return sides, trees, nil
}

// uncommittedDirectory says whether path is a directory in the work tree that the revision's tree
// has no directory for (mapped): a modules directory that r10k fills, left out of git. Reading
// the revision without it would answer without its data, silently.
func uncommittedDirectory(path, mapped string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.IsDir() {
		return false
	}
	fi, err = os.Stat(mapped)
	return err != nil || !fi.IsDir()
}

// shown is a path or message of the side's data as the user knows it: a revision's files named
// as git names them (REV:path).
func (t *revisionTree) shown(s string) string {
	if t == nil {
		return s
	}
	s = strings.ReplaceAll(s, t.dir+string(filepath.Separator), t.rev+":")
	return strings.ReplaceAll(s, t.dir, t.rev+":.")
}
