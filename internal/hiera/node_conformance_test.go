package hiera

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
)

// The node corpus: for every case of the conformance corpus that Puppet answers (no Hiera 3
// command line, no eyaml ciphertext), testdata/conformance/node-expected/<id>.json holds the root
// keys of every data file of the case ("candidates") and real Puppet's first-found answer for each,
// and "probes": lookups of a key no file has, globally and per module, which fail when some data the
// node reaches cannot be read. Copied from the shared oracle runs (node_record.py); the checks are
// those of the shared nodecheck.py, on the engine alone:
//   - the whole node (LookupNode without Keys) finds exactly the candidates Puppet finds, with
//     Puppet's values (hash order included) and Sensitive where Puppet's value is Sensitive;
//   - with Keys = every candidate, the others are answered not found;
//   - with Keys, where Puppet fails on a candidate the read fails: an answer's error for a key
//     Puppet fails on;
//   - for the whole node, the read fails (ListErr) exactly when Puppet fails on a probe; otherwise
//     the answers that fail are exactly the candidates Puppet fails on (hiera_node's failed_keys).

type nodeRecord struct {
	ID         string                `json:"id"`
	Candidates []string              `json:"candidates"`
	Answers    map[string]nodeAnswer `json:"answers"`
	Probes     map[string]nodeAnswer `json:"probes"`
}

type nodeAnswer struct {
	Value     json.RawMessage `json:"value"`
	NotFound  bool            `json:"not_found"`
	Error     string          `json:"error"`
	Crash     bool            `json:"puppet_crash"`
	Sensitive bool            `json:"sensitive"`
	Derived   bool            `json:"derived_secret"` // interpolated a Sensitive into a string: either answer is right
}

