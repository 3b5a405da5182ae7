package yamledit

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Options says how values are written.
type Options struct {
	// Interpolate writes strings as given, so that Hiera interpolates their %{...}; otherwise every
	// "%{" is escaped (EscapeInterpolation) and Hiera answers the string itself.
	Interpolate bool
}

// maxKeyText bounds a written hash key: libyaml refuses a simple key of more than 1024
// characters, and the engine's fast reader reads keys of at most 1000.
const maxKeyText = 1000

// maxNesting is how deeply the engine's data file reader lets arrays and hashes nest.
const maxNesting = 1000

// indentStep is the indentation of each nesting level written.
const indentStep = 2

// Encode returns the text of the root entry key: v, ending with newline ("\n" or "\r\n"), written
// so that Hiera (the engine and Puppet) reads back exactly v: in block style, strings quoted where
// YAML 1.1 would read something else, multi-line strings as literal blocks where one says the
// string exactly. v is an engine value (model) or plain Go data as the provider builds it
// (map[string]any, whose keys are written sorted). The text is checked by reading it back with
// the engine's reader.
func Encode(key string, v any, opts Options, newline string) ([]byte, error) {
	if err := CheckKey(key); err != nil {
		return nil, err
	}
	want := v
	if !opts.Interpolate {
		want = escapeValue(key, v)
	}
	text, err := encodeEntry(key, want, newline, true)
	if err == nil && !readsBack(text, key, want) {
		// a literal block the readers take otherwise than written: every string quoted instead
		text, err = encodeEntry(key, want, newline, false)
		if err == nil && !readsBack(text, key, want) {
			err = fmt.Errorf("internal error: the value of key %q does not read back as written", key)
		}
	}
	if err != nil {
		return nil, err
	}
	return text, nil
}

// encodeEntry writes "key: v" at column 0; blocks allows literal block scalars.
func encodeEntry(key string, v any, newline string, blocks bool) ([]byte, error) {
	e := &encoder{nl: newline, blocks: blocks}
	k, err := e.scalarKey(key, true)
	if err != nil {
		return nil, err
	}
	e.b.WriteString(k)
	e.b.WriteByte(':')
	if err := e.value(v, 0, []string{key}); err != nil {
		return nil, err
	}
	return []byte(e.b.String()), nil
}

// readsBack reports whether the entry text reads, with the engine's reader, as the one key key
// with the value v.
func readsBack(text []byte, key string, v any) bool {
	got, _, err := datafile.ParseYAML(text)
	h, ok := got.(*model.Hash)
	if err != nil || !ok || h.Len() != 1 {
		return false
	}
	gv, found := h.Get(key)
	return found && sameValue(gv, normalize(v))
}

type encoder struct {
	b      strings.Builder
	nl     string
	blocks bool
}

// pathError is an error about the value at path (the root key, then hash keys and indexes).
func pathError(path []string, format string, args ...any) error {
	return fmt.Errorf("%s: %s", strings.Join(path, "."), fmt.Sprintf(format, args...))
}

// value writes v after a key's ":" or a sequence's "-" (the cursor is right after it), as the
// value of a node whose own indentation is ind.
func (e *encoder) value(v any, ind int, path []string) error {
	if len(path) > maxNesting {
		return pathError(path[:1], "the value nests more than %d levels deep, which Hiera refuses to read", maxNesting)
	}
	switch t := v.(type) {
	case *model.Hash:
		if t.Len() == 0 {
			e.b.WriteString(" {}" + e.nl)
			return nil
		}
		e.b.WriteString(e.nl)
		var err error
		t.Each(func(k, val any) bool {
			err = e.hashEntry(k, val, ind+indentStep, path)
			return err == nil
		})
		return err
	case map[string]any:
		if len(t) == 0 {
			e.b.WriteString(" {}" + e.nl)
			return nil
		}
		e.b.WriteString(e.nl)
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := e.hashEntry(k, t[k], ind+indentStep, path); err != nil {
				return err
			}
		}
		return nil
	case []any:
		if len(t) == 0 {
			e.b.WriteString(" []" + e.nl)
			return nil
		}
		e.b.WriteString(e.nl)
		for i, item := range t {
			e.b.WriteString(strings.Repeat(" ", ind+indentStep) + "-")
			if err := e.value(item, ind+indentStep, append(path, strconv.Itoa(i))); err != nil {
				return err
			}
		}
		return nil
	case string:
		if e.blocks {
			if block, ok := literalBlock(t, ind+indentStep, e.nl); ok {
				e.b.WriteString(" " + block)
				return nil
			}
		}
	}
	s, err := e.scalar(v, path)
	if err != nil {
		return err
	}
	e.b.WriteString(" " + s + e.nl)
	return nil
}

