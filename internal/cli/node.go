package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/render"
)

const nodeSynopsis = `node [flags]

Prints every key of a node with its value, as the hiera_node data source answers it: every root
key of every data file the node's hierarchies reach (or only --keys, or only keys starting with a
--prefix), each looked up as lookup() does. Secret keys are left out (named on stderr). With
--sources each key gives its value and the data files that gave it. A key whose lookup fails is
left out and named on stderr with its error (as hiera_node's failed_keys): the node's other keys are
printed still. Exits 1 when a key of --keys fails or the node's data cannot be read.`

const nodeExample = `  hieraform node --environment production --facts facts/web01.example.com.json --render-as json
  hieraform node --config hiera.yaml --facts web01.yaml --prefix ntp:: --sources`

// maxReportedKeys bounds the failing keys a message lists, as the hiera_node data source does.
const maxReportedKeys = 20

func runNode(args []string, env Env) int {
	fs := newFlagSet("node", nodeSynopsis, nodeExample, env)
	var src sourceFlags
	src.register(fs, env)
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
	if err != nil && req.Keys == nil { // a value the format cannot hold (Infinity in JSON): that key fails, not the node
		bad := unrenderable(out, *renderAs)
		node.failed, node.failedKeys = append(node.failed, bad...), node.failedKeys+len(bad)
		text, err = render.Render(out, *renderAs)
	}
	if err != nil {
		return fail(err)
	}
	_, _ = env.Stdout.Write(text)
	switch {
	case len(node.secret) > 0 && *withSources:
		_, _ = fmt.Fprintf(env.Stderr, "Note: secret keys, their values redacted (%q): %s\n", redacted, strings.Join(node.secret, ", "))
	case len(node.secret) > 0:
		_, _ = fmt.Fprintf(env.Stderr, "Note: secret keys left out: %s\n", strings.Join(node.secret, ", "))
	}
	if len(node.missing) > 0 && req.Keys != nil {
		_, _ = fmt.Fprintf(env.Stderr, "Note: keys found nowhere: %s\n", strings.Join(node.missing, ", "))
	}
	if len(node.failed) > 0 {
		_, _ = fmt.Fprintf(env.Stderr, "Warning: %d keys left out, their lookups failed (as hiera_node's failed_keys):%s\n",
			node.failedKeys, keyList(node.failed))
		_, _ = fmt.Fprint(env.Stderr, eyamlKeyHint(errors.Join(node.failedErrs...)))
	}
	return exitOK
}

// unrenderable deletes from out the keys whose value format cannot write, and words each ("key: error").
func unrenderable(out *model.Hash, format string) (failed []string) {
	for _, k := range out.Keys() { // a copy: deleting is safe
		one := model.NewHash(1)
		v, _ := out.Get(k)
		one.Set(k, v)
		if _, err := render.Render(one, format); err != nil {
			failed = append(failed, fmt.Sprintf("%s: %s", k, err))
			out.Delete(k)
		}
	}
	return failed
}

// nodeAnswers is a node's keys sorted by outcome.
type nodeAnswers struct {
	found           []hiera.NodeAnswer // secrets included
	secret, missing []string
	// failed are the node's keys whose lookup failed, "key: error", when the keys were listed
	// (not asked for by name): as hiera_node's failed_keys, they do not fail the node.
	failed []string
	// failedErrs are their errors, in the same order; failedKeys counts the keys (a line of failed
	// may name several: those that reach one level of a custom function).
	failedErrs []error
	failedKeys int
}

// keyList lists failing keys ("key: error"), one a line, at most maxReportedKeys of them.
func keyList(failed []string) string {
	more := ""
	if len(failed) > maxReportedKeys {
		more = fmt.Sprintf("\n  ... and %d more", len(failed)-maxReportedKeys)
		failed = failed[:maxReportedKeys]
	}
	return "\n  " + strings.Join(failed, "\n  ") + more
}

// lookupNode looks the node of st up. A key of req.Keys whose lookup fails fails it all, naming each
// key; without req.Keys a failing key is in failed and the node is answered still. A node whose keys
// cannot be listed fails.
func lookupNode(st setup, req hiera.NodeRequest, env Env) (nodeAnswers, error) {
	var node nodeAnswers
	engine, err := st.engine()
	if err != nil {
		return node, err
	}
	req.EyamlKeys, req.Pitfalls = st.eyaml, true
	var note string
	if req.Scope, note, err = st.scope(); err != nil {
		return node, err
	}
	if note != "" {
		_, _ = fmt.Fprintf(env.Stderr, "Warning: %s\n", note)
	}
	res, err := engine.LookupNode(context.Background(), req)
	for _, w := range slices.Concat(res.Warnings, res.Pitfalls) {
		_, _ = fmt.Fprintf(env.Stderr, "Warning: %s\n", st.shown(w))
	}
	if err != nil {
		return node, err
	}
	var failed []string
	var causes []error
	custom := map[string][]string{} // the keys that reach each level of a custom function, by its error
	for _, a := range res.Answers {
		switch {
		case errors.Is(a.Err, hiera.ErrCustomFunction) && req.Keys == nil:
			msg := a.Err.Error()
			if custom[msg] == nil {
				failed = append(failed, msg) // its keys are written in below
				causes = append(causes, a.Err)
			}
			custom[msg] = append(custom[msg], a.Key)
		case a.Err != nil:
			failed = append(failed, fmt.Sprintf("%s: %s", a.Key, a.Err))
			causes = append(causes, a.Err)
		case !a.Result.Found:
			node.missing = append(node.missing, a.Key)
		default:
			if a.Result.Sensitive {
				node.secret = append(node.secret, a.Key)
			}
			node.found = append(node.found, a)
		}
	}
	switch {
	case res.ListErr != nil:
		return node, fmt.Errorf("the keys of %s cannot be listed: %w", st.describe(), res.ListErr)
	case len(failed) > 0 && req.Keys != nil:
		return node, &reworded{fmt.Sprintf("the lookups of %d keys of %s failed:%s", len(failed), st.describe(), keyList(failed)), causes}
	}
	for i, f := range failed { // one line per custom level, however many keys reach it
		if keys := custom[f]; keys != nil {
			failed[i] = fmt.Sprintf("%s: %s", someKeys(keys), f)
		}
	}
	node.failed, node.failedErrs, node.failedKeys = failed, causes, len(failed)
	for _, keys := range custom {
		node.failedKeys += len(keys) - 1
	}
	return node, nil
}

// someKeys names keys, the first few of them and how many more.
func someKeys(keys []string) string {
	const shown = 5
	if len(keys) <= shown {
		return strings.Join(keys, ", ")
	}
	return fmt.Sprintf("%s and %d more keys", strings.Join(keys[:shown], ", "), len(keys)-shown)
}

// reworded is an error told in a message of its own (a node's failed keys listed, a path shown as
// the user knows it) that still wraps the errors it tells of, so that errors.Is finds an eyaml key
// problem among them (eyamlKeyHint).
type reworded struct {
	msg    string
	causes []error
}

func (e *reworded) Error() string   { return e.msg }
func (e *reworded) Unwrap() []error { return e.causes }

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
