package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/render"
)

const nodeSynopsis = `node [flags]

Prints every key of a node with its value, as the hiera_node data source answers it: every root
key of every data file the node's hierarchies reach (or only --keys, or only keys starting with a
--prefix), each looked up as lookup() does. Secret keys are left out (named on stderr). With
--sources each key gives its value and the data files that gave it. Exits 1 when a key's lookup
fails or the node's data cannot be read.`

const nodeExample = `  hieraform node --environment production --facts facts/web01.example.com.json --render-as json
  hieraform node --config hiera.yaml --facts web01.yaml --prefix ntp:: --sources`

// maxReportedKeys bounds the failing keys a message lists, as the hiera_node data source does.
const maxReportedKeys = 20

func runNode(args []string, env Env) int {
	fs := newFlagSet("node", nodeSynopsis, nodeExample, env)
	var src sourceFlags
	src.register(fs)
	var keys, prefixes stringList
	fs.Var(&keys, "keys", "only these `keys`, separated by commas (the flag may be repeated)")
	fs.Var(&prefixes, "prefix", "only keys starting with this `prefix` (the flag may be repeated)")
	withSources := fs.Bool("sources", false, "give each key's value with the data files that gave it")
	renderAs := fs.String("render-as", "yaml", "the output `format`: s, json or yaml")
	rest, err := parseArgs(fs, args)
	if errors.Is(err, errHelp) {
		return exitOK
	}
	fail := env.failer("Error: ", exitAnswer)
	switch {
	case err != nil:
		return fail(err)
	case len(rest) > 0:
		return fail(fmt.Errorf("node takes no arguments (got %q): use --keys", rest[0]))
	case !isFormat(*renderAs):
		return fail(model.Errorf("Unknown rendering format '%s' (use %s)", *renderAs, strings.Join(render.Formats, ", ")))
	}
	st, err := src.side(0, 1)
	if err != nil {
		return fail(err)
	}
	var req hiera.NodeRequest
	for _, k := range keys {
		req.Keys = append(req.Keys, strings.Split(k, ",")...)
	}
	req.Prefixes = prefixes
	node, err := lookupNode(st, req, env)
	if err != nil {
		return fail(err)
	}
	out := model.NewHash(len(node.found))
	for _, a := range node.found {
		if a.Result.Sensitive && !*withSources {
			continue
		}
		if *withSources {
			out.Set(a.Key, valueWithSources(a.Result))
		} else {
			out.Set(a.Key, a.Result.Value)
		}
	}
	text, err := render.Render(out, *renderAs)
	if err != nil {
		return fail(err)
	}
	_, _ = env.Stdout.Write(text)
	if len(node.secret) > 0 {
		_, _ = fmt.Fprintf(env.Stderr, "Note: secret keys left out: %s\n", strings.Join(node.secret, ", "))
	}
	if len(node.missing) > 0 && req.Keys != nil {
		_, _ = fmt.Fprintf(env.Stderr, "Note: keys found nowhere: %s\n", strings.Join(node.missing, ", "))
	}
	return exitOK
}

// nodeAnswers is a node's keys sorted by outcome.
type nodeAnswers struct {
	found           []hiera.NodeAnswer // secrets included
	secret, missing []string
}

// lookupNode looks the node of st up; a key whose lookup fails fails it all, naming each key.
func lookupNode(st setup, req hiera.NodeRequest, env Env) (nodeAnswers, error) {
	var node nodeAnswers
	engine, err := st.engine()
	if err != nil {
		return node, err
	}
	if req.Scope, err = st.scope(); err != nil {
		return node, err
	}
	res, err := engine.LookupNode(context.Background(), req)
	for _, w := range res.Warnings {
		_, _ = fmt.Fprintf(env.Stderr, "Warning: %s\n", st.shown(w))
	}
	if err != nil {
		return node, err
	}
	var failed []string
	for _, a := range res.Answers {
		switch {
		case a.Err != nil:
			failed = append(failed, fmt.Sprintf("%s: %s", a.Key, a.Err))
		case !a.Result.Found:
			node.missing = append(node.missing, a.Key)
		default:
			if a.Result.Sensitive {
				node.secret = append(node.secret, a.Key)
			}
			node.found = append(node.found, a)
		}
	}
	if n := len(failed); n > 0 {
		more := ""
		if n > maxReportedKeys {
			more = fmt.Sprintf("\n  ... and %d more", n-maxReportedKeys)
			failed = failed[:maxReportedKeys]
		}
		return node, fmt.Errorf("the lookups of %d keys of %s failed:\n  %s%s", n, st.describe(), strings.Join(failed, "\n  "), more)
	}
	return node, nil
}

// valueWithSources is {"value": v, "sources": [{layer, module, level, file}...]}, a secret's value redacted.
func valueWithSources(r hiera.Result) *model.Hash {
	h := model.NewHash(2)
	h.Set("value", shownValue(r))
	sources := make([]any, len(r.Sources))
	for i, s := range r.Sources {
		sh := model.NewHash(4)
		sh.Set("layer", s.Layer)
		sh.Set("module", s.Module)
		sh.Set("level", s.Level)
		sh.Set("file", s.File)
		sources[i] = sh
	}
	h.Set("sources", sources)
	return h
}

// shownValue is a result's value as the command may print it: a secret redacted.
func shownValue(r hiera.Result) any {
	if r.Sensitive {
		return redacted
	}
	return r.Value
}
