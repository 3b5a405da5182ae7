package hocon

import (
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// render writes a parsed value as compact JSON with object keys in order, floats with a fraction,
// so a test sees key order and integer/float as Puppet would.
func render(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(t)
	case int64:
		return strconv.FormatInt(t, 10)
	case *big.Int:
		return t.String()
	case float64:
		s := strconv.FormatFloat(t, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return s
	case string:
		b, _ := json.Marshal(t)
		return string(b)
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = render(e)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case *Object:
		parts := make([]string, len(t.Keys))
		for i, k := range t.Keys {
			kb, _ := json.Marshal(k)
			parts[i] = string(kb) + ":" + render(t.Values[k])
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return "?"
}

// The expected answers are what the hocon 1.3.1 gem (Hocon.parse, as Puppet's hocon_data calls it)
// returned for each text.
func TestParseAsTheGem(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"numbers", "a = 1.0\nb = 1e3\nc = 010\nd = 08\ne = 1_000\nf = 0.5\ng = -0.0\nh = 1e30\ni = 0.1e1\nj = -010",
			`{"a":1,"b":1000,"c":8,"d":"08","e":"1_000","f":0.5,"g":0,"h":1000000000000000019884624838656,"i":1,"j":-8}`},
		{"big integer", "big = 123456789012345678901234567890", `{"big":123456789012345678901234567890}`},
		{"number text kept in a concatenation", "d = 1.0 x", `{"d":"1.0 x"}`},
		{"unquoted strings", "g = hello world\nt = x   \nn = 10 apples\nb = true story\nv = 1.2.3\nc = foo \"bar\" baz",
			`{"g":"hello world","t":"x","n":"10 apples","b":"true story","v":"1.2.3","c":"foo bar baz"}`},
		{"comments", "// c\na = 1 # c\nb = x // c\nl = [\n 1, # one\n 2 // two\n]", `{"a":1,"b":"x","l":[1,2]}`},
		{"strings", `t = "a\tb"` + "\n" + `u = "caf\u00e9"` + "\nm = \"\"\"x\n\"y\" \\n\"\"\"\"\"\ne = \"\"",
			`{"t":"a\tb","u":"café","m":"x\n\"y\" \\n\"\"","e":""}`},
		{"unicode escape with underscores (String#hex)", `u = "caf\u0_0e9"`, "{\"u\":\"caf\\u000e9\"}"},
		{"merged objects list the later keys first", "s { a = 1, b = 2 }\ns { c = 3, a = 10 }", `{"s":{"c":3,"a":10,"b":2}}`},
		{"path keys", "a.b.c = 1\na.b.d = 2\na.e = 3\n\"x.y\" = 4", `{"a":{"e":3,"b":{"d":2,"c":1}},"x.y":4}`},
		{"a scalar between objects stops the merge", "a { b = 1 }\na = 5\na { c = 2 }", `{"a":{"c":2}}`},
		{"arrays", "a = [1, 2] [3]\nb = [x]\nb += y\nc = ${a} [4]\nd = [\n one\n two\n]\ne = [1] foo", `{"a":[1,2,3],"b":["x","y"],"c":[1,2,3,4],"d":["one","two"],"e":[1]}`},
		{"substitutions", "base = /opt\nlog = ${base}/log\nq = \"${base}\"\ns { h = x, p = 1 }\nu = ${s.h}\":\"${s.p}\nm = ${?missing}\nw = ${?missing} foo\nl = [${?missing}, 1]",
			`{"base":"/opt","log":"/opt/log","q":"${base}","s":{"h":"x","p":1},"u":"x:1","w":" foo","l":[1]}`},
		{"self-reference sees the previous value", "a = 1\na = ${a} 2\nb { x = 1 }\nb = ${b} { y = 2 }", `{"a":"1 2","b":{"y":2,"x":1}}`},
		{"forward reference", "x = ${y.z}\ny { z = 1 }", `{"x":1,"y":{"z":1}}`},
		{"empty", "", `{}`},
		{"braces", "{ a = 1 }", `{"a":1}`},
		{"quoted include includes nothing", `include "other.conf"` + "\na = 1", `{"a":1}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.text, Options{})
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if r := render(got); r != tc.want {
				t.Errorf("got  %s\nwant %s", r, tc.want)
			}
		})
	}
}

// Every text here is an error in the gem too; the message names the line.
func TestParseErrors(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"colon in unquoted value", "name = web\nurl = http://example.com/path\n", "String: 2: Expecting close brace } or a comma, got ':'"},
		{"unclosed list", "a = [1, 2\nb = 1\n", "String: 2: List should have ended with ] or had a comma, instead had token: '='"},
		{"root is a list", "[1, 2]", "String: 1:  has type LIST rather than object at file root"},
		{"cycle", "a = ${b}\nb = ${a}", "Could not resolve substitution to a value: ${a} (part of a cycle of substitutions)"},
		{"self cycle", "a = ${a}", "String: 1: Could not resolve substitution to a value: ${a}"},
		{"missing substitution", "a = 1\nb = ${c}", "String: 2: Could not resolve substitution to a value: ${c}"},
		{"string before a list", "a = foo [1]", "String: 1: Cannot concatenate object or list with a non-object-or-list"},
		{"object and list", "a = {x=1} [2]", "String: 1: Cannot concatenate an object and a list"},
		{"unclosed string", "a = \"x", "String: 1: End of input but string quote was still open"},
		{"bad escape", `a = "\q"`, "String: 1: backslash followed by 'q'"},
		{"unescaped control character", "a = \"x\x01\"", "String: 1: JSON does not allow unescaped"},
		{"underscore escape (the gem's pack check)", `a = "\u005f"`, "Malformed hex digits after \\u escape"},
		{"reserved character", "a = x!y", "String: 1: Reserved character '!' is not allowed outside quotes"},
		{"infinite number", "a = 1e400", "String: 1: number 1e400 is out of range"},
		{"empty path element", "a..b = 1", "String: 1: path has a leading, trailing, or two adjacent period"},
		{"+= in a list", "a = [ { b += 1 } ]", "String: 1: Due to current limitations of the config parser, += does not work nested inside a list"},
		{"object over a substitution one level down", "x { a = ${y} }\nx { a { z = 1 } }\ny = {}", "need to Config#resolve()"},
		{"url include", `include url("http://example.com/x.conf")`, "include url() and classpath() are not supported"},
		{"relative file include", `include file("x.conf")`, "a relative path depends on the working directory"},
		{"trailing tokens", "{ a = 1 } b", "Document has trailing tokens"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.text, Options{})
			if err == nil {
				t.Fatalf("no error, got %s", render(got))
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err.Error(), tc.want)
			}
			var he *Error
			if !errors.As(err, &he) {
				t.Errorf("error is %T, not *hocon.Error", err)
			}
		})
	}
}

func readFrom(dir string) func(string) ([]byte, bool, error) {
	return func(p string) ([]byte, bool, error) {
		if !strings.HasPrefix(p, dir) {
			return nil, false, errors.New("outside the data directory")
		}
		data, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			return nil, false, nil
		}
		return data, err == nil, err
	}
}

func TestIncludes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("base.conf", "from_base = yes\nshared { a = base, b = base }\nown = base\nref = ${own}\n")
	write("pair.conf", "w { p = 1 }\n")
	write("pair.json", `{"w": {"q": 2}, "v": [1]}`)
	write("loop.conf", `include file("`+filepath.Join(dir, "loop.conf")+`")`+"\n")
	write("bad.conf", "a = [\n")
	opts := Options{ReadInclude: readFrom(dir)}
	cases := []struct{ name, text, want string }{
		{"merged under the including file", `include file("` + filepath.Join(dir, "base.conf") + `")` + "\nown = mine\nshared { b = common }",
			`{"from_base":"yes","shared":{"b":"common","a":"base"},"own":"mine","ref":"mine"}`},
		{"nested include is relativized", `n { include file("` + filepath.Join(dir, "base.conf") + `") }`,
			`{"n":{"from_base":"yes","shared":{"a":"base","b":"base"},"own":"base","ref":"base"}}`},
		{"no extension reads .conf then .json", `include file("` + filepath.Join(dir, "pair") + `")`, `{"w":{"p":1,"q":2},"v":[1]}`},
		{"a missing file adds nothing", `include file("` + filepath.Join(dir, "none.conf") + `")` + "\na = 1", `{"a":1}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.text, opts)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if r := render(got); r != tc.want {
				t.Errorf("got  %s\nwant %s", r, tc.want)
			}
		})
	}
	for name, tc := range map[string]struct{ text, want string }{
		"cycle":                {`include file("` + filepath.Join(dir, "loop.conf") + `")`, "include statements nested more than 50 times"},
		"error in the include": {"a = 1\n" + `include file("` + filepath.Join(dir, "bad.conf") + `")`, "String: 2: in included file " + filepath.Join(dir, "bad.conf") + ": String: 2: List should have"},
		"outside the root":     {`include file("/etc/passwd")`, "outside the data directory"},
	} {
		if _, err := Parse(tc.text, opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", name, err, tc.want)
		}
	}
	if _, err := Parse(`include file("`+filepath.Join(dir, "base.conf")+`")`, Options{}); err == nil || !strings.Contains(err.Error(), "not allowed") {
		t.Errorf("include without a reader: %v", err)
	}
}

