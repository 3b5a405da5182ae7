package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// Bad input, through the real terraform CLI: every row must end in an error diagnostic that names
// the problem (and the file or line where there is one), never a crash, a hang or a silent answer.

const commonHiera = "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"

// billionLaughs is the classic alias bomb: nine levels of tenfold aliases.
func billionLaughs() string {
	var b strings.Builder
	b.WriteString("l0: &l0 lol\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	b.WriteString("a: *l9\n")
	return b.String()
}

// lookupChain is n keys that each interpolate the next one twice: 2^n nested lookups.
func lookupChain(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "k%d: \"%%{lookup('k%d')}%%{lookup('k%d')}\"\n", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "k%d: x\n", n)
	return b.String()
}

type badInputCase struct {
	files map[string]string // relative to the case directory; "hiera.yaml" is the config
	key   string
	body  string         // extra data source arguments
	want  *regexp.Regexp // the error diagnostic
}

func badInputCases() map[string]badInputCase {
	data := func(yaml string) map[string]string {
		return map[string]string{"hiera.yaml": commonHiera, "data/common.yaml": yaml}
	}
	hiera := func(yaml string) map[string]string { return map[string]string{"hiera.yaml": yaml} }
	return map[string]badInputCase{
		"missing hiera.yaml":       {files: map[string]string{}, key: "a", want: errorRE(`Hiera Key Not Found`)}, // Puppet's default configuration
		"hiera.yaml not YAML":      {files: hiera("version: [5\n"), key: "a", want: errorRE(`Unable to parse hiera.yaml.*line`)},
		"hiera.yaml not a hash":    {files: hiera("- version: 5\n"), key: "a", want: errorRE(`Hiera Key Not Found`)}, // the Hiera 3 default, outside
		"hiera.yaml version 6":     {files: hiera("version: 6\n"), key: "a", want: errorRE(`does not support hiera.yaml version 6`)},
		"two location kinds":       {files: hiera("version: 5\nhierarchy:\n  - name: x\n    path: a.yaml\n    glob: '*.yaml'\n"), key: "a", want: errorRE(`Only one of path, paths, glob.*hierarchy 'x'`)},
		"unknown data_hash":        {files: map[string]string{"hiera.yaml": "version: 5\nhierarchy:\n  - name: x\n    data_hash: nonesuch_data\n    path: a.yaml\n", "data/a.yaml": "a: 1\n"}, key: "a", want: errorRE(`Unable to find 'data_hash' function named 'nonesuch_data'`)},
		"malformed HOCON":          {files: map[string]string{"hiera.yaml": "version: 5\nhierarchy:\n  - name: x\n    data_hash: hocon_data\n    path: a.conf\n", "data/a.conf": "a = 1\nurl = http://x\n"}, key: "a", want: errorRE(`Unable to parse \(.*a.conf\).*String: 2: Expecting close brace`)},
		"malformed data YAML":      {files: data("a: [1, 2\nb: 3\n"), key: "a", want: errorRE(`Looking up "a" with \S+ failed: Unable to parse \(.*common.yaml\).*line`)}, // not "Lookup of key 'lookup_options' failed"
		"alias bomb":               {files: data(billionLaughs()), key: "a", want: errorRE(`too large after alias expansion`)},
		"nesting 10000 deep":       {files: data("a: " + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + "\n"), key: "a", want: errorRE(`common.yaml.*(deep|depth)`)},
		"interpolation loop":       {files: data("a: \"%{lookup('b')}\"\nb: \"%{lookup('a')}\"\n"), key: "a", want: errorRE(`Recursive lookup detected in \[a, b\]`)},
		"alias loop":               {files: data("a: \"%{alias('a')}\"\n"), key: "a", want: errorRE(`Recursive lookup detected`)},
		"hiera.yaml path loop":     {files: hiera("version: 5\nhierarchy:\n  - name: x\n    path: \"%{facts.loop}.yaml\"\n"), key: "a", body: `facts = { loop = "%%{facts.loop}" }`, want: errorRE(`Recursive lookup detected`)},
		"alias not the whole text": {files: data("a: \"%{alias('b')} tail\"\nb: x\n"), key: "a", want: errorRE(`'alias' interpolation is only permitted if the expression is equal to the entire string`)},
		"unknown interpolation":    {files: data("a: \"%{what('b')}\"\n"), key: "a", want: errorRE(`Unknown interpolation method 'what'`)},
		"invalid lookup_options regexp": {files: data("lookup_options:\n  '^a(': {merge: deep}\na: 1\n"), key: "a",
			want: errorRE(`end pattern with unmatched parenthesis`)},
		"ruby-only regexp": {files: data("lookup_options:\n  '^(?<=x)a': {merge: deep}\na: 1\n"), key: "a",
			want: errorRE(`\^\(\?<=x\)a.*lookbehind`)},
		"bogus merge strategy":    {files: data("a: 1\n"), key: "a", body: "merge {\n strategy = \"bogus\"\n}", want: errorRE(`strategy`)},
		"deep options on hash":    {files: data("a: 1\n"), key: "a", body: "merge {\n strategy = \"hash\"\n knockout_prefix = \"--\"\n}", want: errorRE(`deep`)},
		"empty key":               {files: data("a: 1\n"), key: "", want: errorRE(`key`)},
		"unbalanced quote":        {files: data("a: 1\n"), key: "a.'b", want: errorRE(`Syntax error in key: 'a.'b'`)},
		"non-UTF-8 data":          {files: data("a: \"caf\xe9\"\n"), key: "a", want: errorRE(`common.yaml.*UTF-8`)},
		"binary data file":        {files: data("\x00\x01\x02\xff\xfe binary"), key: "a", want: errorRE(`Unable to parse \(.*common.yaml\)`)},
		"key found nowhere":       {files: data("b: 1\n"), key: "a", want: errorRE(`Hiera Key Not Found.*"a".*common`)},
		"path escapes datadir":    {files: hiera("version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{facts.node}.yaml\"\n"), key: "a", body: `facts = { node = "../../../etc/passwd" }`, want: errorRE(`outside`)},
		"dig into a string":       {files: data("a: {b: text}\n"), key: "a.b.c", want: errorRE(`Got String when a hash-like object was expected`)},
		"unique over a hash":      {files: map[string]string{"hiera.yaml": "version: 5\nhierarchy:\n  - name: a\n    path: a.yaml\n  - name: b\n    path: b.yaml\n", "data/a.yaml": "k: {x: 1}\n", "data/b.yaml": "k: {y: 2}\n"}, key: "k", body: "merge {\n strategy = \"unique\"\n}", want: errorRE(`expects a value of type Scalar or Array, got Struct`)},
		"date in data":            {files: data("a: 2001-12-14\n"), key: "a", want: errorRE(`Tried to load unspecified class: Date`)},
		"symbol value":            {files: data("nginx::ensure: :present\na: 1\n"), key: "nginx::ensure", want: errorRE(`Value for key 'nginx::ensure', in hash returned from data_hash function 'yaml_data', when using location '.*common.yaml', has wrong type, expects Puppet::LookupValue, got Runtime\[ruby, 'Symbol'\]`)},
		"collection as hash key":  {files: data("k:\n  ? [1, 2]\n  : x\na: 1\n"), key: "k", want: errorRE(`Value for key 'k'.*got Hash\[Array\[Integer\[1, 2\], 2, 2\], String, 1, 1\]`)},
		"ruby encoding":           {files: data("k: !ruby/encoding UTF-8\na: 1\n"), key: "k", want: errorRE(`Value for key 'k'.*got Runtime\[ruby, 'Encoding'\]`)},
		"NUL in a fact in a path": {files: hiera("version: 5\nhierarchy:\n  - name: node\n    path: \"nodes/%{facts.node}.yaml\"\n"), key: "a", body: `facts = { node = "p\u0000q" }`, want: errorRE(`hierarchy path "nodes/%\{facts.node\}.yaml" contains a NUL byte`)},
		"JSON file holding null": {files: map[string]string{"hiera.yaml": "version: 5\nhierarchy:\n  - name: j\n    data_hash: json_data\n    path: j.json\n", "data/j.json": "null\n"}, key: "a",
			want: errorRE(`Value returned from data_hash function 'json_data', when using location '.*j.json', has wrong type, expects a Hash value, got Undef`)},
		"exponential lookup chain": {files: data(lookupChain(20)), key: "k0", want: errorRE(`more than 100000 nested lookup\(\)/hiera\(\)/alias\(\) interpolations`)},
		"brace bomb in a glob fact": {files: hiera("version: 5\nhierarchy:\n  - name: nodes\n    glob: \"nodes/%{facts.pick}.yaml\"\n"), key: "a",
			body: `facts = { pick = "` + strings.Repeat("{a,b}", 20) + `" }`, want: errorRE(`expands to more than 1000 patterns`)},
		"interpolated hocon uri": {files: hiera("version: 5\nhierarchy:\n  - name: u\n    uri: \"dothis -f bar\"\n"), key: "a", want: errorRE(`bad URI`)},
	}
}

