package hiera

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model/modeltest"
)

// The conformance corpus: small Hiera setups with what real Puppet 7.23 (or the Hiera 3.10 command
// line, for engine "hiera3") answered, copied from the project's shared oracle runs. Every lookup must
// agree, except the deviations listed in testdata/conformance/deviations.json, each with its reason.
//
// Where Puppet failed with an error of its own (not an internal Ruby crash), the engine must fail
// with an *Error whose Message, the part that claims Puppet's wording, appears in Puppet's text
// (the case's directory written <root>, as in the recorded answers), as hcl's spec suite checks
// diagnostics; the messages that differ on purpose are listed in testdata/conformance/wording.json,
// each with its reason.

type confCase struct {
	ID     string `json:"id"`
	Engine string `json:"engine"`
	// Environment names environments/<name>: the case has the environment and module layers too.
	Environment string            `json:"environment"`
	Files       map[string]string `json:"files"`
	Facts       map[string]any    `json:"facts"`
	Raw         []json.RawMessage `json:"lookups"`
}

type confLookup struct {
	Key     string   `json:"key"`
	Keys    []string `json:"-"`
	Merge   any      `json:"merge"`
	Default any      `json:"default_value"`
	HasDef  bool     `json:"-"`
	Type    *string  `json:"value_type"`
	Skip    string   `json:"-"`
}

type confResult struct {
	Value    json.RawMessage `json:"value"`
	NotFound bool            `json:"not_found"`
	Error    string          `json:"error"`
	Crash    bool            `json:"puppet_crash"`
}

func readConfCases(t *testing.T) ([]confCase, map[string][]confResult) {
	t.Helper()
	return readCases(t, filepath.Join("testdata", "conformance"))
}

// readCases reads dir/cases/*.json and their answers in dir/expected.
func readCases(t *testing.T, dir string) ([]confCase, map[string][]confResult) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "cases", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no conformance cases: %v", err)
	}
	sort.Strings(paths)
	var cases []confCase
	expected := map[string][]confResult{}
	for _, p := range paths {
		var c confCase
		mustReadJSON(t, p, &c)
		var exp struct {
			Results []confResult `json:"results"`
		}
		mustReadJSON(t, filepath.Join(dir, "expected", filepath.Base(p)), &exp)
		cases = append(cases, c)
		expected[c.ID] = exp.Results
	}
	return cases, expected
}

func mustReadJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func parseConfLookup(raw json.RawMessage) confLookup {
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(raw, &fields)
	var lk confLookup
	_ = json.Unmarshal(raw, &lk)
	if k, ok := fields["keys"]; ok {
		_ = json.Unmarshal(k, &lk.Keys)
	}
	for _, k := range []string{"default_values_hash", "override"} {
		if _, ok := fields[k]; ok {
			lk.Skip = "`" + k + "` is not part of the provider's interface"
		}
	}
	if d, ok := fields["default_value"]; ok {
		lk.HasDef = true
		lk.Default, _ = datafile.ParseJSON(d)
	}
	if m, ok := fields["merge"]; ok {
		lk.Merge, _ = datafile.ParseJSON(m)
	}
	return lk
}

// setUpCase writes a case's files into a fresh directory and returns its hiera.yaml and scope.
func setUpCase(t *testing.T, c confCase) (string, Scope) {
	dir := t.TempDir()
	for rel, text := range c.Files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(text, "@ROOT@", dir)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	facts := map[string]any{"hostname": "node1", "domain": "example.com", "fqdn": "node1.example.com", "clientcert": "node1.example.com"}
	for k, v := range c.Facts {
		facts[k] = v
	}
	fh, err := model.FromGo(jsonNumbers(facts))
	if err != nil {
		t.Fatal(err)
	}
	certname, isStr := facts["clientcert"].(string)
	if !isStr {
		t.Fatalf("fact clientcert is %T, not a string", facts["clientcert"])
	}
	factsHash, isHash := fh.(*model.Hash)
	if !isHash {
		t.Fatalf("facts converted to %T, not a *Hash", fh)
	}
	vars := model.NewHash(1)
	vars.Set("trusted", modeltest.H("certname", certname))
	return filepath.Join(dir, "hiera.yaml"), Scope{Facts: factsHash, Vars: vars}
}

