package hiera_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// interpolationData is one data file exercising the %{...} forms of hiera-semantics.md §6.
const interpolationData = `
var: "%{hostname}"
var_top: "%{::hostname}"
var_spaces: "%{ hostname }"
facts_nested: "%{facts.os.family}"
facts_top_nested: "%{::facts.os.release.major}"
facts_index: "%{facts.list.1}"
facts_quoted: "%{facts.dotted.'a.b'}"
facts_quoted_double: '%{facts.dotted."a.b"}'
trusted_certname: "%{trusted.certname}"
trusted_all: "%{trusted.authenticated}|%{trusted.certname}|%{trusted.domain}|%{trusted.hostname}|%{trusted.extensions}"
environment: "%{environment}|%{::environment}"
server_facts: "%{server_facts}"
missing_var: "[%{nosuch}][%{facts.nosuch.deeper}]"
var_overrides_fact: "%{role}"
array_fact: "%{list}"
hash_fact: "%{hash}"
scalars: "%{t}/%{i}/%{f}/%{fbig}/%{fint}/%{nilfact}"
scope_fn: "%{scope('hostname')}"
scope_fn_nested: "%{scope(\"facts.os.family\")}"
target: the target
target_list: [x, 1]
target_hash: {k: v}
target_int: 42
target_nil: ~
target_with_var: "t-%{hostname}"
lookup_fn: "<%{lookup('target')}>"
hiera_fn: "<%{hiera('target')}>"
lookup_dotted: "%{lookup('target_hash.k')}"
lookup_missing: "<%{lookup('nosuch')}>"
lookup_nil: "<%{lookup('target_nil')}>"
lookup_nonstring: "%{lookup('target_list')} %{lookup('target_hash')} %{lookup('target_int')}"
lookup_whole_nonstring: "%{lookup('target_list')}"
lookup_reinterpolates: "%{lookup('target_with_var')}"
alias_list: "%{alias('target_list')}"
alias_hash: "%{alias('target_hash')}"
alias_int: "%{alias('target_int')}"
alias_nil: "%{alias('target_nil')}"
alias_missing: "%{alias('nosuch')}"
alias_inner_space: "%{ alias('target_int') }"
alias_not_whole: " %{alias('target')}"
alias_in_list: ["%{alias('target_list')}", "%{alias('target_int')}"]
literal_percent: "%{literal('%')}{hostname}"
literal_other: "%{literal('anything at all')}"
empty_tokens: "a%{}b%{::}c%{''}d%{\"\"}e%{'::'}f%{\"::\"}g"
escape: "%%{}{hostname}"
percent_alone: "100% %{ and %{hostname"
unknown_method: "%{what('x')}"
unquoted_arg: "[%{lookup(target)}]"
space_before_paren: "%{lookup ('target')}"
syntax_error: "%{facts..x}"
scope_dig_string: "%{facts.os.family.x}"
hash_keys:
  "%{hostname}": value
  plain: "%{facts.os.family}"
self_lookup: "%{lookup('self_lookup')}"
ping: "%{lookup('pong')}"
pong: "%{lookup('ping')}"
alias_loop_a: "%{alias('alias_loop_b')}"
alias_loop_b: "%{alias('alias_loop_a')}"
fact_loop: "%{facts.loop}"
same_key_twice: "%{lookup('target')} and %{lookup('target')}"
literal_same_as_key: "%{literal('literal_same_as_key')}"
alias_key_list: {"%{alias('target_list')}": v}
alias_key_hash: {"%{alias('target_hash')}": v}
alias_key_scalars: {"%{alias('target_int')}": a, "%{alias('target_nil')}": b, "42": c, 42: d}
`

func interpolationEngine(t *testing.T) *hiera.Engine {
	t.Helper()
	e, _ := newEngine(t, files{"hiera.yaml": simpleConfig, "data/common.yaml": interpolationData})
	return e
}

func interpolationScope(t *testing.T) hiera.Scope {
	return scopeOf(t, map[string]any{
		"hostname":   "web01",
		"domain":     "example.com",
		"fqdn":       "web01.example.com",
		"clientcert": "web01.example.com",
		"role":       "fact role",
		"os":         map[string]any{"family": "Debian", "release": map[string]any{"major": "12"}},
		"list":       []any{"x", int64(1)},
		"hash":       map[string]any{"k": "v", "n": []any{int64(1)}},
		"dotted":     map[string]any{"a.b": "quoted key"},
		"t":          true,
		"i":          int64(42),
		"f":          1.5,
		"fbig":       1e20,
		"fint":       100.0,
		"nilfact":    nil,
		"loop":       "<%{facts.loop}>",
	}, map[string]any{"role": "var role"})
}

