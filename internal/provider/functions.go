package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera/merge"
	"github.com/hieraform/terraform-provider-hiera/internal/hiera/model"
)

// Helpers shared by the provider functions.

// valuesParameter is the variadic parameter of deep_merge and merge.
var valuesParameter = function.DynamicParameter{
	Name: "values",
	MarkdownDescription: "The values to merge, of any type: objects, maps, lists, tuples, sets or single values. " +
		"Later arguments win. A null argument is skipped. A list of values can be expanded into arguments with `...`.",
	AllowNullValue: true,
}

// mergeArguments merges the arguments args, which start at position offset of the call, with the
// engine's merge: later arguments win, as in Terraform's merge(). The result is null when every
// argument is null, and unknown when one is not known yet.
func mergeArguments(ctx context.Context, m *merge.Merge, args []types.Dynamic, offset int) (types.Dynamic, *function.FuncError) {
	values := make([]any, len(args))
	for i, a := range args {
		g, err := fromAttr(ctx, a, path.Empty())
		if err == nil {
			values[i], err = model.FromGo(g)
		}
		switch {
		case errors.Is(err, errUnknown):
			return types.DynamicUnknown(), nil
		case err != nil:
			return types.DynamicNull(), function.NewArgumentFuncError(int64(offset+i), fmt.Sprintf("argument %d cannot be merged: %s", offset+i+1, err))
		}
	}
	// MergeValues takes the value with the highest priority first: the last argument.
	reversed := make([]any, len(values))
	for i, v := range values {
		reversed[len(values)-1-i] = v
	}
	result, _, err := merge.Values(m, reversed)
	if err != nil {
		return types.DynamicNull(), mergeError(m, values, offset, err)
	}
	out, err := toDynamic(result, path.Empty())
	if err != nil {
		return types.DynamicNull(), function.NewFuncError("The merged value cannot be returned: " + err.Error())
	}
	return out, nil
}

// mergeError names the argument that the strategy cannot take. The engine checks the operands of
// each merge step; merging an argument with itself tells whether it is the wrong one.
func mergeError(m *merge.Merge, values []any, offset int, err error) *function.FuncError {
	for i, v := range values {
		if v == nil {
			continue
		}
		if _, _, e := merge.Values(m, []any{v, v}); e != nil {
			return function.NewArgumentFuncError(int64(offset+i), fmt.Sprintf(
				"the %q merge strategy cannot merge argument %d, which is %s: %s", m.Strategy, offset+i+1, tfKind(v), strategyInputs(m.Strategy)))
		}
	}
	return function.NewFuncError("The values cannot be merged: " + valueFreeMessage(m, err))
}

// valueFreeMessage is err's message when it quotes no value. Otherwise it says what failed without
// the engine's text, which quotes values: Terraform does not tell a provider function which of its
// arguments are sensitive, so any of them may be.
func valueFreeMessage(m *merge.Merge, err error) string {
	if model.QuotesNoValue(err) {
		return err.Error()
	}
	if m.Deep.SortMergedArrays {
		return "sort_merged_arrays could not order the merged lists, which mix strings, numbers or other types " +
			"(details withheld: the values may be sensitive)"
	}
	return "the merge failed (details withheld: the values may be sensitive)"
}

// strategyInputs says what a merge strategy accepts, in Terraform's words.
func strategyInputs(strategy string) string {
	switch strategy {
	case "hash":
		return "it merges objects and maps only"
	case "unique":
		return "it merges lists, tuples, sets and single values, not objects or maps"
	}
	return "the values have the wrong types"
}

// funcErrorFromDiags turns the errors of a lookup into a function error; an error on an argument
// (path.Root(name)) becomes an error on that argument, found by name in positions. params are the
// function's parameter names, the variadic one last. Terraform and OpenTofu name the parameter in
// their message; for an argument of the variadic parameter that is not the parameter's own
// (value_type, the lookup function's fifth argument, in "scope"), the message names it too. An error on no argument names its attribute, if any (OpenTofu reports such an
// error against the first parameter). Terraform ends a function error's message with a period of
// its own.
func funcErrorFromDiags(diags diag.Diagnostics, params []string, positions map[string]int64) *function.FuncError {
	var out *function.FuncError
	for _, d := range diags.Errors() {
		msg := strings.TrimSuffix(d.Detail(), ".") // the detail is a full sentence; the summary adds little
		if msg == "" {
			msg = d.Summary()
		}
		var fe *function.FuncError
		if dp, ok := d.(diag.DiagnosticWithPath); ok && len(dp.Path().Steps()) > 0 {
			if name, ok := dp.Path().Steps()[0].(path.PathStepAttributeName); ok {
				pos, ok := positions[string(name)]
				variadic := len(params) - 1
				if !ok || int(pos) >= variadic && params[variadic] != string(name) {
					msg = string(name) + ": " + msg
				}
				if ok {
					fe = function.NewArgumentFuncError(pos, msg)
				} else {
					fe = function.NewFuncError(msg)
				}
			}
		}
		if fe == nil {
			fe = function.NewFuncError(msg)
		}
		out = function.ConcatFuncErrors(out, fe)
	}
	return out
}
