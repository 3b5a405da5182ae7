package yamledit

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// entryEnd returns where entry i's own text ends: after the last line its value needs. The comment
// and blank lines between that and the next key stay when the entry is replaced or removed (they
// may be about the next key). A comment-like or blank line inside a literal block is the value's:
// the end is the first line end from which the entry alone reads as the same value.
func (f *File) entryEnd(i int) int {
	e := &f.entries[i]
	if e.end > 0 {
		return e.end
	}
	ends := lineEnds(f.src, e.start, e.limit)
	first := 0 // the end of the last line that is neither blank nor only a comment
	for j, end := range ends {
		lineStart := e.start
		if j > 0 {
			lineStart = ends[j-1]
		}
		if !blankOrComment(f.src[lineStart:end]) {
			first = j
		}
	}
	e.end = e.limit
	want, ok := f.valueIn(i, e.limit)
	if !ok {
		return e.end // unreadable even with the text before it: all its lines
	}
	for _, end := range ends[first:] {
		if f.readsAs(i, end, want) {
			e.end = end
			break
		}
	}
	return e.end
}

// readsAs reports whether entry i, cut at end, reads as the value want.
func (f *File) readsAs(i, end int, want any) bool {
	got, found := f.valueIn(i, end)
	return found && sameValue(got, want)
}

// valueIn reads the value of entry i from its text up to end. Up to its limit, that is its value
// in the file: a key's value is its own lines, and what they name before them (the anchors of an
// entry holding aliases of other entries' anchors, a %TAG directive's handle), which are read
// with the whole text before it.
func (f *File) valueIn(i, end int) (any, bool) {
	e := f.entries[i]
	if !e.outside {
		if v, ok := readKey(f.src[e.start:end], e.key); ok {
			return v, true
		}
	}
	// with the text before it: its aliases' anchors, or a %TAG directive's handle
	return readKey(f.src[:end], e.key)
}

// readKey reads text with the engine's reader and returns the value of its root key key.
func readKey(text []byte, key any) (any, bool) {
	v, _, err := datafile.ParseYAML(text)
	h, ok := v.(*model.Hash)
	if err != nil || !ok {
		return nil, false
	}
	return h.Get(key)
}

// lineEnds returns the end of each line (after its line break) from start to limit.
func lineEnds(src []byte, start, limit int) []int {
	var ends []int
	for i := start; i < limit; {
		j := bytes.IndexByte(src[i:limit], '\n')
		if j < 0 {
			ends = append(ends, limit)
			break
		}
		i += j + 1
		ends = append(ends, i)
	}
	return ends
}

// blankOrComment reports whether a line holds only spaces or a comment after spaces. A tab in
// the leading white space makes the line the entry's: after a plain scalar libyaml reads it as
// part of the scalar, after a quoted one it is an error, so it cannot be left after a new value.
func blankOrComment(line []byte) bool {
	line = bytes.TrimLeft(line, " ")
	return len(bytes.TrimRight(line, "\r\n")) == 0 || line[0] == '#'
}

// Set writes the root key key with the value v: in place of its entry when the file has it (the
// comment lines before it kept), else appended at the end (before a "..." line), in the file's
// line breaks, with a final line break added to the file when it had none. The result is read
// back: every other root key must read as before and key as v, else nothing changes.
func (f *File) Set(key string, v any, opts Options) error {
	if err := f.Editable(key); err != nil {
		return err
	}
	want := v
	if !opts.Interpolate {
		want = escapeValue(key, v)
	}
	var lastErr error
	for _, blocks := range []bool{true, false} {
		text, err := encodeEntry(key, want, f.nl, blocks)
		if err != nil {
			return err
		}
		if !readsBack(text, key, want) {
			lastErr = fmt.Errorf("internal error: the value of key %q does not read back as written", key)
			continue
		}
		text = indentLines(text, f.indent)
		var out []byte
		if i, ok := f.index[key]; ok {
			e := f.entries[i]
			if comment := f.lineComment(i); comment != nil && bytes.Count(text, []byte{'\n'}) == 1 {
				// the person's comment after the old value, after the new one
				line := bytes.TrimSuffix(text, []byte(f.nl))
				withComment := slices.Concat(f.src[:e.start], line, comment, []byte(f.nl), f.src[f.entryEnd(i):])
				if g, err := f.edited(withComment, key, normalize(want), false); err == nil {
					*f = *g
					return nil
				}
			}
			out = slices.Concat(f.src[:e.start], text, f.src[f.entryEnd(i):])
		} else {
			at := f.docEnd
			sep := []byte{}
			if at > 0 && f.src[at-1] != '\n' {
				sep = []byte(f.nl)
			}
			out = slices.Concat(f.src[:at], sep, text, f.src[at:])
		}
		g, err := f.edited(out, key, normalize(want), false)
		if err != nil {
			lastErr = err
			continue
		}
		*f = *g
		return nil
	}
	return lastErr
}

