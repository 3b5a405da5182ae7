package hiera_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
)

// threeLevels is a node / role / common hierarchy used by the merge tests.
func threeLevels(t *testing.T, options string) *hiera.Engine {
	t.Helper()
	e, _ := newEngine(t, files{
		"hiera.yaml": `version: 5
hierarchy:
  - name: node
    path: "nodes/%{trusted.certname}.yaml"
  - name: role
    path: "roles/%{role}.yaml"
  - name: common
    path: common.yaml
`,
		"data/nodes/web01.example.com.yaml": `
scalar: node
list: [n, shared]
h: {a: node, deep: {x: node}}
arr: [n1]
nil_key: ~
only_node: here
`,
		"data/roles/web.yaml": `
scalar: role
list: [r, shared, [nested]]
h: {b: role, deep: {y: role}}
arr: [r1, n1]
`,
		"data/common.yaml": options + `
scalar: common
list: [c, shared]
h: {c: common, a: common, deep: {x: common, z: common}}
arr: [c1]
ko: {list: [keep, gone]}
bad_unique: {k: v}
one_hash: {k: v}
`,
	})
	return e
}

func nodeScope(t *testing.T) hiera.Scope {
	return scopeOf(t, map[string]any{"role": "web", "clientcert": "web01.example.com", "fqdn": "web01.example.com"}, nil)
}

