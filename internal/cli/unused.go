package cli

// hieraform unused: what a fleet never uses. Every node of a node source is read whole; the
// files its hierarchies reach (NodeResult.Files) and the files that gave each of its keys its
// value (Result.Sources) say which data files and keys matter. A key that matters is looked up
// again, for each node it matters to, without that file's value (Request.Without): when every
// answer stays the same, the value is redundant.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/hieraform/terraform-provider-hiera/internal/boundedfile"
	"github.com/hieraform/terraform-provider-hiera/internal/facts"
	"github.com/hieraform/terraform-provider-hiera/internal/fleet"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/datafile"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

const unusedSynopsis = `unused [flags]

Finds what the nodes of a facts directory (--facts DIR: one node per file, as hiera_nodes'
facts_dir), or of PuppetDB (--puppetdb URL [--puppetdb-query PQL]), never use, each with its
file and line:
  - unreached_file: a data file under a level's datadir that no node's hierarchy reaches;
  - overridden_key: a key of a data file that gives no node its value (every node that reaches
    the file finds the key first elsewhere, or no merge takes it in);
  - redundant: a key whose value changes no node's answer: without it, every node it gives a
    value to gets the same one.
Every node is read whole, as the node command reads it. A node whose keys cannot be listed, or a
key whose lookup fails, is named on stderr, and what it might use is not reported. Exits 1 when
anything is found (a CI lint), 0 when nothing is, 2 when it cannot run. --baseline accepts the
findings of a file written by --render-as json, so that an old repository can adopt the lint and
fail only on new findings (a finding is matched by kind, file and key; its line may move).`

const unusedExample = `  hieraform unused --environment production --facts facts/
  hieraform unused --environment production --facts facts/ --render-as json > unused-baseline.json
  hieraform unused --environment production --facts facts/ --baseline unused-baseline.json`

// finding is one thing the fleet never uses.
type finding struct {
	Kind  string `json:"kind"` // unreached_file, overridden_key or redundant
	File  string `json:"file"`
	Line  int    `json:"line,omitempty"`
	Key   string `json:"key,omitempty"`
	Nodes int    `json:"nodes"` // overridden_key: the nodes reaching the file; redundant: those the value reaches
}

func runUnused(args []string, env Env) int {
	fs := newFlagSet("unused", unusedSynopsis, unusedExample, env)
	var src sourceFlags
	src.registerData(fs, env)
	fs.Var(&src.facts, "facts", "the fleet: a `directory` of facts files, one node per file")
	renderAs := fs.String("render-as", "table", "the output `format`: table or json")
	baseline := fs.String("baseline", "", "a `file` of accepted findings, as --render-as json writes them: they are not reported")
	rest, err := parseArgs(fs, args)
	if errors.Is(err, errHelp) {
		return exitOK
	}
	fail := env.failer("Error: ", exitFailure)
	switch {
	case err != nil:
		return fail(err)
	case len(rest) > 0:
		return fail(fmt.Errorf("unused takes no arguments (got %q)", rest[0]))
	case *renderAs != "table" && *renderAs != "json":
		return fail(fmt.Errorf("unused renders --render-as table or json, not %q", *renderAs))
	}
	source, err := fleetSource(&src)
	if err != nil {
		return fail(err)
	}
	if source == nil {
		return fail(errors.New("unused reads a fleet: give --facts DIR, a directory of facts files (one node per file), or --puppetdb URL"))
	}
	var accepted []finding
	if *baseline != "" {
		if accepted, err = readBaseline(*baseline); err != nil {
			return fail(err)
		}
	}
	st, err := src.side(0, 1)
	if err != nil {
		return fail(err)
	}
	engine, err := st.engine()
	if err != nil {
		return fail(err)
	}
	ctx := context.Background()
	nodes, err := fleet.Collect(ctx, source)
	if err != nil {
		return fail(err)
	}
	u, err := findUnused(ctx, engine, st.eyaml, nodes, env)
	if err != nil {
		return fail(err)
	}
	findings := u.findings
	for i := range findings {
		findings[i].File = displayPath(findings[i].File)
	}
	findings, known, gone := applyBaseline(findings, accepted)
	if known > 0 || gone > 0 {
		_, _ = fmt.Fprintf(env.Stderr, "Note: the baseline accepts %s; %s in it no longer found\n", count(known, "finding"), count(gone, "finding"))
	}
	if *renderAs == "json" {
		list := make([]any, len(findings))
		for i, f := range findings {
			list[i] = f
		}
		out, _ := json.Marshal(map[string]any{"findings": list})
		_, _ = env.Stdout.Write(append(out, '\n'))
	} else {
		writeFindings(env.Stdout, findings, u, len(nodes))
	}
	if len(findings) > 0 {
		return exitAnswer
	}
	return exitOK
}

