package datafile

// A large data file that only the full YAML reader takes (a multi-line scalar, an alias, a tag)
// read root key by root key: yaml.v3 takes about 100 bytes of memory per byte of the text it
// parses, so a 40 MB file read whole took 4 GB; read in entries of root keys of about
// byRootGroup bytes it takes 100 times that for one group at a time, and the values it keeps.

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"gopkg.in/yaml.v3"
)

// byRootGroup is the size of text the full reader parses at a time, past which a group of root
// keys is cut (a root key larger than this is one group of its own, up to maxSlowYAML).
var byRootGroup = 1 << 20 // a variable for tests

// byRootParsed records, for tests, the largest text handed to yaml.v3 at once by readYAMLByRoot.
var byRootParsed func(n int)

// rootEntry is one root key of the document: its text, where it starts, and the anchors it
// defines and the aliases it uses (as the text shows them: what looks like one inside a string
// counts too, which only costs a larger parse).
type rootEntry struct {
	start, end int // byte offsets in the file
	line       int // 1-based line where it starts
	defines    []string
	uses       []string
}

// readYAMLByRoot reads a document whose top is a block mapping with its keys at column 0, group
// of root keys by group of root keys, with the full reader: the same value as reading it whole.
// An alias to an anchor of an earlier group (Psych allows it) is read with that group's text
// before it (and the entries that one needs). ok is false when the document is not of that shape
// (several documents, a top that is not a mapping) or a group cannot be read in less than
// maxSlowYAML bytes: the caller then refuses the file.
func readYAMLByRoot(data []byte, setup yamlSetup) (v any, ok bool, err error) {
	entries, ok := splitRootEntries(data)
	if !ok {
		return nil, false, nil
	}
	r := newYAMLReader(setup)
	root := model.NewHash(0)
	anchored := false
	defs := anchorDefiners(entries)
	for i := 0; i < len(entries); {
		// a group that does not parse may have been cut inside a multi-line flow collection or
		// quoted scalar at column 0: read it with the next root keys, twice as much text each
		// time, up to maxSlowYAML bytes; the error is then the one read with the most text
		to, size := groupEnd(entries, i, byRootGroup)
		var last error
		for {
			h, anchors, perr := r.readEntries(data, entries, defs, i, to, setup)
			if perr == nil {
				h.Each(func(k, val any) bool { root.Set(k, val); return true })
				anchored = anchored || anchors
				break
			}
			if _, large := perr.(byRootTooLarge); large || to == len(entries) {
				switch {
				case !large:
					return nil, true, perr
				case last == nil:
					return nil, false, nil // a root key too large to read alone
				}
				return nil, true, last
			}
			last = perr
			to, size = groupEnd(entries, i, 2*size)
		}
		i = to
	}
	var out any = root
	switch {
	case setup.maxNesting > 0 && nestingExceeds(out, setup.maxNesting, anchored):
		return nil, true, &YAMLError{Msg: fmt.Sprintf("arrays and hashes nest more than %d levels deep", setup.maxNesting)}
	case setup.maxText > 0 && anchored && textExceeds(out, setup.maxText):
		return nil, true, &YAMLError{Msg: fmt.Sprintf("the document holds more than %d MiB of text once its aliases are expanded", setup.maxText>>20)}
	}
	out, err = r.fixSymbols(out)
	return out, true, err
}

// groupEnd is where a group of root keys starting at entries[from] ends (an index past it): at
// least one key, then keys while the group holds less than size bytes; and its size.
func groupEnd(entries []rootEntry, from, size int) (to, got int) {
	to = from + 1
	for to < len(entries) && entries[to].start-entries[from].start < size {
		to++
	}
	return to, entries[to-1].end - entries[from].start
}

// byRootTooLarge is a group (with the root keys its aliases need) of more than maxSlowYAML bytes.
type byRootTooLarge struct{}

func (byRootTooLarge) Error() string { return "too large" }