func TestInterpolation(t *testing.T) {
	t.Parallel()
	e := interpolationEngine(t)
	tests := map[string]string{ // key -> JSON of the value
		"var":                    `"web01"`,
		"var_top":                `"web01"`,
		"var_spaces":             `"web01"`,
		"facts_nested":           `"Debian"`,
		"facts_top_nested":       `"12"`,
		"facts_index":            `"1"`,
		"facts_quoted":           `"quoted key"`,
		"facts_quoted_double":    `"quoted key"`,
		"trusted_all":            `"local|web01.example.com|example.com|web01|{}"`,
		"environment":            `"production|production"`,
		"server_facts":           `"{}"`,
		"missing_var":            `"[][]"`,
		"var_overrides_fact":     `"var role"`,
		"array_fact":             `"[\"x\", 1]"`,
		"hash_fact":              `"{\"k\"=>\"v\", \"n\"=>[1]}"`,
		"scalars":                `"true/42/1.5/1.0e+20/100.0/"`,
		"scope_fn":               `"web01"`,
		"scope_fn_nested":        `"Debian"`,
		"lookup_fn":              `"<the target>"`,
		"hiera_fn":               `"<the target>"`,
		"lookup_dotted":          `"v"`,
		"lookup_missing":         `"<>"`,
		"lookup_nil":             `"<>"`,
		"lookup_nonstring":       `"[\"x\", 1] {\"k\"=>\"v\"} 42"`,
		"lookup_whole_nonstring": `"[\"x\", 1]"`,
		"lookup_reinterpolates":  `"t-web01"`,
		"alias_list":             `["x",1]`,
		"alias_hash":             `{"k":"v"}`,
		"alias_int":              `42`,
		"alias_nil":              `null`,
		"alias_missing":          `""`,
		"alias_inner_space":      `42`,
		"alias_in_list":          `[["x",1],42]`,
		"literal_percent":        `"%{hostname}"`,
		"literal_other":          `"anything at all"`,
		"empty_tokens":           `"abcdefg"`,
		"escape":                 `"%{hostname}"`,
		"percent_alone":          `"100% %{ and %{hostname"`,
		"unquoted_arg":           `"[]"`,
		"hash_keys":              `{"web01":"value","plain":"Debian"}`,
		"same_key_twice":         `"the target and the target"`,
		"alias_key_scalars":      `{"42":"d","":"b","42":"c"}`,
	}
	for key, want := range tests {
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			res := mustFind(t, e, hiera.Request{Key: key, Scope: interpolationScope(t)})
			if got := jsonOf(t, res.Value); got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

func TestInterpolationTrusted(t *testing.T) {
	t.Parallel()
	e := interpolationEngine(t)
	tests := map[string]struct {
		facts map[string]any
		vars  map[string]any
		want  string
	}{
		"given-certname": {
			facts: map[string]any{"clientcert": "fact.example.com"},
			vars:  map[string]any{"trusted": map[string]any{"certname": "given.example.com"}},
			want:  `"given.example.com"`,
		},
		"certname-from-clientcert": {
			facts: map[string]any{"clientcert": "cc.example.com", "fqdn": "fqdn.example.com"},
			want:  `"cc.example.com"`,
		},
		"certname-from-fqdn": {
			facts: map[string]any{"fqdn": "fqdn.example.com"},
			want:  `"fqdn.example.com"`,
		},
		"no-facts": {
			want: `""`,
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res := mustFind(t, e, hiera.Request{Key: "trusted_certname", Scope: scopeOf(t, tt.facts, tt.vars)})
			if got := jsonOf(t, res.Value); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	t.Run("given-fields-kept-defaults-filled", func(t *testing.T) {
		t.Parallel()
		scope := scopeOf(t, map[string]any{"hostname": "h", "domain": "d.example"},
			map[string]any{"trusted": map[string]any{"certname": "c", "extensions": map[string]any{"pp_role": "web"}}})
		res := mustFind(t, e, hiera.Request{Key: "trusted_all", Scope: scope})
		if got, want := jsonOf(t, res.Value), `"local|c|d.example|h|{\"pp_role\"=>\"web\"}"`; got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	})
	// Puppet (Node#sanitize) makes a "trusted" fact with authenticated, certname and extensions
	// the node's $trusted, as is; a caller's trusted fields still win; an incomplete one is no
	// trusted data.
	stored := map[string]any{"hostname": "h", "trusted": map[string]any{
		"authenticated": "remote", "certname": "web01.example.com", "extensions": map[string]any{"pp_role": "web"}}}
	for name, tc := range map[string]struct {
		facts, vars map[string]any
		want        string
	}{
		"stored":            {stored, nil, `"remote|web01.example.com|||{\"pp_role\"=>\"web\"}"`},
		"stored-and-given":  {stored, map[string]any{"trusted": map[string]any{"certname": "c"}}, `"remote|c|||{\"pp_role\"=>\"web\"}"`},
		"stored-incomplete": {map[string]any{"hostname": "h", "trusted": map[string]any{"certname": "x", "extensions": map[string]any{}}}, nil, `"local|||h|{}"`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			res := mustFind(t, e, hiera.Request{Key: "trusted_all", Scope: scopeOf(t, tc.facts, tc.vars)})
			if got := jsonOf(t, res.Value); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	t.Run("environment-from-vars", func(t *testing.T) {
		t.Parallel()
		res := mustFind(t, e, hiera.Request{Key: "environment", Scope: scopeOf(t, nil, map[string]any{"environment": "staging"})})
		if got, want := jsonOf(t, res.Value), `"staging|staging"`; got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	})
}

func TestInterpolationErrors(t *testing.T) {
	t.Parallel()
	e := interpolationEngine(t)
	tests := map[string]string{ // key -> exact message
		"alias_not_whole":     "'alias' interpolation is only permitted if the expression is equal to the entire string",
		"unknown_method":      "Unknown interpolation method 'what'",
		"space_before_paren":  "Syntax error in string: %{lookup ('target')}",
		"syntax_error":        "Syntax error in string: %{facts..x}",
		"scope_dig_string":    "Data Provider type mismatch: Got String when a hash-like object was expected to access value using 'x' from key 'facts.os.family.x'",
		"self_lookup":         "Recursive lookup detected in [self_lookup]",
		"ping":                "Recursive lookup detected in [ping, pong]",
		"alias_loop_a":        "Recursive lookup detected in [alias_loop_a, alias_loop_b]",
		"fact_loop":           "Recursive lookup detected in [fact_loop, scope:facts.loop]",
		"literal_same_as_key": "Recursive lookup detected in [literal_same_as_key]",
		"alias_key_list":      `Interpolation of the hash key "%{alias('target_list')}" produced a Tuple: hash keys must be scalars`,
		"alias_key_hash":      `Interpolation of the hash key "%{alias('target_hash')}" produced a Struct: hash keys must be scalars`,
	}
	for key, want := range tests {
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			he := mustFail(t, e, hiera.Request{Key: key, Scope: interpolationScope(t)})
			if he.Message != want {
				t.Errorf("message %q, want %q", he.Message, want)
			}
			if he.Key != key || he.Level != "common" || !strings.HasSuffix(he.File, filepath.Join("data", "common.yaml")) {
				t.Errorf("Key %q Level %q File %q", he.Key, he.Level, he.File)
			}
		})
	}
}

// TestInterpolationInHieraYAML covers hiera-semantics.md §2.5: only variables are interpolated in hiera.yaml.
func TestInterpolationInHieraYAML(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		entry   string
		facts   map[string]any
		message string
	}{
		"lookup-in-path": {
			entry:   "    path: \"%{lookup('x')}.yaml\"\n",
			message: "Interpolation using method syntax is not allowed in this context",
		},
		"alias-in-datadir": {
			entry:   "    datadir: \"%{alias('x')}\"\n    path: common.yaml\n",
			message: "Interpolation using method syntax is not allowed in this context",
		},
		"literal-in-glob": {
			entry:   "    glob: \"%{literal('x')}/*.yaml\"\n",
			message: "Interpolation using method syntax is not allowed in this context",
		},
		"scope-in-mapped-paths-template": {
			entry:   "    mapped_paths: [facts.roles, r, \"%{scope('r')}.yaml\"]\n",
			facts:   map[string]any{"roles": []any{"a"}},
			message: "Interpolation using method syntax is not allowed in this context",
		},
		"fact-referring-to-itself": {
			entry:   "    path: \"%{facts.x}.yaml\"\n",
			facts:   map[string]any{"x": "a%{facts.x}"},
			message: "Recursive lookup detected in [scope:facts.x]",
		},
		"fact-with-method-call": {
			entry:   "    path: \"%{facts.x}.yaml\"\n",
			facts:   map[string]any{"x": "%{lookup('y')}"},
			message: "Interpolation using method syntax is not allowed in this context",
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, dir := newEngine(t, files{
				"hiera.yaml":       "version: 5\nhierarchy:\n  - name: level\n" + tt.entry,
				"data/common.yaml": "a: 1\n",
			})
			he := mustFail(t, e, hiera.Request{Key: "a", Scope: scopeOf(t, tt.facts, nil)})
			if !strings.HasSuffix(he.Message, tt.message) {
				t.Errorf("message %q, want %q", he.Message, tt.message)
			}
			if he.File != filepath.Join(dir, "hiera.yaml") || he.Level != "level" {
				t.Errorf("File %q Level %q", he.File, he.Level)
			}
		})
	}
}

// TestInterpolateBinaryFact: a YAML !!binary fact whose bytes are not UTF-8 fails where it is
// interpolated, as in Puppet ("partial character in source, but hit end"), and one that is UTF-8
// is a string like any other.
func TestInterpolateBinaryFact(t *testing.T) {
	t.Parallel()
	e, _ := newEngine(t, files{
		"hiera.yaml":       "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml": "x: \"%{facts.bin}\"\ny: \"%{facts.text}\"\n",
	})
	scope := scopeOf(t, map[string]any{"bin": "\xff", "text": "web"}, nil)
	he := mustFail(t, e, hiera.Request{Key: "x", Scope: scope})
	wantContains(t, "message", he.Message, "The variable 'facts.bin' holds bytes that are not UTF-8 text")
	if res := mustFind(t, e, hiera.Request{Key: "y", Scope: scope}); res.Value != "web" {
		t.Errorf("y = %v", res.Value)
	}
}
