package hiera_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// TestErrorFields checks that data errors are *model.Error values naming the key, the data file,
// the line where known and the hierarchy level.
func TestErrorFields(t *testing.T) {
	t.Parallel()
	config := "version: 5\nhierarchy:\n  - name: Node level\n    path: node.yaml\n  - name: JSON level\n    data_hash: json_data\n    path: common.json\n"
	tests := map[string]struct {
		node, json string
		file       string // relative to the fixture root
		line       int
		message    string // part of the message
	}{
		"yaml-syntax": {
			node: "a: 1\nb: [1, 2\nc: 3\n", json: "{}",
			file: "data/node.yaml", line: 2, message: "Unable to parse (@ROOT@/data/node.yaml): line 2",
		},
		"yaml-bad-indentation": {
			node: "a:\n  b: 1\n c: 2\n", json: "{}",
			file: "data/node.yaml", line: 3, message: "Unable to parse (@ROOT@/data/node.yaml)",
		},
		"yaml-tab-indentation": {
			node: "a:\n\tb: 1\n", json: "{}",
			file: "data/node.yaml", line: 2, message: "found character that cannot start any token",
		},
		"yaml-date": {
			node: "a: 1\nwhen: 2001-12-14\n", json: "{}",
			file: "data/node.yaml", line: 2, message: "Tried to load unspecified class: Date",
		},
		"yaml-unknown-alias": {
			node: "a: *nothing\n", json: "{}",
			file: "data/node.yaml", line: 1, message: "Unknown alias: nothing",
		},
		"json-syntax": {
			node: "b: 1\n", json: "{\n  \"a\": 1,\n  \"b\": \n}\n",
			file: "data/common.json", line: 4, message: "Unable to parse (@ROOT@/data/common.json)",
		},
		"json-not-an-object": {
			node: "b: 1\n", json: "[1, 2]",
			file: "data/common.json", message: "Value returned from data_hash function 'json_data', when using location '@ROOT@/data/common.json', has wrong type, expects a Hash value, got Tuple",
		},
		"symbol-value": {
			node: "b: 1\na: :sym\n", json: "{}",
			file: "data/node.yaml", line: 2, message: "Value for key 'a', in hash returned from data_hash function 'yaml_data', when using location '@ROOT@/data/node.yaml', has wrong type, expects Puppet::LookupValue, got Runtime[ruby, 'Symbol']",
		},
		"non-richdata-key": {
			node: "b: 1\na: {true: x}\n", json: "{}",
			file: "data/node.yaml", line: 2, message: "has wrong type, expects Puppet::LookupValue",
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, dir := newEngine(t, files{"hiera.yaml": config, "data/node.yaml": tt.node, "data/common.json": tt.json})
			he := mustFail(t, e, hiera.Request{Key: "a"})
			wantContains(t, "message", he.Message, strings.ReplaceAll(tt.message, "@ROOT@", dir))
			// The file is the problem, whatever key is looked up: no "Lookup of key 'lookup_options'
			// failed" in front, although the lookup_options search read the file first.
			if strings.Contains(he.Message, "lookup_options") {
				t.Errorf("message %q blames lookup_options for a problem of the data file", he.Message)
			}
			if want := filepath.Join(dir, filepath.FromSlash(tt.file)); he.File != want {
				t.Errorf("File %q, want %q", he.File, want)
			}
			if he.Line != tt.line {
				t.Errorf("Line %d, want %d", he.Line, tt.line)
			}
			wantLevel := "Node level"
			if strings.HasSuffix(tt.file, ".json") {
				wantLevel = "JSON level"
			}
			if he.Level != wantLevel || he.Key != "a" {
				t.Errorf("Level %q Key %q", he.Level, he.Key)
			}
			wantContains(t, "Error()", he.Error(), he.Message, fmt.Sprintf("hierarchy level %q", wantLevel), "file: "+he.File)
		})
	}
}

// TestErrorFieldsInterpolation: an interpolation error names the data file holding the value.
func TestErrorFieldsInterpolation(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: Roles\n    path: role.yaml\n  - name: Common\n    path: common.yaml\n",
		"data/role.yaml":   "other: 1\n",
		"data/common.yaml": "a: \"%{alias('b')} text\"\nb: x\n",
	})
	he := mustFail(t, e, hiera.Request{Key: "a"})
	if he.Level != "Common" || he.File != filepath.Join(dir, "data", "common.yaml") || he.Key != "a" {
		t.Errorf("Level %q File %q Key %q", he.Level, he.File, he.Key)
	}
	var target *model.Error
	if !errors.As(fmt.Errorf("wrapped: %w", he), &target) || target != he {
		t.Error("errors.As does not find the *model.Error")
	}
}