// fleetUse is what a fleet's nodes use, and what they never do.
type fleetUse struct {
	findings []finding
	files    int // data files listed
}

// fleetUsage is what the fleet's nodes use, gathered node by node (add): the nodes reaching each
// data file; for each (file, key) the nodes it gives a value; what failures hide.
type fleetUsage struct {
	mu          sync.Mutex
	eyaml       hiera.EyamlKeys     // the keys the command is given, as hieraform node reads a node with them
	fileKeys    map[string][]string // data file -> its root keys
	dotted      map[string]bool     // root keys a lookup reads as a path (they dig into another key)
	reached     map[string]int      // file -> nodes reaching it
	contributes map[fileKeyPair]*users
	unknown     map[fileKeyPair]bool // (file, key) whose use a failing lookup hides
	unknownFile map[string]bool      // files a node that could not be read reaches
	failed      []string             // warnings about nodes
	eyamlKeyErr error                // the first lookup that failed for want of an eyaml key, to say how to give them
}

type fileKeyPair struct{ file, key string }

// users are the nodes a (file, key) gives a value: how many; of those, the ones whose answer was
// looked up, each with its answer (the others' use was plain: the file was the only one the node
// reaches that holds the key, so the value cannot be redundant).
type users struct {
	count   int
	nodes   []int
	answers []hiera.Result
}

// nodeRead is what one node reaches and the answers of the keys it holds in more than one file.
type nodeRead struct {
	files   []hiera.Source
	err     error
	only    map[string]bool // keys held by a single file the node reaches (no lookup made)
	answers []hiera.NodeAnswer
}

// readNode lists the node's files, then looks up the keys that more than one of them holds (or
// that dig into another key). A key one reached file alone holds gives the node its value there
// (no other file comes first or is merged in), so its lookup would tell nothing: in a fleet where
// every node has a file of its own, most keys are such.
func (u *fleetUsage) readNode(ctx context.Context, engine *hiera.Engine, scope hiera.Scope) nodeRead {
	listing, err := engine.LookupNode(ctx, hiera.NodeRequest{Scope: scope, EyamlKeys: u.eyaml, Only: func(string) bool { return false }})
	if err == nil {
		err = listing.ListErr
	}
	r := nodeRead{files: listing.Files, err: err}
	if err != nil {
		return r
	}
	holders := map[string]int{}
	for _, f := range r.files {
		keys, listed := u.fileKeys[f.File]
		if !listed { // a file the survey did not list: look every key up
			holders = nil
			break
		}
		for _, k := range keys {
			if f.Layer != "module" || strings.HasPrefix(k, f.Module+"::") { // a module's other keys are never looked up
				holders[k]++
			}
		}
	}
	req := hiera.NodeRequest{Scope: scope, EyamlKeys: u.eyaml}
	if holders != nil {
		req.Keys = []string{}
		r.only = map[string]bool{}
		for k, n := range holders {
			if n > 1 || u.dotted[k] {
				req.Keys = append(req.Keys, k)
			} else {
				r.only[k] = true
			}
		}
		slices.Sort(req.Keys)
	}
	res, err := engine.LookupNode(ctx, req)
	if err == nil {
		err = res.ListErr
	}
	r.answers, r.err = res.Answers, err
	return r
}