// readEntries parses entries[from:to] (after the earlier root keys whose anchors they use) and
// returns the hash of their root keys, and whether the text parsed has anchors.
func (r *yamlReader) readEntries(data []byte, entries []rootEntry, defs map[string][]int, from, to int, setup yamlSetup) (h *model.Hash, anchors bool, err error) {
	need := neededEntries(entries, defs, from, to)
	var segs []lineSegment // where each part of text starts, in text's lines and the file's
	size := entries[to-1].end - entries[from].start
	for _, j := range need {
		size += entries[j].end - entries[j].start
	}
	if size > maxSlowYAML {
		return nil, false, byRootTooLarge{}
	}
	// a comment first: yaml.v3 words an error on the text's first line apart (no line, or a 0-based
	// one), so that the group's first line must not be the text's
	text := append(make([]byte, 0, size+len(need)+3), "#\n"...)
	line := 2
	add := func(start, end, fileLine int) {
		segs = append(segs, lineSegment{at: line, fileLine: fileLine})
		part := data[start:end]
		text = append(text, part...)
		if len(part) > 0 && part[len(part)-1] != '\n' {
			text = append(text, '\n')
		}
		line += bytes.Count(part, []byte("\n"))
		if len(part) > 0 && part[len(part)-1] != '\n' {
			line++
		}
	}
	for _, j := range need {
		add(entries[j].start, entries[j].end, entries[j].line)
	}
	prelude := 0 // root pairs of the entries read for their anchors
	add(entries[from].start, entries[to-1].end, entries[from].line)
	if h, ok := fastGroup(text, need, setup); ok { // most groups of a large file are plain block YAML
		return h, false, nil
	}
	if byRootParsed != nil {
		byRootParsed(len(text))
	}
	var doc yaml.Node
	if e := yaml.Unmarshal(text, &doc); e != nil {
		return nil, false, remapLines(yamlSyntaxError(e, text), segs)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, false, &YAMLError{Line: entries[from].line, Msg: "the root keys from here do not read as a mapping"}
	}
	pairs := doc.Content[0].Content
	if len(need) > 0 { // the pairs of the anchors' entries: their text's lines, before the group's
		for prelude < len(pairs) && pairs[prelude].Line < segs[len(segs)-1].at {
			prelude += 2
		}
	}
	r.anchors = map[*yaml.Node]*yamlAnchored{}
	for _, n := range pairs[:prelude] { // build what the aliases point at
		if _, _, err := r.build(n); err != nil {
			return nil, false, remapLines(err, segs)
		}
	}
	top := &yaml.Node{Kind: yaml.MappingNode, Tag: doc.Content[0].Tag, Style: doc.Content[0].Style, Line: doc.Content[0].Line, Content: pairs[prelude:]}
	v, _, err := r.build(top)
	if err != nil {
		return nil, false, remapLines(err, segs)
	}
	if nd, isNonData := v.(nonData); isNonData && nd.rest != nil {
		v = nd.rest // collection keys: no lookup can name them
	}
	h, _ = v.(*model.Hash) // a mapping builds a hash
	return h, len(r.anchors) > 0, nil
}

// fastGroup reads a group with the fast reader when it can: no earlier root keys needed for
// aliases, no tab, carriage return or Unicode line break, no root key that is a Ruby symbol
// (converted to a string over the whole document, not per group).
func fastGroup(text []byte, need []int, setup yamlSetup) (*model.Hash, bool) {
	if len(need) > 0 || bytes.Contains(text, []byte("\n:")) {
		return nil, false
	}
	if simple, err := checkYAMLText(text); err != nil || !simple {
		return nil, false
	}
	v, _, ok := tryFastYAML(text, setup)
	h, isHash := v.(*model.Hash)
	return h, ok && isHash
}

// lineSegment maps the lines of a part of the text parsed to the file's.
type lineSegment struct{ at, fileLine int }

// remapLines gives an error of the text parsed the file's line.
func remapLines(err error, segs []lineSegment) error {
	ye, ok := err.(*YAMLError)
	if !ok || ye.Line == 0 {
		return err
	}
	for i := len(segs) - 1; i >= 0; i-- {
		if ye.Line >= segs[i].at {
			c := *ye
			c.Line = segs[i].fileLine + ye.Line - segs[i].at
			return &c
		}
	}
	return err
}

