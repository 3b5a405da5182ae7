package datafile

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"regexp"
	"unicode/utf8"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"gopkg.in/yaml.v3"
)

// This file reads YAML the way Puppet does: Psych.safe_load (YAML 1.1 scalar rules, aliases on, only the
// Symbol class permitted), then symbol keys turned into strings. yaml.v3 only builds the node tree;
// every scalar is resolved here with Psych's rules (Psych 4.0, Ruby 3.1), because yaml.v3 applies YAML 1.2.

// ParseYAML reads YAML text as Puppet does. It returns the first document's value (any engine value; an
// empty document is nil) and, for every *Hash it built, the 1-based line where that mapping starts.
//
// Most data files are plain block YAML, which the fast reader in yamlfast.go reads directly; anything
// else, and every error, goes through yaml.v3.
func ParseYAML(data []byte) (v any, lines map[*model.Hash]int, err error) {
	v, lines, err = readYAMLWith(data, yamlSetup{lines: true})
	if err != nil {
		lines = nil
	}
	return v, lines, err
}

// ReadYAML reads a data file. It records no lines (a large file has hundreds of thousands of
// hashes, and a map of their lines would only be garbage), shares keys and key lists through share
// (which may be nil) and refuses values nested more than maxDataNesting levels deep. A file the
// fast reader takes whose top is a mapping is returned as a *LazyYAML, which builds the values of
// its root keys on first use.
func ReadYAML(data []byte, share *model.Sharing) (any, error) {
	v, _, err := readYAMLWith(data, yamlSetup{share: share, maxNesting: maxDataNesting, lazy: true})
	return v, err
}

// The fast reader needs no nesting check: it gives up on deeper values.
const _ = uint(maxDataNesting - fastYAMLMaxDepth)

// readYAMLWith is ParseYAML as set up.
func readYAMLWith(data []byte, setup yamlSetup) (v any, lines map[*model.Hash]int, err error) {
	simple, e := checkYAMLText(data)
	if e != nil {
		return nil, nil, e
	}
	if !simple && bytes.Contains(data, []byte("\r\n")) {
		// Windows line ends: the same document with "\n" ones (YAML reads every line break as
		// one), which the fast reader may take, lines and columns unchanged
		unix := bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
		if simple, _ = checkYAMLText(unix); simple {
			data = unix
		}
	}
	if simple && setup.lazy {
		lz, fast := skimFastYAML(data, setup)
		if lz != nil {
			return lz, nil, nil
		}
		simple = fast
	}
	if simple {
		if v, lines, ok := tryFastYAML(data, setup); ok {
			return v, lines, nil
		}
	}
	if len(data) > maxSlowYAML {
		if !setup.lines { // a data file: read root key by root key, when its shape allows
			if v, ok, err := readYAMLByRoot(data, setup); ok {
				return v, nil, err
			}
		}
		return nil, nil, slowYAMLTooLarge(data)
	}
	r := newYAMLReader(setup)
	v, err = r.parseYAMLv3(data)
	switch {
	case err != nil:
	case setup.maxNesting > 0 && nestingExceeds(v, setup.maxNesting, len(r.anchors) > 0):
		return nil, nil, &YAMLError{Msg: fmt.Sprintf("arrays and hashes nest more than %d levels deep", setup.maxNesting)}
	case setup.maxText > 0 && len(r.anchors) > 0 && textExceeds(v, setup.maxText):
		return nil, nil, &YAMLError{Msg: fmt.Sprintf("the document holds more than %d MiB of text once its aliases are expanded", setup.maxText>>20)}
	}
	return v, r.lines, err
}

// ParseFactsYAML reads a YAML facts file as Puppet does (Psych.safe_load permitting no class: a Ruby
// symbol is refused), with the bounds of JSON facts: arrays and hashes nested at most 100 levels
// deep (Ruby's JSON max_nesting), and at most maxText bytes of text once aliases are expanded (the
// file's own size limit: a few hundred bytes of aliases expand to gigabytes).
func ParseFactsYAML(data []byte, maxText int) (any, error) {
	v, _, err := readYAMLWith(data, yamlSetup{maxNesting: jsonMaxNesting, noSymbols: true, maxText: maxText})
	return v, err
}

// parseYAMLv3 is readYAMLWith through yaml.v3, for text that checkYAMLText accepts.
func (r *yamlReader) parseYAMLv3(data []byte) (v any, err error) {
	defer func() {
		// yaml.v3 has a few internal panics on odd input; a data file must never crash the provider.
		if p := recover(); p != nil {
			v, err = nil, &YAMLError{Msg: fmt.Sprintf("cannot read YAML: %v", p)}
		}
	}()
	var doc yaml.Node
	if e := yaml.Unmarshal(yaml12As11(data), &doc); e != nil {
		return nil, yamlSyntaxError(e, data)
	}
	if doc.Kind == 0 { // no document at all (empty file, only comments)
		return nil, nil
	}
	v, _, err = r.build(&doc)
	if err != nil {
		return nil, err
	}
	if nd, isNonData := v.(nonData); isNonData && nd.rest != nil {
		v = nd.rest // the document's collection keys: no lookup can name them
	}
	return r.fixSymbols(v)
}

