package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hieraform/terraform-provider-hiera/internal/classparams"
	"github.com/hieraform/terraform-provider-hiera/internal/facts"
	"github.com/hieraform/terraform-provider-hiera/internal/fleet"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

const checkSynopsis = `check [flags]

Checks Hiera data as Puppet reads it and reports every problem with its file, line and
hierarchy level, each once:
  - every data file under the datadir of every level of every layer (global, environment, each
    module of the modulepath, default_hierarchy too), whatever the node: a file that does not
    parse, lookup_options Puppet rejects, an interpolation that fails without a node (its syntax,
    an unknown method, alias() inside a longer string; a fact it names is no problem);
  - every key of every node given (--facts: a facts file or a directory of them; none: the node
    with no facts) looked up as Puppet looks it up: interpolations, nested lookups, merges;
  - with --types, every key the file names must have its type on every node that finds it (a
    key no level gives the node is no problem);
  - against the Puppet code of every module of the modulepath and of the environment's
    manifests/ (read, never run): a key of such a module that names no class parameter and no
    key a manifest looks up by name is a problem when a parameter's key is near (did you mean),
    else a note (--strict: a problem); on every node, the value automatic parameter lookup binds
    to a class parameter must match the parameter's declared type, type aliases resolved, as
    Puppet says when it compiles the class.
A datadir that depends on a fact is walked for each node given; with no --facts it is skipped
with a warning. A problem or warning several nodes meet is one line naming them; what Puppet
reads silently (a variable that is not set, a certname from networking.fqdn) is a warning of its
kind, which --no-warn KIND hides. Exits 0 when all is well, 1 when it found problems, 2 when it
cannot run. Secrets are checked but never shown.`

const checkExample = `  hieraform check --environment production
  hieraform check --environment production --facts facts/ --types types.yaml
  hieraform check --config hiera.yaml --facts web01.yaml --facts db01.yaml

A types file (YAML or JSON) maps lookup keys to Puppet types, as lookup()'s value_type takes them:
  ntp::servers: Array[String, 1]
  profile::web::port: Integer[1, 65535]
  profile::users.alice.uid: Integer`

