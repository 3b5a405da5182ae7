package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
)

// The shared conformance corpus (internal/hiera/testdata/conformance) through `hieraform lookup
// --render-as json`, with the flags ../shared/oracle/clicheck.py gives: every lookup the flags can
// express must print Puppet's recorded value (hash keys in Puppet's order) or fail where Puppet
// failed, except the engine's own deviations (deviations.json) and cliDeviations.
var cliDeviations = map[string]string{
	"vtype-invalid-type#4":               "an empty --type is no type: puppet lookup's option parser drops it too (the recorded answer is lookup()'s)",
	"suite-lyra-lookup#13":               "a convert_to Sensitive value prints as puppet lookup prints a Sensitive, redacted (the recorded answer is the oracle's wrapper around it)",
	"edge-merge-hash-without-strategy#0": "a merge hash without a strategy cannot be given as flags: --merge always names one",
}

type cliCase struct {
	ID          string            `json:"id"`
	Engine      string            `json:"engine"`
	Environment string            `json:"environment"`
	Files       map[string]string `json:"files"`
	Facts       json.RawMessage   `json:"facts"`
	Lookups     []map[string]any  `json:"lookups"`
}

func TestLookupConformance(t *testing.T) {
	var deviations map[string]string
	readJSON(t, filepath.Join(corpusDir, "deviations.json"), &deviations)
	total, agree, skipped := 0, 0, 0
	eachPuppetCase(t, func(c cliCase, results []map[string]json.RawMessage, root, factsFile, certname string) {
		for i, lk := range c.Lookups {
			args, ok := lookupArgs(lk, c, root, factsFile, certname)
			if !ok {
				skipped++
				continue
			}
			total++
			id := fmt.Sprintf("%s#%d", c.ID, i)
			var stdout, stderr bytes.Buffer
			rc := Run(args, Env{Stdout: &stdout, Stderr: &stderr})
			problem := compareLookup(results[i], rc, stdout.String(), stderr.String())
			_, deviates := deviations[id]
			_, cliDeviates := cliDeviations[id]
			switch {
			case problem == "":
				agree++
			case !deviates && !cliDeviates:
				t.Errorf("%s %v: %s", id, args[1:], problem)
			}
		}
	})
	fmt.Printf("cli conformance: %d/%d lookups agree with Puppet (%d skipped: not expressible as flags)\n", agree, total, skipped)
}

// corpusDir holds the shared conformance corpus, as the engine's tests read it.
var corpusDir = filepath.Join("..", "hiera", "testdata", "conformance")

// eachPuppetCase calls fn with every case of the corpus that Puppet answered (not the Hiera 3
// command line), its recorded results, and its files and facts written (writeCase).
func eachPuppetCase(t *testing.T, fn func(c cliCase, results []map[string]json.RawMessage, root, factsFile, certname string)) {
	paths, _ := filepath.Glob(filepath.Join(corpusDir, "cases", "*.json"))
	if len(paths) == 0 {
		t.Fatal("no conformance cases")
	}
	sort.Strings(paths)
	for _, p := range paths {
		var c cliCase
		readJSON(t, p, &c)
		if c.Engine != "puppet" {
			continue
		}
		var exp struct {
			Results []map[string]json.RawMessage `json:"results"`
		}
		readJSON(t, filepath.Join(corpusDir, "expected", filepath.Base(p)), &exp)
		root, factsFile, certname := writeCase(t, c)
		fn(c, exp.Results, root, factsFile, certname)
	}
}

// writeCase writes a case's files (@ROOT@ replaced) and facts (with the facts that name the node:
// withCertname), and returns its root, facts file and the certname the corpus gives it (its
// clientcert fact, else node1.example.com).
func writeCase(t *testing.T, c cliCase) (root, factsFile, certname string) {
	root = t.TempDir()
	for rel, text := range c.Files {
		f := filepath.Join(root, rel)
		must(t, os.MkdirAll(filepath.Dir(f), 0o755))
		must(t, os.WriteFile(f, []byte(strings.ReplaceAll(text, "@ROOT@", root)), 0o644))
	}
	if len(c.Facts) == 0 {
		c.Facts = json.RawMessage("{}")
	}
	factsFile = filepath.Join(root, "facts.json")
	must(t, os.WriteFile(factsFile, c.Facts, 0o644))
	var facts map[string]any
	_ = json.Unmarshal(c.Facts, &facts)
	if certname, _ = facts["clientcert"].(string); certname == "" {
		certname = "node1.example.com"
	}
	withCertname(t, factsFile, certname) // the node's names, from which puppet lookup --node takes its trusted information
	return root, factsFile, certname
}

// lookupArgs are clicheck.py's flags for a lookup; false when flags cannot express it.
func lookupArgs(lk map[string]any, c cliCase, root, factsFile, certname string) ([]string, bool) {
	for _, k := range []string{"keys", "default_values_hash", "override"} {
		if _, has := lk[k]; has {
			return nil, false
		}
	}
	key, _ := lk["key"].(string)
	args := []string{"lookup", key, "--config", filepath.Join(root, "hiera.yaml"), "--facts", factsFile, "--node", certname, "--render-as", "json"}
	if c.Environment != "" {
		args = append(args, "--environmentpath", filepath.Join(root, "environments"), "--environment", c.Environment)
	}
	switch m := lk["merge"].(type) {
	case string:
		args = append(args, "--merge", m)
	case map[string]any:
		for k := range m {
			if k != "strategy" && k != "knockout_prefix" && k != "sort_merged_arrays" && k != "merge_hash_arrays" {
				return nil, false
			}
		}
		s, _ := m["strategy"].(string)
		if s == "" {
			s = "deep"
		}
		args = append(args, "--merge", s)
		if p, ok := m["knockout_prefix"].(string); ok {
			args = append(args, "--knock-out-prefix", p)
		}
		if m["sort_merged_arrays"] == true {
			args = append(args, "--sort-merged-arrays")
		}
		if m["merge_hash_arrays"] == true {
			args = append(args, "--merge-hash-arrays")
		}
	}
	if d, has := lk["default_value"]; has {
		s, isString := d.(string)
		if !isString {
			return nil, false
		}
		args = append(args, "--default", s)
	}
	if vt, _ := lk["value_type"].(string); vt != "" {
		args = append(args, "--type", vt)
	} else if _, has := lk["value_type"]; has {
		args = append(args, "--type", "")
	}
	return args, true
}

// compareLookup says how the command's answer differs from Puppet's ("" when it agrees).
func compareLookup(want map[string]json.RawMessage, rc int, stdout, stderr string) string {
	value, found := want["value"]
	if !found {
		if rc == 0 || strings.Contains(stderr, "panic") {
			return fmt.Sprintf("Puppet failed or found nothing, the command exited %d with %q", rc, stdout)
		}
		return ""
	}
	if rc != 0 {
		return fmt.Sprintf("want %s, the command exited %d: %s", value, rc, stderr)
	}
	w, err := datafile.ParseJSON(value)
	if err != nil {
		return "bad expectation: " + err.Error()
	}
	wantJSON, _ := datafile.MarshalJSON(w)
	if got := strings.TrimSuffix(stdout, "\n"); got != string(wantJSON) {
		return fmt.Sprintf("want %s, got %s", wantJSON, got)
	}
	return ""
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	must(t, err)
	must(t, json.Unmarshal(data, v))
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