// jsonNumbers turns encoding/json's float64 numbers that are integral into int64.
func jsonNumbers(v any) any {
	switch t := v.(type) {
	case float64:
		if t == float64(int64(t)) {
			return int64(t)
		}
	case map[string]any:
		for k, e := range t {
			t[k] = jsonNumbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = jsonNumbers(e)
		}
	}
	return v
}

func requestFor(c confCase, lk confLookup, scope Scope) (Request, error) {
	req := Request{Key: lk.Key, Keys: lk.Keys, Scope: scope, Default: lk.Default, HasDefault: lk.HasDef}
	if lk.Type != nil {
		req.ValueType, req.HasValueType = *lk.Type, true
	}
	mergeSpec := lk.Merge
	if c.Engine == "hiera3" {
		switch mergeSpec {
		case "hash":
			req.Function = FuncHash
		case "unique", "array":
			req.Function = FuncArray
		}
		mergeSpec = nil
	}
	if mergeSpec != nil {
		m, err := merge.Parse(mergeSpec)
		if err != nil {
			return req, err
		}
		req.Merge = m
	}
	return req, nil
}

func TestConformance(t *testing.T) {
	cases, expected := readConfCases(t)
	var deviations, wording map[string]string
	mustReadJSON(t, filepath.Join("testdata", "conformance", "deviations.json"), &deviations)
	mustReadJSON(t, filepath.Join("testdata", "conformance", "wording.json"), &wording)
	total, agree, skipped, sameWords := 0, 0, 0, 0
	worded := map[string]bool{} // lookups where Puppet failed with a message of its own
	var unexpected []string
	for _, c := range cases {
		engine, scope := confEngine(t, c)
		for i, raw := range c.Raw {
			lk := parseConfLookup(raw)
			if lk.Skip != "" {
				skipped++
				continue
			}
			total++
			id := fmt.Sprintf("%s#%d", c.ID, i)
			exp := expected[c.ID][i]
			problem, words := runConfLookup(engine, c, lk, scope, exp)
			if _, deviates := deviations[id]; words != "" && !deviates { // a deviation's reason covers its message
				_, listed := wording[id]
				worded[id] = true
				switch {
				case words == sameWording && listed:
					unexpected = append(unexpected, id+": listed in wording.json but now has Puppet's wording; remove it")
				case words == sameWording:
					sameWords++
				case !listed:
					unexpected = append(unexpected, id+": "+words)
				}
			}
			if problem == "" {
				agree++
				if _, listed := deviations[id]; listed {
					unexpected = append(unexpected, id+": listed as a deviation but now agrees; remove it from deviations.json")
				}
				continue
			}
			if _, listed := deviations[id]; !listed {
				unexpected = append(unexpected, id+": "+problem)
			}
		}
	}
	fmt.Printf("conformance: %d/%d lookups agree with Puppet (%d skipped: not expressible through the provider)\n", agree, total, skipped)
	for id := range wording {
		if !worded[id] {
			unexpected = append(unexpected, id+": listed in wording.json but Puppet gave no error message there")
		}
	}
	fmt.Printf("conformance: %d error messages in Puppet's words, %d differ on purpose (wording.json)\n", sameWords, len(wording))
	for _, u := range unexpected {
		t.Error(u)
	}
}

// sameWording is runConfLookup's words when an error message has Puppet's wording.
const sameWording = "same"