func mustMerge(t *testing.T, v any) *merge.Merge {
	t.Helper()
	if m, ok := v.(map[string]any); ok {
		v = hashOf(t, m)
	}
	m, err := merge.Parse(v)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestLookupMergeStrategies(t *testing.T) {
	t.Parallel()
	e := threeLevels(t, "")
	tests := map[string]struct {
		req  hiera.Request
		want string
	}{
		"first":                   {req: hiera.Request{Key: "scalar"}, want: `"node"`},
		"first-explicit":          {req: hiera.Request{Key: "h", Merge: &merge.Merge{Strategy: "first"}}, want: `{"a":"node","deep":{"x":"node"}}`},
		"unique":                  {req: hiera.Request{Key: "list", Merge: &merge.Merge{Strategy: "unique"}}, want: `["n","shared","r","nested","c"]`},
		"unique-scalars":          {req: hiera.Request{Key: "scalar", Merge: &merge.Merge{Strategy: "unique"}}, want: `["node","role","common"]`},
		"unique-single-hash":      {req: hiera.Request{Key: "one_hash", Merge: &merge.Merge{Strategy: "unique"}}, want: `[{"k":"v"}]`},
		"hash":                    {req: hiera.Request{Key: "h", Merge: &merge.Merge{Strategy: "hash"}}, want: `{"c":"common","a":"node","deep":{"x":"node"},"b":"role"}`},
		"deep":                    {req: hiera.Request{Key: "h", Merge: &merge.Merge{Strategy: "deep"}}, want: `{"c":"common","a":"node","deep":{"x":"node","z":"common","y":"role"},"b":"role"}`},
		"deep-arrays-lower-first": {req: hiera.Request{Key: "arr", Merge: &merge.Merge{Strategy: "deep"}}, want: `["c1","r1","n1"]`},
		"deep-from-parse-merge":   {req: hiera.Request{Key: "h", Merge: mustMerge(t, map[string]any{"strategy": "deep", "merge_hash_arrays": true})}, want: `{"c":"common","a":"node","deep":{"x":"node","z":"common","y":"role"},"b":"role"}`},
		"hash-then-dig":           {req: hiera.Request{Key: "h.c", Merge: &merge.Merge{Strategy: "hash"}}, want: `"common"`},
		"deep-then-dig":           {req: hiera.Request{Key: "h.deep.z", Merge: &merge.Merge{Strategy: "deep"}}, want: `"common"`},
		"func-hash":               {req: hiera.Request{Key: "h", Function: hiera.FuncHash}, want: `{"c":"common","a":"node","deep":{"x":"node"},"b":"role"}`},
		"func-array":              {req: hiera.Request{Key: "arr", Function: hiera.FuncArray}, want: `["n1","r1","c1"]`},
		"func-array-scalar":       {req: hiera.Request{Key: "only_node", Function: hiera.FuncArray}, want: `["here"]`},
		"func-hash-with-merge":    {req: hiera.Request{Key: "h", Function: hiera.FuncHash, Merge: &merge.Merge{Strategy: "first"}}, want: `{"a":"node","deep":{"x":"node"}}`},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req := tt.req
			req.Scope = nodeScope(t)
			res := mustFind(t, e, req)
			if got := jsonOf(t, res.Value); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestLookupMergeErrors(t *testing.T) {
	t.Parallel()
	e := threeLevels(t, "")
	tests := map[string]struct {
		req     hiera.Request
		message string
	}{
		"unique-over-hashes": {
			req:     hiera.Request{Key: "h", Merge: &merge.Merge{Strategy: "unique"}},
			message: "The second element of the merge has wrong type, expects a value of type Scalar or Array, got Struct",
		},
		"hash-over-strings": {
			req:     hiera.Request{Key: "scalar", Merge: &merge.Merge{Strategy: "hash"}},
			message: "expects a Hash value, got String",
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req := tt.req
			req.Scope = nodeScope(t)
			he := mustFail(t, e, req)
			wantContains(t, "message", he.Message, tt.message)
			if he.Key != req.Key {
				t.Errorf("Key %q", he.Key)
			}
		})
	}
	t.Run("value-found-once-is-not-type-checked", func(t *testing.T) {
		t.Parallel()
		res := mustFind(t, e, hiera.Request{Key: "nil_key", Merge: &merge.Merge{Strategy: "hash"}, Scope: nodeScope(t)})
		if res.Value != nil {
			t.Errorf("got %s", jsonOf(t, res.Value))
		}
	})
}

func TestParseMergeErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		merge   any
		message string
	}{
		"unknown-name":    {merge: "Hash", message: "Unknown merge strategy: 'Hash'"},
		"no-strategy":     {merge: map[string]any{"knockout_prefix": "--"}, message: "The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'"},
		"option-for-hash": {merge: map[string]any{"strategy": "hash", "knockout_prefix": "--"}, message: "The merge options has wrong type, unrecognized key 'knockout_prefix'"},
		"not-a-name":      {merge: int64(5), message: "Unknown merge strategy: '5'"},
		"empty-knockout":  {merge: map[string]any{"strategy": "deep", "knockout_prefix": ""}, message: "knockout_prefix cannot be an empty string"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			v := tt.merge
			if m, ok := v.(map[string]any); ok {
				v = hashOf(t, m)
			}
			_, err := merge.Parse(v)
			if err == nil {
				t.Fatal("no error")
			}
			wantContains(t, "error", err.Error(), tt.message)
		})
	}
}

func TestLookupFoundNilAndDefaults(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t, files{
		"hiera.yaml":     "version: 5\nhierarchy:\n  - name: high\n    path: high.yaml\n  - name: low\n    path: low.yaml\n",
		"data/high.yaml": "nil_key: ~\nempty_key:\n",
		"data/low.yaml":  "nil_key: lower\nempty_key: lower\nlow_only: low\n",
	})
	tests := map[string]struct {
		req       hiera.Request
		wantFound bool
		want      string
	}{
		"found-nil-stops":             {req: hiera.Request{Key: "nil_key"}, wantFound: true, want: `null`},
		"found-empty-value-stops":     {req: hiera.Request{Key: "empty_key"}, wantFound: true, want: `null`},
		"default-not-used-for-nil":    {req: hiera.Request{Key: "nil_key", Default: "dflt", HasDefault: true}, wantFound: true, want: `null`},
		"not-found":                   {req: hiera.Request{Key: "nosuch"}, want: `null`},
		"not-found-default":           {req: hiera.Request{Key: "nosuch", Default: []any{"d"}, HasDefault: true}, want: `["d"]`},
		"not-found-nil-default":       {req: hiera.Request{Key: "nosuch", Default: nil, HasDefault: true}, want: `null`},
		"default-without-has-default": {req: hiera.Request{Key: "nosuch", Default: "ignored"}, want: `null`},
		"default-not-interpolated":    {req: hiera.Request{Key: "nosuch", Default: "%{hostname}", HasDefault: true}, want: `"%{hostname}"`},
		"lower-level":                 {req: hiera.Request{Key: "low_only"}, wantFound: true, want: `"low"`},
		"lookup-options-reserved":     {req: hiera.Request{Key: "lookup_options"}, want: `null`},
		"lookup-options-subkey":       {req: hiera.Request{Key: "lookup_options.a"}, want: `null`},
		"dotted-into-nil":             {req: hiera.Request{Key: "nil_key.x"}, want: `null`},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req := tt.req
			req.Scope = scopeOf(t, map[string]any{"hostname": "h"}, nil)
			res, err := lookup(t, e, req)
			if err != nil {
				t.Fatal(err)
			}
			if res.Found != tt.wantFound {
				t.Errorf("Found = %v, want %v", res.Found, tt.wantFound)
			}
			if got := jsonOf(t, res.Value); got != tt.want {
				t.Errorf("value %s, want %s", got, tt.want)
			}
		})
	}
}

