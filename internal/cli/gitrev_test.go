package cli

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// gitRepo makes dir a git repository with its files committed ("first"), and returns a function
// that commits the work tree as it is then.
func gitRepo(t *testing.T, dir string) (commit func(message string)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	runGit(t, dir, "init", "-q", "-b", "main")
	commit = func(message string) {
		runGit(t, dir, "add", "-A")
		runGit(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", message)
	}
	commit("first")
	return commit
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_OPTIONAL_LOCKS=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// As a CI job runs it: two revisions of the repository compared as committed, whatever the work
// tree holds, the checkout untouched, the files named as git names them, nothing left behind.
func TestDiffGitRevisions(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	repo := siteDir(t)
	commit := gitRepo(t, repo)
	must(t, os.WriteFile(filepath.Join(repo, "data", "nodes", "web01.example.com.yaml"), []byte("port: 8443\n"), 0o644))
	must(t, os.Rename(filepath.Join(repo, "data", "os", "Debian.yaml"), filepath.Join(repo, "data", "os", "debian.yaml")))
	commit("second")
	// The work tree differs from both revisions: it must not be what is read.
	must(t, os.WriteFile(filepath.Join(repo, "data", "common.yaml"), []byte("greeting: [unclosed\n"), 0o644))
	status := runGit(t, repo, "status", "--porcelain")
	index, err := os.Stat(filepath.Join(repo, ".git", "index"))
	must(t, err)

	args := []string{"diff", "--git-rev", "main~1", "--git-rev", "main", "--config", filepath.Join(repo, "hiera.yaml"),
		"--facts", filepath.Join(repo, "web01.json")}
	rc, out, errOut := run(t, args...)
	if rc != 1 {
		t.Fatalf("rc %d (stderr %q), want 1", rc, errOut)
	}
	for _, w := range []string{"left:  git revision main~1, main~1:hiera.yaml", "right: git revision main, main:hiera.yaml",
		"changed  port", "8080", "8443", "main~1:data/nodes/web01.example.com.yaml", "main:data/nodes/web01.example.com.yaml",
		"removed  packages", "main~1:data/os/Debian.yaml", "2 keys differ"} {
		if !strings.Contains(out, w) {
			t.Errorf("the table does not show %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, tmp) || strings.Contains(out, "greeting") {
		t.Errorf("the output names the temporary tree or reads the work tree:\n%s", out)
	}
	// A repository that is an environment (r10k's control repository): the environment directory is
	// the repository, its parent outside it; the environment keeps its name.
	rc, out, errOut = run(t, "diff", "--git-rev", "main~1", "--git-rev", "main", "--environmentpath", filepath.Dir(repo),
		"--environment", filepath.Base(repo), "--facts", filepath.Join(repo, "web01.json"))
	if rc != 1 || !strings.Contains(out, "changed  port") || !strings.Contains(out, "main:data/nodes/web01.example.com.yaml") ||
		!strings.Contains(out, "environment "+filepath.Base(repo)) {
		t.Errorf("the repository as the environment: rc %d, %s%s", rc, out, errOut)
	}
	// Relative paths, from inside the repository, as a CI job gives them; outside any repository.
	outside := t.TempDir()
	cmdDir, _ := os.Getwd()
	t.Chdir(repo)
	rc, out, errOut = run(t, "diff", "--git-rev", "HEAD", "--git-rev", "HEAD", "--facts", "web01.json")
	t.Chdir(outside)
	rcOutside, _, errOutside := run(t, "diff", "--git-rev", "HEAD", "--git-rev", "HEAD", "--facts", filepath.Join(repo, "web01.json"))
	t.Chdir(cmdDir)
	if rc != 0 || !strings.Contains(out, "no differences between git revision HEAD, HEAD:hiera.yaml") {
		t.Errorf("one revision twice, default hiera.yaml: rc %d, %s%s", rc, out, errOut)
	}
	if rcOutside != 2 || !strings.Contains(errOutside, "hiera.yaml is not in a git repository") {
		t.Errorf("outside any repository: rc %d, %s", rcOutside, errOutside)
	}

	if fi, err := os.Stat(filepath.Join(repo, ".git", "index")); err != nil || !fi.ModTime().Equal(index.ModTime()) {
		t.Errorf("the index was written")
	}
	if after := runGit(t, repo, "status", "--porcelain"); after != status {
		t.Errorf("git status changed:\n%s\nwas\n%s", after, status)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "hieraform-rev-*")); len(left) > 0 {
		t.Errorf("temporary trees left behind: %v", left)
	}

	untracked := filepath.Join(repo, "modules")
	must(t, os.MkdirAll(filepath.Join(untracked, "ntp"), 0o755))
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no such revision", []string{"--git-rev", "main", "--git-rev", "nope"}, "--git-rev nope: no such commit in the git repository " + realPath(t, repo)},
		{"once", []string{"--git-rev", "main"}, "--git-rev is given 1 times: give it twice"},
		{"an option", []string{"--git-rev", "main", "--git-rev", "--output=x"}, "a revision does not start with '-'"},
		{"config twice", []string{"--git-rev", "main", "--git-rev", "main", "--config", "b"}, "--config is given 2 times: with --git-rev give it once"},
		{"a path outside", []string{"--git-rev", "main", "--git-rev", "main", "--modulepath", outside}, outside + " is outside the git repository"},
		{"a directory git does not hold", []string{"--git-rev", "main", "--git-rev", "main", "--modulepath", untracked},
			untracked + " is a directory here but not in the tree of main: --git-rev reads only what is committed"},
		{"a revision's file that is not there", []string{"--git-rev", "main", "--git-rev", "main", "--environment", "production",
			"--environmentpath", filepath.Join(repo, "environments")},
			"Could not find a directory environment named 'production' anywhere in the path: main:environments"},
	} {
		// --config given first: a test must never read the project's own repository
		args := append([]string{"diff", "--facts", filepath.Join(repo, "web01.json"), "--config", filepath.Join(repo, "hiera.yaml")}, c.args...)
		if rc, _, errOut := run(t, args...); rc != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: rc %d, stderr %q, want 2 and %q", c.name, rc, errOut, c.want)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "hieraform-rev-*")); len(left) > 0 {
		t.Errorf("temporary trees left behind after errors: %v", left)
	}
}

// realPath is path with its symbolic links resolved, as git names its top directory.
func realPath(t *testing.T, path string) string {
	t.Helper()
	p, err := filepath.EvalSymlinks(path)
	must(t, err)
	return p
}

// Every kind of entry a tree holds comes out as committed: nested files, an executable, a
// symbolic link, a file the work tree deleted; a submodule is left out.
func TestReadRevision(t *testing.T) {
	repo := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(repo, "a", "b"), 0o755))
	must(t, os.WriteFile(filepath.Join(repo, "a", "b", "c.yaml"), []byte("x: 1\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(repo, "run.sh"), []byte("#!/bin/sh\n"), 0o755))
	must(t, os.Symlink("a/b/c.yaml", filepath.Join(repo, "link.yaml")))
	must(t, os.WriteFile(filepath.Join(repo, "empty"), nil, 0o644))
	gitRepo(t, repo)
	must(t, os.Remove(filepath.Join(repo, "a", "b", "c.yaml")))
	commit, err := resolveRevision(realPath(t, repo), "HEAD")
	must(t, err)
	tree, err := readRevision(context.Background(), realPath(t, repo), "HEAD", commit)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.remove()
	if b, err := os.ReadFile(filepath.Join(tree.dir, "link.yaml")); err != nil || string(b) != "x: 1\n" {
		t.Errorf("link.yaml through the link: %q, %v", b, err)
	}
	if target, err := os.Readlink(filepath.Join(tree.dir, "link.yaml")); err != nil || target != "a/b/c.yaml" {
		t.Errorf("link.yaml is not the committed link: %q, %v", target, err)
	}
	if fi, err := os.Stat(filepath.Join(tree.dir, "run.sh")); err != nil || fi.Mode()&0o100 == 0 {
		t.Errorf("run.sh is not executable: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(tree.dir, "empty")); err != nil || fi.Size() != 0 {
		t.Errorf("empty: %v", err)
	}
	if got := tree.shown(filepath.Join(tree.dir, "a", "b", "c.yaml") + ": line 1"); got != "HEAD:a/b/c.yaml: line 1" {
		t.Errorf("shown: %q", got)
	}
}

// A commit whose tree holds a link and a directory of the same name (git fsck flags it, a clone
// accepts it): the directory's files would be written wherever the link points (an executable git
// hook of another repository). Nothing is written outside the temporary tree, both orders.
func TestReadRevisionLinkAndDirectoryOfOneName(t *testing.T) {
	repo := t.TempDir()
	must(t, os.WriteFile(filepath.Join(repo, "common.yaml"), []byte("x: 1\n"), 0o644))
	gitRepo(t, repo)
	hash := func(content string) string {
		cmd := exec.Command("git", "hash-object", "-w", "--stdin")
		cmd.Dir = repo
		cmd.Stdin = strings.NewReader(content)
		out, err := cmd.Output()
		must(t, err)
		return strings.TrimSpace(string(out))
	}
	mktree := func(lines ...string) string {
		cmd := exec.Command("git", "mktree")
		cmd.Dir = repo
		cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
		out, err := cmd.Output()
		must(t, err)
		return strings.TrimSpace(string(out))
	}
	// rawTree writes a tree of the entries in the order given: git mktree sorts them, and sorted a
	// link comes before the directory of its name ("hooks" < "hooks/").
	rawTree := func(entries ...[3]string) string {
		var raw bytes.Buffer
		for _, e := range entries {
			object, err := hex.DecodeString(e[2])
			must(t, err)
			raw.WriteString(e[0] + " " + e[1] + "\x00")
			raw.Write(object)
		}
		cmd := exec.Command("git", "hash-object", "-t", "tree", "-w", "--literally", "--stdin")
		cmd.Dir = repo
		cmd.Stdin = &raw
		out, err := cmd.Output()
		must(t, err)
		return strings.TrimSpace(string(out))
	}
	hooks := mktree("100755 blob " + hash("#!/bin/sh\necho owned\n") + "\tpost-checkout")
	for _, linkFirst := range []bool{true, false} {
		t.Run(fmt.Sprintf("link first %v", linkFirst), func(t *testing.T) {
			victim := t.TempDir()
			link, dir := [3]string{"120000", "hooks", hash(victim)}, [3]string{"40000", "hooks", hooks}
			tree := rawTree(link, dir)
			if !linkFirst {
				tree = rawTree(dir, link)
			}
			if order := runGit(t, repo, "ls-tree", "--name-only", "-r", tree); linkFirst != strings.HasPrefix(order, "hooks\n") {
				t.Fatalf("the tree lists %q", order)
			}
			commit := strings.TrimSpace(runGit(t, repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit-tree", "-m", "crafted", tree))
			rt, err := readRevision(context.Background(), realPath(t, repo), "crafted", commit)
			if err == nil {
				rt.remove()
			}
			if err == nil || !strings.Contains(err.Error(), "the tree holds hooks twice, as a directory and as a file or link") {
				t.Errorf("err = %v, want the tree refused", err)
			}
			if written, _ := os.ReadDir(victim); len(written) > 0 {
				t.Errorf("written through the link into %s: %v", victim, written[0].Name())
			}
		})
	}
}

// An interrupt or a kill while a diff of revisions runs removes the revisions' temporary trees, as
// any other end does. The diff runs in a child process of this test, which the signal would kill.
func TestDiffGitRevisionsSignalRemovesTrees(t *testing.T) {
	if sig := os.Getenv("HIERAFORM_TEST_DIFF_SIGNAL"); sig != "" {
		repo := siteDir(t)
		gitRepo(t, repo)
		afterRevisionsRead = func(ctx context.Context) {
			self, err := os.FindProcess(os.Getpid())
			must(t, err)
			must(t, self.Signal(map[string]syscall.Signal{"INT": syscall.SIGINT, "TERM": syscall.SIGTERM, "HUP": syscall.SIGHUP}[sig]))
			<-ctx.Done() // the signal arrives
		}
		rc, _, errOut := run(t, "diff", "--git-rev", "HEAD", "--git-rev", "HEAD", "--config", filepath.Join(repo, "hiera.yaml"),
			"--facts", filepath.Join(repo, "web01.json"))
		if rc != 2 || !strings.Contains(errOut, "interrupted: nothing compared, the temporary trees removed") {
			t.Errorf("exit %d, %q; want 2, interrupted", rc, errOut)
		}
		return
	}
	for _, sig := range []string{"INT", "TERM", "HUP"} {
		t.Run(sig, func(t *testing.T) {
			tmp := t.TempDir()
			child := exec.Command(os.Args[0], "-test.run=^TestDiffGitRevisionsSignalRemovesTrees$")
			child.Env = append(os.Environ(), "HIERAFORM_TEST_DIFF_SIGNAL="+sig, "TMPDIR="+tmp)
			out, err := child.CombinedOutput()
			if err != nil {
				t.Errorf("the diff on SIG%s: %v\n%s", sig, err, out)
			}
			if left, _ := filepath.Glob(filepath.Join(tmp, "hieraform-rev-*")); len(left) > 0 {
				t.Errorf("temporary trees left behind: %v", left)
			}
		})
	}
}
