package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

var _ function.Function = (*mergeFunction)(nil)

// NewMergeFunction returns provider::hiera::merge(options, values...): a Hiera merge with a
// strategy and the deep options.
func NewMergeFunction() function.Function { return &mergeFunction{} }

type mergeFunction struct{}

func (f *mergeFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "merge"
}

func (f *mergeFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Merges values with a Hiera merge strategy and its options, later arguments winning",
		MarkdownDescription: "Merges any number of values as Hiera merges the values of hierarchy levels, the last argument " +
			"taking the place of the most specific level, and returns the result with its real types. " +
			"`first` returns the last non-null argument; `unique` joins lists and single values into one list without duplicates; " +
			"`hash` merges the top-level keys of objects and maps; `deep` merges them recursively, with the options " +
			"`knockout_prefix`, `sort_merged_arrays` and `merge_hash_arrays`. A null argument is skipped. " +
			"The result is null when there are no arguments or all are null.",
		Parameters: []function.Parameter{
			function.DynamicParameter{
				Name: "options",
				MarkdownDescription: "The merge strategy: its name (`\"first\"`, `\"unique\"`, `\"hash\"` or `\"deep\"`), or an object " +
					"`{ strategy, knockout_prefix, sort_merged_arrays, merge_hash_arrays }` as in `lookup_options`, where the last " +
					"three are for `deep` only and null attributes are left out.",
			},
		},
		VariadicParameter: valuesParameter,
		Return:            function.DynamicReturn{},
	}
}

func (f *mergeFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var options types.Dynamic
	var args []types.Dynamic
	resp.Error = req.Arguments.Get(ctx, &options, &args)
	if resp.Error != nil {
		return
	}
	m, err := mergeOptions(ctx, options)
	switch {
	case errors.Is(err, errUnknown):
		resp.Error = resp.Result.Set(ctx, types.DynamicUnknown())
		return
	case err != nil:
		// Terraform ends the message with a full stop of its own.
		resp.Error = function.NewArgumentFuncError(0, "invalid merge options: "+strings.TrimSuffix(err.Error(), "."))
		return
	}
	result, ferr := mergeArguments(ctx, m, args, 1)
	if ferr != nil {
		resp.Error = ferr
		return
	}
	resp.Error = resp.Result.Set(ctx, result)
}

// mergeOptions reads the options argument with the engine's ParseMerge (Puppet's rules and messages).
func mergeOptions(ctx context.Context, options types.Dynamic) (*merge.Merge, error) {
	g, err := fromAttr(ctx, options, path.Empty())
	if err != nil {
		return nil, err
	}
	var spec any
	switch t := g.(type) {
	case string:
		spec = t
	case map[string]any:
		// Null attributes (from optional() object attributes, say) count as not given.
		given := map[string]any{}
		for k, v := range t {
			if v != nil {
				given[k] = v
			}
		}
		// Puppet would say "unrecognized key": say what the merge block says instead.
		if s, ok := given["strategy"].(string); ok && s != "deep" && slices.Contains(merge.Strategies, s) {
			for _, k := range []string{"knockout_prefix", "sort_merged_arrays", "merge_hash_arrays"} {
				if _, set := given[k]; set {
					return nil, errors.New(deepOnlyMessage(k, s))
				}
			}
		}
		if spec, err = model.FromGo(given); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("options must be a strategy name such as \"deep\" or an object such as "+
			"{ strategy = \"deep\", knockout_prefix = \"--\" }, not %s", tfKind(g))
	}
	m, err := merge.Parse(spec)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(merge.Strategies, m.Strategy) { // not Puppet's hidden ones
		return nil, fmt.Errorf("the strategy must be one of %s, not %q", quotedList(merge.Strategies), m.Strategy)
	}
	// A knockout prefix is a regular expression, compiled only when two values meet.
	if m.Deep.KnockoutPrefix != "" {
		if _, _, err := merge.Values(m, []any{model.NewHash(0), model.NewHash(0)}); err != nil {
			// not repeated: the prefix may be a sensitive value
			return nil, errors.New("knockout_prefix is not a valid regular expression (the deep strategy reads it as one; its text is not repeated here, as it may be sensitive)")
		}
	}
	return m, nil
}

// quotedList is names quoted and joined as "a", "b" or "c".
func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