// neededEntries are the root keys before from whose anchors entries[from:to] use, and those these
// use in turn, in file order: for each alias name, the last root key before the user defining it
// (defs: the root keys defining each anchor name, in file order).
func neededEntries(entries []rootEntry, defs map[string][]int, from, to int) []int {
	seen := map[int]bool{}
	var need []int
	var visit func(user int, names []string)
	visit = func(user int, names []string) {
		for _, name := range names {
			at := defs[name]
			i, _ := slices.BinarySearch(at, user) // the definers before user: at[:i]
			if i == 0 {
				continue
			}
			if j := at[i-1]; j < from && !seen[j] {
				seen[j] = true
				need = append(need, j)
				visit(j, entries[j].uses)
			}
		}
	}
	for g := from; g < to; g++ {
		visit(g, entries[g].uses)
	}
	slices.Sort(need)
	return need
}

// anchorDefiners are the root keys defining each anchor name, in file order.
func anchorDefiners(entries []rootEntry) map[string][]int {
	defs := map[string][]int{}
	for i, e := range entries {
		for _, name := range e.defines {
			defs[name] = append(defs[name], i)
		}
	}
	return defs
}

// splitRootEntries cuts the document at lines that start a root key: a line at column 0 that is
// not blank, a comment, a sequence entry or an explicit key's value (the prologue goes with the
// first key). ok is false for a document this reading does not take: several documents, or a top
// that is not a block mapping with its keys at column 0.
func splitRootEntries(data []byte) (entries []rootEntry, ok bool) {
	var cur *rootEntry
	line := 0
	for at := 0; at < len(data); {
		line++
		end := bytes.IndexByte(data[at:], '\n')
		next := len(data)
		if end >= 0 {
			next = at + end + 1
		}
		text := data[at:next]
		switch kind := rootLineKind(text); {
		case kind == lineMarker:
			if cur != nil || !bytes.Equal(bytes.TrimSpace(text), []byte("---")) {
				return nil, false // a second document, or content after the first ---
			}
		case kind == lineDirective && cur != nil:
			return nil, false
		case kind == lineKey && cur == nil && (text[0] == '[' || text[0] == '{'):
			return nil, false // a flow collection at the top
		case kind == lineKey:
			if cur != nil {
				cur.end = at
				entries = append(entries, *cur)
				cur = &rootEntry{start: at, line: line}
			} else {
				cur = &rootEntry{start: 0, line: 1} // the prologue (comments, ---) with the first key
			}
		}
		if cur != nil {
			scanAnchors(text, cur)
		}
		at = next
	}
	if cur == nil {
		return nil, false
	}
	cur.end = len(data)
	return append(entries, *cur), true
}

type rootLine int

const (
	lineOther     rootLine = iota // blank, comment, indented, a sequence entry or an explicit key's value
	lineKey                       // starts a root key
	lineMarker                    // --- or ...
	lineDirective                 // %YAML, %TAG
)

// rootLineKind tells what a line of the document is at the root.
func rootLineKind(text []byte) rootLine {
	if len(text) == 0 {
		return lineOther
	}
	rest := func(i int) bool {
		return len(text) <= i || text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'
	}
	switch c := text[0]; {
	case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '#':
		return lineOther
	case c == '%':
		return lineDirective
	case (c == '-' || c == '.') && len(text) >= 3 && text[1] == c && text[2] == c && rest(3):
		return lineMarker
	case (c == '-' || c == ':') && rest(1):
		return lineOther
	}
	return lineKey
}

// scanAnchors adds the anchors (&name) and aliases (*name) a line of g shows to g.
func scanAnchors(text []byte, g *rootEntry) {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '&' && c != '*' || i > 0 && !bytes.ContainsRune([]byte(" \t[{,"), rune(text[i-1])) {
			continue
		}
		j := i + 1
		for j < len(text) && !bytes.ContainsRune([]byte(" \t\r\n[]{},"), rune(text[j])) {
			j++
		}
		if j == i+1 {
			continue
		}
		name := string(text[i+1 : j])
		if c == '&' {
			if !slices.Contains(g.defines, name) {
				g.defines = append(g.defines, name)
			}
		} else if !slices.Contains(g.uses, name) {
			g.uses = append(g.uses, name)
		}
		i = j - 1
	}
}
