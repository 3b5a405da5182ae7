package manifest

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// File is what one manifest defines and looks up.
type File struct {
	Path    string
	Classes []*Class
	Aliases []*Alias
	Lookups []*Lookup
}

// Class is a class definition: class ntp (Array[String] $servers = [], ...) inherits ntp::params.
type Class struct {
	Name     string // its full name in lower case: ntp::config (a class nested in ntp, or named so)
	File     string
	Line     int
	Inherits string // the parent class's name as written, "" when none
	Params   []*Param
}

// Param is one parameter of a class, in declaration order.
type Param struct {
	Name       string // without the $
	Type       string // the declared type expression as written; "" when none is declared (Any)
	Line       int
	HasDefault bool
}

// Alias is a type alias definition: type Stdlib::Port = Integer[0, 65535].
type Alias struct {
	Name string // as written
	Type string // the type expression as written
	File string
	Line int
}

// Lookup is an explicit lookup of a literal key: lookup('k'), hiera('k'), lookup({'name' => 'k'}).
type Lookup struct {
	Key      string
	Function string // lookup, hiera, hiera_hash, hiera_array, hiera_include
	File     string
	Line     int
}

// Problem is a manifest the reader skipped: where it stopped, and why.
type Problem struct {
	File    string
	Line    int // 0: the file as a whole (it cannot be read)
	Message string
}

func (p *Problem) Error() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Message)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Message)
}

var lookupFunctions = map[string]bool{
	"lookup": true, "hiera": true, "hiera_hash": true, "hiera_array": true, "hiera_include": true,
}

// Parse reads one manifest's source (path names it in what it returns). A manifest it cannot
// read returns a *Problem at the line where reading stopped.
func Parse(path string, src []byte) (*File, error) {
	text := string(src)
	toks, err := lex(text)
	if err != nil {
		return nil, syntaxProblem(path, err, func(offset int) int { return lineOf(text, offset) })
	}
	p := &parser{src: text, toks: toks, file: &File{Path: path}, lines: newlineOffsets(text)}
	if err := p.run(); err != nil {
		return nil, syntaxProblem(path, err, p.line)
	}
	return p.file, nil
}

// syntaxProblem is the Problem of a *syntaxError (the lexer and parser return only these) at its line.
func syntaxProblem(path string, err error, line func(offset int) int) *Problem {
	var se *syntaxError
	if !errors.As(err, &se) {
		return &Problem{File: path, Line: 1, Message: err.Error()}
	}
	return &Problem{File: path, Line: line(se.offset), Message: se.msg}
}

type parser struct {
	src   string
	toks  []token
	file  *File
	lines []int32
}

// enclosing is a class whose body is open: classes defined in it are named under it.
type enclosing struct {
	name  string
	depth int // the bracket depth inside its body
}

func (p *parser) run() error {
	var classes []enclosing
	depth, body := 0, -1 // body: the index of the '{' opening the body of the class read last
	for i := 0; i < len(p.toks); i++ {
		t := p.toks[i]
		switch {
		case t.kind == tPunct && (t.text(p.src) == "(" || t.text(p.src) == "[" || t.text(p.src) == "{"):
			depth++
			if i == body {
				classes = append(classes, enclosing{p.file.Classes[len(p.file.Classes)-1].Name, depth})
			}
		case t.kind == tPunct && (t.text(p.src) == ")" || t.text(p.src) == "]" || t.text(p.src) == "}"):
			if n := len(classes); n > 0 && classes[n-1].depth == depth {
				classes = classes[:n-1]
			}
			depth--
		case t.kind != tName:
		case t.text(p.src) == "class" && p.is(i+1, tName, ""):
			outer := ""
			if len(classes) > 0 {
				outer = classes[len(classes)-1].name
			}
			var err error
			if body, err = p.class(i, outer); err != nil {
				return err
			}
		case t.text(p.src) == "type" && p.is(i+1, tRef, "") && p.is(i+2, tPunct, "="):
			end, err := p.typeExpr(i + 3)
			if err != nil {
				return err
			}
			p.file.Aliases = append(p.file.Aliases, &Alias{Name: p.toks[i+1].text(p.src), Type: p.text(i+3, end),
				File: p.file.Path, Line: p.line(int(t.start))})
			i = end - 1
		case lookupFunctions[t.text(p.src)] && p.is(i+1, tPunct, "(") && !p.is(i-1, tPunct, "."):
			p.lookupKeys(t.text(p.src), i+2)
		}
	}
	return nil
}

// is says whether token i exists and has the kind (and the text, unless "").
func (p *parser) is(i int, kind tokKind, text string) bool {
	return i >= 0 && i < len(p.toks) && p.toks[i].kind == kind && (text == "" || p.toks[i].text(p.src) == text)
}

func (p *parser) errorAt(i int, why string) error {
	if i >= len(p.toks) {
		return &syntaxError{len(p.src), "Syntax error at end of input" + why}
	}
	return &syntaxError{int(p.toks[i].start), fmt.Sprintf("Syntax error at '%s'%s", p.toks[i].text(p.src), why)}
}

