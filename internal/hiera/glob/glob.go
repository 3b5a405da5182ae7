package glob

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Hiera's glob/globs locations use Ruby's Pathname.glob (Dir.glob, Ruby 3 with sort: true) and then
// drop directories (hiera-semantics.md §2.3). Ruby's order is reproduced exactly:
//   - {a,b} alternatives are expanded first, in written order, and each expanded pattern is
//     globbed on its own (results are concatenated, duplicates kept);
//   - inside one pattern the tree is walked depth first, each directory's entries sorted bytewise,
//     so "a/x.yaml" comes before "a-b.yaml" (not a plain sort of full paths).
// Wildcards (*, ?, [set]) never match a leading dot, nor "." and ".."; "**/" matches zero or more
// directories but does not enter dot directories or follow symlinks, as in Ruby.

// maxGlobPatterns bounds the {a,b} expansion of one glob: a fact of twenty {a,b} groups would make
// a million patterns. Real hierarchies write a handful.
const maxGlobPatterns = 1000

// Error is a pattern or path that cannot be used: Subject names it, Reason says why, Link marks a
// symbolic link leading out (Reason then names where to). A caller whose pattern holds a variable's
// value names its template instead of Subject, and words a Link itself: the paths may show the value.
type Error struct {
	Subject, Reason string
	Link            bool
}

func (e *Error) Error() string { return e.Subject + " " + e.Reason }

func patternError(pattern, reason string) *Error {
	return &Error{Subject: fmt.Sprintf("glob pattern %q", pattern), Reason: reason}
}

// Expand returns the regular files matching the absolute pattern, in Puppet's order. root is
// the directory the lookup is confined to: a match outside root (via "..") is an error, never read,
// and no directory outside root is listed.
func Expand(pattern, root string) ([]string, error) { return expand(pattern, root, false) }

// Directories returns the directories matching the absolute pattern, in Ruby's order: Puppet's
// environment.conf modulepath expands its globs with Dir.glob and keeps what it finds.
func Directories(pattern string) ([]string, error) { return expand(pattern, "/", true) }

func expand(pattern, root string, dirs bool) ([]string, error) {
	root = filepath.Clean(root)
	budget := maxGlobPatterns
	patterns := globBraces(pattern, &budget)
	if budget < 0 {
		return nil, patternError(pattern, fmt.Sprintf("expands to more than %d patterns through its {a,b} alternatives", maxGlobPatterns))
	}
	var out []string
	for _, p := range patterns {
		if !strings.HasPrefix(p, "/") {
			return nil, patternError(pattern, "is not an absolute path")
		}
		// Refuse a pattern that leads outside root before touching the file system, so that the
		// answer does not depend on what exists there ("{x,../../secret}" is only seen here).
		if !Within(filepath.Clean(p), root) {
			return nil, patternError(pattern, fmt.Sprintf("escapes the data directory %q", root))
		}
		if strings.HasSuffix(p, "/") && !dirs {
			continue // matches directories only, and Hiera drops those
		}
		g := &globber{pattern: pattern, root: root, segs: globSegments(p), dirs: dirs}
		if err := g.walk("/", []int{0}); err != nil {
			return nil, err
		}
		out = append(out, g.out...)
	}
	return out, nil
}

// Confine cleans p (absolute) and returns an error if it lies outside root, by its text or
// once symbolic links are resolved: a link below root may not lead a fact's path out of it.
func Confine(p, root string) (string, error) {
	clean, root := filepath.Clean(p), filepath.Clean(root)
	if !Within(clean, root) {
		return "", &Error{Subject: fmt.Sprintf("path %q", p), Reason: fmt.Sprintf("escapes the data directory %q", root)}
	}
	if root == "/" || !linkBelow(clean, root) {
		return clean, nil
	}
	if resolved, realRoot := resolveExisting(clean), resolveExisting(root); !Within(resolved, realRoot) {
		return "", &Error{Subject: fmt.Sprintf("path %q", p), Reason: fmt.Sprintf("leads through a symbolic link to %s, outside the data directory %q", resolved, root), Link: true}
	}
	return clean, nil
}