func writeCase(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, text := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	for name, tc := range badInputCases() {
		t.Run(name, func(t *testing.T) {
			dir := writeCase(t, tc.files)
			unitTest(t, resource.TestStep{
				Config: fmt.Sprintf(`
provider "hiera" {
  config = %q
}
data "hiera_lookup" "test" {
  key = %q
  %s
}`, filepath.Join(dir, "hiera.yaml"), tc.key, tc.body),
				ExpectError: tc.want,
			})
		})
	}
}

// TestBadInput_hugeFile: a data file over the engine's size limit is refused before it is read.
func TestBadInput_hugeFile(t *testing.T) {
	dir := writeCase(t, map[string]string{"hiera.yaml": commonHiera})
	big := filepath.Join(dir, "data", "common.yaml")
	if err := os.MkdirAll(filepath.Dir(big), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(100 << 20); err != nil { // sparse: 100 MB without writing them
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	unitTest(t, resource.TestStep{
		Config:      fmt.Sprintf("provider \"hiera\" {\n  config = %q\n}\ndata \"hiera_lookup\" \"test\" {\n  key = \"a\"\n}\n", filepath.Join(dir, "hiera.yaml")),
		ExpectError: errorRE(`common.yaml.*more than the limit`),
	})
}

// TestBadInput_notAHashWarns: a data file that is a list is read as empty, with a warning, as in
// Puppet; the lookup then falls back to the default.
func TestBadInput_notAHashWarns(t *testing.T) {
	dir := writeCase(t, map[string]string{"hiera.yaml": commonHiera, "data/common.yaml": "- just\n- a list\n"})
	unitTest(t, resource.TestStep{
		Config: fmt.Sprintf("provider \"hiera\" {\n  config = %q\n}\ndata \"hiera_lookup\" \"test\" {\n  key = \"a\"\n  default_value = \"fallback\"\n}\n", filepath.Join(dir, "hiera.yaml")),
		Check:  resource.TestCheckResourceAttr("data.hiera_lookup.test", "found", "false"),
	})
}

// TestBadInput_unterminatedToken: "%{" without a closing brace is literal text in Puppet, so it
// comes back as written (and quickly), not as an error.
func TestBadInput_unterminatedToken(t *testing.T) {
	dir := writeCase(t, map[string]string{"hiera.yaml": commonHiera, "data/common.yaml": "a: \"100%{ done\"\n"})
	unitTest(t, resource.TestStep{
		Config:            fmt.Sprintf("provider \"hiera\" {\n  config = %q\n}\ndata \"hiera_lookup\" \"test\" {\n  key = \"a\"\n}\n", filepath.Join(dir, "hiera.yaml")),
		ConfigStateChecks: []statecheck.StateCheck{expect("data.hiera_lookup.test", "value", str("100%{ done"))},
	})
}

// TestBadInput_badValueFailsOnlyItsKey: a value Puppet rejects (a Ruby symbol, a collection as a
// key, !ruby/encoding) fails only its own key; the other keys of the file are found, as in Puppet.
// A %YAML 1.2 directive is read as Puppet reads it.
func TestBadInput_badValueFailsOnlyItsKey(t *testing.T) {
	dir := writeCase(t, map[string]string{"hiera.yaml": commonHiera,
		"data/common.yaml": "%YAML 1.2\n---\nlookup_options:\n  a: {merge: unique}\nensure: :present\nk:\n  ? [1, 2]\n  : x\nenc: !ruby/encoding UTF-8\na: 1\nb: yes\n"})
	unitTest(t, resource.TestStep{
		Config: fmt.Sprintf("provider \"hiera\" {\n  config = %q\n}\ndata \"hiera_lookup\" \"a\" {\n  key = \"a\"\n}\ndata \"hiera_lookup\" \"b\" {\n  key = \"b\"\n}\n", filepath.Join(dir, "hiera.yaml")),
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.a", "json", str(`[1]`)),
			expect("data.hiera_lookup.b", "value", knownvalue.Bool(true)),
		},
	})
}

// TestBadInput_hugeExplanation: a large value found through 200 locations with explain = true made
// an explanation larger than gRPC's 4 MB message limit (and, with more locations, ran the provider
// out of memory); the explanation now stops at 1 MiB with a note.
func TestBadInput_hugeExplanation(t *testing.T) {
	var data strings.Builder
	data.WriteString("big:\n")
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&data, "  - item-%06d-xxxxxx\n", i)
	}
	files := map[string]string{"data/big.yaml": data.String()}
	var paths []string
	for i := 0; i < 200; i++ {
		paths = append(paths, fmt.Sprintf("\"n%d/../big.yaml\"", i))
		files[fmt.Sprintf("data/n%d/keep", i)] = ""
	}
	files["hiera.yaml"] = "version: 5\nhierarchy:\n  - name: many\n    paths: [" + strings.Join(paths, ", ") + "]\n"
	dir := writeCase(t, files)
	unitTest(t, resource.TestStep{
		Config: fmt.Sprintf("provider \"hiera\" {\n  config = %q\n}\ndata \"hiera_lookup\" \"test\" {\n  key = \"big\"\n  explain = true\n  merge {\n    strategy = \"unique\"\n  }\n}\n", filepath.Join(dir, "hiera.yaml")),
		ConfigStateChecks: []statecheck.StateCheck{
			expect("data.hiera_lookup.test", "explanation", truncatedExplanation{}),
		},
	})
}

// truncatedExplanation checks a string of about 1 MiB that ends with the truncation note.
type truncatedExplanation struct{}

func (truncatedExplanation) CheckValue(v any) error {
	s, ok := v.(string)
	const note = "... explanation truncated: it would exceed 1048576 bytes (large values found at many locations)"
	switch {
	case !ok:
		return fmt.Errorf("expected a string, got %T", v)
	case len(s) < 500000 || len(s) > 1<<20+len(note)+1:
		return fmt.Errorf("the explanation has %d bytes", len(s))
	case !strings.HasSuffix(strings.TrimSpace(s), note):
		return fmt.Errorf("the explanation ends with %q", s[len(s)-100:])
	}
	return nil
}

func (truncatedExplanation) String() string { return "an explanation truncated at 1 MiB" }
