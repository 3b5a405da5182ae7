// "Did you mean": the keys nearest a key that was not found.
package hiera

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Bounds of the search for near keys: it runs on the error path of a lookup, over the keys of the
// data files a node reaches, and must stay cheap on any data.
const (
	maxSuggestionKeys   = 10000 // keys compared at most
	maxSuggestionKeyLen = 128   // longer keys (and a longer key looked for) are not compared
	maxSuggestions      = 3
)

// nearKeys collects the candidates near one key.
type nearKeys struct {
	key      []rune
	limit    int // the largest edit distance suggested
	seen     map[string]bool
	found    []nearKey
	compared int // candidates whose distance was computed (bounded by maxSuggestionKeys)
	rows     [3][]int
}

type nearKey struct {
	key  string
	dist int
}

func newNearKeys(key string) *nearKeys {
	r := []rune(key)
	limit := min(max(len(r)/5, 1), 4)
	if len(r) < 4 { // "gid" is not a typo of "uid"
		limit = 0
	}
	return &nearKeys{key: r, limit: limit, seen: map[string]bool{key: true}}
}

// add considers candidate; it reports false once the bound is reached (no more are considered).
func (n *nearKeys) add(candidate string) bool {
	if n.seen[candidate] || len(n.key) > maxSuggestionKeyLen || len(candidate) > 4*maxSuggestionKeyLen {
		return n.compared < maxSuggestionKeys
	}
	if n.compared >= maxSuggestionKeys {
		return false
	}
	n.seen[candidate] = true
	n.compared++
	key := string(n.key)
	switch {
	case strings.EqualFold(candidate, key):
		n.found = append(n.found, nearKey{candidate, 0})
	case strings.HasSuffix(candidate, "::"+key) || strings.HasSuffix(key, "::"+candidate):
		// the class prefix forgotten, or one too many
		n.found = append(n.found, nearKey{candidate, n.limit})
	default:
		if d, ok := n.distance([]rune(candidate)); ok {
			n.found = append(n.found, nearKey{candidate, d})
		}
	}
	return true
}

// distance is the edit distance from the key to c (insertions, deletions, substitutions and
// transpositions of neighbours, each 1), when it is at most the limit: the computation stops once
// a row exceeds it.
func (n *nearKeys) distance(c []rune) (int, bool) {
	a := n.key
	if d := len(a) - len(c); d > n.limit || -d > n.limit {
		return 0, false
	}
	for i := range n.rows {
		if cap(n.rows[i]) < len(c)+1 {
			n.rows[i] = make([]int, len(c)+1)
		}
		n.rows[i] = n.rows[i][:len(c)+1]
	}
	older, prev, cur := n.rows[0], n.rows[1], n.rows[2]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := i
		for j := 1; j <= len(c); j++ {
			cost := 1
			if a[i-1] == c[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == c[j-2] && a[i-2] == c[j-1] {
				d = min(d, older[j-2]+1)
			}
			cur[j] = d
			best = min(best, d)
		}
		if best > n.limit {
			return 0, false
		}
		older, prev, cur = prev, cur, older
	}
	return prev[len(c)], prev[len(c)] <= n.limit
}

// best returns the nearest candidates, nearest first, then by name.
func (n *nearKeys) best() []string {
	slices.SortFunc(n.found, func(a, b nearKey) int {
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return strings.Compare(a.key, b.key)
	})
	var out []string
	for _, f := range n.found[:min(len(n.found), maxSuggestions)] {
		out = append(out, f.key)
	}
	return out
}

// NearestKeys are the candidates nearest key (at most three, nearest first), as a lookup's "did
// you mean" finds them: a few edits away, or the same key with a class prefix more or less.
func NearestKeys(key string, candidates []string) []string {
	n := newNearKeys(key)
	for _, c := range candidates {
		if !n.add(c) {
			break
		}
	}
	return n.best()
}

// NearestDirs are the directories beside path nearest its last element (at most three, nearest
// first): "did you mean" for a directory a user named that does not exist (an environment). It
// reads path's parent directory, at most maxSuggestionKeys entries.
func NearestDirs(path string) []string {
	dir, name := filepath.Split(filepath.Clean(path))
	if dir == "" {
		dir = "."
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer func() { _ = f.Close() }()
	entries, _ := f.ReadDir(maxSuggestionKeys)
	var names []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	var near []string
	for _, n := range NearestKeys(name, names) {
		near = append(near, filepath.Join(dir, n))
	}
	return near
}