// add records what node i uses: the files it reaches, and the files that gave each key its value.
func (u *fleetUsage) add(i int, name string, r nodeRead) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, f := range r.files {
		u.reached[f.File]++
		if r.err != nil {
			u.unknownFile[f.File] = true
		}
	}
	if r.err != nil {
		u.failed = append(u.failed, fmt.Sprintf("node %s could not be read, what its files hold is not reported: %s", name, oneLine(r.err.Error())))
		return
	}
	for _, f := range r.files {
		for _, k := range u.fileKeys[f.File] {
			if r.only[k] {
				u.contribution(fileKeyPair{f.File, k})
			}
		}
	}
	var failedKeys []string
	for _, a := range r.answers {
		switch {
		case a.Err != nil:
			failedKeys = append(failedKeys, fmt.Sprintf("%s: %s", a.Key, oneLine(a.Err.Error())))
			if u.eyamlKeyErr == nil && errors.Is(a.Err, hiera.ErrEyamlKey) {
				u.eyamlKeyErr = a.Err
			}
			for _, f := range r.files {
				u.unknown[fileKeyPair{f.File, a.Key}] = true
			}
		case a.Result.Found:
			for _, s := range a.Result.Sources {
				us := u.contribution(fileKeyPair{s.File, a.Key})
				us.nodes = append(us.nodes, i)
				us.answers = append(us.answers, hiera.Result{Value: a.Result.Value, Sensitive: a.Result.Sensitive})
			}
		}
	}
	if len(failedKeys) > 0 {
		u.failed = append(u.failed, fmt.Sprintf("node %s: %s failed, where their values come from is not reported:%s",
			name, count(len(failedKeys), "key lookup"), keyList(failedKeys)))
	}
}

// contribution counts one more node p gives its value, and returns its users.
func (u *fleetUsage) contribution(p fileKeyPair) *users {
	us := u.contributes[p]
	if us == nil {
		us = &users{}
		u.contributes[p] = us
	}
	us.count++
	return us
}

// findUnused reads every node and finds the unused files, keys and values.
func findUnused(ctx context.Context, engine *hiera.Engine, eyaml hiera.EyamlKeys, nodes []fleet.Node, env Env) (*fleetUse, error) {
	scopes := make([]hiera.Scope, len(nodes))
	for i, n := range nodes {
		scopes[i] = facts.Scope(n.Facts, n.Name)
	}
	list, err := engine.DataFiles(ctx, scopes)
	if err != nil {
		return nil, err
	}
	if len(list.Problems) > 0 {
		return nil, fmt.Errorf("the data cannot be read (hieraform check lists every problem): %w", list.Problems[0])
	}
	for _, w := range list.Warnings {
		_, _ = fmt.Fprintf(env.Stderr, "Warning: %s\n", w)
	}
	u := &fleetUsage{eyaml: eyaml, fileKeys: map[string][]string{}, dotted: map[string]bool{}, reached: map[string]int{},
		contributes: map[fileKeyPair]*users{}, unknown: map[fileKeyPair]bool{}, unknownFile: map[string]bool{}}
	for _, f := range list.Files {
		u.fileKeys[f.File] = dataFileKeys(f.File)
		for _, k := range u.fileKeys[f.File] {
			if segs, err := hiera.ParseKey(k); err != nil || len(segs) != 1 {
				u.dotted[k] = true
			}
		}
	}
	fleet.Each(ctx, len(nodes), func(i int) { u.add(i, nodes[i].Name, u.readNode(ctx, engine, scopes[i])) })
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	slices.Sort(u.failed)
	for _, w := range u.failed {
		_, _ = fmt.Fprintf(env.Stderr, "Warning: %s\n", w)
	}
	_, _ = fmt.Fprint(env.Stderr, eyamlKeyHint(u.eyamlKeyErr))
	use := &fleetUse{files: len(list.Files)}
	var candidates []redundancyCheck
	for _, f := range list.Files {
		readers := u.reached[f.File]
		if readers == 0 {
			use.findings = append(use.findings, finding{Kind: "unreached_file", File: f.File})
			continue
		}
		if u.unknownFile[f.File] {
			continue
		}
		for _, k := range u.fileKeys[f.File] {
			p := fileKeyPair{f.File, k}
			switch us := u.contributes[p]; {
			case u.unknown[p]:
			case us == nil:
				use.findings = append(use.findings, finding{Kind: "overridden_key", File: f.File, Key: k, Nodes: readers})
			case len(us.nodes) == us.count: // else some node finds the key in this file only
				candidates = append(candidates, redundancyCheck{finding: finding{Kind: "redundant", File: f.File, Key: k, Nodes: us.count}, users: us})
			}
		}
	}
	redundant := make([]bool, len(candidates))
	fleet.Each(ctx, len(candidates), func(i int) { redundant[i] = candidates[i].redundant(ctx, engine, eyaml, scopes) })
	for i, c := range candidates {
		if redundant[i] {
			use.findings = append(use.findings, c.finding)
		}
	}
	placeFindings(use.findings)
	return use, nil
}