func TestNodeConformance(t *testing.T) {
	cases, _ := readConfCases(t)
	byID := map[string]confCase{}
	for _, c := range cases {
		byID[c.ID] = c
	}
	paths, err := filepath.Glob(filepath.Join("testdata", "conformance", "node-expected", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no node records: %v", err)
	}
	agree, total, keys := 0, 0, 0
	for _, p := range paths {
		var rec nodeRecord
		mustReadJSON(t, p, &rec)
		c, ok := byID[rec.ID]
		if !ok {
			t.Errorf("%s: no case %s in testdata/conformance/cases (copy both from the shared corpus)", p, rec.ID)
			continue
		}
		engine, scope := confEngine(t, c)
		for _, whole := range []bool{true, false} {
			if !whole && len(rec.Candidates) == 0 {
				continue
			}
			total++
			keys += len(rec.Candidates)
			req := NodeRequest{Scope: scope}
			if !whole {
				req.Keys = rec.Candidates
			}
			res, err := engine.LookupNode(context.Background(), req)
			if problem := compareNode(rec, whole, res, err); problem != "" {
				t.Errorf("%s (whole node %v): %s", rec.ID, whole, problem)
				continue
			}
			agree++
		}
	}
	fmt.Printf("node conformance: %d/%d node reads agree with Puppet (%d keys)\n", agree, total, keys)
}

// confEngine is the engine and scope of a conformance case, as TestConformance builds them.
func confEngine(t *testing.T, c confCase) (*Engine, Scope) {
	cfgPath, scope := setUpCase(t, c)
	// the case's hiera.yaml given explicitly, as the checkers give it (a missing one is Puppet's default)
	layers := Layers{DefaultConfig: true}
	if c.Environment != "" {
		layers.Environment = filepath.Join(filepath.Dir(cfgPath), "environments", c.Environment)
	}
	return NewLayeredEngine(cfgPath, layers), scope
}

// compareNode says how a node read differs from Puppet's answers ("" when it agrees).
func compareNode(rec nodeRecord, whole bool, res NodeResult, err error) string {
	crash, failing := map[string]bool{}, map[string]bool{}
	for k, a := range rec.Answers {
		switch {
		case a.Crash:
			crash[k] = true
		case a.Error != "":
			failing[k] = true
		}
	}
	probeFails, probeCrash := false, false
	if whole {
		for _, a := range rec.Probes {
			probeFails = probeFails || (a.Error != "" && !a.Crash)
			probeCrash = probeCrash || a.Crash
		}
	}
	var failed []string // the keys whose answer is an error, or a value JSON cannot hold (Infinity), which the provider and command fail
	for _, a := range res.Answers {
		if _, jerr := datafile.MarshalJSON(a.Result.Value); a.Err != nil || (whole && jerr != nil) {
			failed = append(failed, a.Key)
		}
	}
	if err != nil {
		return fmt.Sprintf("LookupNode failed: %v", err)
	}
	if whole {
		return compareWholeNode(rec, res, failed, failing, crash, probeFails, probeCrash)
	}
	// As nodecheck.py judges a read by keys: where Puppet fails on a candidate, the read must fail
	// naming one (a key's own error names it).
	mustFail, mayFail := len(failing) > 0, len(crash) > 0
	names := func(keys map[string]bool) bool {
		return slices.ContainsFunc(failed, func(k string) bool { return keys[k] })
	}
	switch {
	case res.ListErr != nil || len(failed) > 0:
		switch {
		case mustFail && (names(failing) || names(crash)):
			return ""
		case !mustFail && mayFail && names(crash):
			return ""
		}
		return fmt.Sprintf("read failed naming %v (listing: %v), Puppet fails on %v", failed, res.ListErr, keysOf(failing))
	case mustFail:
		return fmt.Sprintf("the read must fail (Puppet fails on keys %v), it did not", keysOf(failing))
	}
	return compareFound(rec, res, crash, false)
}

// compareWholeNode judges a whole-node read as nodecheck.py does: it fails (ListErr) exactly where a
// probe fails in Puppet; else each candidate Puppet fails on is a failed answer, and no other is.
func compareWholeNode(rec nodeRecord, res NodeResult, failed []string, failing, crash map[string]bool, probeFails, probeCrash bool) string {
	switch {
	case res.ListErr != nil && (probeFails || probeCrash):
		return ""
	case res.ListErr != nil:
		return fmt.Sprintf("the read failed (%v); Puppet reads the node, failing on keys %v", res.ListErr, keysOf(failing))
	case probeFails:
		return "the read must fail (a probe fails in Puppet: the node's data cannot be read), it did not"
	}
	var problems []string
	for _, k := range failed {
		if !failing[k] && !crash[k] {
			problems = append(problems, fmt.Sprintf("%q failed, Puppet answers it", k))
		}
	}
	for k := range failing {
		if !slices.Contains(failed, k) {
			problems = append(problems, fmt.Sprintf("%q did not fail, Puppet fails on it", k))
		}
	}
	slices.Sort(problems)
	if found := compareFound(rec, res, crash, true); found != "" {
		problems = append(problems, found)
	}
	return strings.Join(problems, "; ")
}

// compareFound compares the keys found with Puppet's answers.
func compareFound(rec nodeRecord, res NodeResult, crash map[string]bool, whole bool) string {
	got := map[string]Result{}
	for _, a := range res.Answers {
		if !crash[a.Key] && a.Result.Found {
			got[a.Key] = a.Result
		}
	}
	var problems []string
	for _, k := range rec.Candidates {
		a := rec.Answers[k]
		r, found := got[k]
		switch {
		case a.Crash, a.Error != "":
		case a.NotFound && found:
			problems = append(problems, fmt.Sprintf("%q found, Puppet finds nothing", k))
		case a.NotFound:
		case !found:
			problems = append(problems, fmt.Sprintf("%q not found, Puppet finds %s", k, a.Value))
		case a.Sensitive != r.Sensitive && !a.Derived:
			problems = append(problems, fmt.Sprintf("%q: sensitive %v, Puppet %v", k, r.Sensitive, a.Sensitive))
		case !a.Derived && !r.Sensitive:
			want, perr := datafile.ParseJSON(a.Value)
			wantJSON, _ := datafile.MarshalJSON(want)
			gotJSON, jerr := datafile.MarshalJSON(r.Value)
			if perr != nil || jerr != nil || string(wantJSON) != string(gotJSON) {
				problems = append(problems, fmt.Sprintf("%q: got %s, Puppet %s", k, gotJSON, a.Value))
			}
		}
	}
	for k := range got {
		if _, candidate := rec.Answers[k]; !candidate {
			problems = append(problems, fmt.Sprintf("%q found, but no data file of the case has it as a root key", k))
		}
	}
	if !whole && len(res.Answers) != len(rec.Candidates) {
		problems = append(problems, fmt.Sprintf("%d answers for %d keys", len(res.Answers), len(rec.Candidates)))
	}
	return strings.Join(problems, "; ")
}

func keysOf(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
