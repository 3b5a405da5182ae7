package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkFlagged are the corpus cases where check reports a problem although every lookup Puppet
// recorded succeeded: the problem is in a key or lookup the case did not record.
var checkFlagged = map[string]string{
	"edge-lo-convert-after-dig":    "key a's convert_to fails on its whole value; the case looks up only a dotted subkey",
	"layer-hf-mod-datadir-outside": "a module datadir leading out of the module: an error here on purpose (deviations.json); the case records no lookup that reaches it",
	"rand-0030":                    "sort_merged_arrays over a hash and a string for k1, which the case looks up with other merges only",
	"rand-0149":                    "a unique merge (lookup_options) over a hash for k1, which the case looks up with an explicit merge only",
}

// checkQuiet are the corpus cases where Puppet failed a plain lookup and check reports no problem,
// on purpose.
var checkQuiet = map[string]string{
	"custom-module-absent": "Puppet crashes loading a function of a module not on its modulepath; the engine takes it as a custom function Puppet has (deviations.json), which check names in a warning, not as a problem",
}

// The shared conformance corpus through `hieraform check`, each case with its facts (and without
// any): check never fails to run or crashes; wherever Puppet failed a plain lookup of a root key
// with an error of the data (not a key that does not parse, nor a key not found), check finds a
// problem; where every recorded lookup succeeded, it finds none, except checkFlagged.
func TestCheckConformance(t *testing.T) {
	total, failing, flagged := 0, 0, 0
	eachPuppetCase(t, func(c cliCase, results []map[string]json.RawMessage, root, factsFile, certname string) {
		base := []string{"check", "--config", filepath.Join(root, "hiera.yaml")}
		if c.Environment != "" {
			base = append(base, "--environmentpath", filepath.Join(root, "environments"), "--environment", c.Environment)
		}
		rc, out := 0, ""
		for _, args := range [][]string{base, append(base, "--facts", factsFile)} {
			var stdout, stderr bytes.Buffer
			rc = Run(args, Env{Stdout: &stdout, Stderr: &stderr})
			out = strings.ReplaceAll(stdout.String()+stderr.String(), root, "<root>")
			if rc == exitFailure || strings.Contains(out, "internal error") || strings.Contains(out, "panic") {
				t.Errorf("%s %v: exit %d\n%s", c.ID, args[1:], rc, out)
			}
		}
		total++
		puppetFailed, allFound := "", true
		for i, lk := range c.Lookups {
			raw, failed := results[i]["error"]
			if !failed {
				continue
			}
			allFound = false
			var msg string
			_ = json.Unmarshal(raw, &msg)
			key, _ := lk["key"].(string)
			if len(lk) == 1 && !strings.ContainsAny(key, `.'"`) && !strings.Contains(msg, "did not find a value") && puppetFailed == "" {
				puppetFailed = fmt.Sprintf("lookup of %s: %s", key, msg)
			}
		}
		_, listed := checkFlagged[c.ID]
		switch {
		case puppetFailed != "" && checkQuiet[c.ID] != "":
			if rc != exitOK {
				t.Errorf("%s is listed in checkQuiet, and check reports a problem (exit %d): drop it\n%s", c.ID, rc, out)
			}
		case puppetFailed != "":
			failing++
			if rc != exitAnswer {
				t.Errorf("%s: Puppet failed the %s; check exited %d:\n%s", c.ID, puppetFailed, rc, out)
			}
		case allFound && rc == exitAnswer:
			flagged++
			if !listed {
				t.Errorf("%s: every recorded lookup succeeded in Puppet; check reports:\n%s", c.ID, out)
			}
		case listed:
			t.Errorf("%s is listed in checkFlagged, and check reports nothing there (exit %d): drop it", c.ID, rc)
		}
	})
	fmt.Printf("check conformance: %d cases checked with and without their facts; %d where Puppet failed a plain lookup, each found; %d more reported (checkFlagged)\n", total, failing, flagged)
}

// withCertname adds the facts that name the node, hostname, domain, fqdn and clientcert, that a
// facts file lacks, first, the others' order kept, from certname (the corpus's node, as Puppet's
// node gives them): check takes each node's certname from its file, and puppet lookup --node its
// trusted information (TestLookupNodeAsPuppetLookup).
func withCertname(t *testing.T, factsFile, certname string) {
	data, err := os.ReadFile(factsFile)
	must(t, err)
	var facts map[string]any
	if json.Unmarshal(data, &facts) != nil || facts == nil {
		return
	}
	host, domain, _ := strings.Cut(certname, ".")
	var added []byte
	for _, f := range [][2]string{{"hostname", host}, {"domain", domain}, {"fqdn", certname}, {"clientcert", certname}} {
		if _, has := facts[f[0]]; !has {
			added = fmt.Appendf(added, "%q: %q, ", f[0], f[1])
		}
	}
	if len(added) == 0 {
		return
	}
	rest := bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(data), []byte("{")))
	if bytes.HasPrefix(rest, []byte("}")) {
		added = bytes.TrimSuffix(added, []byte(", "))
	}
	must(t, os.WriteFile(factsFile, append(append([]byte("{"), added...), rest...), 0o644))
}