// placeFindings sets each key's line (reading each file with findings once) and sorts the
// findings by file and line.
func placeFindings(findings []finding) {
	lines := map[string]map[string]int{}
	for i, f := range findings {
		if f.Key == "" {
			continue
		}
		if lines[f.File] == nil {
			lines[f.File] = rootKeyLines(f.File)
		}
		findings[i].Line = lines[f.File][f.Key]
	}
	slices.SortStableFunc(findings, func(a, b finding) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return a.Line - b.Line
	})
}

// redundancyCheck is a value that gives some nodes their answers: redundant when each of them
// gets the same answer without it.
type redundancyCheck struct {
	finding
	*users
}

// redundant looks the key up for each node without the file's value and compares the answer
// with the node's: the cheapest correct test, since only a lookup knows what the rest of the
// hierarchy, merges, lookup_options and interpolation make of the key without it. It stops at the
// first node whose answer differs: most values are not redundant, one lookup each.
func (c redundancyCheck) redundant(ctx context.Context, engine *hiera.Engine, eyaml hiera.EyamlKeys, scopes []hiera.Scope) bool {
	for i, n := range c.nodes {
		without, err := engine.Lookup(ctx, hiera.Request{Key: c.Key, Scope: scopes[n], EyamlKeys: eyaml, Without: hiera.Omission{File: c.File, Key: c.Key}})
		with := c.answers[i]
		if err != nil || !without.Found || with.Sensitive != without.Sensitive || !model.Equal(with.Value, without.Value) {
			return false
		}
	}
	return true
}

// maxDataFileSize is the engine's bound on a data file (hiera's): a larger one, or one that is not a
// regular file (a FIFO would block), is not read again here.
const maxDataFileSize = 64 << 20

// dataFileKeys are a data file's root keys that a lookup could name (strings, lookup_options left
// out), in the file's order; none for a file that does not read as YAML or JSON (HOCON: its keys
// are not reported). YAML's values are not built (the lazy reader skims the root keys).
func dataFileKeys(path string) []string {
	data, err := boundedfile.Read(path, maxDataFileSize)
	if err != nil {
		return nil
	}
	var v any
	if strings.EqualFold(filepath.Ext(path), ".json") {
		v, err = datafile.ParseJSON(data)
	} else {
		v, err = datafile.ReadYAML(data, nil)
	}
	var h *model.Hash
	switch t := v.(type) {
	case *datafile.LazyYAML:
		h = t.Keys
	case *model.Hash:
		h = t
	}
	if err != nil || h == nil {
		return nil
	}
	var keys []string
	h.Each(func(k, _ any) bool {
		if ks, ok := k.(string); ok && ks != "" && ks != "lookup_options" {
			keys = append(keys, ks)
		}
		return true
	})
	return keys
}

