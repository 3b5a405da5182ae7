package wire

// A quick answer to ValidateDataResourceConfig when the framework would find nothing to report.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The framework validates a data source's configuration by walking its schema, path by path, which
// cost a trivial data source more than its lookup. QuickValidator runs the same checks on the
// decoded value directly: the schema's validators (with the requests the framework gives them),
// required, read-only and deprecated attributes. It only ever says "valid": whenever a check fails,
// or the schema has something it does not handle, the server asks the framework, whose diagnostics
// are then the ones Terraform sees.
type QuickValidator struct {
	Schema schema.Schema
	typ    tftypes.Type // the schema's
	// Handled is false when the schema or the data source has checks the quick path does not run.
	Handled bool
	// What valid checks, worked out once: Terraform validates each data source twice per plan.
	attributes []quickAttribute // the top-level attributes with something to check
	blocks     []quickBlock
	// Unchecked are the top-level attributes nothing checks: valid's configuration has them null.
	// Decoding facts was most of a fleet data source's validation, and the validators of these
	// schemas read no attribute of the configuration but the merge block's
	// (provider.TestQuickValidation_validatorKinds lists them).
	Unchecked []string
}

// quickAttribute is an attribute with something to check, and its path.
type quickAttribute struct {
	name       string
	a          schema.Attribute
	validators any           // validatorsOf(a)
	conv       attrConverter // its type's
	at         schemaPath
	null       tftypes.Value // its null value, for an absent block
}

// newQuickAttribute is the attribute a named name at path p; ok is false when Valid cannot check it.
func newQuickAttribute(ctx context.Context, name string, a schema.Attribute, p path.Path) (qa quickAttribute, ok bool) {
	validators, _, handled := validatorsOf(a)
	conv, err := newAttrConverter(ctx, a.GetType())
	return quickAttribute{name: name, a: a, validators: validators, conv: conv, at: newSchemaPath(p),
		null: tftypes.NewValue(conv.tfType, nil)}, handled && err == nil
}

// schemaPath is a path and its expression, as validators are given both.
type schemaPath struct {
	path path.Path
	expr path.Expression
}

func newSchemaPath(p path.Path) schemaPath { return schemaPath{p, p.Expression()} }

type quickBlock struct {
	name    string
	block   schema.SingleNestedBlock
	at      schemaPath
	null    attr.Value // the block's null object, as its validators see an absent block
	content []quickAttribute
}

func NewQuickValidator(ds datasource.DataSource, s schema.Schema) *QuickValidator {
	ctx := context.Background()
	_, configValidators := ds.(datasource.DataSourceWithConfigValidators)
	_, validateConfig := ds.(datasource.DataSourceWithValidateConfig)
	q := &QuickValidator{Schema: s, typ: s.Type().TerraformType(ctx),
		Handled: !configValidators && !validateConfig && s.DeprecationMessage == ""}
	for name, a := range s.Attributes {
		if _, _, handled := validatorsOf(a); !handled {
			q.Handled = false
		}
		if anyValuePasses(a) {
			q.Unchecked = append(q.Unchecked, name)
		} else {
			qa, ok := newQuickAttribute(ctx, name, a, path.Root(name))
			q.Handled = q.Handled && ok
			q.attributes = append(q.attributes, qa)
		}
	}
	for name, b := range s.Blocks {
		single, isSingle := b.(schema.SingleNestedBlock)
		q.Handled = q.Handled && isSingle && len(single.Blocks) == 0
		null, err := single.Type().ValueFromTerraform(ctx, tftypes.NewValue(single.Type().TerraformType(ctx), nil))
		q.Handled = q.Handled && err == nil
		qb := quickBlock{name: name, block: single, at: newSchemaPath(path.Root(name)), null: null}
		for attrName, a := range single.Attributes {
			qa, ok := newQuickAttribute(ctx, attrName, a, qb.at.path.AtName(attrName))
			q.Handled = q.Handled && ok
			qb.content = append(qb.content, qa)
		}
		q.blocks = append(q.blocks, qb)
	}
	return q
}

// anyValuePasses tells whether the framework accepts any value of an attribute: optional, not
// deprecated, no validators (facts and scope are not converted just to find that out).
func anyValuePasses(a schema.Attribute) bool {
	_, validators, handled := validatorsOf(a)
	return a.IsOptional() && a.GetDeprecationMessage() == "" && handled && validators == 0
}

// validatorsOf returns an attribute's validators, a slice of their kind ([]validator.String, ...) as
// validatorsPass takes it, and how many; handled is false for an attribute Valid does not check
// (not one of these plain kinds).
func validatorsOf(a schema.Attribute) (validators any, count int, handled bool) {
	switch t := a.(type) {
	case schema.StringAttribute:
		return t.Validators, len(t.Validators), true
	case schema.BoolAttribute:
		return t.Validators, len(t.Validators), true
	case schema.DynamicAttribute:
		return t.Validators, len(t.Validators), true
	case schema.ListAttribute:
		return t.Validators, len(t.Validators), true
	case schema.MapAttribute:
		return t.Validators, len(t.Validators), true
	}
	return nil, 0, false
}