// linkBelow reports whether a symbolic link is among the existing parts of p below root (p clean
// and within root). Without one, p's real path is root's real path followed by the same parts, so p
// is confined whatever root resolves to: the common case costs one Lstat per part below root (one
// for a fact's file name) instead of resolving both paths from "/".
func linkBelow(p, root string) bool {
	for i := len(root) + 1; i <= len(p); i++ {
		if i < len(p) && p[i] != '/' {
			continue
		}
		fi, err := os.Lstat(p[:i])
		if err != nil {
			return false // this part and the ones after it do not exist (or cannot be looked at)
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return true
		}
	}
	return false
}

// resolveExisting resolves the symbolic links of the longest existing leading part of p (a clean
// absolute path) and appends the rest: a file that does not exist yet resolves through its directory.
func resolveExisting(p string) string {
	rest := ""
	for dir := p; ; dir = filepath.Dir(dir) {
		if resolved, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(resolved, rest)
		}
		if dir == "/" || dir == "." {
			return p
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}

func Within(p, root string) bool {
	return root == "/" || p == root || strings.HasPrefix(p, root+"/")
}

// globSeg is one '/'-separated part of a pattern.
type globSeg struct {
	text      string // unescaped text when plain, the raw pattern otherwise
	magic     bool   // contains *, ? or [
	recursive bool   // "**" followed by more segments
}

func globSegments(p string) []globSeg {
	var segs []globSeg
	parts := strings.Split(p, "/")
	for i, part := range parts {
		switch {
		case part == "":
			// "//" and the leading "/"
		case part == "**" && i < len(parts)-1:
			// Ruby folds consecutive "**/" into one ("a/**/**/*.yaml" is "a/**/*.yaml")
			if len(segs) == 0 || !segs[len(segs)-1].recursive {
				segs = append(segs, globSeg{text: part, recursive: true})
			}
		case globHasMagic(part):
			segs = append(segs, globSeg{text: part, magic: true})
		default:
			segs = append(segs, globSeg{text: globUnescape(part)})
		}
	}
	return segs
}

type globber struct {
	pattern string
	root    string
	segs    []globSeg
	dirs    bool // yield directories instead of files
	out     []string
}

// walk is Ruby's glob_helper: positions are the indexes of the pattern segments still to be
// matched below path (len(segs) means the path itself matched).
func (g *globber) walk(path string, positions []int) error {
	matched := false
	var cur, recs []int
	for _, pos := range positions {
		if pos < len(g.segs) && g.segs[pos].recursive {
			recs = append(recs, pos)
			pos++ // "**/" may also match zero directories
		}
		if pos == len(g.segs) {
			matched = true
		} else {
			cur = append(cur, pos)
		}
	}
	if matched {
		if err := g.yield(path); err != nil {
			return err
		}
	}
	magic := len(recs) > 0
	for _, pos := range cur {
		magic = magic || g.segs[pos].magic
	}
	if !magic {
		return g.walkPlain(path, cur)
	}
	if !Within(filepath.Clean(path), g.root) {
		return patternError(g.pattern, fmt.Sprintf("escapes the data directory %q", g.root))
	}
	entries, readErr := os.ReadDir(path)
	if readErr != nil {
		entries = nil // like Ruby, an unreadable or missing directory just has no matches
	}
	for _, e := range entries {
		name := e.Name()
		var next []int
		if len(recs) > 0 && e.IsDir() && !strings.HasPrefix(name, ".") {
			next = append(next, recs...)
		}
		for _, pos := range cur {
			s := g.segs[pos]
			if (s.magic && match(s.text, name)) || (!s.magic && s.text == name) {
				next = append(next, pos+1)
			}
		}
		if len(next) > 0 {
			if err := g.walk(globJoin(path, name), next); err != nil {
				return err
			}
		}
	}
	return nil
}

// walkPlain descends into literal names without listing the directory.
func (g *globber) walkPlain(path string, cur []int) error {
	done := map[string]bool{}
	for _, pos := range cur {
		name := g.segs[pos].text
		if done[name] {
			continue
		}
		done[name] = true
		var next []int
		for _, p := range cur {
			if g.segs[p].text == name {
				next = append(next, p+1)
			}
		}
		child := globJoin(path, name)
		if _, err := os.Lstat(child); err != nil {
			continue
		}
		if err := g.walk(child, next); err != nil {
			return err
		}
	}
	return nil
}

// yield records a matched path unless it is a directory (Puppet rejects path.directory?), or only
// directories when the globber is set to.
func (g *globber) yield(path string) error {
	fi, statErr := os.Lstat(path)
	if statErr != nil {
		return nil //nolint:nilerr // vanished or unreadable: no match, as in Ruby
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		if target, err := os.Stat(path); err == nil {
			fi = target // a link to a directory is a directory; a dangling one is a match
		}
	}
	if fi.IsDir() != g.dirs {
		return nil
	}
	clean, err := Confine(path, g.root)
	if err != nil {
		return err
	}
	g.out = append(g.out, clean)
	return nil
}

func globJoin(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

func globHasMagic(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return true
		}
	}
	return false
}

func globUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// globBraces is Ruby's ruby_brace_expand: the first top-level {...} is expanded, each
// alternative in written order, recursively. Unbalanced braces are left as literal text.
func globBraces(p string, budget *int) []string {
	if *budget < 0 {
		return nil
	}
	lb, rb, nest := -1, -1, 0
	for i := 0; i < len(p) && rb < 0; i++ {
		switch p[i] {
		case '{':
			if nest == 0 {
				lb = i
			}
			nest++
		case '}':
			if lb >= 0 {
				if nest--; nest == 0 {
					rb = i
				}
			}
		case '\\':
			i++
		}
	}
	if lb < 0 || rb < 0 {
		*budget--
		return []string{p}
	}
	var out []string
	start := lb + 1
	nest = 0
	for i := lb + 1; i <= rb; i++ {
		c := p[i]
		if i == rb || (c == ',' && nest == 0) {
			out = append(out, globBraces(p[:lb]+p[start:i]+p[rb+1:], budget)...)
			start = i + 1
			continue
		}
		switch c {
		case '{':
			nest++
		case '}':
			nest--
		case '\\':
			if i+1 < rb {
				i++
			}
		}
	}
	return out
}

// match is Ruby's fnmatch for one path component with FNM_PERIOD: *, ?, [set], [!set],
// [^set] and backslash escapes; a leading dot in name must be matched by a literal dot.
func match(pat, name string) bool {
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(strings.TrimPrefix(pat, `\`), ".") {
		return false
	}
	pi, si := 0, 0
	starP, starS := -1, -1
	for si < len(name) {
		if pi < len(pat) {
			sr, sw := utf8.DecodeRuneInString(name[si:])
			switch pat[pi] {
			case '*':
				starP, starS = pi, si
				pi++
				continue
			case '?':
				pi++
				si += sw
				continue
			case '[':
				if end, ok := globClass(pat, pi, sr); ok {
					pi = end
					si += sw
					continue
				}
			default:
				q := pi
				if pat[q] == '\\' && q+1 < len(pat) {
					q++
				}
				pr, pw := utf8.DecodeRuneInString(pat[q:])
				if pr == sr {
					pi = q + pw
					si += sw
					continue
				}
			}
		}
		if starP < 0 {
			return false
		}
		_, w := utf8.DecodeRuneInString(name[starS:])
		starS += w
		si, pi = starS, starP+1
	}
	for pi < len(pat) && pat[pi] == '*' {
		pi++
	}
	return pi == len(pat)
}

// globClass matches r against the bracket expression starting at pat[start] ('['). It returns the
// index after the closing ']' and whether r matched; a set without ']' never matches.
func globClass(pat string, start int, r rune) (int, bool) {
	p := start + 1
	negate := p < len(pat) && (pat[p] == '!' || pat[p] == '^')
	if negate {
		p++
	}
	found := false
	for p < len(pat) && pat[p] != ']' {
		lo, n := globClassChar(pat, p)
		p += n
		hi := lo
		if p+1 < len(pat) && pat[p] == '-' && pat[p+1] != ']' {
			hi, n = globClassChar(pat, p+1)
			p += 1 + n
		}
		if lo <= r && r <= hi {
			found = true
		}
	}
	if p >= len(pat) {
		return 0, false
	}
	return p + 1, found != negate
}

func globClassChar(pat string, p int) (rune, int) {
	if pat[p] == '\\' && p+1 < len(pat) {
		r, w := utf8.DecodeRuneInString(pat[p+1:])
		return r, 1 + w
	}
	return utf8.DecodeRuneInString(pat[p:])
}
