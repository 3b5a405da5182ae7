package provider

import (
	"context"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

const valueTypeDescription = "A Puppet type expression the result must match, as the `value_type` of Puppet's `lookup()`: " +
	"`String[1]`, `Integer[0, 65535]`, `Array[String, 1]`, `Hash[String, Integer]`, `Optional[...]`, `Variant[...]`, " +
	"`Enum[a, b]`, `Pattern[/re/]`, `Struct[{name => String, Optional[port] => Integer}]`, `Tuple[...]`, `NotUndef`, " +
	"`Boolean`, `Numeric`, `Scalar`, `Data`, `RichData`, `Sensitive[...]`. It applies to the merged result and to " +
	"`default_value`; a value that does not match is an error with Puppet's message (for a secret, without its details). " +
	"A type that does not parse is an error at plan time."

// valueTypeValidator rejects, at plan time, a value_type that Puppet's type parser would reject.
type valueTypeValidator struct{}

var _ validator.String = valueTypeValidator{}

func (valueTypeValidator) Description(context.Context) string {
	return "must be a Puppet type expression"
}

func (v valueTypeValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (valueTypeValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := hiera.ParseValueType(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Puppet Type", "value_type "+strconv.Quote(req.ConfigValue.ValueString())+": "+err.Error())
	}
}

// valueTypeArgument reads the lookup function's value_type argument (at position pos): a string
// that parses as a Puppet type, or null for none. Its errors name value_type: the CLI names the
// variadic parameter that holds it ("scope").
func valueTypeArgument(arg types.Dynamic, pos int64) (types.String, *function.FuncError) {
	if arg.IsNull() || arg.IsUnderlyingValueNull() {
		return types.StringNull(), nil
	}
	s, ok := arg.UnderlyingValue().(types.String)
	if !ok {
		return types.StringNull(), function.NewArgumentFuncError(pos, "value_type must be a string holding a Puppet type expression, such as \"Array[String]\"")
	}
	if err := hiera.ParseValueType(s.ValueString()); err != nil {
		return types.StringNull(), function.NewArgumentFuncError(pos, "value_type "+strconv.Quote(s.ValueString())+": "+err.Error())
	}
	return s, nil
}
