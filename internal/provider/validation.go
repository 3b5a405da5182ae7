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
	case schema.StringAttribute, schema.BoolAttribute, schema.DynamicAttribute, schema.ListAttribute:
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
	// A block is validated as the framework does: its own validators on the object, then each
	// attribute's on its value, null when the block is absent.
	for name, b := range q.schema.Blocks {
		single, _ := b.(schema.SingleNestedBlock)
		at := path.Root(name)
		v := attrs[name]
		if !v.IsKnown() {
			return false
		}
		obj, err := single.Type().ValueFromTerraform(ctx, v)
		if err != nil || !validatorsPass(ctx, single.Validators, at, obj, cfg) {
			return false
		}
		var inner map[string]tftypes.Value
		if !v.IsNull() {
			if err := v.As(&inner); err != nil {
				return false
			}
		}
		for attrName, a := range single.Attributes {
			iv, ok := inner[attrName]
			if !ok {
				iv = tftypes.NewValue(a.GetType().TerraformType(ctx), nil)
			}
			if !q.attributeValid(ctx, a, at.AtName(attrName), iv, cfg) {
				return false
			}
		}
	}
	return true
}

func (q *quickValidator) attributeValid(ctx context.Context, a schema.Attribute, at path.Path, v tftypes.Value, cfg tfsdk.Config) bool {
	if a.IsOptional() && a.GetDeprecationMessage() == "" && !hasValidators(a) {
		return true // any value passes: facts and scope are not converted just to find that out
	}
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
	case schema.ListAttribute:
		return validatorsPass(ctx, t.Validators, at, av, cfg)
	}
	return false
}

// hasValidators tells whether an attribute has validators (true for a kind handled does not know).
func hasValidators(a schema.Attribute) bool {
	switch t := a.(type) {
	case schema.StringAttribute:
		return len(t.Validators) > 0
	case schema.BoolAttribute:
		return len(t.Validators) > 0
	case schema.DynamicAttribute:
		return len(t.Validators) > 0
	case schema.ListAttribute:
		return len(t.Validators) > 0
	}
	return true
}

// validatorsPass runs validators (a slice of one kind: validator.String, ...) on v as the framework
// would, and reports whether none of them said anything. It goes by the slice's kind, not by the
// validators' own types: one validator often implements several kinds.
func validatorsPass(ctx context.Context, validators any, at path.Path, v attr.Value, cfg tfsdk.Config) bool {
	var diags diag.Diagnostics
	expr := at.Expression()
	switch vs := validators.(type) {
	case []validator.String:
		sv, _ := v.(types.String)
		for _, x := range vs {
			resp := &validator.StringResponse{}
			x.ValidateString(ctx, validator.StringRequest{Config: cfg, ConfigValue: sv, Path: at, PathExpression: expr}, resp)
			diags.Append(resp.Diagnostics...)
		}
	case []validator.Bool:
		bv, _ := v.(types.Bool)
		for _, x := range vs {
			resp := &validator.BoolResponse{}
			x.ValidateBool(ctx, validator.BoolRequest{Config: cfg, ConfigValue: bv, Path: at, PathExpression: expr}, resp)
			diags.Append(resp.Diagnostics...)
		}
	case []validator.Dynamic:
		dv, _ := v.(types.Dynamic)
		for _, x := range vs {
			resp := &validator.DynamicResponse{}
			x.ValidateDynamic(ctx, validator.DynamicRequest{Config: cfg, ConfigValue: dv, Path: at, PathExpression: expr}, resp)
			diags.Append(resp.Diagnostics...)
		}
	case []validator.List:
		lv, _ := v.(types.List)
		for _, x := range vs {
			resp := &validator.ListResponse{}
			x.ValidateList(ctx, validator.ListRequest{Config: cfg, ConfigValue: lv, Path: at, PathExpression: expr}, resp)
			diags.Append(resp.Diagnostics...)
		}
	case []validator.Object:
		ov, _ := v.(types.Object)
		for _, x := range vs {
			resp := &validator.ObjectResponse{}
			x.ValidateObject(ctx, validator.ObjectRequest{Config: cfg, ConfigValue: ov, Path: at, PathExpression: expr}, resp)
			diags.Append(resp.Diagnostics...)
		}
	default:
		return false
	}
	return len(diags) == 0
}