// hashEntry writes the entry k: v of a hash at indentation ind.
func (e *encoder) hashEntry(k, v any, ind int, path []string) error {
	var text string
	var err error
	switch t := k.(type) {
	case string:
		text, err = e.scalarKey(t, false)
	case int64, int, *big.Int, float64:
		text, err = e.scalar(k, path)
	default:
		// Puppet's RichData: a hash key is a string or a number
		err = fmt.Errorf("a hash key that is %s: Hiera takes only strings and numbers as keys", model.Inspect(k))
	}
	if err != nil {
		return pathError(path, "%v", err)
	}
	e.b.WriteString(strings.Repeat(" ", ind) + text + ":")
	return e.value(v, ind, append(path, fmt.Sprint(k)))
}

// scalarKey writes a string hash key (root says whether it is the root key).
func (e *encoder) scalarKey(s string, root bool) (string, error) {
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("key %q is not UTF-8 text, which YAML cannot hold", s)
	}
	text := plainOrQuoted(s, true)
	if s == "<<" {
		text = "!!str <<" // plain or quoted, "<<" is a merge key to Psych when its value is a hash or a list of them
	}
	if len(text) > maxKeyText {
		if root {
			return "", fmt.Errorf("key %.40q... is longer than YAML allows for a key (%d characters written)", s, maxKeyText)
		}
		return "", fmt.Errorf("hash key %.40q... is longer than YAML allows for a key (%d characters written)", s, maxKeyText)
	}
	return text, nil
}

// scalar writes a scalar value on one line.
func (e *encoder) scalar(v any, path []string) (string, error) {
	switch t := v.(type) {
	case nil:
		return "~", nil
	case bool:
		return strconv.FormatBool(t), nil
	case int64:
		return strconv.FormatInt(t, 10), nil
	case int:
		return strconv.Itoa(t), nil
	case *big.Int:
		return t.String(), nil
	case float64:
		return floatText(t)
	case *big.Float:
		if x, acc := t.Float64(); acc == big.Exact {
			return floatText(x)
		}
		return "", pathError(path, "the number %s has more digits than Hiera can hold (Puppet reads a decimal as a Float of 17 significant digits): write it as a string", t.Text('g', -1))
	case string:
		if !utf8.ValidString(t) {
			return "", pathError(path, "the string is not UTF-8 text, which YAML cannot hold")
		}
		return plainOrQuoted(t, false), nil
	}
	return "", pathError(path, "a %T cannot be written as hieradata", v)
}

// floatText writes f so that Psych reads exactly f: the shortest decimal, with a "." (YAML 1.1
// reads no float without one).
func floatText(f float64) (string, error) {
	switch {
	case math.IsNaN(f):
		return ".nan", nil
	case math.IsInf(f, 1):
		return ".inf", nil
	case math.IsInf(f, -1):
		return "-.inf", nil
	}
	for _, text := range []string{strconv.FormatFloat(f, 'f', -1, 64), strconv.FormatFloat(f, 'e', -1, 64)} {
		mant, exp, hasExp := strings.Cut(text, "e")
		if !strings.Contains(mant, ".") {
			mant += ".0"
		}
		if hasExp {
			text = mant + "e" + exp
		} else {
			text = mant
		}
		if got, ok := readScalar(text); ok && got == f {
			return text, nil
		}
	}
	return "", fmt.Errorf("internal error: no text reads back as the number %v", f)
}

// readScalar reads text as the value of a key with the engine's reader.
func readScalar(text string) (any, bool) {
	v, _, err := datafile.ParseYAML([]byte("k: " + text + "\n"))
	h, ok := v.(*model.Hash)
	if err != nil || !ok {
		return nil, false
	}
	return h.Get("k")
}

// plainOrQuoted writes s plain when YAML 1.1 reads that as s itself (checked with the engine's
// reader, after a conservative check of the characters), else double-quoted.
func plainOrQuoted(s string, key bool) string {
	if plainCandidate(s) && !yaml12Number.MatchString(s) && readsAsItself(s, key) {
		return s
	}
	return doubleQuoted(s)
}

// yaml12Number matches the numbers of YAML 1.2's core schema: Psych reads "1e3" and "0o17" as
// strings, but other tools reading the file (YAML 1.2 ones) would not, so they are quoted too.
var yaml12Number = regexp.MustCompile(`^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)

// plainCandidate reports whether s is made only of characters that a plain scalar holds the same
// way in every YAML reader: no indicator first, no ": " or " #", no spaces at either end, no tab,
// control or line break.
func plainCandidate(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' || strings.ContainsRune("-?:,[]{}#&*!|>'\"%@`", rune(s[0])) {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7F || r >= 0x80 && !printable(r) {
			return false
		}
	}
	return true
}

// printable reports whether YAML writes r as itself in any scalar (not a line break, a byte order
// mark or a character libyaml would escape).
func printable(r rune) bool {
	switch {
	case r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xFEFF:
		return false
	case r >= 0xD800 && r <= 0xDFFF || r == 0xFFFE || r == 0xFFFF: // outside what YAML text may hold
		return false
	}
	return unicode.IsPrint(r)
}