func TestLookupDottedKeys(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t, files{
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: high\n    path: high.yaml\n  - name: low\n    path: low.yaml\n",
		"data/high.yaml": `
h: {a: 1, list: [x, {deep: found}], "dot.ted": quoted}
ik: {2: int key, "2": string key}
arr: [zero, one, [two]]
s: a string
n: 42
users:
  bob: {uid: 1001}
"top.dot": top dotted
`,
		"data/low.yaml": "h: {only_low: 1}\n",
	})
	tests := map[string]struct {
		key     string
		merge   string
		want    string // "" = not found
		message string // error
	}{
		"hash":                       {key: "users.bob.uid", want: `1001`},
		"array-index":                {key: "arr.1", want: `"one"`},
		"nested-array":               {key: "arr.2.0", want: `"two"`},
		"hash-then-array":            {key: "h.list.1.deep", want: `"found"`},
		"quoted-segment":             {key: "h.'dot.ted'", want: `"quoted"`},
		"double-quoted":              {key: `h."dot.ted"`, want: `"quoted"`},
		"int-key":                    {key: "ik.2", want: `"int key"`},
		"quoted-int-key":             {key: "ik.'2'", want: `"string key"`},
		"int-key-merge":              {key: "ik.2", merge: "hash", want: `"int key"`},
		"quoted-root":                {key: "'top.dot'", want: `"top dotted"`},
		"whitespace-trimmed":         {key: " users . bob . uid ", want: `1001`},
		"index-out-of-range":         {key: "arr.3"},
		"negative-index":             {key: "arr.-1"},
		"missing-subkey":             {key: "users.alice.uid"},
		"first-found-no-fallthrough": {key: "h.only_low"},
		"merge-then-dig":             {key: "h.only_low", merge: "hash", want: `1`},
		"into-string": {key: "s.x",
			message: "Data Provider type mismatch: Got String when a hash-like object was expected to access value using 'x' from key 's.x'"},
		"into-integer": {key: "n.x",
			message: "Data Provider type mismatch: Got Integer when a hash-like object was expected to access value using 'x' from key 'n.x'"},
		"name-into-array": {key: "arr.x",
			message: "Data Provider type mismatch: Got Array when a hash-like object was expected to access value using 'x' from key 'arr.x'"},
		"empty-segment":    {key: "h..a", message: "Syntax error in key: 'h..a'"},
		"trailing-dot":     {key: "h.", message: "Syntax error in key: 'h.'"},
		"partial-quote":    {key: "h.'a'b", message: "Syntax error in key: 'h.'a'b'"},
		"unbalanced-quote": {key: "h.'a", message: "Syntax error in key: 'h.'a'"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			req := hiera.Request{Key: tt.key}
			if tt.merge != "" {
				req.Merge = &merge.Merge{Strategy: tt.merge}
			}
			res, err := lookup(t, e, req)
			if tt.message != "" {
				if err == nil {
					t.Fatalf("want error %q, got %s", tt.message, jsonOf(t, res.Value))
				}
				he := hieraError(t, err)
				if he.Message != tt.message {
					t.Errorf("message %q, want %q", he.Message, tt.message)
				}
				if he.Key != tt.key {
					t.Errorf("Key %q, want %q", he.Key, tt.key)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if res.Found {
					t.Errorf("want not found, got %s", jsonOf(t, res.Value))
				}
				return
			}
			if !res.Found {
				t.Fatal("not found")
			}
			if got := jsonOf(t, res.Value); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

const lookupOptionsData = `
lookup_options:
  exact:
    merge: deep
  "^ex":
    merge: unique
  "^pat_":
    merge: unique
  "^pat_second":
    merge: hash
  merge_string:
    merge: hash
  merge_hash:
    merge:
      strategy: deep
      knockout_prefix: "--"
  to_array:
    convert_to: Array
  to_array_wrapped:
    convert_to: [Array, true]
  to_int:
    convert_to: Integer
  bad_int:
    convert_to: Integer
  secret:
    convert_to: Sensitive
  "^secret_":
    convert_to: Sensitive
  nested:
    convert_to: Integer
  string_entry: "nothing"
`

func TestLookupOptions(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t, files{
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: high\n    path: high.yaml\n  - name: low\n    path: low.yaml\n",
		"data/high.yaml": `
lookup_options:
  "^pat_":
    merge: first
exact: {a: {x: high}}
example: [h]
pat_second: [h]
merge_string: {a: high}
merge_hash: {list: ["--gone", new], s: high}
to_array: hello
to_array_wrapped: hello
to_int: "0x1F"
bad_int: bananas
secret: {password: hunter2}
secret_token: abc
nested: {v: "12"}
string_entry: [h]
`,
		"data/low.yaml": lookupOptionsData + `
exact: {a: {y: low}, b: low}
example: [l, h]
pat_second: [l]
merge_string: {b: low}
merge_hash: {list: [gone, kept], s: low}
string_entry: [l]
`,
	})
	tests := map[string]struct {
		req           hiera.Request
		want          string
		wantSensitive bool
	}{
		"exact-key-before-pattern": {req: hiera.Request{Key: "exact"}, want: `{"a":{"y":"low","x":"high"},"b":"low"}`},
		"pattern":                  {req: hiera.Request{Key: "example"}, want: `["h","l"]`},
		// the lower level's "^pat_" comes first in the assembled hash; the higher level's entry for
		// the same pattern replaces it as a whole, so the first matching pattern says "first"
		"first-matching-pattern-wins": {req: hiera.Request{Key: "pat_second"}, want: `["h"]`},
		"merge-as-string":             {req: hiera.Request{Key: "merge_string"}, want: `{"b":"low","a":"high"}`},
		"merge-as-hash":               {req: hiera.Request{Key: "merge_hash"}, want: `{"list":["kept","new"],"s":"high"}`},
		"request-merge-wins":          {req: hiera.Request{Key: "merge_string", Merge: &merge.Merge{Strategy: "first"}}, want: `{"a":"high"}`},
		"func-hash-ignores-merge":     {req: hiera.Request{Key: "example", Function: hiera.FuncArray}, want: `["h","l"]`},
		"convert-array":               {req: hiera.Request{Key: "to_array"}, want: `["h","e","l","l","o"]`},
		"convert-array-wrapped":       {req: hiera.Request{Key: "to_array_wrapped"}, want: `["hello"]`},
		"convert-integer":             {req: hiera.Request{Key: "to_int"}, want: `31`},
		"convert-after-dig":           {req: hiera.Request{Key: "nested.v"}, want: `12`},
		"convert-sensitive":           {req: hiera.Request{Key: "secret"}, want: `{"password":"hunter2"}`, wantSensitive: true},
		"convert-sensitive-dotted":    {req: hiera.Request{Key: "secret.password"}, want: `"hunter2"`, wantSensitive: true},
		"convert-sensitive-pattern":   {req: hiera.Request{Key: "secret_token"}, want: `"abc"`, wantSensitive: true},
		"convert-with-func-hash":      {req: hiera.Request{Key: "secret", Function: hiera.FuncHash}, want: `{"password":"hunter2"}`, wantSensitive: true},
		"string-entry-is-no-options":  {req: hiera.Request{Key: "string_entry"}, want: `["h"]`},
		"convert-not-for-default":     {req: hiera.Request{Key: "secret_nosuch", Default: "d", HasDefault: true}, want: `"d"`},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res, err := lookup(t, e, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if got := jsonOf(t, res.Value); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			if res.Sensitive != tt.wantSensitive {
				t.Errorf("Sensitive = %v, want %v", res.Sensitive, tt.wantSensitive)
			}
		})
	}
	t.Run("convert-error", func(t *testing.T) {
		t.Parallel()
		he := mustFail(t, e, hiera.Request{Key: "bad_int"})
		if want := "The convert_to lookup_option for key 'bad_int' raised error: 'new' The string 'bananas' cannot be converted to Integer"; he.Message != want {
			t.Errorf("message %q, want %q", he.Message, want)
		}
	})
	t.Run("sensitive-not-leaked-to-other-keys", func(t *testing.T) {
		t.Parallel()
		res := mustFind(t, e, hiera.Request{Key: "example"})
		if res.Sensitive {
			t.Error("Sensitive set for a plain key")
		}
	})
}

func TestLookupOptionsErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		data    string
		message string
	}{
		"not-a-hash":       {data: "lookup_options: [a]\na: 1\n", message: "value of lookup_options must be a hash"},
		"bad-pattern":      {data: "lookup_options:\n  \"^a(\":\n    merge: deep\na: 1\n", message: "end pattern with unmatched parenthesis: /^a(/"},
		"unknown-strategy": {data: "lookup_options:\n  a:\n    merge: deepest\na: 1\n", message: "Unknown merge strategy: 'deepest'"},
		"entry-not-hash":   {data: "lookup_options:\n  a: 5\na: 1\n", message: "lookup_options for key 'a' must be a hash, got Integer"},
		"unknown-type":     {data: "lookup_options:\n  a:\n    convert_to: ComicSans\na: 1\n", message: "Creation of new instance of type 'TypeReference['ComicSans']' is not supported"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, _ := newEngine(t, files{"hiera.yaml": simpleConfig, "data/common.yaml": tt.data})
			he := mustFail(t, e, hiera.Request{Key: "a"})
			wantContains(t, "message", he.Message, tt.message)
			if he.Key != "a" {
				t.Errorf("Key %q", he.Key)
			}
		})
	}
}