func runCheck(args []string, env Env) int {
	fs := newFlagSet("check", checkSynopsis, checkExample, env)
	var src sourceFlags
	src.registerData(fs, env)
	fs.Var(&src.facts, "facts", "the nodes to check: a facts `file` as facter -j or puppet facts show write it (JSON or YAML), "+
		"or a directory of them; repeat it for more (each node's certname from its file; default: the node with no facts)")
	typesFile := fs.String("types", "", "a `file` mapping lookup keys to the Puppet types their values must have (YAML or JSON)")
	strict := fs.Bool("strict", false, "a module's key that names no class parameter and no key a manifest looks up is a problem, not a note")
	renderAs := fs.String("render-as", "text", "the output `format`: text, or json ({\"problems\", \"notes\", \"warnings\": [...], \"summary\"}, each entry with its \"nodes\")")
	silenced := kindList{}
	fs.Var(silenced, "no-warn", "hide the warnings of a `kind` (each warning shows its kind): "+warningKindNames()+"; repeat it or separate kinds with commas")
	rest, err := parseArgs(fs, args)
	if errors.Is(err, errHelp) {
		return exitOK
	}
	fail := env.failer("Error: ", exitFailure)
	switch {
	case err != nil:
		return fail(err)
	case len(rest) > 0:
		return fail(fmt.Errorf("check takes no arguments (got %q): give facts with --facts", rest[0]))
	case *renderAs != "text" && *renderAs != "json":
		return fail(fmt.Errorf("check renders --render-as text or json, not %q", *renderAs))
	}
	var types []typedKey
	if *typesFile != "" {
		if types, err = readTypes(*typesFile); err != nil {
			return fail(err)
		}
	}
	paths := src.facts
	src.facts = nil
	st, err := src.side(0, 1)
	if err != nil {
		return fail(err)
	}
	var nodes []*facts.Node
	for _, p := range paths {
		read, err := readFactsPath(p)
		if err != nil {
			return fail(err)
		}
		nodes = append(nodes, read...)
	}
	if src.pdb.given() {
		fromPuppetDB, err := src.pdb.source().Nodes(context.Background())
		if err != nil {
			return fail(err)
		}
		for _, n := range fromPuppetDB {
			nodes = append(nodes, &facts.Node{Name: n.Name, File: n.Origin, Facts: n.Facts})
		}
	}
	given := len(nodes) > 0
	engine, err := st.engine()
	if err != nil {
		return fail(err)
	}
	c := &checker{env: env, engine: engine, eyaml: st.eyaml, strict: *strict, reported: map[string]*reportLine{},
		warnings: map[string]*reportLine{}, silenced: silenced, hidden: map[string]map[string]bool{}, warned: map[string]bool{}}
	if env.ErrTerminal {
		c.progress.out = env.progress
	}
	code, warnings := classparams.Read(engine)
	for _, w := range warnings {
		c.warn(w)
	}
	if code.Classes() > 0 {
		c.code = code
	}
	var scopes []hiera.Scope
	for _, n := range nodes {
		scopes = append(scopes, facts.Scope(n.Facts, n.Certname()))
	}
	failAfter := func(err error) int {
		c.progress.clear()
		if *renderAs == "text" {
			c.out.print(env.Stdout)
		}
		return fail(err)
	}
	files, err := c.walk(scopes)
	if err != nil {
		return failAfter(err)
	}
	pitfalls := len(nodes) > 0 // the node with no facts has every fact unset: nothing to say
	if len(nodes) == 0 {
		nodes = []*facts.Node{{File: "(no facts)", Facts: model.NewHash(0)}}
		scopes = []hiera.Scope{facts.Scope(nil, "")}
	}
	for i, n := range nodes {
		c.progress.show("node", i, len(nodes))
		if note := n.CertnameNote(); note != "" {
			c.finding(note, n.File)
		}
		if err := c.node(n.File, scopes[i], types, pitfalls); err != nil {
			return failAfter(err)
		}
	}
	c.progress.clear()
	what := []string{count(files, "data file"), count(len(nodes), "node")}
	if !given {
		what[1] = "the node with no facts"
	}
	if c.code != nil {
		what = append(what, count(c.code.Classes(), "class"))
	}
	checked := strings.Join(what[:len(what)-1], ", ") + " and " + what[len(what)-1]
	notes := ""
	if c.notes > 0 {
		notes = ", " + count(c.notes, "note")
	}
	var lines []string
	if c.findings > 0 {
		lines = append(lines, fmt.Sprintf("%s: what Puppet reads silently, likely mistakes (a variable that is not set reads as an empty string); "+
			"--no-warn KIND hides a kind", count(c.findings, "warning")))
	}
	if hidden := hiddenSummary(c.hidden); hidden != "" {
		lines = append(lines, hidden)
	}
	summary := fmt.Sprintf("no problems: %s checked against %s%s", checked, st.describe(), notes)
	if c.problems > 0 {
		summary = fmt.Sprintf("%s in %s (%s checked%s)", count(c.problems, "problem"), st.describe(), checked, notes)
	}
	if *renderAs == "json" {
		_, _ = env.Stdout.Write(c.out.json(summary))
	} else {
		c.out.print(env.Stdout)
		_, _ = fmt.Fprintln(env.Stdout, strings.Join(append(lines, summary), "\n"))
	}
	if c.problems > 0 {
		_, _ = fmt.Fprint(env.Stderr, eyamlKeyHint(c.eyamlKeyProblem))
		return exitAnswer
	}
	return exitOK
}