// maxSlowYAML bounds the files read with yaml.v3, which takes about 100 bytes of memory per byte
// of text (a 20 MB file took 2 GB): larger files must be what the fast reader takes, which holds
// little more than the values.
var maxSlowYAML = 8 << 20 // a variable for tests

// slowYAMLTooLarge is the error for a file over maxSlowYAML that the fast reader does not take,
// naming the line where it stops.
func slowYAMLTooLarge(data []byte) *YAMLError {
	line, what := 0, ""
	for i, c := range data { // what checkYAMLText leaves to yaml.v3 (simple false)
		if c == '\t' || c == '\r' || c >= 0x80 && slowYAMLRune(data[i:]) {
			line, _ = textPosition(data, i)
			what = "a tab, carriage return, byte order mark or Unicode line break"
			break
		}
	}
	if stop := fastYAMLStop(data); line == 0 || stop > 0 && stop < line {
		line, what = stop, "YAML beyond plain block style (an anchor or alias, a tag, a quoted or plain scalar or a flow collection over several lines, several documents)"
	}
	return &YAMLError{Line: line, Msg: fmt.Sprintf("the file is %.1f MiB and holds %s, which only the full YAML reader takes, for files of at most %d MiB: "+
		"write it in plain block style, or split it", float64(len(data))/(1<<20), what, maxSlowYAML>>20)}
}

// slowYAMLRune reports whether text starts with a character only yaml.v3 reads (a byte order
// mark, NEL or a Unicode line break).
func slowYAMLRune(text []byte) bool {
	r, _ := utf8.DecodeRune(text)
	return r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xFEFF
}

// yaml12As11 rewrites a "%YAML 1.2" directive in the prologue as "%YAML 1.1" (same length, so
// positions stay): libyaml, which Puppet uses, accepts both and reads the document the same way
// (Psych's YAML 1.1 rules), yaml.v3 only accepts 1.1.
func yaml12As11(data []byte) []byte {
	out := data
	for rest, at := data, 0; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		trimmed := bytes.TrimSpace(line)
		switch {
		case yaml12Directive.Match(line):
			if &out[0] == &data[0] {
				out = bytes.Clone(data)
			}
			i := at + bytes.Index(line, []byte("1.2"))
			out[i+2] = '1'
		case len(trimmed) > 0 && trimmed[0] != '#' && trimmed[0] != '%':
			return out // the prologue ends at the first other line
		}
		at += len(line) + 1
	}
	return out
}

var yaml12Directive = regexp.MustCompile(`^%YAML[ \t]+1\.2(?:[ \t]|#|$)`)

// checkYAMLText refuses what libyaml refuses before parsing: bytes that are not UTF-8 (Puppet reads
// files as UTF-8, so UTF-16 is refused too) and control characters. yaml.v3 reports these without a
// position, so they are located here. simple is false when the text has a tab, a carriage return,
// a byte order mark or a Unicode line break, which the fast reader leaves to yaml.v3.
func checkYAMLText(data []byte) (simple bool, err *YAMLError) {
	simple = true
	for i := 0; i < len(data); {
		if i+8 <= len(data) && printableASCII8(binary.LittleEndian.Uint64(data[i:])) { // most of the text
			i += 8
			continue
		}
		if c := data[i]; c >= 0x20 && c <= 0x7E || c == '\n' {
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			line, col := textPosition(data, i)
			return false, &YAMLError{Line: line, Column: col, Msg: "invalid UTF-8 byte sequence: YAML data files must be UTF-8 text"}
		}
		allowed := r == '\t' || r == '\r' || r == 0x85 ||
			(r >= 0xA0 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || r >= 0x10000
		if !allowed && r != 0xFEFF {
			line, col := textPosition(data, i)
			return false, &YAMLError{Line: line, Column: col, Msg: fmt.Sprintf("control characters are not allowed (found %U)", r)}
		}
		switch r {
		case '\t', '\r', 0x85, 0x2028, 0x2029, 0xFEFF:
			simple = false
		}
		i += size
	}
	return simple, nil
}

// printableASCII8 reports whether each of the 8 bytes of w is printable ASCII (0x20 to 0x7E) or a
// line feed: checkYAMLText's common case, tested a word at a time. Each byte's own 7 bits are added
// to, which never carries into the next byte.
func printableASCII8(w uint64) bool {
	const low7, high = 0x7F7F7F7F7F7F7F7F, 0x8080808080808080
	l := w & low7
	atLeastSpace := (l + 0x6060606060606060) & high      // low 7 bits >= 0x20
	isDEL := (l + 0x0101010101010101) & high             // low 7 bits == 0x7F
	notLF := ((w^0x0A0A0A0A0A0A0A0A)&low7 + low7) & high // low 7 bits != '\n'
	return (w&high)|isDEL|(^atLeastSpace&notLF&high) == 0
}

// maxDataNesting bounds how deeply arrays and hashes of a data file may nest. Hiera data is never
// that deep, and deeper values make merges and explain output quadratic in the depth (a 10,000
// level file took seconds and a 600 MB explanation).
const maxDataNesting = 1000