// Valid reports whether the framework would find nothing to report in a configuration, attrs its
// top-level attributes (UnmarshalConfig's, of the schema's types; its unchecked attributes may be
// null). A false answer means "ask the framework", not "invalid".
func (q *QuickValidator) Valid(ctx context.Context, attrs map[string]tftypes.Value) bool {
	if !q.Handled {
		return false
	}
	cfg := tfsdk.Config{Raw: tftypes.NewValue(q.typ, attrs), Schema: q.Schema}
	for _, qa := range q.attributes {
		if !qa.Valid(ctx, attrs[qa.name], cfg) {
			return false
		}
	}
	// A block is validated as the framework does: its own validators on the object, then each
	// attribute's on its value, null when the block is absent.
	for _, qb := range q.blocks {
		v := attrs[qb.name]
		if !v.IsKnown() {
			return false
		}
		obj := qb.null
		var inner map[string]tftypes.Value
		if !v.IsNull() {
			var err error
			if obj, err = qb.block.Type().ValueFromTerraform(ctx, v); err != nil {
				return false
			}
			if err := v.As(&inner); err != nil {
				return false
			}
		}
		if !validatorsPass(ctx, qb.block.Validators, qb.at, obj, cfg) {
			return false
		}
		for _, qa := range qb.content {
			iv, ok := inner[qa.name]
			if !ok {
				iv = qa.null
			}
			if !qa.Valid(ctx, iv, cfg) {
				return false
			}
		}
	}
	return true
}

// Valid runs the framework's checks of one attribute on v.
func (qa quickAttribute) Valid(ctx context.Context, v tftypes.Value, cfg tfsdk.Config) bool {
	a := qa.a
	if anyValuePasses(a) {
		return true
	}
	av, err := qa.conv.ValueFromTerraform(ctx, v)
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
	return validatorsPass(ctx, qa.validators, qa.at, av, cfg)
}

// validatorsPass runs validators (a slice of one kind: validator.String, ...) on v as the framework
// would, and reports whether none of them said anything. It goes by the slice's kind, not by the
// validators' own types: one validator often implements several kinds.
func validatorsPass(ctx context.Context, validators any, at schemaPath, v attr.Value, cfg tfsdk.Config) bool {
	switch vs := validators.(type) {
	case []validator.String:
		sv, _ := v.(types.String)
		for _, x := range vs {
			resp := &validator.StringResponse{}
			x.ValidateString(ctx, validator.StringRequest{Config: cfg, ConfigValue: sv, Path: at.path, PathExpression: at.expr}, resp)
			if len(resp.Diagnostics) > 0 {
				return false
			}
		}
	case []validator.Bool:
		bv, _ := v.(types.Bool)
		for _, x := range vs {
			resp := &validator.BoolResponse{}
			x.ValidateBool(ctx, validator.BoolRequest{Config: cfg, ConfigValue: bv, Path: at.path, PathExpression: at.expr}, resp)
			if len(resp.Diagnostics) > 0 {
				return false
			}
		}
	case []validator.Dynamic:
		dv, _ := v.(types.Dynamic)
		for _, x := range vs {
			resp := &validator.DynamicResponse{}
			x.ValidateDynamic(ctx, validator.DynamicRequest{Config: cfg, ConfigValue: dv, Path: at.path, PathExpression: at.expr}, resp)
			if len(resp.Diagnostics) > 0 {
				return false
			}
		}
	case []validator.List:
		lv, _ := v.(types.List)
		for _, x := range vs {
			resp := &validator.ListResponse{}
			x.ValidateList(ctx, validator.ListRequest{Config: cfg, ConfigValue: lv, Path: at.path, PathExpression: at.expr}, resp)
			if len(resp.Diagnostics) > 0 {
				return false
			}
		}
	case []validator.Map:
		mv, _ := v.(types.Map)
		for _, x := range vs {
			resp := &validator.MapResponse{}
			x.ValidateMap(ctx, validator.MapRequest{Config: cfg, ConfigValue: mv, Path: at.path, PathExpression: at.expr}, resp)
			if len(resp.Diagnostics) > 0 {
				return false
			}
		}
	case []validator.Object:
		ov, _ := v.(types.Object)
		for _, x := range vs {
			resp := &validator.ObjectResponse{}
			x.ValidateObject(ctx, validator.ObjectRequest{Config: cfg, ConfigValue: ov, Path: at.path, PathExpression: at.expr}, resp)
			if len(resp.Diagnostics) > 0 {
				return false
			}
		}
	default:
		return false
	}
	return true
}