// count is "1 node", "2 nodes", "2 classes".
func count(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "s"):
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// checker reports each problem and warning once, however many files and nodes meet it.
type checker struct {
	env    Env
	engine *hiera.Engine
	eyaml  hiera.EyamlKeys
	// eyamlKeyProblem is the first problem with the eyaml keys, to say at the end how to give them.
	eyamlKeyProblem error
	code            *classparams.Code // the modules' and environment's classes; nil when they define none
	strict          bool              // a key that names nothing in the code is a problem, not a note
	problems        int
	findings        int // pitfalls the nodes met (finding)
	notes           int
	reported        map[string]*reportLine     // problems and notes by place and what, with their key or not (report)
	warnings        map[string]*reportLine     // findings by message (finding)
	silenced        map[string]bool            // the kinds of findings --no-warn hides
	hidden          map[string]map[string]bool // the nodes whose findings it hid, by kind
	warned          map[string]bool            // stderr's warnings
	out             report
	progress        progress
}

// walk checks every data file of every level, whatever the node (datadirs that depend on the
// node resolved for scopes), and returns how many it checked.
func (c *checker) walk(scopes []hiera.Scope) (int, error) {
	ctx := context.Background()
	list, err := c.engine.DataFiles(ctx, scopes)
	if err != nil {
		return 0, err
	}
	for _, w := range list.Warnings {
		c.warn(w)
	}
	for _, p := range list.Problems {
		c.report(p, "", false)
	}
	if len(list.Files) == 0 {
		return 0, nil
	}
	check, err := c.engine.NewFileCheck(ctx, list.Files)
	if err != nil {
		return 0, err // the listing started: this is the context's
	}
	for i, f := range list.Files {
		c.progress.show("data file", i, len(list.Files))
		problems, warnings := check.Check(f)
		for _, w := range warnings {
			c.warn(w)
		}
		for _, p := range problems {
			c.report(p, "", true)
		}
		if c.code != nil {
			c.checkKeys(f, check.Keys(f))
		}
	}
	return len(list.Files), nil
}

// node looks up every key of one node, and checks the types of the keys types names.
func (c *checker) node(name string, scope hiera.Scope, types []typedKey, pitfalls bool) error {
	ctx := context.Background()
	res, err := c.engine.LookupNode(ctx, hiera.NodeRequest{Scope: scope, EyamlKeys: c.eyaml, Pitfalls: pitfalls})
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		c.warn(w)
	}
	for _, p := range res.Pitfalls {
		c.finding(p, name)
	}
	if res.ListErr != nil {
		c.report(res.ListErr, name, false)
	}
	for _, a := range res.Answers {
		switch {
		case errors.Is(a.Err, hiera.ErrCustomFunction): // not the data's mistake: the warning names every such level
		case a.Err != nil:
			c.report(a.Err, name, false)
		case a.Result.Found && c.code != nil:
			c.checkParam(name, a)
		}
	}
	for _, t := range types {
		_, err := c.engine.Lookup(ctx, hiera.Request{Key: t.key, Scope: scope, ValueType: t.typ, HasValueType: true, EyamlKeys: c.eyaml})
		switch {
		case err == nil:
		case errors.Is(err, hiera.ErrValueType):
			c.report(c.mismatch(err, t, scope), name, true)
		case errors.Is(err, hiera.ErrCustomFunction):
		default:
			c.report(err, name, false)
		}
	}
	return nil
}

// mismatch places a value_type mismatch at the data file and line the value came from
// (placeAtValue), naming the type's line in the types file.
func (c *checker) mismatch(err error, t typedKey, scope hiera.Scope) error {
	var he *model.Error
	if !errors.As(err, &he) {
		return err
	}
	placed := *he
	placed.Key = t.key
	placed.Hint = fmt.Sprintf("The types file's line %d wants %s", t.line, t.typ)
	if he.Hint != "" { // the engine's (a Sensitive value: write Sensitive[...])
		placed.Hint += ". " + he.Hint
	}
	res, lerr := c.engine.Lookup(context.Background(), hiera.Request{Key: t.key, Scope: scope, EyamlKeys: c.eyaml})
	if lerr != nil {
		return &placed
	}
	return placeAtValue(&placed, t.key, res.Sources)
}

