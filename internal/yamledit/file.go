package yamledit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"gopkg.in/yaml.v3"
)

// File is a YAML data file being edited: its text, and where each root key's entry starts and
// ends in it. Every edit keeps the bytes outside the entry it changes.
type File struct {
	name    string
	src     []byte
	nl      string // the file's line break: "\r\n" when its first one is, else "\n"
	bom     int    // length of a byte order mark at the start
	indent  int    // column of the root keys
	entries []entry
	index   map[string]int // string root key -> its entry
	docEnd  int            // where a new entry goes: the start of a "..." line, else the end
}

// entry is one root key's entry: its key line, its value's lines, and the comment and blank lines
// after them up to the next key (limit), which are not the entry's own (end).
type entry struct {
	key      any // as the engine reads it
	line     int // 1-based, of the key
	start    int // the start of the key's line (after a byte order mark)
	limit    int // the start of the next entry's key line, or docEnd
	end      int // the end of the value's last line (with its line break); 0 until found
	outside  bool
	usedBy   []int // entries holding aliases of anchors defined in this one
	anchored bool  // holds an anchor some other entry's alias names
}

// Parse reads a data file's text for editing. name is used in errors (with the line). It refuses
// what cannot be edited safely: a text the engine cannot read, a top that is not a block mapping,
// a root key given twice, a merge key or an explicit "?" key at the top, several documents, an
// alias at the top level, a carriage return or Unicode line break that is not part of a "\r\n".
// An empty file, or one with only comments and "---", is an empty mapping.
//
// The text is read with the engine's data file reader. A file in plain block style (most are) is
// only skimmed: its keys and their lines come from the skim, and no value is built; any other is
// read whole, and its keys found in yaml.v3's node tree, with the anchors shared between them.
func Parse(name string, src []byte) (*File, error) {
	f := &File{name: name, src: src, nl: lineBreak(src), index: map[string]int{}}
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		f.bom = 3
	}
	if err := f.checkLineBreaks(); err != nil {
		return nil, err
	}
	v, err := datafile.ReadYAML(src, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	starts := &lineCursor{src: src, line: 1}
	if lz, ok := v.(*datafile.LazyYAML); ok && lz.Roots() == lz.Keys.Len() {
		if err := f.skimmedEntries(lz, starts); err != nil {
			return nil, err
		}
	} else if err := f.readEntries(v, starts); err != nil {
		return nil, err
	}
	f.findDocEnd(starts)
	for i := range f.entries {
		if i+1 < len(f.entries) {
			f.entries[i].limit = f.entries[i+1].start
		} else {
			f.entries[i].limit = f.docEnd
		}
	}
	return f, nil
}

// skimmedEntries finds the entries of a file the engine's skim read: a block mapping, no anchor,
// alias, tag, directive or second document, each key a plain or quoted scalar on its own line.
func (f *File) skimmedEntries(lz *datafile.LazyYAML, starts *lineCursor) error {
	f.entries = make([]entry, lz.Roots())
	var err error
	lz.Keys.Each(func(k, at any) bool {
		i, _ := at.(int) // Keys holds indexes
		line := lz.RootLine(i)
		err = f.addEntry(i, k, line, starts, countSpaces(f.src[starts.start(line):]))
		return err == nil
	})
	return err
}

// countSpaces is the number of spaces text starts with.
func countSpaces(text []byte) int {
	n := 0
	for n < len(text) && text[n] == ' ' {
		n++
	}
	return n
}

// addEntry records the entry i of the root key k, on line at column col (0-based).
func (f *File) addEntry(i int, k any, line int, starts *lineCursor, col int) error {
	start := starts.start(line)
	if line == 1 {
		start += f.bom
	}
	if i == 0 {
		f.indent = col
	}
	if col != f.indent || start+col > len(f.src) || !onlySpaces(f.src[start:start+col]) {
		return f.errorf(line, "the key %v does not start its line at the top level's indentation (an explicit \"?\" key, or text before it): the file cannot be edited key by key", model.Inspect(k))
	}
	f.entries[i] = entry{key: k, line: line, start: start}
	if s, ok := k.(string); ok {
		f.index[s] = i
	}
	return nil
}

// errorf is an error about the line of the file.
func (f *File) errorf(line int, format string, args ...any) error {
	return fmt.Errorf("%s: line %d: %s", f.name, line, fmt.Sprintf(format, args...))
}

