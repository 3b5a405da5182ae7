package glob

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// globTree creates files (and directories for names ending in "/") under a new temp dir.
func globTree(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		p := filepath.Join(dir, n)
		if strings.HasSuffix(n, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x: 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestExpandGlob(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		files   []string
		pattern string // relative to the tree's data dir
		want    []string
		wantErr string
	}{
		// edge-cfg-glob-braces: alternatives keep the written order.
		"braces-order": {files: []string{"z.yaml", "y.yaml"}, pattern: "{z,y}.yaml", want: []string{"z.yaml", "y.yaml"}},
		// edge-cfg-glob-merge and edge-cfg-glob-order: wildcard matches are sorted.
		"sorted": {files: []string{"conf.d/b.yaml", "conf.d/a.yaml", "conf.d/c.yaml"}, pattern: "conf.d/*.yaml",
			want: []string{"conf.d/a.yaml", "conf.d/b.yaml", "conf.d/c.yaml"}},
		// edge-cfg-glob-doublestar.
		"doublestar": {files: []string{"nodes/x/y/deep.yaml", "nodes/top.yaml"}, pattern: "nodes/**/*.yaml",
			want: []string{"nodes/top.yaml", "nodes/x/y/deep.yaml"}},
		// Ruby folds consecutive "**/" (ruby -e 'p Dir.glob("nodes/**/**/*.yaml")' in this tree)
		"doublestar-twice": {files: []string{"nodes/x/y/deep.yaml", "nodes/top.yaml"}, pattern: "nodes/**/**/*.yaml",
			want: []string{"nodes/top.yaml", "nodes/x/y/deep.yaml"}},
		"doublestar-thrice-slashes": {files: []string{"nodes/x/y/deep.yaml", "nodes/top.yaml"}, pattern: "nodes/**//**/**/*.yaml",
			want: []string{"nodes/top.yaml", "nodes/x/y/deep.yaml"}},
		"doublestar-depth-first": {files: []string{"a-b.yaml", "a/x.yaml"}, pattern: "**/*.yaml",
			want: []string{"a/x.yaml", "a-b.yaml"}},
		"doublestar-skips-dotdirs": {files: []string{".git/x.yaml", "v/x.yaml"}, pattern: "**/x.yaml", want: []string{"v/x.yaml"}},
		// edge-cfg-glob-dir-skipped: directories are dropped.
		"dir-skipped":   {files: []string{"g/sub/", "g/file"}, pattern: "g/*", want: []string{"g/file"}},
		"dotfiles":      {files: []string{".hidden.yaml", "shown.yaml"}, pattern: "*.yaml", want: []string{"shown.yaml"}},
		"dot-explicit":  {files: []string{".hidden.yaml", "shown.yaml"}, pattern: ".*.yaml", want: []string{".hidden.yaml"}},
		"question":      {files: []string{"a1.yaml", "a22.yaml"}, pattern: "a?.yaml", want: []string{"a1.yaml"}},
		"set":           {files: []string{"a.yaml", "b.yaml", "c.yaml"}, pattern: "[ab].yaml", want: []string{"a.yaml", "b.yaml"}},
		"range":         {files: []string{"a.yaml", "b.yaml", "c.yaml"}, pattern: "[b-c].yaml", want: []string{"b.yaml", "c.yaml"}},
		"negated-bang":  {files: []string{"a.yaml", "b.yaml"}, pattern: "[!a].yaml", want: []string{"b.yaml"}},
		"negated-caret": {files: []string{"a.yaml", "b.yaml"}, pattern: "[^a].yaml", want: []string{"b.yaml"}},
		"escape":        {files: []string{"*.yaml", "a.yaml"}, pattern: `\*.yaml`, want: []string{"*.yaml"}},
		"nested-braces": {files: []string{"a.yaml", "b1.yaml", "b2.yaml"}, pattern: "{a,b{2,1}}.yaml",
			want: []string{"a.yaml", "b2.yaml", "b1.yaml"}},
		"brace-duplicates": {files: []string{"a.yaml"}, pattern: "{a,a}.yaml", want: []string{"a.yaml", "a.yaml"}},
		"brace-unbalanced": {files: []string{"{a.yaml"}, pattern: "{a.yaml", want: []string{"{a.yaml"}},
		"brace-each-sorted": {files: []string{"x/b.yaml", "x/a.yaml", "w/c.yaml"}, pattern: "{x,w}/*.yaml",
			want: []string{"x/a.yaml", "x/b.yaml", "w/c.yaml"}},
		"literal":        {files: []string{"common.yaml"}, pattern: "common.yaml", want: []string{"common.yaml"}},
		"missing":        {files: []string{"common.yaml"}, pattern: "nodes/*.yaml", want: nil},
		"trailing-slash": {files: []string{"d/"}, pattern: "*/", want: nil},
		"star-star-last": {files: []string{"a.yaml", "d/b.yaml"}, pattern: "**", want: []string{"a.yaml"}},
		"dotdot-inside":  {files: []string{"a/x.yaml"}, pattern: "a/../a/*.yaml", want: []string{"a/x.yaml"}},
		"escape-magic":   {files: []string{"a.yaml"}, pattern: "../*.yaml", wantErr: "escapes the data directory"},
		"escape-literal": {files: []string{"a.yaml"}, pattern: "../data/../outside.yaml", wantErr: "escapes the data directory"},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			base := globTree(t, append([]string{"outside.yaml"}, prefixAll("data/", tc.files)...)...)
			root := filepath.Join(base, "data")
			got, err := Expand(root+"/"+tc.pattern, root)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Expand(%q) error = %v, want %q", tc.pattern, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Expand(%q) unexpected error %v", tc.pattern, err)
			}
			var rel []string
			for _, p := range got {
				rel = append(rel, strings.TrimPrefix(p, root+"/"))
			}
			if !reflect.DeepEqual(rel, tc.want) {
				t.Errorf("Expand(%q) = %q, want %q", tc.pattern, rel, tc.want)
			}
		})
	}
}