func TestLimits(t *testing.T) {
	deep := strings.Repeat("[", 50) + strings.Repeat("]", 50)
	if _, err := Parse("a = "+deep, Options{Limits: Limits{Tokens: 1000, Depth: 20, Includes: 1, Steps: 100}}); err == nil || !strings.Contains(err.Error(), "nested more than 20 levels") {
		t.Errorf("depth: %v", err)
	}
	if _, err := Parse("a = 1\nb = 2\nc = 3", Options{Limits: Limits{Tokens: 5, Depth: 20, Includes: 1, Steps: 100}}); err == nil || !strings.Contains(err.Error(), "more than 5 tokens") {
		t.Errorf("tokens: %v", err)
	}
	// each level doubles the text of the one above
	var sb strings.Builder
	sb.WriteString("v0 = x\n")
	for i := 1; i <= 40; i++ {
		sb.WriteString("v" + strconv.Itoa(i) + " = ${v" + strconv.Itoa(i-1) + "}${v" + strconv.Itoa(i-1) + "}\n")
	}
	if _, err := Parse(sb.String(), Options{}); err == nil || !strings.Contains(err.Error(), "build more than 67108864 bytes of text") {
		t.Errorf("text: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"a = 1", "a { b = ${c} }\nc = [1, 2] [3]", "x = ${?y} \"\"\"t\"\"\"", "a += 1\na += ${a}", "a.b.c = 010 // c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		obj, err := Parse(text, Options{Limits: Limits{Tokens: 10000, Depth: 100, Includes: 10, Steps: 10000}})
		if err == nil && obj == nil {
			t.Fatal("no object and no error")
		}
		var he *Error
		if err != nil && !errors.As(err, &he) {
			t.Fatalf("error %T is not a *hocon.Error: %v", err, err)
		}
	})
}
