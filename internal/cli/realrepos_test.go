package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/facts"
	"github.com/hieraform/terraform-provider-hiera/internal/fleet"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/render"
)

// TestRealRepos reads whole nodes of real control repositories with `hieraform node` and, when
// Puppet is at hand, compares every key with real Puppet's answer (testdata/realrepos/
// puppet_answers.rb: one Puppet process, the same facts). The repositories are not in this one: the
// test reads them from HIERAFORM_REAL_REPOS, one directory or several separated by ':', each laid out
// as `puppet lookup --environmentpath DIR/environments` reads it:
//
//	DIR/environments/ENV/       a control repository checked out (hiera.yaml, data, environment.conf)
//	DIR/environments/ENV/modules/NAME/   its modules (or the directories environment.conf's modulepath names)
//	DIR/facts/CERTNAME.json     one facts file per node (.json, .yaml or .yml)
//	DIR/hiera.yaml              optional: the global layer (--config)
//
// scripts/real-repos.sh lays out the two repositories it was written for, with the facts in
// testdata/realrepos, and runs it (README.md, "Conformance with Puppet"). Every node of every environment must be read (exit
// status 0, keys whose lookup fails reported apart), and every key must be answered as Puppet
// answers it: found with the same value, not found, or failing (in our failed keys, a Puppet error).
// One engine then answers all the nodes again, as a fleet (checkOneEngine). Without puppet and ruby on
// PATH all but Puppet's answers are checked. Run with -v for each node's report.
func TestRealRepos(t *testing.T) {
	list := os.Getenv("HIERAFORM_REAL_REPOS")
	if list == "" {
		t.Skip("HIERAFORM_REAL_REPOS is not set: HIERAFORM_REAL_REPOS=DIR[:DIR] go test ./internal/cli -run TestRealRepos -v checks real control repositories' whole nodes against Puppet (README: Conformance with Puppet)")
	}
	var missing []string
	for _, tool := range []string{"puppet", "ruby"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	withPuppet := missing == nil
	if !withPuppet {
		t.Logf("%s not on PATH: the answers are not compared with Puppet's (apt-get install puppet)", strings.Join(missing, " and "))
	}
	for _, dir := range filepath.SplitList(list) {
		entries, err := os.ReadDir(filepath.Join(dir, "environments"))
		var envs []string
		for _, e := range entries {
			if e.IsDir() {
				envs = append(envs, e.Name())
			}
		}
		if len(envs) == 0 {
			t.Fatalf("%s: no environments/ENV directory (the layout is in TestRealRepos' comment): %v", dir, err)
		}
		nodes, err := readFactsPath(filepath.Join(dir, "facts"))
		must(t, err)
		global := filepath.Join(dir, "hiera.yaml")
		if _, err := os.Stat(global); err != nil {
			global = ""
		}
		for _, env := range envs {
			repo := realRepo{envpath: filepath.Join(dir, "environments"), env: env, global: global}
			t.Run(filepath.Base(dir)+"/"+repo.env, func(t *testing.T) { repo.check(t, nodes, withPuppet) })
		}
	}
}

// realRepo is one environment of a control repository laid out as TestRealRepos describes.
type realRepo struct {
	envpath, env, global string
}

// ourNode is a node as `hieraform node --render-as json` answered it.
type ourNode struct {
	name   string
	facts  []byte // the facts the command used (the file's, with the name facts it adds), as JSON
	status int
	stderr string
	keys   []string          // in the command's order
	values map[string]string // canonical JSON (realCanonical)
	secret []string          // left out of the output, named on stderr
	// secretValues are the secret keys' values (canonical JSON) as `hieraform lookup --reveal`
	// prints them: compared with Puppet's, never printed.
	secretValues map[string]string
	failed       map[string]string // the failed keys stderr names (at most maxReportedKeys), with their errors
	nFail        int               // how many keys failed
}

// puppetNode is testdata/realrepos/puppet_answers.rb's answer for a node.
type puppetNode struct {
	Name       string                     `json:"name"`
	Candidates []string                   `json:"candidates"`
	Answers    map[string]json.RawMessage `json:"answers"`
}

func (r realRepo) check(t *testing.T, nodes []*facts.Node, withPuppet bool) {
	ours := make([]ourNode, len(nodes))
	for i, n := range nodes {
		ours[i] = r.readNode(t, n)
		if ours[i].status != 0 {
			t.Errorf("%s: the whole-node read failed (exit status %d):\n%s", ours[i].name, ours[i].status, ours[i].stderr)
		}
	}
	r.checkOneEngine(t, nodes, ours)
	if !withPuppet {
		for _, o := range ours {
			t.Logf("%s: read %s, %d keys, %d secret, %s (not compared: no Puppet)", o.name, readOK(o.status), len(o.keys), len(o.secret), o.failures())
		}
		return
	}
	theirs, skipped := r.puppetAnswers(t, ours)
	for _, s := range skipped {
		t.Logf("Puppet side: %s", s)
	}
	var equal, total, found, foundEqual int
	for i, o := range ours {
		report, diffs := compareRealNode(o, theirs[i])
		t.Logf("%s: read %s, %d keys, %d secret, %s; %s", o.name, readOK(o.status), len(o.keys), len(o.secret), o.failures(), report.String())
		for _, d := range diffs {
			t.Errorf("%s: %s", o.name, d)
		}
		equal, total, found, foundEqual = equal+report.equal, total+report.total, found+report.found, foundEqual+report.foundEqual
	}
	t.Logf("%s: %d nodes, keys equal to Puppet %d/%d (found by Puppet: %d/%d equal)", filepath.Join(r.envpath, r.env), len(ours), equal, total, foundEqual, found)
}

// failures names the node's failed keys as the command's stderr lists them ("  key: error" lines).
func (o ourNode) failures() string {
	if o.nFail == 0 {
		return "no failed keys"
	}
	_, list, _ := strings.Cut(o.stderr, "their lookups failed")
	var names []string
	for _, line := range strings.Split(list, "\n")[1:] {
		entry, ok := strings.CutPrefix(line, "  ")
		if !ok || strings.HasPrefix(entry, "... and ") {
			break
		}
		if name, _, ok := strings.Cut(entry, ": "); ok {
			names = append(names, name)
		}
	}
	more := ""
	if len(names) < o.nFail {
		more = fmt.Sprintf(" and %d more", o.nFail-len(names))
	}
	return fmt.Sprintf("%d failed keys (%s%s)", o.nFail, strings.Join(names, ", "), more)
}

func readOK(status int) string {
	if status == 0 {
		return "ok"
	}
	return fmt.Sprintf("FAILED (exit status %d)", status)
}

// readNode runs `hieraform node` for the node, its name the facts file's name, as a user would.
func (r realRepo) readNode(t *testing.T, n *facts.Node) ourNode {
	name := strings.TrimSuffix(filepath.Base(n.File), filepath.Ext(n.File))
	flags := []string{"--environmentpath", r.envpath, "--environment", r.env, "--facts", n.File, "--node", name, "--render-as", "json"}
	if r.global != "" {
		flags = append(flags, "--config", r.global)
	}
	var stdout, stderr bytes.Buffer
	status := Run(append([]string{"node"}, flags...), Env{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }})
	scopeFacts, err := render.Render(facts.Scope(n.Facts, name).Facts, "json")
	must(t, err)
	o := ourNode{name: name, facts: scopeFacts, status: status, stderr: stderr.String(), values: map[string]string{}, failed: map[string]string{}, secretValues: map[string]string{}}
	if status != 0 {
		return o
	}
	dec := json.NewDecoder(&stdout)
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("%s: the output is not a JSON object: %v", name, err)
	}
	for dec.More() {
		tok, err := dec.Token()
		must(t, err)
		key, _ := tok.(string)
		var raw json.RawMessage
		must(t, dec.Decode(&raw))
		o.keys = append(o.keys, key)
		o.values[key] = realCanonical(t, raw)
	}
	for line := range strings.SplitSeq(o.stderr, "\n") {
		if list, ok := strings.CutPrefix(line, "Note: secret keys left out: "); ok {
			o.secret = strings.Split(list, ", ")
		}
		if rest, ok := strings.CutPrefix(line, "Warning: "); ok && strings.Contains(rest, " keys left out, their lookups failed") {
			o.nFail, _ = strconv.Atoi(strings.Fields(rest)[0])
		}
	}
	for _, k := range o.secret {
		var value, lookupErr bytes.Buffer
		args := slices.Concat([]string{"lookup", "--reveal"}, flags, []string{k})
		if rc := Run(args, Env{Stdout: &value, Stderr: &lookupErr, Getenv: func(string) string { return "" }}); rc != 0 {
			t.Fatalf("%s: hieraform lookup --reveal %s: exit status %d", name, k, rc) // its stderr may quote the secret
		}
		o.secretValues[k] = realCanonical(t, value.Bytes())
	}
	return o
}