// class reads a class definition's header from its keyword at i, adds the class, and returns the
// index of its body's '{'.
func (p *parser) class(i int, outer string) (int, error) {
	name := strings.ToLower(strings.TrimPrefix(p.toks[i+1].text(p.src), "::"))
	if outer != "" && !strings.HasPrefix(p.toks[i+1].text(p.src), "::") {
		name = outer + "::" + name
	}
	c := &Class{Name: name, File: p.file.Path, Line: p.line(int(p.toks[i].start))}
	j := i + 2
	if p.is(j, tPunct, "(") {
		end := p.matching(j)
		params, err := p.params(j+1, end)
		if err != nil {
			return 0, err
		}
		c.Params = params
		j = end + 1
	}
	if p.is(j, tName, "inherits") {
		if !p.is(j+1, tName, "") {
			return 0, p.errorAt(j+1, ": inherits needs a class name")
		}
		c.Inherits = strings.TrimPrefix(p.toks[j+1].text(p.src), "::")
		j += 2
	}
	if !p.is(j, tPunct, "{") {
		return 0, p.errorAt(j, fmt.Sprintf(": class %s needs a body { ... }", name))
	}
	p.file.Classes = append(p.file.Classes, c)
	return j, nil
}

// matching is the index of the bracket closing the one at i (the lexer balanced them all).
func (p *parser) matching(i int) int {
	depth := 0
	for j := i; j < len(p.toks); j++ {
		if t := p.toks[j]; t.kind == tPunct {
			switch t.text(p.src) {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth--; depth == 0 {
					return j
				}
			}
		}
	}
	return len(p.toks)
}

// params reads the parameters between tokens from and to (the closing parenthesis): each
// [Type] $name [= default], separated by commas.
func (p *parser) params(from, to int) ([]*Param, error) {
	var params []*Param
	for i := from; i < to; {
		start := i
		for i < to && !p.is(i, tVar, "") {
			if p.is(i, tPunct, ",") {
				return nil, p.errorAt(i, ": a parameter needs a $name")
			}
			if t := p.toks[i]; t.kind == tPunct && (t.text(p.src) == "[" || t.text(p.src) == "(" || t.text(p.src) == "{") {
				i = p.matching(i)
			}
			i++
		}
		if i >= to {
			return nil, p.errorAt(start, ": a parameter needs a $name")
		}
		if start < i && !p.is(start, tRef, "") {
			return nil, p.errorAt(start, "")
		}
		param := &Param{Name: p.toks[i].text(p.src), Line: p.line(int(p.toks[i].start))}
		if start < i {
			param.Type = p.text(start, i)
		}
		i++
		if p.is(i, tPunct, "=") {
			param.HasDefault = true
			if i+1 >= to || p.is(i+1, tPunct, ",") {
				return nil, p.errorAt(i+1, fmt.Sprintf(": parameter $%s has no default after '='", param.Name))
			}
			for i < to && !p.is(i, tPunct, ",") {
				if t := p.toks[i]; t.kind == tPunct && (t.text(p.src) == "[" || t.text(p.src) == "(" || t.text(p.src) == "{") {
					i = p.matching(i)
				}
				i++
			}
		}
		if i < to && !p.is(i, tPunct, ",") {
			return nil, p.errorAt(i, "")
		}
		params = append(params, param)
		i++ // past the comma
	}
	return params, nil
}

// typeExpr is the end (exclusive) of the type expression starting at token i: a type name and its
// parameters in brackets.
func (p *parser) typeExpr(i int) (int, error) {
	if !p.is(i, tRef, "") {
		return 0, p.errorAt(i, ": a type alias needs a type")
	}
	if p.is(i+1, tPunct, "[") {
		return p.matching(i+1) + 1, nil
	}
	return i + 1, nil
}

// text is the source of tokens from to to (exclusive).
func (p *parser) text(from, to int) string {
	return p.src[p.toks[from].start:p.toks[to-1].end]
}

// lookupKeys records the literal keys of a lookup call whose first argument is at i: a string, an
// array of strings, or an options hash's 'name'.
func (p *parser) lookupKeys(function string, i int) {
	if p.is(i, tPunct, "{") {
		end := p.matching(i)
		for j := i + 1; j < end; j++ {
			t := p.toks[j]
			if (t.kind == tName || (t.kind == tString && t.literal)) && t.text(p.src) == "name" && p.is(j+1, tPunct, "=>") {
				p.lookupKeys(function, j+2)
				return
			}
			if t.kind == tPunct && (t.text(p.src) == "[" || t.text(p.src) == "(" || t.text(p.src) == "{") {
				j = p.matching(j)
			}
		}
		return
	}
	if p.is(i, tPunct, "[") {
		end := p.matching(i)
		for j := i + 1; j < end; j++ {
			p.lookupKey(function, j)
		}
		return
	}
	p.lookupKey(function, i)
}

func (p *parser) lookupKey(function string, i int) {
	if t := p.toks[i]; t.kind == tString && t.literal && (p.is(i+1, tPunct, ",") || p.is(i+1, tPunct, ")") || p.is(i+1, tPunct, "]")) {
		p.file.Lookups = append(p.file.Lookups, &Lookup{Key: t.text(p.src), Function: function, File: p.file.Path, Line: p.line(int(t.start))})
	}
}

// newlineOffsets are the offsets of s's line breaks (lex took s: they fit in 32 bits).
func newlineOffsets(s string) []int32 {
	out := make([]int32, 0, strings.Count(s, "\n"))
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, int32(i)) //nolint:gosec // G115: lex refuses sources past 32 bits
		}
	}
	return out
}

// line is the 1-based line of offset.
func (p *parser) line(offset int) int {
	return 1 + sort.Search(len(p.lines), func(i int) bool { return int(p.lines[i]) >= offset })
}