// runConfLookup runs one lookup and says how it differs from Puppet's answer ("" when it agrees).
// words compares an error message with Puppet's: "" when Puppet did not fail with a message of its
// own, else sameWording or what differs.
func runConfLookup(engine *Engine, c confCase, lk confLookup, scope Scope, exp confResult) (problem, words string) {
	req, err := requestFor(c, lk, scope)
	var res Result
	if err == nil {
		res, err = engine.Lookup(context.Background(), req)
	}
	if exp.Error != "" && !exp.Crash {
		words = compareWording(err, exp.Error, filepath.Dir(engine.ConfigPath()))
	}
	return compareResult(lk, exp, res, err), words
}

// compareWording checks that the message of err appears in Puppet's error text.
func compareWording(err error, puppet, root string) string {
	var he *model.Error
	if !errors.As(err, &he) {
		return fmt.Sprintf("Puppet failed with %q, we gave no *Error (%v)", puppet, err)
	}
	msg := strings.ReplaceAll(he.Message, root, "<root>")
	if !strings.Contains(puppet, msg) {
		return fmt.Sprintf("error wording differs:\n  Puppet: %s\n  ours:   %s", puppet, msg)
	}
	return sameWording
}

func compareResult(lk confLookup, exp confResult, res Result, err error) string {
	if exp.NotFound && err != nil {
		return fmt.Sprintf("Puppet found nothing, we failed: %v", err)
	}
	wantFailure := exp.Error != "" || exp.NotFound
	gotFailure := err != nil || (!res.Found && !lk.HasDef)
	if err == nil {
		// a value JSON cannot carry (Infinity) fails in the provider as it does in `puppet lookup`
		if _, jerr := datafile.MarshalJSON(res.Value); jerr != nil {
			gotFailure = true
		}
	}
	if wantFailure {
		if gotFailure {
			return valueTypeMessageProblem(lk, exp, err)
		}
		return fmt.Sprintf("Puppet failed (%.120s), we returned %s", exp.Error+notFoundText(exp), model.Inspect(res.Value))
	}
	if err != nil {
		return fmt.Sprintf("want %s, got error: %v", exp.Value, err)
	}
	if !res.Found && !lk.HasDef {
		return fmt.Sprintf("want %s, got not found", exp.Value)
	}
	want, perr := datafile.ParseJSON(sensitiveInner(exp.Value, res.Sensitive))
	if perr != nil {
		return "bad expectation: " + perr.Error()
	}
	got, jerr := datafile.MarshalJSON(res.Value)
	if jerr != nil {
		return "cannot render result: " + jerr.Error()
	}
	wantJSON, _ := datafile.MarshalJSON(want)
	if string(got) != string(wantJSON) {
		return fmt.Sprintf("want %s, got %s", wantJSON, got)
	}
	return ""
}

// sensitiveInner unwraps the oracle's rendering of a Puppet Sensitive value ({"__ptype":"Sensitive",
// "__pvalue":v}) when the engine marked its result sensitive: the engine returns v and flags it.
func sensitiveInner(raw json.RawMessage, sensitive bool) json.RawMessage {
	var w struct {
		PType  string          `json:"__ptype"`
		PValue json.RawMessage `json:"__pvalue"`
	}
	if !sensitive || json.Unmarshal(raw, &w) != nil || w.PType != "Sensitive" || w.PValue == nil {
		return raw
	}
	return w.PValue
}

// valueTypeMessageProblem compares the message of a failed lookup that has a value_type with Puppet's:
// the type checker's and type parser's messages are Puppet's own, word for word.
func valueTypeMessageProblem(lk confLookup, exp confResult, err error) string {
	var herr *model.Error
	if lk.Type == nil || exp.Error == "" || exp.Crash || !errors.As(err, &herr) || herr.Message == exp.Error {
		return ""
	}
	return fmt.Sprintf("message differs:\n  want %q\n  got  %q", exp.Error, herr.Message)
}

func notFoundText(exp confResult) string {
	if exp.NotFound {
		return "not found"
	}
	return ""
}