// checkOneEngine answers every node again with one engine for all, many nodes at a time
// (fleet.Each), as hiera_nodes and the fleet commands do, twice (cold caches, then warm): each node
// must be answered as the command answered it alone (what one node caches must not change another's).
func (r realRepo) checkOneEngine(t *testing.T, nodes []*facts.Node, ours []ourNode) {
	engine, err := setup{config: r.global, environment: r.env, environmentpath: r.envpath}.engine()
	must(t, err)
	ctx := context.Background()
	for _, round := range []string{"cold", "warm"} {
		results := make([]hiera.NodeResult, len(nodes))
		errs := make([]error, len(nodes))
		fleet.Each(ctx, len(nodes), func(i int) {
			results[i], errs[i] = engine.LookupNode(ctx, hiera.NodeRequest{Scope: facts.Scope(nodes[i].Facts, ours[i].name)})
		})
		for i, o := range ours {
			if errs[i] != nil || results[i].ListErr != nil {
				t.Errorf("%s: one engine for the fleet (%s): the node fails: %v %v", o.name, round, errs[i], results[i].ListErr)
				continue
			}
			for _, d := range sameAsCommand(t, o, results[i].Answers) {
				t.Errorf("%s: one engine for the fleet (%s caches) and the command differ: %s", o.name, round, d)
			}
		}
	}
}

