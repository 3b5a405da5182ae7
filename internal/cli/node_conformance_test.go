package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
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
		var rec struct {
			ID         string                                `json:"id"`
			Candidates []string                              `json:"candidates"`
			Answers    map[string]map[string]json.RawMessage `json:"answers"`
		}
		readJSON(t, p, &rec)
		var c cliCase
		readJSON(t, filepath.Join(dir, "cases", rec.ID+".json"), &c)
		if c.Engine != "puppet" || len(rec.Candidates) == 0 || !expressibleNode(rec.Candidates, rec.Answers) {
			continue
		}
		total++
		root, factsFile, certname := writeCase(t, c)
		args := []string{"node", "--keys", strings.Join(rec.Candidates, ","), "--config", filepath.Join(root, "hiera.yaml"),
			"--facts", factsFile, "--node", certname, "--render-as", "json"}
		if c.Environment != "" {
			args = append(args, "--environmentpath", filepath.Join(root, "environments"), "--environment", c.Environment)
		}
		var stdout, stderr bytes.Buffer
		rc := Run(args, Env{Stdout: &stdout, Stderr: &stderr})
		if problem := compareNodeOutput(rec.Candidates, rec.Answers, rc, stdout.String(), stderr.String()); problem != "" {
			t.Errorf("%s: %s", rec.ID, problem)
			continue
		}
		agree++
	}
	fmt.Printf("cli node conformance: %d/%d node reads agree with Puppet\n", agree, total)
}

func expressibleNode(candidates []string, answers map[string]map[string]json.RawMessage) bool {
	for _, k := range candidates {
		if _, crash := answers[k]["puppet_crash"]; crash || strings.Contains(k, ",") {
			return false
		}
	}
	return true
}

func compareNodeOutput(candidates []string, answers map[string]map[string]json.RawMessage, rc int, stdout, stderr string) string {
	var failing []string
	for _, k := range candidates {
		if _, failed := answers[k]["error"]; failed {
			failing = append(failing, k)
			if rc == 1 && strings.Contains(stderr, k+":") {
				return ""
			}
		}
	}
	if len(failing) > 0 {
		return fmt.Sprintf("Puppet fails on %q: want exit 1 naming one of them, got %d (%q)", failing, rc, stderr)
	}
	if rc != 0 {
		return fmt.Sprintf("exit %d: %s", rc, stderr)
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