// TestGarbageInput feeds data files no one should write: every lookup must end quickly with a
// clear error (or a plain answer), never a panic or a hang.
func TestGarbageInput(t *testing.T) {
	t.Parallel()
	deepList := "a: " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n"
	deepHash := "a: " + strings.Repeat("{k: ", 10000) + "1" + strings.Repeat("}", 10000) + "\n"
	block := "a:\n  " + strings.Repeat("- ", 10000) + "x\n" // block sequences, one inside the other
	bomb := "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
	for i := 1; i <= 9; i++ {
		bomb += fmt.Sprintf("l%d: &l%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
	}
	bomb += "a: *l9\n"
	mergeBomb := "m0: &m0 {a: 1}\n"
	for i := 1; i <= 30; i++ {
		mergeBomb += fmt.Sprintf("m%d: &m%d {x%d: *m%d, y%d: *m%d}\n", i, i, i, i-1, i, i-1)
	}
	mergeBomb += "a: *m30\n"
	jsonDeep := "{\"a\": " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "}"
	binary := make([]byte, 4096)
	for i := range binary {
		binary[i] = byte(i * 7919 % 256)
	}
	tests := map[string]struct {
		yaml, json string
		message    string // part of the error message; "" = the lookup may succeed
	}{
		"binary":            {yaml: string(binary), message: "Unable to parse"},
		"nul-bytes":         {yaml: "a: x\x00y\n", message: "control characters are not allowed"},
		"latin1":            {yaml: "a: caf\xe9\n", message: "invalid UTF-8"},
		"utf16":             {yaml: "\xff\xfea\x00:\x00 \x001\x00\n\x00", message: "Unable to parse"},
		"deep-flow-list":    {yaml: deepList, message: "nest more than 1000 levels"},
		"deep-flow-hash":    {yaml: deepHash, message: "nest more than 1000 levels"},
		"deep-block":        {yaml: block, message: "Unable to parse"},
		"alias-bomb":        {yaml: bomb, message: "document too large after alias expansion"},
		"alias-hash-bomb":   {yaml: mergeBomb, message: "document too large after alias expansion"},
		"json-deep":         {yaml: "b: 1\n", json: jsonDeep, message: "too deep"},
		"json-binary":       {yaml: "b: 1\n", json: string(binary), message: "Unable to parse"},
		"only-a-scalar":     {yaml: "just a string\n", message: ""},
		"many-documents":    {yaml: "a: 1\n---\na: 2\n", message: ""},
		"recursive-anchor":  {yaml: "a: &x [*x]\n", message: "Unable to parse"},
		"huge-key-count":    {yaml: strings.Repeat("k: v\n", 50000) + "a: 1\n", message: ""},
		"unterminated":      {yaml: "a: \"never closed\n", message: "Unable to parse"},
		"lone-document-end": {yaml: "...\n", message: ""},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fs := files{
				"hiera.yaml":       "version: 5\nhierarchy:\n  - name: yaml\n    path: common.yaml\n  - name: json\n    data_hash: json_data\n    path: common.json\n",
				"data/common.yaml": tt.yaml,
			}
			if tt.json != "" {
				fs["data/common.json"] = tt.json
			}
			e, _ := newEngine(t, fs)
			for _, req := range []hiera.Request{
				{Key: "a"},
				{Key: "a", Merge: &merge.Merge{Strategy: "deep"}, Explain: true},
				{Key: "a.x.y", Function: hiera.FuncArray},
			} {
				res, err := lookup(t, e, req)
				if len(res.Explanation) > 10<<20 {
					t.Errorf("explanation of %d bytes", len(res.Explanation))
				}
				if err == nil {
					if tt.message != "" {
						t.Errorf("%s: want an error %q, got found=%v", req.Key, tt.message, res.Found)
					}
					continue
				}
				he := hieraError(t, err)
				if strings.Contains(he.Message, "internal error") {
					t.Fatalf("engine panic: %v", he)
				}
				if tt.message != "" && !strings.Contains(he.Message, tt.message) {
					t.Errorf("%s: message %.300q lacks %q", req.Key, he.Message, tt.message)
				}
				if tt.message != "" && (he.File == "" || he.Level == "") {
					t.Errorf("%s: File %q Level %q", req.Key, he.File, he.Level)
				}
			}
		})
	}
}

// TestGarbageDataFileTooLarge: a file over the size limit is refused without being read (the test
// file is sparse, so it costs no disk).
func TestGarbageDataFileTooLarge(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{"hiera.yaml": simpleConfig, "data/common.yaml": "a: 1\n"})
	path := filepath.Join(dir, "data", "common.yaml")
	if err := os.Truncate(path, 65<<20); err != nil {
		t.Skip("cannot make a sparse file:", err)
	}
	he := mustFail(t, e, hiera.Request{Key: "a"})
	wantContains(t, "message", he.Message, "more than the limit")
	if he.File != path {
		t.Errorf("File %q", he.File)
	}
}