// readsAsItself reports whether the plain scalar s reads back as the string s, as a value or as a
// hash key.
func readsAsItself(s string, key bool) bool {
	text := "k: " + s + "\n"
	if key {
		text = s + ": 1\n"
	}
	v, _, err := datafile.ParseYAML([]byte(text))
	h, ok := v.(*model.Hash)
	if err != nil || !ok || h.Len() != 1 {
		return false
	}
	if key {
		_, found := h.Get(s)
		k := h.Keys()[0]
		ks, isString := k.(string)
		return found && isString && ks == s
	}
	got, _ := h.Get("k")
	return got == s
}

// doubleQuoted writes s as a double-quoted scalar on one line.
func doubleQuoted(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case 0:
			b.WriteString(`\0`)
		case 0x1B:
			b.WriteString(`\e`)
		case 0x85:
			b.WriteString(`\N`)
		case 0xA0:
			b.WriteString(`\_`)
		case 0x2028:
			b.WriteString(`\L`)
		case 0x2029:
			b.WriteString(`\P`)
		default:
			switch {
			case r < 0x20 || r == 0x7F:
				fmt.Fprintf(&b, `\x%02X`, r)
			case r >= 0x80 && !printable(r):
				if r <= 0xFFFF {
					fmt.Fprintf(&b, `\u%04X`, r)
				} else {
					fmt.Fprintf(&b, `\U%08X`, r)
				}
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// literalBlock writes s (with at least one line break) as a literal block scalar whose lines are
// indented by ind, header included ("|2-" and so on); false when a literal block cannot say s
// exactly or safely: a line with trailing spaces (editors drop them), a character that is not
// printable, a tab.
func literalBlock(s string, ind int, nl string) (string, bool) {
	if !strings.Contains(s, "\n") {
		return "", false
	}
	for _, r := range s {
		if r != '\n' && (r < 0x20 || r == 0x7F || r >= 0x80 && !printable(r)) {
			return "", false
		}
	}
	body := strings.TrimRight(s, "\n")
	trailing := len(s) - len(body)
	lines := strings.Split(body, "\n")
	for _, l := range lines {
		if strings.HasSuffix(l, " ") {
			return "", false
		}
	}
	if body == "" {
		return "", false // only line breaks: a block says that with indentation games; quotes say it plainly
	}
	header := "|"
	for _, l := range lines {
		if l != "" {
			if l[0] == ' ' {
				header += strconv.Itoa(indentStep) // the indentation is not the first line's
			}
			break
		}
	}
	switch {
	case trailing == 0:
		header += "-"
	case trailing > 1:
		header += "+"
	}
	var b strings.Builder
	b.WriteString(header + nl)
	pad := strings.Repeat(" ", ind)
	for _, l := range lines {
		if l != "" {
			b.WriteString(pad + l)
		}
		b.WriteString(nl)
	}
	for range trailing - 1 {
		b.WriteString(nl)
	}
	return b.String(), true
}

// CheckKey returns Puppet's error for a root key that no lookup can name (whichever way it is
// quoted, the key parser splits it or fails with "Syntax error in key").
func CheckKey(key string) error {
	for _, name := range []string{key, `"` + key + `"`, `'` + key + `'`} {
		if segs, err := hiera.ParseKey(name); err == nil && len(segs) == 1 && segs[0] == key {
			return nil
		}
	}
	_, err := hiera.ParseKey(key)
	if err == nil {
		err = errors.New("Syntax error in key: '" + key + "'")
	}
	return fmt.Errorf("key %q: no lookup can name it (%v)", key, err)
}

// sameValue is model.Equal, where NaN equals NaN (a written .nan reads back as NaN).
func sameValue(a, b any) bool {
	if x, ok := a.(float64); ok && math.IsNaN(x) {
		y, ok := b.(float64)
		return ok && math.IsNaN(y)
	}
	switch a.(type) {
	case []any, *model.Hash:
		return model.ContainersEqual(a, b, sameValue)
	}
	return model.Equal(a, b)
}

// normalize turns plain Go data (map[string]any, int, *big.Float holding a float64) into the
// engine's values, as the reader builds them, to compare what was written with what is read.
func normalize(v any) any {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		h := model.NewHash(len(t))
		for _, k := range keys {
			h.Set(k, normalize(t[k]))
		}
		return h
	case *model.Hash:
		h := model.NewHash(t.Len())
		t.Each(func(k, val any) bool {
			h.Set(normalize(k), normalize(val))
			return true
		})
		return h
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = normalize(e)
		}
		return out
	case int:
		return int64(t)
	case *big.Int:
		return model.NormInt(t)
	case *big.Float:
		if x, acc := t.Float64(); acc == big.Exact {
			return x
		}
	}
	return v
}