func TestLookupKeys(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t, files{
		"hiera.yaml":     "version: 5\nhierarchy:\n  - name: high\n    path: high.yaml\n  - name: low\n    path: low.yaml\n",
		"data/high.yaml": "second: from high\n",
		"data/low.yaml":  "first: from low\nsecond: low second\n",
	})
	tests := map[string]struct {
		keys      []string
		wantFound bool
		want      string
	}{
		"name-order-beats-hierarchy": {keys: []string{"first", "second"}, wantFound: true, want: `"from low"`},
		"skips-missing":              {keys: []string{"nosuch", "second"}, wantFound: true, want: `"from high"`},
		"none-found":                 {keys: []string{"x", "y"}, want: `null`},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res, err := lookup(t, e, hiera.Request{Key: "ignored", Keys: tt.keys})
			if err != nil {
				t.Fatal(err)
			}
			if res.Found != tt.wantFound || jsonOf(t, res.Value) != tt.want {
				t.Errorf("found=%v value=%s, want %v %s", res.Found, jsonOf(t, res.Value), tt.wantFound, tt.want)
			}
		})
	}
}

// TestLookupHiera3Resolution covers hiera_hash / hiera_array over a version 3 hiera.yaml (hiera-semantics.md §8.2).
func TestLookupHiera3Resolution(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t, files{
		"hiera.yaml":          ":backends: [yaml]\n:hierarchy: [high, low]\n:yaml:\n  :datadir: hieradata\n",
		"hieradata/high.yaml": "h: {a: high}\ns: high\nl: [x, ~]\nn: 1\nmix: {a: 1}\nnil_high: ~\n",
		"hieradata/low.yaml":  "h: {a: low, b: low}\ns: [low]\nl: [y, x]\nn: 2\nmix: not a hash\nnil_high: {a: 1}\n",
	})
	tests := map[string]struct {
		req     hiera.Request
		want    string
		message string
	}{
		"hash-native":                     {req: hiera.Request{Key: "h", Function: hiera.FuncHash}, want: `{"a":"high","b":"low"}`},
		"array-flatten-compact":           {req: hiera.Request{Key: "l", Function: hiera.FuncArray}, want: `["x","y"]`},
		"array-accepts-strings":           {req: hiera.Request{Key: "s", Function: hiera.FuncArray}, want: `["high","low"]`},
		"priority-lookup":                 {req: hiera.Request{Key: "h.a"}, want: `"high"`},
		"priority-lookup-first":           {req: hiera.Request{Key: "h"}, want: `{"a":"high"}`},
		"explicit-merge-is-puppet-lookup": {req: hiera.Request{Key: "h", Function: hiera.FuncHash, Merge: &merge.Merge{Strategy: "deep"}}, want: `{"a":"high","b":"low"}`},
		"array-type-mismatch":             {req: hiera.Request{Key: "n", Function: hiera.FuncArray}, message: "Hiera type mismatch for key 'n': expected Array and got Integer"},
		"hash-type-mismatch":              {req: hiera.Request{Key: "mix", Function: hiera.FuncHash}, message: "Hiera type mismatch for key 'mix': expected Hash and got String"},
		"hash-dotted":                     {req: hiera.Request{Key: "h.a", Function: hiera.FuncHash}, message: "Resolution type :hash is illegal when accessing values using dotted keys. Offending key was 'h.a'"},
		"array-dotted":                    {req: hiera.Request{Key: "l.0", Function: hiera.FuncArray}, message: "Resolution type :array is illegal when accessing values using dotted keys. Offending key was 'l.0'"},
		"string-default-interpolated": {req: hiera.Request{Key: "nosuch", Default: "d-%{hostname}", HasDefault: true,
			Scope: scopeOf(t, map[string]any{"hostname": "h1"}, nil)}, want: `"d-h1"`},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res, err := lookup(t, e, tt.req)
			if tt.message != "" {
				if err == nil {
					t.Fatalf("want error, got %s", jsonOf(t, res.Value))
				}
				he := hieraError(t, err)
				wantContains(t, "message", he.Message, tt.message)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := jsonOf(t, res.Value); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestLookupSearchedAndWarnings(t *testing.T) {
	t.Parallel()
	e, dir := newEngine(t, files{
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: Per node\n    path: \"nodes/%{trusted.certname}.yaml\"\n" +
			"  - name: A list\n    path: list.yaml\n  - name: Empty\n    path: empty.yaml\n  - name: Common\n    path: common.yaml\n",
		"data/list.yaml":   "- not\n- a hash\n",
		"data/empty.yaml":  "# only a comment\n",
		"data/common.yaml": "a: common\n",
	})
	t.Run("not-found", func(t *testing.T) {
		t.Parallel()
		res, err := lookup(t, e, hiera.Request{Key: "nosuch"})
		if err != nil || res.Found {
			t.Fatalf("found=%v err=%v", res.Found, err)
		}
		if diff := cmp.Diff([]string{"Per node", "A list", "Empty", "Common"}, res.Searched); diff != "" {
			t.Errorf("Searched (-want +got):\n%s", diff)
		}
		want := []string{dir + "/data/list.yaml: file does not contain a valid yaml hash"}
		if diff := cmp.Diff(want, res.Warnings); diff != "" {
			t.Errorf("Warnings (-want +got):\n%s", diff)
		}
	})
	t.Run("found-below-list", func(t *testing.T) {
		t.Parallel()
		res := mustFind(t, e, hiera.Request{Key: "a"})
		if jsonOf(t, res.Value) != `"common"` || len(res.Warnings) != 1 {
			t.Errorf("value %s warnings %v", jsonOf(t, res.Value), res.Warnings)
		}
	})
	// lookup_options are searched over every level, so the list is read (and warned about, once)
	// even when the key is found above it, as in Puppet
	t.Run("found-above-list", func(t *testing.T) {
		t.Parallel()
		e2, _ := newEngine(t, files{
			"hiera.yaml":       "version: 5\nhierarchy:\n  - name: c\n    path: common.yaml\n  - name: l\n    path: list.yaml\n",
			"data/common.yaml": "a: 1\n",
			"data/list.yaml":   "- x\n",
		})
		res := mustFind(t, e2, hiera.Request{Key: "a"})
		if len(res.Warnings) != 1 || !strings.HasSuffix(res.Warnings[0], "list.yaml: file does not contain a valid yaml hash") {
			t.Errorf("warnings %v", res.Warnings)
		}
	})
}

func TestLookupContextCancelled(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t, files{"hiera.yaml": simpleConfig, "data/common.yaml": "a: 1\n"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := e.Lookup(ctx, hiera.Request{Key: "a"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if he := hieraError(t, err); he.Key != "a" || !strings.Contains(he.Message, "canceled") {
		t.Errorf("error %+v", he)
	}
}

// TestLookupHandBuiltMerge: a Merge not made by merge.Parse is still checked, even when only one
// value is found (nothing is merged).
func TestLookupHandBuiltMerge(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t, files{"hiera.yaml": simpleConfig, "data/common.yaml": "a: [1]\n"})
	he := mustFail(t, e, hiera.Request{Key: "a", Merge: &merge.Merge{Strategy: "hashes"}})
	if he.Message != "Unknown merge strategy: 'hashes'" || he.Key != "a" {
		t.Errorf("error %+v", he)
	}
	res := mustFind(t, e, hiera.Request{Key: "a", Merge: &merge.Merge{}}) // zero value: first found
	if jsonOf(t, res.Value) != `[1]` {
		t.Errorf("got %s", jsonOf(t, res.Value))
	}
}

// TestWorkBounds: data that multiplies work fails with a clear error instead of running for hours:
// keys interpolating the next one twice (2^20 nested lookups), a fact of twenty {a,b} groups in an
// interpolated glob (2^20 patterns).
func TestWorkBounds(t *testing.T) {
	t.Parallel()
	var chain strings.Builder
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&chain, "k%d: \"%%{lookup('k%d')}%%{hiera('k%d')}\"\n", i, i+1, i+1)
	}
	chain.WriteString("k20: x\n")
	e, _ := newEngine(t, files{
		"hiera.yaml":         "version: 5\nhierarchy:\n  - name: nodes\n    glob: \"nodes/%{facts.pick}.yaml\"\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml":   chain.String(),
		"data/nodes/a.yaml":  "k20: y\n",
		"data/nodes/ab.yaml": "k20: z\n",
	})
	he := mustFail(t, e, hiera.Request{Key: "k0"})
	wantContains(t, "error", he.Error(), "The lookup made more than 100000 nested lookup()/hiera()/alias() interpolations")
	res := mustFind(t, e, hiera.Request{Key: "k19"}) // a short chain is fine
	if res.Value != "xx" {
		t.Errorf("k19 = %v", res.Value)
	}
	groups := strings.Repeat("{a,b}", 20)
	he = mustFail(t, e, hiera.Request{Key: "k20", Scope: scopeOf(t, map[string]any{"pick": groups}, nil)})
	wantContains(t, "error", he.Error(), "expands to more than 1000 patterns", `hierarchy level "nodes"`)
	res = mustFind(t, e, hiera.Request{Key: "k20", Scope: scopeOf(t, map[string]any{"pick": "{a,b}{,b}"}, nil)})
	if res.Value != "y" {
		t.Errorf("k20 = %v", res.Value)
	}
}