// rootKeyLines are the lines of a YAML or JSON data file's root keys (a key given twice: the last,
// as Psych reads it).
func rootKeyLines(path string) map[string]int {
	lines := map[string]int{}
	data, err := boundedfile.Read(path, maxDataFileSize)
	var doc yaml.Node
	if err != nil || yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return lines
	}
	root := doc.Content[0].Content
	for i := 0; i+1 < len(root); i += 2 {
		if k := root[i]; k.Kind == yaml.ScalarNode {
			lines[k.Value] = k.Line
		}
	}
	return lines
}

// displayPath is a path as findings show it: relative to the working directory when it lies
// below it (a baseline written in a CI checkout matches another checkout), else as it is.
func displayPath(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(wd, path); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return path
}

// readBaseline reads accepted findings from a file --render-as json wrote: a regular file within
// the bound of a data file (a link to /dev/zero, a sparse file or a pipe is refused, not read).
func readBaseline(path string) ([]finding, error) {
	data, err := boundedfile.Read(path, maxDataFileSize)
	if err != nil {
		return nil, fmt.Errorf("--baseline: %w", err)
	}
	var b struct {
		Findings *[]finding `json:"findings"`
	}
	if err := json.Unmarshal(data, &b); err != nil || b.Findings == nil {
		why := "no \"findings\" list"
		if err != nil {
			why = err.Error()
		}
		return nil, fmt.Errorf("--baseline %s is not what hieraform unused --render-as json writes: %s", path, why)
	}
	return *b.Findings, nil
}

// applyBaseline removes the findings the baseline accepts (by kind, file and key), and counts
// them, and the baseline's entries no longer found.
func applyBaseline(findings, accepted []finding) (rest []finding, known, gone int) {
	if accepted == nil {
		return findings, 0, 0
	}
	id := func(f finding) string { return f.Kind + "\x00" + f.File + "\x00" + f.Key }
	in := map[string]bool{}
	for _, f := range accepted {
		in[id(f)] = true
	}
	found := map[string]bool{}
	for _, f := range findings {
		if in[id(f)] {
			known++
			found[id(f)] = true
			continue
		}
		rest = append(rest, f)
	}
	return rest, known, len(in) - len(found)
}

// writeFindings writes one finding a line, then a summary.
func writeFindings(w io.Writer, findings []finding, u *fleetUse, nodes int) {
	kinds := map[string]int{}
	for _, f := range findings {
		kinds[f.Kind]++
		where := escapeControl(f.File)
		if f.Line > 0 {
			where += fmt.Sprintf(":%d", f.Line)
		}
		key := escapeControl(f.Key)
		var what string
		switch f.Kind {
		case "unreached_file":
			what = "no node reaches this file"
		case "overridden_key":
			what = fmt.Sprintf("%s gives no node its value (%s reach the file)", key, count(f.Nodes, "node"))
		default:
			what = fmt.Sprintf("%s is redundant: without it, %s it gives a value to would get the same", key, nodesPhrase(f.Nodes))
		}
		_, _ = fmt.Fprintf(w, "%s: %s: %s\n", where, f.Kind, what)
	}
	if len(findings) == 0 {
		_, _ = fmt.Fprintf(w, "nothing unused: %s and %s read\n", count(u.files, "data file"), count(nodes, "node"))
		return
	}
	_, _ = fmt.Fprintf(w, "%s (%d unreached files, %d overridden keys, %d redundant values) in %s over %s\n",
		count(len(findings), "finding"), kinds["unreached_file"], kinds["overridden_key"], kinds["redundant"],
		count(u.files, "data file"), count(nodes, "node"))
}

// nodesPhrase is "the node" or "each of the N nodes".
func nodesPhrase(n int) string {
	if n == 1 {
		return "the node"
	}
	return fmt.Sprintf("each of the %d nodes", n)
}
