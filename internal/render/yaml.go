package render

import (
	"math"
	"math/big"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// YAML is v.to_yaml as Psych 4 writes it through libyaml 0.2.5 (lines of at most about 80
// columns, indentation 2, sequences in mappings not indented, empty collections in flow style).
// Values shared by identity are written out each time: Psych would write an anchor and an alias
// for a hash or array met twice, which a lookup's result practically never holds.
func YAML(v any) []byte {
	e := &emitter{whitespace: true, indention: true, indent: -1}
	e.writeIndicator("---", true, false, false)
	e.node(v, false, false)
	e.writeIndent()
	if e.openEnded {
		e.writeIndicator("...", true, false, false)
		e.writeIndent()
	}
	return []byte(e.b.String())
}

const (
	bestIndent = 2
	bestWidth  = 80
	// maxSimpleKey is libyaml's longest key written as "key: value" rather than "? key\n: value".
	maxSimpleKey = 128
)

// emitter is the part of libyaml's emitter state the block styles use.
type emitter struct {
	b                     strings.Builder
	column                int
	whitespace, indention bool
	indent                int
	indents               []int
	flowLevel             int
	openEnded             bool // a "|+" scalar ended the document: libyaml closes it with "..."
}

type scalarStyle int

const (
	plainStyle scalarStyle = iota
	singleQuoted
	doubleQuoted
	literalStyle
)

// scalar is what Psych's YAMLTree hands libyaml for a scalar value.
type scalar struct {
	text  string
	style scalarStyle
	// tag is written before the scalar ("!!str"); a scalar Psych does not mark quoted_implicit
	// (nil, numbers) and libyaml does not write plain gets the non-specific tag "!".
	tag            string
	quotedImplicit bool
}

// psychScalar is Psych's visit_* for a scalar value.
func psychScalar(v any) scalar {
	switch t := v.(type) {
	case nil:
		return scalar{}
	case string:
		if t == "<<" {
			return scalar{text: t, style: singleQuoted, tag: "!!str"}
		}
		return scalar{text: t, style: psychStringStyle(t), quotedImplicit: true}
	case float64:
		switch {
		case math.IsNaN(t):
			return scalar{text: ".nan"}
		case math.IsInf(t, 1):
			return scalar{text: ".inf"}
		case math.IsInf(t, -1):
			return scalar{text: "-.inf"}
		}
	case *big.Float, bool, int64, *big.Int:
	}
	return scalar{text: model.ToS(v)}
}

// psychStringStyle is visit_String's choice (line_width unset, strings never binary here).
func psychStringStyle(s string) scalarStyle {
	switch {
	case hasInnerLineBreak(s):
		return literalStyle
	case s == "y" || s == "n":
		return doubleQuoted
	case startsWithNonWordWithoutQuote(s):
		return doubleQuoted
	case !datafile.PlainIsString(s) || octalLookingDecimal(s):
		return singleQuoted
	}
	return plainStyle
}

// hasInnerLineBreak is Ruby's s =~ /\n(?!\Z)/: a line feed that is not the last character, nor
// the one before a final line feed.
func hasInnerLineBreak(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && i != len(s)-1 && (i != len(s)-2 || s[len(s)-1] != '\n') {
			return true
		}
	}
	return false
}

// startsWithNonWordWithoutQuote is Ruby's s =~ /^[^[:word:]][^"]*$/: at the start of some line, a
// character that is not a word character (a line feed is one) followed by no '"' up to a line end.
func startsWithNonWordWithoutQuote(s string) bool {
	for p := 0; p < len(s); {
		r, size := utf8.DecodeRuneInString(s[p:])
		if !isWordRune(r) {
			rest := s[p+size:]
			if end := strings.IndexByte(rest, '\n'); end >= 0 {
				rest = rest[:end]
			}
			if !strings.Contains(rest, `"`) {
				return true
			}
		}
		next := strings.IndexByte(s[p:], '\n')
		if next < 0 {
			return false
		}
		p += next + 1
	}
	return false
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Nl, r) ||
		unicode.Is(unicode.Pc, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Me, r) || unicode.Is(unicode.No, r)
}

// octalLookingDecimal is /\A0[0-7]*[89]/: such strings read back as strings but Psych quotes them.
func octalLookingDecimal(s string) bool {
	if len(s) < 2 || s[0] != '0' {
		return false
	}
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] >= '0' && s[i] <= '7':
		case s[i] == '8' || s[i] == '9':
			return true
		default:
			return false
		}
	}
	return false
}

// node writes a value; the flags are libyaml's contexts.
func (e *emitter) node(v any, mapping, simpleKey bool) {
	switch t := v.(type) {
	case []any:
		if len(t) == 0 {
			e.writeIndicator("[", true, true, false)
			e.writeIndicator("]", false, false, false)
			return
		}
		e.increaseIndent(false, mapping && !e.indention)
		for _, item := range t {
			e.writeIndent()
			e.writeIndicator("-", true, false, true)
			e.node(item, false, false)
		}
		e.popIndent()
	case *model.Hash:
		if t.Len() == 0 {
			e.writeIndicator("{", true, true, false)
			e.writeIndicator("}", false, false, false)
			return
		}
		e.increaseIndent(false, false)
		t.Each(func(k, val any) bool {
			e.writeIndent()
			key := psychScalar(k)
			a := analyze(key.text)
			if len(key.text)+len(key.tag) <= maxSimpleKey && !a.multiline {
				e.scalar(key, a, true)
				e.writeIndicator(":", false, false, false)
			} else {
				e.writeIndicator("?", true, false, true)
				e.scalar(key, a, false)
				e.writeIndent()
				e.writeIndicator(":", true, false, true)
			}
			e.node(val, true, false)
			return true
		})
		e.popIndent()
	default:
		s := psychScalar(v)
		e.scalar(s, analyze(s.text), simpleKey)
	}
}

func (e *emitter) increaseIndent(flow, indentless bool) {
	e.indents = append(e.indents, e.indent)
	switch {
	case e.indent < 0 && flow:
		e.indent = bestIndent
	case e.indent < 0:
		e.indent = 0
	case !indentless:
		e.indent += bestIndent
	}
}

func (e *emitter) popIndent() {
	e.indent = e.indents[len(e.indents)-1]
	e.indents = e.indents[:len(e.indents)-1]
}

// scalar is libyaml's emit_scalar: the style as select_scalar_style settles it, then the text.
func (e *emitter) scalar(s scalar, a analysis, simpleKey bool) {
	style := s.style
	if simpleKey && a.multiline {
		style = doubleQuoted
	}
	if style == plainStyle {
		if (e.flowLevel > 0 && !a.flowPlain) || (e.flowLevel == 0 && !a.blockPlain) ||
			(len(s.text) == 0 && (e.flowLevel > 0 || simpleKey)) {
			style = singleQuoted
		}
	}
	if style == singleQuoted && !a.singleQuoted {
		style = doubleQuoted
	}
	if style == literalStyle && (!a.block || e.flowLevel > 0 || simpleKey) {
		style = doubleQuoted
	}
	switch {
	case s.tag != "":
		e.writeTag(s.tag)
	case !s.quotedImplicit && style != plainStyle:
		e.writeTag("!")
	}
	e.increaseIndent(true, false)
	breaks := !simpleKey
	switch style {
	case plainStyle:
		e.writePlain(s.text, breaks)
	case singleQuoted:
		e.writeSingleQuoted(s.text, breaks)
	case doubleQuoted:
		e.writeDoubleQuoted(s.text, breaks)
	case literalStyle:
		e.writeLiteral(s.text)
	}
	e.popIndent()
}