func prefixAll(prefix string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

func TestExpandGlobSymlinkNotFollowedByDoublestar(t *testing.T) {
	t.Parallel()
	base := globTree(t, "data/real/x.yaml", "other/y/x.yaml")
	root := filepath.Join(base, "data")
	if err := os.Symlink(filepath.Join(base, "other"), filepath.Join(root, "link")); err != nil {
		t.Skip("symlinks not supported:", err)
	}
	got, err := Expand(root+"/**/x.yaml", root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{root + "/real/x.yaml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestExpandGlobRelativePattern(t *testing.T) {
	t.Parallel()
	if _, err := Expand("data/*.yaml", "/tmp"); err == nil {
		t.Error("a relative pattern must be rejected")
	}
}

func TestGlobMatch(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		pat, name string
		want      bool
	}{
		"star":            {"*.yaml", "a.yaml", true},
		"star-empty":      {"*", "", true},
		"star-no-dot":     {"*", ".a", false},
		"question-no-dot": {"?a", ".a", false},
		"escaped-dot":     {`\.a`, ".a", true},
		"set-no-dot":      {"[.]a", ".a", false},
		"multi-star":      {"a*b*c", "axxbyyc", true},
		"backtrack":       {"*ab", "aab", true},
		"unicode":         {"?.yaml", "é.yaml", true},
		"unterminated":    {"[ab", "a", false},
		"escape-in-set":   {`[\]]`, "]", true},
		"trailing-bslash": {`a\`, `a\`, true},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := match(tc.pat, tc.name); got != tc.want {
				t.Errorf("globMatch(%q, %q) = %v, want %v", tc.pat, tc.name, got, tc.want)
			}
		})
	}
}

func TestConfinedPath(t *testing.T) {
	t.Parallel()
	testCases := map[string]struct {
		p, root string
		want    string
		wantErr bool
	}{
		"inside":         {p: "/r/data/a.yaml", root: "/r/data", want: "/r/data/a.yaml"},
		"root-itself":    {p: "/r/data", root: "/r/data", want: "/r/data"},
		"cleaned":        {p: "/r/data/x/../a.yaml", root: "/r/data/", want: "/r/data/a.yaml"},
		"dotdot-escape":  {p: "/r/data/../b.yaml", root: "/r/data", wantErr: true},
		"sibling-prefix": {p: "/r/database/a.yaml", root: "/r/data", wantErr: true},
		"slash-root":     {p: "/etc/x", root: "/", want: "/etc/x"},
		"relative":       {p: "a.yaml", root: "/r/data", wantErr: true},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, err := Confine(tc.p, tc.root)
			if tc.wantErr {
				want := `path "` + tc.p + `" escapes the data directory "` + tc.root + `"`
				if err == nil || err.Error() != want {
					t.Fatalf("Confine(%q) error = %v, want %q", tc.p, err, want)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("Confine(%q) = %q, %v; want %q", tc.p, got, err, tc.want)
			}
		})
	}
}

// TestConfinedPathLinks: symbolic links below the root are refused when they lead out of it, at any
// depth and to a directory or a file, and allowed when they stay in it; a link at or above the root
// (the author's) is allowed; missing parts are no error.
func TestConfinedPathLinks(t *testing.T) {
	t.Parallel()
	outside, top := t.TempDir(), t.TempDir()
	nodes := filepath.Join(top, "nodes")
	for _, f := range []string{filepath.Join(outside, "secret.yaml"), filepath.Join(nodes, "real", "a.yaml")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("a: 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"nodes/inside": "real", "nodes/file.yaml": "real/a.yaml", "nodes/evil": outside,
		"nodes/real/deep": outside, "nodes/evil.yaml": filepath.Join(outside, "secret.yaml"), "linked": outside,
	} {
		if err := os.Symlink(target, filepath.Join(top, link)); err != nil {
			t.Fatal(err)
		}
	}
	testCases := map[string]struct {
		p, root string
		escapes bool
	}{
		"plain":               {p: "nodes/real/a.yaml", root: "nodes"},
		"link-inside":         {p: "nodes/inside/a.yaml", root: "nodes"},
		"file-link-inside":    {p: "nodes/file.yaml", root: "nodes"},
		"dir-link-out":        {p: "nodes/evil/secret.yaml", root: "nodes", escapes: true},
		"deep-dir-link-out":   {p: "nodes/real/deep/secret.yaml", root: "nodes", escapes: true},
		"file-link-out":       {p: "nodes/evil.yaml", root: "nodes", escapes: true},
		"link-out-missing":    {p: "nodes/evil/none.yaml", root: "nodes", escapes: true},
		"root-is-link":        {p: "linked/secret.yaml", root: "linked"},
		"missing-dir":         {p: "nodes/none/x.yaml", root: "nodes"},
		"under-a-file":        {p: "nodes/real/a.yaml/x", root: "nodes"},
		"missing-root":        {p: "none/x.yaml", root: "none"},
		"link-is-the-root":    {p: "nodes/evil", root: "nodes/evil"},
		"root-above-the-link": {p: "nodes/evil", root: "nodes", escapes: true},
	}
	for name, tc := range testCases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p, root := filepath.Join(top, tc.p), filepath.Join(top, tc.root)
			got, err := Confine(p, root)
			if tc.escapes {
				if err == nil || !strings.Contains(err.Error(), "leads through a symbolic link to "+outside) {
					t.Fatalf("Confine(%s) = %q, %v; want an escape through a link", tc.p, got, err)
				}
				return
			}
			if err != nil || got != p {
				t.Errorf("Confine(%s) = %q, %v; want %q", tc.p, got, err, p)
			}
		})
	}
}

// TestExpandGlobAgainstRuby asks Ruby's Dir.glob (installed with Puppet) for the same patterns
// over one tree; Hiera drops the directories Ruby returns.
func TestExpandGlobAgainstRuby(t *testing.T) {
	t.Parallel()
	ruby, err := exec.LookPath("ruby")
	if err != nil {
		t.Skip("ruby not installed")
	}
	dir := globTree(t, "nodes/top.yaml", "nodes/a/y.yaml", "nodes/a/b/z.yaml", "nodes/c/w.yaml", "nodes/a-b.yaml",
		"nodes/.dot/h.yaml", "nodes/e/")
	patterns := []string{"nodes/**/*.yaml", "nodes/**/**/*.yaml", "nodes/**/**/**/*.yaml", "nodes/**//**/*.yaml",
		"nodes/**/a/**/*.yaml", "nodes/**/b/**/**/*.yaml", "**/**/*.yaml", "nodes/**", "nodes/**/**", "nodes/a**/*.yaml",
		"nodes/{a,c}/**/**/*.yaml"}
	// one Ruby for all patterns: a line of space-separated matches per pattern
	script := `Dir.chdir(ARGV.shift); ARGV.each { |p| puts Dir.glob(p).reject { |f| File.directory?(f) }.join(" ") }`
	out, err := exec.Command(ruby, append([]string{"-e", script, dir}, patterns...)...).Output()
	if err != nil {
		t.Fatalf("ruby: %v", err)
	}
	answers := strings.Split(string(out), "\n")
	if len(answers) < len(patterns) {
		t.Fatalf("ruby answered %d of %d patterns: %q", len(answers), len(patterns), out)
	}
	for i, pattern := range patterns {
		want := strings.Fields(answers[i])
		got, err := Expand(filepath.Join(dir, pattern), dir)
		if err != nil {
			t.Fatalf("%s: %v", pattern, err)
		}
		for i := range got {
			got[i] = strings.TrimPrefix(got[i], dir+"/")
		}
		if !reflect.DeepEqual(got, want) && (len(got) > 0 || len(want) > 0) {
			t.Errorf("%s: got %q, Ruby %q", pattern, got, want)
		}
	}
}