// sameAsCommand compares a node's answers from the engine with the command's output for it.
func sameAsCommand(t *testing.T, o ourNode, answers []hiera.NodeAnswer) []string {
	var diffs []string
	failed, answered := 0, 0
	for _, a := range answers {
		ourValue, ok := o.values[a.Key]
		switch {
		case a.Err != nil:
			failed++
			if ok {
				diffs = append(diffs, fmt.Sprintf("%s: failed (%v); the command: %s", a.Key, a.Err, shortened(ourValue)))
			}
		case !a.Result.Found:
			if ok {
				diffs = append(diffs, fmt.Sprintf("%s: not found; the command: %s", a.Key, shortened(ourValue)))
			}
		case a.Result.Sensitive:
			if !slices.Contains(o.secret, a.Key) {
				diffs = append(diffs, fmt.Sprintf("%s: a secret; the command: not a secret", a.Key))
			}
		default:
			answered++
			text, err := render.Render(a.Result.Value, "json")
			must(t, err)
			if value := realCanonical(t, text); !ok || value != ourValue {
				diffs = append(diffs, fmt.Sprintf("%s: %s; the command: %s", a.Key, shortened(value), shortened(ourValue)))
			}
		}
	}
	if failed != o.nFail || answered != len(o.keys) {
		diffs = append(diffs, fmt.Sprintf("%d keys answered and %d failed; the command: %d and %d", answered, failed, len(o.keys), o.nFail))
	}
	return diffs
}