// lineBreak is the file's line break, from its first one.
func lineBreak(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// checkLineBreaks refuses line breaks other than "\n" and "\r\n": YAML reads a lone "\r" and the
// Unicode line breaks as line breaks too, and the entries are found by lines.
func (f *File) checkLineBreaks() error {
	line := 1
	for i := 0; i < len(f.src); {
		c := f.src[i]
		switch {
		case c == '\n':
			line++
		case c == '\r' && (i+1 == len(f.src) || f.src[i+1] != '\n'):
			return f.errorf(line, "a carriage return that is not part of a line break \"\\r\\n\": the file cannot be edited safely")
		case c >= 0x80:
			r, size := utf8.DecodeRune(f.src[i:])
			if r == 0x85 || r == 0x2028 || r == 0x2029 {
				return f.errorf(line, "a Unicode line break (%U): the file cannot be edited safely", r)
			}
			i += size
			continue
		}
		i++
	}
	return nil
}

// rootNode is the top node of the file's one document, nil when the document is empty.
func (f *File) rootNode() (root *yaml.Node, err error) {
	defer func() {
		// yaml.v3 has a few internal panics on odd input (the engine's reader guards against them too)
		if p := recover(); p != nil {
			root, err = nil, fmt.Errorf("%s: cannot read YAML: %v", f.name, p)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(yaml12As11(f.src)))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", f.name, err)
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		line := next.Line
		if err != nil {
			line = 0
		}
		return nil, f.errorf(max(line, 1), "the file holds several YAML documents (Puppet reads only the first): it cannot be edited safely")
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root = doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" && root.Value == "" && root.Anchor == "" {
		return nil, nil // "---" alone
	}
	return root, nil
}

// yaml12As11 is src with a "%YAML 1.2" directive read as "%YAML 1.1" (same length, so lines
// stay), as the engine's reader does: libyaml, which Puppet uses, reads both alike; yaml.v3 refuses
// 1.2.
func yaml12As11(src []byte) []byte {
	i := bytes.Index(src, []byte("%YAML 1.2"))
	if i < 0 || i > 0 && src[i-1] != '\n' && i != 3 {
		return src
	}
	out := bytes.Clone(src)
	out[i+8] = '1'
	return out
}

// nodeKind names what a top node is, for errors.
func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a flow mapping ({...})"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	return "a single value"
}

// lineCursor finds where lines start, for lines asked for in increasing order (the root keys'),
// without indexing every line of a large file.
type lineCursor struct {
	src  []byte
	line int // the line starting at off
	off  int
}

// start returns the offset where the 1-based line starts (len(src) past the last line).
func (c *lineCursor) start(line int) int {
	if line < c.line {
		c.line, c.off = 1, 0
	}
	for c.line < line && c.off < len(c.src) {
		i := bytes.IndexByte(c.src[c.off:], '\n')
		if i < 0 {
			c.off = len(c.src)
			break
		}
		c.off += i + 1
		c.line++
	}
	return c.off
}

// readEntries finds each root key's entry in a file read whole (v), with yaml.v3's node tree, and
// the anchors shared between entries.
func (f *File) readEntries(v any, starts *lineCursor) error {
	root, err := f.rootNode()
	if err != nil {
		return err
	}
	if root == nil {
		if line := f.firstContent(); line > 0 { // a tag alone, say: nothing a key can be added to
			return f.errorf(line, "the top of the file is a single value, not a block mapping of keys: it cannot be edited key by key")
		}
		return nil
	}
	h, ok := v.(*model.Hash)
	if lz, isLazy := v.(*datafile.LazyYAML); isLazy {
		h, ok = lz.Keys, true // a key given twice: the skim's keys, told apart below
	}
	if !ok || root.Kind != yaml.MappingNode || root.Style&yaml.FlowStyle != 0 {
		return f.errorf(root.Line, "the top of the file is %s, not a block mapping of keys: it cannot be edited key by key", nodeKind(root))
	}
	if root.Anchor != "" {
		return f.errorf(root.Line, "an anchor on the whole mapping (&%s): the file cannot be edited key by key", root.Anchor)
	}
	if first := root.Content[0]; root.Style&yaml.TaggedStyle != 0 || first.Line != root.Line || first.Column != root.Column {
		// the mapping starts before its first key: at a tag ("!", "!!map") or an explicit key
		return f.errorf(root.Line, "a tag on the whole mapping, or an explicit key (\"?\"): the file cannot be edited key by key")
	}
	keys := h.Keys()
	n := len(root.Content) / 2
	if len(keys) != n {
		return f.duplicateError(root)
	}
	f.entries = make([]entry, n)
	for i := range n {
		k := root.Content[2*i]
		if k.Kind != yaml.ScalarNode || k.Value == "<<" && k.Tag == "!!merge" {
			return f.errorf(k.Line, "a top-level key that is not a plain key (a merge key, a list or hash, an alias): the file cannot be edited key by key")
		}
		// An explicit key ("?" and the key, maybe on the next line) stands right of the mapping's
		// column, or alone on its line, without the ":" an implicit key has after it.
		if k.Column != root.Column || !bytes.Contains(lineAt(f.src, starts.start(k.Line)), []byte(":")) {
			return f.errorf(k.Line, "the key %q is an explicit key (\"?\"): the file cannot be edited key by key", k.Value)
		}
		if err := f.addEntry(i, keys[i], k.Line, starts, k.Column-1); err != nil {
			return err
		}
	}
	return f.linkAnchors(root)
}