// TestGarbageHieraYAML: the same garbage as a hiera.yaml.
func TestGarbageHieraYAML(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"binary":       "\x00\x01\x02\x03version: 5",
		"latin1":       "version: 5\n# caf\xe9\n",
		"deep":         "version: 5\nhierarchy: " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n",
		"alias-bomb":   "x: &x [a, a, a, a, a, a, a, a, a, a]\n" + "version: 5\n",
		"options-deep": "version: 5\nhierarchy:\n  - name: x\n    lookup_key: eyaml_lookup_key\n    path: x\n    options:\n      o: " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n",
	}
	for name, text := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, dir := newEngine(t, files{"hiera.yaml": text})
			res, err := lookup(t, e, hiera.Request{Key: "a"})
			if err == nil {
				if res.Found {
					t.Errorf("found %s", jsonOf(t, res.Value))
				}
				return
			}
			he := hieraError(t, err)
			if strings.Contains(he.Message, "internal error") {
				t.Fatalf("engine panic: %v", he)
			}
			if he.File != filepath.Join(dir, "hiera.yaml") {
				t.Errorf("File %q", he.File)
			}
		})
	}
}

// TestNonDataFailsOnlyItsKey: values Psych reads but Puppet's lookup rejects (a Symbol, an
// Encoding, a collection as a hash key) fail the lookup of the root key that holds them, with
// Puppet's message (recorded from Puppet 7.23, cases edge-sec-badvalue*), and nothing else.
func TestNonDataFailsOnlyItsKey(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml": "lookup_options:\n  good: {merge: unique}\nnginx::ensure: :present\nsym2: !ruby/sym absent\n" +
			"symkey:\n  :a: 1\ncollkey:\n  ? [1, 2]\n  : x\nhashkey:\n  ? {a: 1}\n  : y\nenc: !ruby/encoding UTF-8\n" +
			"nested:\n  a:\n    - 1\n    - :sym\nmixed:\n  b: !ruby/encoding UTF-8\n  c: [1.5, 2.5]\ngood: fine\n? [top, level]\n: ignored\n",
	})
	loc := filepath.Join(dir, "data/common.yaml")
	want := map[string]string{
		"nginx::ensure": "Runtime[ruby, 'Symbol']",
		"sym2":          "Runtime[ruby, 'Symbol']",
		"collkey":       "Hash[Array[Integer[1, 2], 2, 2], String, 1, 1]",
		"hashkey":       "Hash[Hash[String, Integer[1, 1], 1, 1], String, 1, 1]",
		"enc":           "Runtime[ruby, 'Encoding']",
		"nested":        "Hash[String, Array[Any, 2, 2], 1, 1]",
		"nested.a":      "Hash[String, Array[Any, 2, 2], 1, 1]",
		"mixed":         "Hash[Enum['b', 'c'], Any, 2, 2]",
	}
	for key, typ := range want {
		root := strings.SplitN(key, ".", 2)[0]
		he := mustFail(t, e, hiera.Request{Key: key})
		msg := fmt.Sprintf("Value for key '%s', in hash returned from data_hash function 'yaml_data', when using location '%s', has wrong type, expects Puppet::LookupValue, got %s", root, loc, typ)
		if he.Message != msg {
			t.Errorf("%s: got %q\nwant %q", key, he.Message, msg)
		}
	}
	if got := jsonOf(t, mustFind(t, e, hiera.Request{Key: "good"}).Value); got != `["fine"]` {
		t.Errorf("good = %s", got)
	}
	if got := jsonOf(t, mustFind(t, e, hiera.Request{Key: "symkey"}).Value); got != `{"a":1}` {
		t.Errorf("symkey = %s", got)
	}
}

// TestLongValuesCutInMessages: Puppet's messages quote whole values ("Unknown merge strategy:
// '...'", convert_to's); shown, a message keeps its start and end (what failed, where, what to do)
// and leaves the middle out, so that a node read of many such keys is not megabytes of text.
func TestLongValuesCutInMessages(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 100000)
	e, _ := newEngine(t, files{
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml": "lookup_options:\n  a:\n    convert_to: Integer\n  c:\n    merge: \"" + big + "\"\n" +
			"a: " + big + "\nc: 1\n",
	})
	for _, key := range []string{"a", "c"} {
		err := mustFail(t, e, hiera.Request{Key: key})
		if msg := err.Error(); len(msg) > 2500 || !strings.Contains(msg, "bytes left out") {
			t.Errorf("%s: a message of %d bytes: %.300s", key, len(msg), msg)
		}
	}
}