// puppetAnswers asks real Puppet, in one process, every candidate key of every node and every key
// the command answered; it also fills each node's named failed keys, now that the keys are known.
func (r realRepo) puppetAnswers(t *testing.T, ours []ourNode) ([]puppetNode, []string) {
	type nodeSpec struct {
		Name  string          `json:"name"`
		Facts json.RawMessage `json:"facts"`
		Keys  []string        `json:"keys"`
	}
	in := struct {
		Envpath     string     `json:"environmentpath"`
		Environment string     `json:"environment"`
		HieraConfig string     `json:"hiera_config"`
		Nodes       []nodeSpec `json:"nodes"`
	}{r.envpath, r.env, r.global, nil}
	for _, o := range ours {
		in.Nodes = append(in.Nodes, nodeSpec{o.name, o.facts, slices.Concat(o.keys, o.secret)})
	}
	payload, err := json.Marshal(in)
	must(t, err)
	script, err := filepath.Abs(filepath.Join("testdata", "realrepos", "puppet_answers.rb"))
	must(t, err)
	cmd := exec.Command("ruby", script)
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("puppet_answers.rb: %v\n%s", err, stderr.String())
	}
	var out struct {
		Nodes   []puppetNode `json:"nodes"`
		Skipped []string     `json:"skipped"`
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	must(t, json.Unmarshal([]byte(lines[len(lines)-1]), &out))
	if len(out.Nodes) != len(ours) {
		t.Fatalf("puppet_answers.rb answered %d nodes, not %d", len(out.Nodes), len(ours))
	}
	for i := range ours {
		for _, k := range out.Nodes[i].Candidates {
			if _, msg, ok := strings.Cut(ours[i].stderr, "\n  "+k+": "); ok {
				ours[i].failed[k] = firstLine(msg)
			}
		}
	}
	return out.Nodes, out.Skipped
}

// realReport counts a node's keys: total candidates, equal (the same outcome as Puppet's), found
// (Puppet finds a value) and foundEqual (the command gives that value).
type realReport struct {
	total, equal, found, foundEqual, notFound, errors, secret int
}

func (r realReport) String() string {
	return fmt.Sprintf("Puppet: %d candidate keys, %d found, %d not found, %d errors, %d secret; equal %d/%d",
		r.total, r.found, r.notFound, r.errors, r.secret, r.equal, r.total)
}

// compareRealNode compares the command's node with Puppet's answers, key by key.
func compareRealNode(o ourNode, p puppetNode) (realReport, []string) {
	var rep realReport
	var diffs []string
	differ := func(format string, args ...any) { diffs = append(diffs, fmt.Sprintf(format, args...)) }
	var unnamedFailures int
	for _, k := range p.Candidates {
		rep.total++
		var a struct {
			Value     json.RawMessage `json:"value"`
			NotFound  bool            `json:"not_found"`
			Error     string          `json:"error"`
			Sensitive bool            `json:"sensitive"`
		}
		if err := json.Unmarshal(p.Answers[k], &a); err != nil {
			differ("%s: Puppet's answer %s: %v", k, p.Answers[k], err)
			continue
		}
		ourValue, answered := o.values[k]
		failure, failed := o.failed[k]
		secret := slices.Contains(o.secret, k)
		switch {
		case a.Sensitive || (secret && a.Value != nil):
			// Puppet's Sensitive, or a value ours keeps secret (eyaml's, which Puppet gives as it is)
			rep.secret++
			if !a.Sensitive {
				rep.found++
			}
			theirs, err := realCanonicalText(a.Value)
			switch {
			case err != nil:
				differ("%s: Puppet's value cannot be read: %v", k, err)
			case !secret:
				differ("%s: Puppet: a Sensitive value; ours: %s", k, ourOutcome(ourValue, answered, failure, failed, secret))
			case o.secretValues[k] != theirs:
				differ("%s: a secret whose value differs from Puppet's (values not shown)", k)
			default:
				rep.equal++
				if !a.Sensitive {
					rep.foundEqual++
				}
			}
		case a.Error != "":
			rep.errors++
			switch {
			case failed:
				rep.equal++
			case !answered && !secret && len(o.failed) < o.nFail:
				rep.equal++ // a failed key past the ones stderr names (checked by the count below)
				unnamedFailures++
			default:
				differ("%s: Puppet: error %q; ours: %s", k, firstLine(a.Error), ourOutcome(ourValue, answered, failure, failed, secret))
			}
		case a.NotFound:
			rep.notFound++
			if !answered && !failed && !secret {
				rep.equal++
			} else {
				differ("%s: Puppet: not found; ours: %s", k, ourOutcome(ourValue, answered, failure, failed, secret))
			}
		default:
			rep.found++
			theirs, err := realCanonicalText(a.Value)
			switch {
			case err != nil:
				differ("%s: Puppet's value %s: %v", k, a.Value, err)
			case answered && ourValue == theirs:
				rep.equal++
				rep.foundEqual++
			case answered:
				theirs, ours := aroundDifference(theirs, ourValue)
				differ("%s: Puppet: %s; ours: %s", k, theirs, ours)
			default:
				differ("%s: Puppet: %s; ours: %s", k, shortened(theirs), ourOutcome(ourValue, answered, failure, failed, secret))
			}
		}
	}
	if got := len(o.failed) + unnamedFailures; got != o.nFail {
		differ("%d keys failed, %d of them Puppet errors", o.nFail, got)
	}
	return rep, diffs
}

