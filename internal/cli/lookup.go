package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
	"github.com/hieraform/terraform-provider-hiera/internal/render"
)

const lookupSynopsis = `lookup [flags] KEY...

Looks the keys up as puppet lookup does, with its flags, and prints the value of the first one
found as it prints it (--render-as yaml by default). Exits 1 when no key is found (the message on
stderr) or the lookup fails, as puppet lookup does.

A secret (an eyaml value, or one lookup_options convert to Sensitive) is printed as Puppet prints
a Sensitive value, "Sensitive [value redacted]", unless --reveal is given: a CI log shows that the
key has a value, never the value.`

const lookupExample = `  hieraform lookup ntp::servers --environment production --facts facts/web01.example.com.json --render-as json
  hieraform lookup profile::packages --merge unique --node web01.example.com --facts web01.yaml --explain`

// redacted is how Puppet renders a Sensitive value.
const redacted = "Sensitive [value redacted]"

func runLookup(args []string, env Env) int {
	fs := newFlagSet("lookup", lookupSynopsis, lookupExample, env)
	var src sourceFlags
	src.register(fs, env)
	var merge, knockout, def, valueType optional
	fs.Var(&merge, "merge", "the merge `strategy`: first, unique, hash or deep (default: lookup_options, else first)")
	fs.Var(&knockout, "knock-out-prefix", "with --merge deep: values starting with this `prefix` remove what lower levels gave")
	sortArrays := fs.Bool("sort-merged-arrays", false, "with --merge deep: sort the merged arrays")
	mergeHashArrays := fs.Bool("merge-hash-arrays", false, "with --merge deep: deep-merge hashes inside arrays by position")
	fs.Var(&def, "default", "a `string` to print when no key is found")
	fs.Var(&valueType, "type", "a Puppet `type` the value must match, such as Array[String]")
	explain := fs.Bool("explain", false, "print how the value was found, level by level, instead of the value")
	renderAs := fs.String("render-as", "", "the output `format`: s, json or yaml (default yaml; s with --explain)")
	reveal := fs.Bool("reveal", false, "print a secret value instead of \""+redacted+"\"")
	keys, err := parseArgs(fs, args)
	if errors.Is(err, errHelp) {
		return exitOK
	}
	fail := env.failer("Error: Could not run: ", exitAnswer) // puppet lookup exits 1 on any failure
	if err != nil {
		return fail(err)
	}
	if len(keys) == 0 {
		return fail(model.Errorf("No keys were given to lookup."))
	}
	format := *renderAs
	switch {
	case format == "" && *explain:
		format = "s"
	case format == "":
		format = "yaml"
	case *explain && format != "s":
		return fail(errors.New("--explain prints text: use --render-as s or no --render-as"))
	}
	if !isFormat(format) {
		return fail(model.Errorf("Unknown rendering format '%s' (use %s)", format, strings.Join(render.Formats, ", ")))
	}
	m, err := mergeOption(merge, knockout, *sortArrays, *mergeHashArrays)
	if err != nil {
		return fail(err)
	}
	st, err := src.side(0, 1)
	if err != nil {
		return fail(err)
	}
	engine, err := st.engine()
	if err != nil {
		return fail(err)
	}
	scope, note, err := st.lookupScope()
	if err != nil {
		return fail(err)
	}
	if note != "" {
		_, _ = fmt.Fprintf(env.Stderr, "Warning: %s\n", note)
	}
	req := hiera.Request{Keys: keys, Key: keys[0], Merge: m, Scope: scope, Explain: *explain, EyamlKeys: st.eyaml, Pitfalls: true,
		Default: def.value, HasDefault: def.set, ValueType: valueType.value, HasValueType: valueType.set}
	if req.HasValueType {
		if err := hiera.ParseValueType(req.ValueType); err != nil {
			return fail(fmt.Errorf("--type %s: %w", req.ValueType, err))
		}
	}
	res, err := engine.Lookup(context.Background(), req)
	for _, w := range slices.Concat(res.Warnings, res.Pitfalls) {
		_, _ = fmt.Fprintf(env.Stderr, "Warning: %s\n", w)
	}
	if err != nil {
		return fail(err)
	}
	if *explain {
		_, _ = fmt.Fprint(env.Stdout, strings.TrimSuffix(res.Explanation, "\n")+"\n")
		return exitOK
	}
	if !res.Found && !req.HasDefault {
		_, _ = fmt.Fprintf(env.Stderr, "Error: Function lookup() did not find a value for the name '%s' (%s; searched %s)\n",
			strings.Join(keys, "', '"), st.describe(), searched(res.Searched))
		if miss, err := engine.ExplainMiss(context.Background(), req); err == nil && len(miss.Suggestions) > 0 {
			_, _ = fmt.Fprintf(env.Stderr, "Did you mean '%s'?\n", strings.Join(miss.Suggestions, "', '"))
		}
		return exitAnswer
	}
	value := res.Value
	if res.Sensitive && !*reveal {
		value = redacted
		_, _ = fmt.Fprintf(env.Stderr, "Note: the value of '%s' is secret (eyaml, or convert_to Sensitive); --reveal prints it\n", keys[0])
	}
	out, err := render.Render(value, format)
	if err != nil {
		return fail(err)
	}
	_, _ = env.Stdout.Write(out)
	return exitOK
}

func searched(levels []string) string {
	if len(levels) == 0 {
		return "no hierarchy levels"
	}
	return strings.Join(levels, ", ")
}

func isFormat(f string) bool {
	for _, known := range render.Formats {
		if f == known {
			return true
		}
	}
	return false
}

// mergeOption is puppet lookup's --merge with its deep options, checked with its messages.
func mergeOption(strategy, knockout optional, sortArrays, mergeHashArrays bool) (*merge.Merge, error) {
	const runHelp = "Run 'hieraform lookup --help' for more details"
	if (sortArrays || mergeHashArrays || knockout.set) && strategy.value != "deep" {
		return nil, model.Errorf("The options --knock-out-prefix, --sort-merged-arrays, and --merge-hash-arrays are only available with '--merge deep'\n%s", runHelp)
	}
	if !strategy.set {
		return nil, nil
	}
	switch strategy.value {
	case "first", "unique", "hash", "deep", "reverse_deep", "unconstrained_deep":
	default:
		return nil, model.Errorf("The --merge option only accepts 'first', 'unique', 'hash', 'deep', 'reverse_deep', or 'unconstrained_deep'\n%s", runHelp)
	}
	opts := model.NewHash(4)
	opts.Set("strategy", strategy.value)
	if strategy.value == "deep" {
		opts.Set("sort_merged_arrays", sortArrays)
		opts.Set("merge_hash_arrays", mergeHashArrays)
		if knockout.set {
			opts.Set("knockout_prefix", knockout.value)
		}
	}
	return merge.Parse(opts)
}

// optional is a string flag that remembers whether it was given.
type optional struct {
	value string
	set   bool
}

func (o *optional) String() string     { return o.value }
func (o *optional) Set(s string) error { o.value, o.set = s, true; return nil }
