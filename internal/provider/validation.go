// A quick answer to ValidateDataResourceConfig when the framework would find nothing to report.
package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The framework validates a data source's configuration by walking its schema, path by path, which
// cost a trivial data source more than its lookup. quickValidator runs the same checks on the
// decoded value directly: the schema's validators (with the requests the framework gives them),
// required, read-only and deprecated attributes. It only ever says "valid": whenever a check fails,
// or the schema has something it does not handle, the server asks the framework, whose diagnostics
// are then the ones Terraform sees.
type quickValidator struct {
	schema schema.Schema
	// ok is false when the schema or the data source has checks the quick path does not run.
	ok bool
}

func newQuickValidator(ds datasource.DataSource, s schema.Schema) *quickValidator {
	_, configValidators := ds.(datasource.DataSourceWithConfigValidators)
	_, validateConfig := ds.(datasource.DataSourceWithValidateConfig)
	q := &quickValidator{schema: s, ok: !configValidators && !validateConfig && s.DeprecationMessage == ""}
	for _, a := range s.Attributes {
		q.ok = q.ok && handled(a)
	}
	for _, b := range s.Blocks {
		single, isSingle := b.(schema.SingleNestedBlock)
		q.ok = q.ok && isSingle && len(single.Blocks) == 0
		for _, a := range single.Attributes {
			q.ok = q.ok && handled(a)
		}
	}
	return q
}

// handled tells whether valid can check the attribute: a plain attribute whose validators, if
// any, are of a kind runValidators runs.
func handled(a schema.Attribute) bool {
	switch a.(type) {
	case schema.StringAttribute, schema.BoolAttribute, schema.DynamicAttribute:
		return true
	}
	return false
}

// valid reports whether the framework would find nothing to report in config, a value of the
// schema's type. A false answer means "ask the framework", not "invalid".
func (q *quickValidator) valid(ctx context.Context, config tftypes.Value) bool {
	if !q.ok {
		return false
	}
	var attrs map[string]tftypes.Value
	if err := config.As(&attrs); err != nil {
		return false
	}
	cfg := tfsdk.Config{Raw: config, Schema: q.schema}
	for name, a := range q.schema.Attributes {
		if !q.attributeValid(ctx, a, path.Root(name), attrs[name], cfg) {
			return false
		}
	}
	for name, b := range q.schema.Blocks {
		single, _ := b.(schema.SingleNestedBlock)
		at := path.Root(name)
		v := attrs[name]
		// A block that is present gets the framework's full treatment; an absent one still has
		// its validators run, on null values, as the framework does.
		if !v.IsNull() {
			return false
		}
		obj, err := single.Type().ValueFromTerraform(ctx, v)
		if err != nil || !validatorsPass(ctx, single.Validators, at, obj, cfg) {
			return false
		}
		for attrName, a := range single.Attributes {
			if !q.attributeValid(ctx, a, at.AtName(attrName), tftypes.NewValue(a.GetType().TerraformType(ctx), nil), cfg) {
				return false
			}
		}
	}
	return true
}

func (q *quickValidator) attributeValid(ctx context.Context, a schema.Attribute, at path.Path, v tftypes.Value, cfg tfsdk.Config) bool {
	av, err := a.GetType().ValueFromTerraform(ctx, v)
	if err != nil {
		return false
	}
	isNull := av.IsNull()
	if d, ok := av.(types.Dynamic); ok && !isNull && !av.IsUnknown() {
		isNull = d.IsUnderlyingValueNull()
	}
	switch {
	case a.IsComputed() && !a.IsOptional() && !isNull: // read-only, but set
		return false
	case a.IsRequired() && isNull:
		return false
	case a.GetDeprecationMessage() != "" && !isNull && !av.IsUnknown():
		return false
	}
	switch t := a.(type) {
	case schema.StringAttribute:
		return validatorsPass(ctx, t.Validators, at, av, cfg)
	case schema.BoolAttribute:
		return validatorsPass(ctx, t.Validators, at, av, cfg)
	case schema.DynamicAttribute:
		return validatorsPass(ctx, t.Validators, at, av, cfg)
	}
	return false
}

// validatorsPass runs validators (all of one kind) on v as the framework would, and reports
// whether none of them said anything.
func validatorsPass[V any](ctx context.Context, validators []V, at path.Path, v attr.Value, cfg tfsdk.Config) bool {
	for _, val := range validators {
		var diags diag.Diagnostics
		switch x := any(val).(type) {
		case validator.String:
			sv, _ := v.(types.String)
			resp := &validator.StringResponse{}
			x.ValidateString(ctx, validator.StringRequest{Config: cfg, ConfigValue: sv, Path: at, PathExpression: at.Expression()}, resp)
			diags = resp.Diagnostics
		case validator.Bool:
			bv, _ := v.(types.Bool)
			resp := &validator.BoolResponse{}
			x.ValidateBool(ctx, validator.BoolRequest{Config: cfg, ConfigValue: bv, Path: at, PathExpression: at.Expression()}, resp)
			diags = resp.Diagnostics
		case validator.Dynamic:
			dv, _ := v.(types.Dynamic)
			resp := &validator.DynamicResponse{}
			x.ValidateDynamic(ctx, validator.DynamicRequest{Config: cfg, ConfigValue: dv, Path: at, PathExpression: at.Expression()}, resp)
			diags = resp.Diagnostics
		case validator.Object:
			ov, _ := v.(types.Object)
			resp := &validator.ObjectResponse{}
			x.ValidateObject(ctx, validator.ObjectRequest{Config: cfg, ConfigValue: ov, Path: at, PathExpression: at.Expression()}, resp)
			diags = resp.Diagnostics
		default:
			return false
		}
		if len(diags) > 0 {
			return false
		}
	}
	return true
}