// placeAtValue places a problem with key's value at the data file and line the value came from
// (hiera.PlaceAt). An index into a merged array counts in the merged array, not in any file's: the
// problem is placed at the array.
func placeAtValue(e *model.Error, key string, sources []hiera.Source) *model.Error {
	if len(sources) > 1 {
		key = beforeIndex(key)
	}
	return hiera.PlaceAt(e, key, sources)
}

// beforeIndex is key up to its first array index (ntp::servers for ntp::servers.1.name), key when
// it has none.
func beforeIndex(key string) string {
	segs, err := hiera.ParseKey(key)
	if err != nil {
		return key
	}
	for i, seg := range segs {
		if _, index := seg.(int64); index && i > 0 {
			var parts []string
			for _, s := range segs[:i] {
				text, _ := keySegment(s) // a segment of a parsed key reads back
				parts = append(parts, text)
			}
			return strings.Join(parts, ".")
		}
	}
	return key
}

// report records a problem once: "file:line: level "x": message (key k, node n). hint". perKey
// says the problem is about the key's own value (a file check's finding, a value of the wrong
// type): two keys meeting it at one place (two keys on one line, or in a HOCON file, which has no
// lines) are two problems. Otherwise a problem is its place and message, whatever key's lookup
// met it (a missing eyaml key, a broken file: once, not once per key), and one a file check
// reported already for a key is not reported again. A problem met by several nodes is one line
// naming them all.
func (c *checker) report(err error, node string, perKey bool) {
	where, key := problemKey(err)
	id := "key\x00" + where + "\x00" + key
	if !perKey || key == "" {
		id = "place\x00" + where
	}
	for _, seen := range []string{id, "place\x00" + where, "any\x00" + where} {
		if l := c.reported[seen]; l != nil && (seen != "any\x00"+where || !perKey) {
			l.addNode(node)
			return
		}
	}
	l := c.out.add("problems", func(nodes []string) string { return problemLine(err, nodes) }, func([]string) map[string]any { return problemFields(err) }, node)
	c.reported[id] = l
	if c.reported["any\x00"+where] == nil {
		c.reported["any\x00"+where] = l
	}
	c.problems++
	if c.eyamlKeyProblem == nil && errors.Is(err, hiera.ErrEyamlKey) {
		c.eyamlKeyProblem = err
	}
}

// finding records a pitfall a node's lookups met (a variable a hierarchy path or a value
// interpolates that is not set, a certname taken from networking.fqdn) once, with every node that
// met it: Puppet answers without a word, and check says it without failing, unless --no-warn
// silences its kind.
func (c *checker) finding(msg, node string) {
	kind, group := pitfallKind(msg), msg
	if kind == "certname" { // each node's own certname: one line for all of them
		group = certnameFindings
	}
	if c.silenced[kind] {
		if c.hidden[kind] == nil {
			c.hidden[kind] = map[string]bool{}
		}
		c.hidden[kind][node] = true
		return
	}
	if l := c.warnings[group]; l != nil {
		l.addNode(node)
		return
	}
	message := func(nodes []string) string {
		if len(nodes) > 1 {
			return group
		}
		return msg
	}
	c.warnings[group] = c.out.add("warnings", func(nodes []string) string {
		return fmt.Sprintf("warning (%s): %s (%s)", kind, message(nodes), nodesNamed(nodes))
	}, func(nodes []string) map[string]any { return map[string]any{"kind": kind, "message": message(nodes)} }, node)
	c.findings++
}

// note records, once, a finding that is not a problem unless --strict: "file:line: level "x": note: ...".
func (c *checker) note(e *model.Error) {
	where, _ := problemKey(e)
	if id := "note\x00" + where; c.reported[id] == nil {
		noted := *e
		noted.Message = "note: " + e.Message
		c.reported[id] = c.out.add("notes", func([]string) string { return problemLine(&noted, nil) }, func([]string) map[string]any { return problemFields(e) }, "")
		c.notes++
	}
}