// lineComment returns the comment that follows entry i's value on its one line, with the white
// space before it ("   # keep this"), or nil. It starts at the first " #" (or tab) from which the
// line, cut there, reads as the same value: a "#" inside a quoted value is no comment.
func (f *File) lineComment(i int) []byte {
	e := f.entries[i]
	end := f.entryEnd(i)
	if e.outside || bytes.IndexByte(f.src[e.start:end], '\n') != end-e.start-1 {
		return nil // not one line ending in a line break
	}
	line := bytes.TrimRight(f.src[e.start:end], "\r\n")
	whole, ok := f.valueIn(i, end)
	if !ok {
		return nil
	}
	for p := 1; p < len(line); p++ {
		if line[p] != '#' || (line[p-1] != ' ' && line[p-1] != '\t') {
			continue
		}
		value := bytes.TrimRight(line[:p], " \t")
		if v, ok := readKey(slices.Concat(value, []byte("\n")), e.key); ok && sameValue(v, whole) {
			return line[len(value):]
		}
	}
	return nil
}

// Delete removes the root key key's entry (the comment lines before it stay). It returns false
// when the file has no such key, or when it cannot be removed safely (Editable says why).
func (f *File) Delete(key string) bool {
	i, ok := f.index[key]
	if !ok || f.Editable(key) != nil {
		return false
	}
	e := f.entries[i]
	end := f.entryEnd(i)
	tries := [][]byte{
		slices.Concat(f.src[:e.start], f.src[end:]),
		// the comments after the entry too, when they would become part of the value before it
		// (a literal block that a more indented comment then continues)
		slices.Concat(f.src[:e.start], f.src[e.limit:]),
		// the last key before a "..." with no "---": an empty document needs its "---"
		slices.Concat(f.src[:e.start], []byte("---"+f.nl), f.src[end:]),
	}
	for _, out := range tries {
		if g, err := f.edited(out, key, nil, true); err == nil {
			*f = *g
			return true
		}
	}
	return false
}

// edited parses the edited text out and checks it: key reads as want (or is gone, deleting), and
// every other root key as before, in the same order. An entry whose text (its lines up to the next
// key) is unchanged reads as before unless it names anchors elsewhere; the others are read again.
func (f *File) edited(out []byte, key string, want any, deleting bool) (*File, error) {
	g, err := Parse(f.name, out)
	if err != nil {
		return nil, fmt.Errorf("internal error: the edit of key %q would make the file unreadable: %w", key, err)
	}
	old, edited := f.index[key]
	var others []int // g's entries, in f's order, without key's
	for j := range g.entries {
		if !sameValue(g.entries[j].key, key) {
			others = append(others, j)
		}
	}
	_, set := g.index[key]
	if set == deleting || len(others) != len(f.entries)-boolInt(edited) {
		return nil, fmt.Errorf("internal error: the edit of key %q went wrong", key)
	}
	if !deleting {
		i := g.index[key]
		if got, _ := g.valueIn(i, g.entries[i].limit); !sameValue(got, want) {
			return nil, f.errorf(g.entries[i].line, "the key %q cannot be written here without its value taking in the lines after it", key)
		}
	}
	n := 0
	for i, e := range f.entries {
		if edited && i == old {
			continue
		}
		j := others[n]
		n++
		ge := g.entries[j]
		if !sameValue(ge.key, e.key) {
			return nil, fmt.Errorf("internal error: the edit of key %q changed the order of the keys", key)
		}
		if !e.outside && !ge.outside && bytes.Equal(f.src[e.start:e.limit], g.src[ge.start:ge.limit]) {
			continue
		}
		before, _ := f.valueIn(i, e.limit)
		after, _ := g.valueIn(j, ge.limit)
		if !sameValue(before, after) {
			return nil, f.errorf(e.line, "writing the key %q would change the value of the key %v (a block that runs to the end of the file without a final line break, say): the file is left as it was", key, e.key)
		}
	}
	return g, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// indentLines indents each line of an entry that has text by ind spaces (the root keys' column).
func indentLines(text []byte, ind int) []byte {
	if ind == 0 {
		return text
	}
	pad := bytes.Repeat([]byte(" "), ind)
	var out []byte
	for _, line := range bytes.SplitAfter(text, []byte("\n")) {
		if len(bytes.TrimRight(line, "\r\n")) > 0 {
			out = append(out, pad...)
		}
		out = append(out, line...)
	}
	return out
}