// firstContent is the first line of an empty document that is not blank, a comment, a directive
// or a document marker (with a comment after it); 0 when there is none.
func (f *File) firstContent() int {
	for i, line := range bytes.Split(f.src[f.bom:], []byte("\n")) {
		line = bytes.TrimRight(line, " \t\r")
		if len(line) > 3 && (isMarker(line, '-') || isMarker(line, '.')) {
			line = bytes.TrimLeft(line[3:], " \t")
		}
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) > 0 && trimmed[0] != '#' && line[0] != '%' && string(line) != "---" && string(line) != "..." {
			return i + 1
		}
	}
	return 0
}

// lineAt is the line that starts at start, without its line break.
func lineAt(src []byte, start int) []byte {
	line := src[start:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	return line
}

// duplicateError names a root key given twice.
func (f *File) duplicateError(root *yaml.Node) error {
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		name := k.Value
		if len(name) > 1 && name[0] == ':' && k.Style == 0 {
			name = name[1:] // a symbol key: Puppet makes it a string
		}
		if first, dup := seen[name]; dup {
			return f.errorf(k.Line, "the key %q is given twice (first at line %d): the file cannot be edited until one is removed", name, first)
		}
		seen[name] = k.Line
	}
	return f.errorf(root.Line, "a key is given twice at the top, or the top mapping merges another: the file cannot be edited key by key")
}

func onlySpaces(b []byte) bool {
	for _, c := range b {
		if c != ' ' {
			return false
		}
	}
	return true
}

// linkAnchors records which entries hold aliases of anchors defined in other entries: such an
// anchor's entry cannot be changed without changing theirs.
func (f *File) linkAnchors(root *yaml.Node) error {
	owner := map[*yaml.Node]int{}
	for i := range f.entries {
		walk(root.Content[2*i+1], func(n *yaml.Node) {
			if n.Anchor != "" {
				owner[n] = i
			}
		})
	}
	var err error
	for i := range f.entries {
		walk(root.Content[2*i+1], func(n *yaml.Node) {
			if n.Kind != yaml.AliasNode || err != nil {
				return
			}
			o, ok := owner[n.Alias]
			switch {
			case !ok:
				err = f.errorf(n.Line, "an alias (*%s) of an anchor outside the top-level entries: the file cannot be edited key by key", n.Value)
			case o != i:
				f.entries[i].outside = true
				f.entries[o].anchored = true
				f.entries[o].usedBy = append(f.entries[o].usedBy, i)
			}
		})
	}
	return err
}

// walk calls fn on n and every node below it (an alias's target is not entered).
func walk(n *yaml.Node, fn func(*yaml.Node)) {
	fn(n)
	for _, c := range n.Content {
		walk(c, fn)
	}
}

// findDocEnd finds where new entries go: before a "..." line after the last entry, else at the end.
func (f *File) findDocEnd(starts *lineCursor) {
	f.docEnd = len(f.src)
	line := 1
	if len(f.entries) > 0 {
		line = f.entries[len(f.entries)-1].line + 1 // the line after the last key's
	}
	for s := starts.start(line); s < len(f.src); s = starts.start(line) {
		if s == 0 {
			s = f.bom
		}
		if isMarker(f.src[s:], '.') {
			f.docEnd = s
			return
		}
		line++
	}
}

// isMarker reports whether text starts with "---" (c '-') or "..." (c '.') as a document marker.
func isMarker(text []byte, c byte) bool {
	if len(text) < 3 || text[0] != c || text[1] != c || text[2] != c {
		return false
	}
	return len(text) == 3 || strings.IndexByte(" \t\r\n", text[3]) >= 0
}

// Keys returns the root keys that are strings, in file order.
func (f *File) Keys() []string {
	keys := make([]string, 0, len(f.entries))
	for _, e := range f.entries {
		if s, ok := e.key.(string); ok {
			keys = append(keys, s)
		}
	}
	return keys
}

// Line returns the 1-based line of the root key key.
func (f *File) Line(key string) (int, bool) {
	i, ok := f.index[key]
	if !ok {
		return 0, false
	}
	return f.entries[i].line, true
}

// Bytes returns the file's text (not to be modified).
func (f *File) Bytes() []byte { return f.src }

// Empty reports whether the file holds no root key and nothing else but blank lines and document
// markers: a file the resource created and has emptied again, which it may remove.
func (f *File) Empty() bool {
	if len(f.entries) > 0 {
		return false
	}
	for _, line := range bytes.Split(f.src[f.bom:], []byte("\n")) {
		line = bytes.TrimRight(line, " \t\r")
		if len(line) > 0 && string(line) != "---" && string(line) != "..." {
			return false
		}
	}
	return true
}

// Editable returns why the root key key cannot be changed or removed (an anchor in it that other
// keys' aliases name), nil when it can (or is not in the file).
func (f *File) Editable(key string) error {
	i, ok := f.index[key]
	if !ok || !f.entries[i].anchored {
		return nil
	}
	user := f.entries[f.entries[i].usedBy[0]]
	return f.errorf(f.entries[i].line, "the key %q holds an anchor that the key %v at line %d uses (an alias): changing or removing it would change that key too; edit them by hand", key, user.key, user.line)
}