func (c *checker) warn(msg string) {
	if c.warned[msg] {
		return
	}
	c.warned[msg] = true
	c.progress.clear()
	_, _ = fmt.Fprintf(c.env.Stderr, "Warning: %s\n", msg)
}

// problemKey identifies a problem across files and nodes: where it is and what it says (a problem
// without a file by its level and message: every key of a node may meet it), and the key it is
// about, so that two keys on one line (or in a file without lines, HOCON) are two problems. A file
// that cannot be read or parsed, or a hiera.yaml, is one problem whatever key meets it: no key.
func problemKey(err error) (where, key string) {
	var he *model.Error
	if !errors.As(err, &he) {
		return err.Error(), ""
	}
	if !he.OfDataFile && !he.OfConfig {
		key = he.Key
	}
	if he.File == "" {
		return fmt.Sprintf("\x00%s\x00%s", he.Level, he.Message), key
	}
	return fmt.Sprintf("%s\x00%d\x00%s", he.File, he.Line, he.Message), key
}

// problemLine is one problem on one line: "file:line: level "x": message (key k, node n). hint"
// (a message of several lines, such as Puppet's for each wrong element, joined with "; "; the
// nodes that met it as nodeList names them).
func problemLine(err error, nodes []string) string {
	var he *model.Error
	if !errors.As(err, &he) {
		return oneLine(err.Error())
	}
	var where []string
	switch {
	case he.File != "" && he.Line > 0:
		where = append(where, fmt.Sprintf("%s:%d:", he.File, he.Line))
	case he.File != "":
		where = append(where, he.File+":")
	}
	if he.Level != "" {
		where = append(where, fmt.Sprintf("level %q:", he.Level))
	}
	msg := oneLine(model.CutMessage(he.Message)) // as Error() shows it: Err is a cause it names, or a sentinel
	var about []string
	if he.Key != "" {
		about = append(about, "key "+he.Key)
	}
	if len(nodes) > 0 {
		about = append(about, nodesNamed(nodes))
	}
	if len(about) > 0 {
		msg += " (" + strings.Join(about, ", ") + ")"
	}
	if he.Hint != "" {
		msg += ". " + oneLine(he.Hint)
	}
	return strings.Join(append(where, msg), " ")
}

// oneLine joins the lines of a message with "; ", each trimmed (after a line ending in ':',
// such as Puppet's "Class[Ntp]:" before one line per parameter, with a space).
func oneLine(msg string) string {
	var b strings.Builder
	for _, l := range strings.Split(msg, "\n") {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		if s := b.String(); s != "" && strings.HasSuffix(s, ":") {
			b.WriteString(" ")
		} else if s != "" {
			b.WriteString("; ")
		}
		b.WriteString(l)
	}
	return b.String()
}

// progress is a line on stderr, when it is a terminal (out set), that a long check rewrites as
// it goes.
type progress struct {
	out   io.Writer
	shown bool
	last  time.Time
}

// progressFrom is the number of data files from which their progress is shown (nodes: from two).
const progressFrom = 200

// show says that item i of n is being checked, at most ten times a second.
func (p *progress) show(what string, i, n int) {
	if p.out == nil || n < 2 || what == "data file" && n < progressFrom {
		return
	}
	if now := time.Now(); i == 0 || i == n-1 || now.Sub(p.last) >= 100*time.Millisecond {
		p.last, p.shown = now, true
		_, _ = fmt.Fprintf(p.out, "\rchecking %s %d/%d\x1b[K", what, i+1, n)
	}
}

// clear removes the progress line, so that what prints next has a line of its own.
func (p *progress) clear() {
	if p.shown {
		_, _ = fmt.Fprint(p.out, "\r\x1b[K")
		p.shown = false
	}
}

// readFactsPath reads the nodes --facts names: a facts file, or a directory of them read as
// hiera_nodes' facts_dir and diff --facts read one (fleet.Dir: no link out of it is followed).
func readFactsPath(path string) ([]*facts.Node, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fleet.Dir(path).Facts(context.Background())
	}
	n, err := facts.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return []*facts.Node{n}, nil
}
