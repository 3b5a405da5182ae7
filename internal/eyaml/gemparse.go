package eyaml

import (
	"regexp"
	"strconv"
	"strings"
)

// The eyaml file forms, split as the gem's parser splits them (parser/parser.rb and
// encrypted_tokens.rb): `decrypt -f`, `encrypt -e` and `edit` see a file through these token types,
// so their output is the gem's byte for byte. Ruby's \s is [ \t\r\n\f\v]; Go's lacks \v.
var (
	encStringRe = regexp.MustCompile(`ENC\[(\w+,)?([a-zA-Z0-9+/=]+?)\]`)
	encBlockRe  = regexp.MustCompile(`>\n([ \t\r\n\f\v]*)ENC\[(\w+,)?([a-zA-Z0-9+/= \t\r\n\f\v]+?)\]`)
	decStringRe = regexp.MustCompile(`(?s)DEC(\(\d+\))?::(\w+)\[(.+?)\]!`)
	decBlockRe  = regexp.MustCompile(`(?s)>\n([ \t\r\n\f\v]*)DEC(\(\d+\))?::(\w+)\[(.+?)\]!`)
)

// SegmentKind says what a Segment of an eyaml file is.
type SegmentKind int

const (
	SegText      SegmentKind = iota // text between tokens, kept as it is
	SegEncString                    // ENC[PKCS7,...] on one line
	SegEncBlock                     // ">\n" + indentation + ENC[...] over lines
	SegDecString                    // DEC(n)::PKCS7[plaintext]!
	SegDecBlock                     // ">\n" + indentation + DEC(n)::PKCS7[plaintext]!
)

// Segment is one token of an eyaml file.
type Segment struct {
	Kind   SegmentKind
	Text   string // the bytes of the file this token covers
	Offset int    // byte offset of Text in the file
	Indent string // block forms: the whitespace between ">\n" and ENC or DEC
	Scheme string // ENC and DEC: the scheme ("PKCS7"); "" when an ENC token names none
	Body   string // ENC: the base64 payload as written; DEC: the plaintext
	ID     int    // DEC(n): n; -1 when the token has no number (a value added in the editor)
}

// Block reports whether s is in block form (behind a YAML ">").
func (s Segment) Block() bool { return s.Kind == SegEncBlock || s.Kind == SegDecBlock }

// ParseEncrypted splits an eyaml file into text and ENC tokens as the gem's encrypted parser does.
func ParseEncrypted(text string) []Segment {
	return parseGem(text, encStringRe, encBlockRe, func(kind SegmentKind, m []string) Segment {
		if kind == SegEncString {
			return Segment{Scheme: strings.TrimSuffix(m[1], ","), Body: m[2], ID: -1}
		}
		return Segment{Indent: m[1], Scheme: strings.TrimSuffix(m[2], ","), Body: m[3], ID: -1}
	}, SegEncString, SegEncBlock)
}

// ParseDecrypted splits the edit form into text and DEC tokens as the gem's decrypted parser does.
func ParseDecrypted(text string) []Segment {
	return parseGem(text, decStringRe, decBlockRe, func(kind SegmentKind, m []string) Segment {
		if kind == SegDecString {
			return Segment{ID: decID(m[1]), Scheme: m[2], Body: m[3]}
		}
		return Segment{Indent: m[1], ID: decID(m[2]), Scheme: m[3], Body: m[4]}
	}, SegDecString, SegDecBlock)
}

func decID(paren string) int {
	if paren == "" {
		return -1
	}
	n, err := strconv.Atoi(strings.Trim(paren, "()"))
	if err != nil {
		return -1 // a number too large to be one of ours: a new value
	}
	return n
}

// parseGem is the gem's Parser#parse: at each position the first token type (string, then block)
// that matches there makes a token; otherwise the text up to the earliest match of any type is one
// text token. Each type's next match is kept until the position passes its start (a match found
// from an earlier position is also the leftmost from any position up to its start: no pattern
// looks behind), so a file is searched once per type, not once per token.
func parseGem(text string, stringRe, blockRe *regexp.Regexp, fields func(SegmentKind, []string) Segment, stringKind, blockKind SegmentKind) []Segment {
	types := []struct {
		re   *regexp.Regexp
		kind SegmentKind
		next []int // the next match's submatch offsets in text; nil: none left
		from int   // the position next was searched from; -1: not yet
	}{{re: stringRe, kind: stringKind, from: -1}, {re: blockRe, kind: blockKind, from: -1}}
	var segs []Segment
	pos := 0
	for pos < len(text) {
		nextStart := len(text)
		var token *Segment
		for i := range types {
			t := &types[i]
			if t.from < 0 || (t.next != nil && t.next[0] < pos) {
				t.from, t.next = pos, nil
				if loc := t.re.FindStringSubmatchIndex(text[pos:]); loc != nil {
					for j := range loc {
						if loc[j] >= 0 {
							loc[j] += pos
						}
					}
					t.next = loc
				}
			}
			if t.next == nil {
				continue
			}
			if t.next[0] == pos {
				m := make([]string, len(t.next)/2)
				for j := range m {
					if t.next[2*j] >= 0 {
						m[j] = text[t.next[2*j]:t.next[2*j+1]]
					}
				}
				s := fields(t.kind, m)
				s.Kind, s.Text, s.Offset = t.kind, m[0], pos
				token = &s
				break
			}
			nextStart = min(nextStart, t.next[0])
		}
		if token != nil {
			segs = append(segs, *token)
			pos += len(token.Text)
			continue
		}
		segs = append(segs, Segment{Kind: SegText, Text: text[pos:nextStart], Offset: pos, ID: -1})
		pos = nextStart
	}
	return segs
}
