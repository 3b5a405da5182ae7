package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// The node records of the shared corpus (node-expected: every root key of every data file of a
// case with real Puppet's answer) through `hieraform node --keys ... --render-as json`: the
// command prints exactly the keys Puppet found (secrets left out) with Puppet's values, and exits
// 1 where a key's lookup fails in Puppet. Records where Puppet crashed, and keys holding a comma
// (--keys splits at commas), are left out.
func TestNodeConformance(t *testing.T) {
	dir := filepath.Join("..", "hiera", "testdata", "conformance")
	paths, _ := filepath.Glob(filepath.Join(dir, "node-expected", "*.json"))
	if len(paths) == 0 {
		t.Fatal("no node records")
	}
	agree, total := 0, 0
	for _, p := range paths {
		var rec nodeRecord
		readJSON(t, p, &rec)
		var c cliCase
		readJSON(t, filepath.Join(dir, "cases", rec.ID+".json"), &c)
		if c.Engine != "puppet" || len(rec.Candidates) == 0 || !expressibleNode(rec.Candidates, rec.Answers) {
			continue
		}
		root, factsFile, certname := writeCase(t, c)
		args := []string{"node", "--config", filepath.Join(root, "hiera.yaml"),
			"--facts", factsFile, "--node", certname, "--render-as", "json"}
		if c.Environment != "" {
			args = append(args, "--environmentpath", filepath.Join(root, "environments"), "--environment", c.Environment)
		}
		// each case twice: its candidates by name (--keys), and as a whole node
		for _, whole := range []bool{false, true} {
			if whole && rec.probeCrashed() {
				continue // Puppet crashed listing the node: no defined answer
			}
			total++
			run := args
			if !whole {
				run = append(slices.Clone(args), "--keys", strings.Join(rec.Candidates, ","))
			}
			var stdout, stderr bytes.Buffer
			rc := Run(run, Env{Stdout: &stdout, Stderr: &stderr})
			if problem := compareNodeOutput(rec, whole, rc, stdout.String(), stderr.String()); problem != "" {
				t.Errorf("%s (whole node %v): %s", rec.ID, whole, problem)
				continue
			}
			agree++
		}
	}
	fmt.Printf("cli node conformance: %d/%d node reads agree with Puppet\n", agree, total)
}

// nodeRecord is a case's record in node-expected/: its candidate keys, Puppet's answer for each, and
// probes (lookups of keys no file has: an error there means the node's data cannot be read).
type nodeRecord struct {
	ID         string                                `json:"id"`
	Candidates []string                              `json:"candidates"`
	Answers    map[string]map[string]json.RawMessage `json:"answers"`
	Probes     map[string]map[string]json.RawMessage `json:"probes"`
}

func (r nodeRecord) probeCrashed() bool {
	return slices.ContainsFunc(slices.Collect(maps.Values(r.Probes)), func(a map[string]json.RawMessage) bool {
		_, crash := a["puppet_crash"]
		return crash
	})
}

func (r nodeRecord) probeFailed() bool {
	return slices.ContainsFunc(slices.Collect(maps.Values(r.Probes)), func(a map[string]json.RawMessage) bool {
		_, failed := a["error"]
		return failed
	})
}

func expressibleNode(candidates []string, answers map[string]map[string]json.RawMessage) bool {
	for _, k := range candidates {
		if _, crash := answers[k]["puppet_crash"]; crash || strings.Contains(k, ",") {
			return false
		}
	}
	return true
}

// compareNodeOutput judges one node read as ../../shared/oracle/nodecheck.py judges hiera_node's: by
// name (--keys), a key Puppet fails on fails the read (exit 1 naming it); as a whole node, the read
// fails only when the node's data cannot be read (a probe fails), and each failing key is named on
// stderr and left out of the values, which hold the rest.
func compareNodeOutput(rec nodeRecord, whole bool, rc int, stdout, stderr string) string {
	candidates, answers := rec.Candidates, rec.Answers
	var failing []string
	for _, k := range candidates {
		if _, failed := answers[k]["error"]; failed {
			failing = append(failing, k)
		}
	}
	switch {
	case whole && rec.probeFailed():
		if rc != 1 {
			return fmt.Sprintf("the node's data cannot be read (a probe fails in Puppet): want exit 1, got %d", rc)
		}
		return ""
	case !whole && len(failing) > 0:
		if rc == 1 && slices.ContainsFunc(failing, func(k string) bool { return strings.Contains(stderr, k+":") }) {
			return ""
		}
		return fmt.Sprintf("Puppet fails on %q: want exit 1 naming one of them, got %d (%q)", failing, rc, stderr)
	case rc != 0:
		return fmt.Sprintf("exit %d: %s", rc, stderr)
	}
	for _, k := range failing { // whole node: each named on stderr
		if !strings.Contains(stderr, "\n  "+k+": ") && len(failing) <= maxReportedKeys {
			return fmt.Sprintf("Puppet fails on %q: want it named on stderr, got %q", k, stderr)
		}
	}
	got, err := datafile.ParseJSON([]byte(stdout))
	gotHash, _ := got.(*model.Hash)
	if err != nil || gotHash == nil {
		return fmt.Sprintf("not a JSON object: %q", stdout)
	}
	want := 0
	for _, k := range candidates {
		a := answers[k]
		value, found := a["value"]
		if _, secret := a["sensitive"]; !found || secret {
			if _, has := gotHash.Get(k); has {
				return fmt.Sprintf("%q is printed; Puppet: %v", k, a)
			}
			continue
		}
		want++
		v, has := gotHash.Get(k)
		if !has {
			return fmt.Sprintf("%q is missing; Puppet's value %s", k, value)
		}
		w, _ := datafile.ParseJSON(value)
		wantJSON, _ := datafile.MarshalJSON(w)
		gotJSON, _ := datafile.MarshalJSON(v)
		if string(wantJSON) != string(gotJSON) {
			return fmt.Sprintf("%q: want %s, got %s", k, wantJSON, gotJSON)
		}
	}
	if gotHash.Len() != want {
		return fmt.Sprintf("%d keys printed, Puppet found %d", gotHash.Len(), want)
	}
	return ""
}
