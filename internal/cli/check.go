package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/facts"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

const checkSynopsis = `check [flags]

Looks up every key of every node given (each facts file, or each file of a facts directory) as
the node command does, and reports every problem a lookup meets, with its file, line and
hierarchy level: a data file that does not parse, an interpolation that fails, lookup_options that
Puppet rejects, a hiera.yaml that does not validate. Without --facts it checks the node with no
facts (the levels every node reaches). Exits 0 when all is well, 1 when it found problems, 2 when
it cannot run. Secrets are looked up but never shown.`

const checkExample = `  hieraform check --environment production --facts facts/
  hieraform check --config hiera.yaml --facts web01.yaml --facts db01.yaml`

func runCheck(args []string, env Env) int {
	fs := newFlagSet("check", checkSynopsis, checkExample, env)
	var src sourceFlags
	src.register(fs)
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
	case len(src.node) > 0:
		return fail(errors.New("check takes each node's certname from its facts file: no --node"))
	}
	paths := src.facts
	src.facts = nil
	st, err := src.side(0, 1)
	if err != nil {
		return fail(err)
	}
	var nodes []*facts.Node
	for _, p := range paths {
		read, err := facts.Read(p)
		if err != nil {
			return fail(err)
		}
		nodes = append(nodes, read...)
	}
	if len(paths) == 0 {
		nodes = []*facts.Node{{File: "(no facts)", Facts: model.NewHash(0)}}
	}
	engine, err := st.engine()
	if err != nil {
		return fail(err)
	}
	problems := 0
	seen := map[string]bool{} // a broken file is reported once, not once per node
	for i, n := range nodes {
		if env.ErrTerminal && len(nodes) > 1 {
			_, _ = fmt.Fprintf(env.Stderr, "\rchecking node %d/%d", i+1, len(nodes))
		}
		res, err := engine.LookupNode(context.Background(), hiera.NodeRequest{Scope: facts.Scope(n.Facts, n.Certname())})
		failures := res.Answers
		if err != nil {
			failures = []hiera.NodeAnswer{{Err: err}}
		}
		for _, a := range failures {
			if a.Err == nil || seen[problemLine(a.Err, "")] {
				continue
			}
			seen[problemLine(a.Err, "")] = true
			problems++
			_, _ = fmt.Fprintf(env.Stdout, "%s (node %s)\n", problemLine(a.Err, a.Key), n.File)
		}
	}
	if env.ErrTerminal && len(nodes) > 1 {
		_, _ = fmt.Fprintln(env.Stderr)
	}
	if problems > 0 {
		_, _ = fmt.Fprintf(env.Stdout, "%d problems in %s\n", problems, st.describe())
		return exitAnswer
	}
	_, _ = fmt.Fprintf(env.Stdout, "no problems: %d nodes checked against %s\n", len(nodes), st.describe())
	return exitOK
}

// problemLine is one problem as "file:line: level "x": message (key k)", the engine's error placed.
func problemLine(err error, key string) string {
	var he *model.Error
	if !errors.As(err, &he) {
		return err.Error()
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
	msg := he.Message
	if he.Err != nil && !strings.Contains(msg, he.Err.Error()) {
		msg += ": " + he.Err.Error()
	}
	if key != "" {
		msg += fmt.Sprintf(" (key %s)", key)
	}
	return strings.Join(append(where, msg), " ")
}