func ourOutcome(value string, answered bool, failure string, failed, secret bool) string {
	switch {
	case answered:
		return shortened(value)
	case failed:
		return "failed: " + failure
	case secret:
		return "a secret"
	}
	return "not found"
}

// shortened is a value cut to what a line of the report can show.
func shortened(s string) string {
	if len(s) > 100 {
		return s[:100] + "..."
	}
	return s
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// realCanonical is a JSON value written again compactly, its hash keys in their order and its numbers
// as Go reads them (a float always with a '.' or an exponent), so that Ruby's and Go's JSON compare.
func realCanonical(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	s, err := realCanonicalText(raw)
	must(t, err)
	return s
}

func realCanonicalText(raw json.RawMessage) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var b strings.Builder
	err := writeCanonical(dec, &b)
	return b.String(), err
}

func writeCanonical(dec *json.Decoder, b *strings.Builder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim: // '{' or '[': its members, then the closing one
		b.WriteString(v.String())
		for i := 0; dec.More(); i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if v == '{' {
				key, err := dec.Token()
				if err != nil {
					return err
				}
				text, _ := json.Marshal(key)
				b.Write(text)
				b.WriteByte(':')
			}
			if err := writeCanonical(dec, b); err != nil {
				return err
			}
		}
		end, err := dec.Token()
		if err != nil {
			return err
		}
		fmt.Fprint(b, end)
	case json.Number:
		if i, err := v.Int64(); err == nil && !strings.ContainsAny(v.String(), ".eE") {
			b.WriteString(strconv.FormatInt(i, 10))
		} else if f, err := v.Float64(); err == nil {
			text := strconv.FormatFloat(f, 'g', -1, 64)
			if !strings.ContainsAny(text, ".e") {
				text += ".0"
			}
			b.WriteString(text)
		} else {
			b.WriteString(v.String()) // a number no float holds: as written
		}
	default:
		text, _ := json.Marshal(v)
		b.Write(text)
	}
	return nil
}

// aroundDifference shows where two long values first differ: a few characters before, and what
// follows in each.
func aroundDifference(theirs, ours string) (string, string) {
	const before, after = 30, 70
	i := 0
	for i < len(theirs) && i < len(ours) && theirs[i] == ours[i] {
		i++
	}
	start := max(0, i-before)
	cut := func(s string) string {
		end := min(len(s), i+after)
		text := s[start:end]
		if start > 0 {
			text = "..." + text
		}
		if end < len(s) {
			text += "..."
		}
		return text
	}
	return cut(theirs), cut(ours)
}
