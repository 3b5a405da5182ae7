package hiera

import (
	"context"
	"path/filepath"
	"testing"
)

// TestPuppetAnswers runs the attack rounds' reproductions in testdata/puppet-answers (see its README)
// and requires Puppet's answer for each, its error message included: these cases have no deviations.
// A plain lookup must get the same answer from a node read of its key.
func TestPuppetAnswers(t *testing.T) {
	cases, expected := readCases(t, filepath.Join("testdata", "puppet-answers"))
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			engine, scope := confEngine(t, c)
			for i, raw := range c.Raw {
				lk := parseConfLookup(raw)
				exp := expected[c.ID][i]
				problem, words := runConfLookup(engine, c, lk, scope, exp)
				if problem != "" {
					t.Errorf("lookup %d (%s): %s", i, lk.Key, problem)
				}
				if words != "" && words != sameWording {
					t.Errorf("lookup %d (%s): %s", i, lk.Key, words)
				}
				if lk.Merge != nil || lk.HasDef || lk.Type != nil || lk.Keys != nil {
					continue
				}
				node, err := engine.LookupNode(context.Background(), NodeRequest{Scope: scope, Keys: []string{lk.Key}})
				if err != nil {
					t.Fatal(err)
				}
				if a := node.Answers[0]; compareResult(lk, exp, a.Result, a.Err) != "" {
					t.Errorf("node read of %s: %s", lk.Key, compareResult(lk, exp, a.Result, a.Err))
				}
			}
		})
	}
}
