package wire

// A model struct (fields tagged tfsdk, as the framework's Get and Set use) read from and written to a
// Terraform value directly, for the data sources served without the framework (internal/provider/protocol.go).

import (
	"context"
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Codec converts between a Terraform object value and a model struct whose fields are
// attr.Value types (types.String, types.Dynamic, types.List, ...) or pointers to nested model
// structs (single nested blocks: nil when the block is absent). Unlike the framework's reflection
// it resolves the fields once, not on every call.
type Codec struct {
	goType reflect.Type
	Type   tftypes.Object
	fields []modelField
}

type modelField struct {
	name  string
	index []int         // reflect's FieldByIndex: a field of an embedded struct has two
	conv  attrConverter // for attr.Value fields: the schema's (a list's knows its element type)
	block *Codec        // for nested blocks
}

// attrConverter is ValueFromTerraform of an attribute's type, with the null value of that type made
// once: most of a configuration's attributes are null (the computed ones always are), and the
// framework builds a list or object's whole Terraform type again to convert one (sources: nine
// allocations, a tenth of a trivial read).
type attrConverter struct {
	attr.Type
	tfType tftypes.Type
	null   attr.Value
}

func newAttrConverter(ctx context.Context, t attr.Type) (attrConverter, error) {
	tfType := t.TerraformType(ctx)
	null, err := t.ValueFromTerraform(ctx, tftypes.NewValue(tfType, nil))
	return attrConverter{Type: t, tfType: tfType, null: null}, err
}

// ValueFromTerraform is the attribute type's own, the same value, for v read against the schema
// (UnmarshalConfig). A null read so has no contents, so it is of the attribute's very type when it
// is of its kind (Is: comparing list of objects types in full cost as much as the rest); only a
// dynamic attribute may hold a null of another type, which Is tells apart.
func (c attrConverter) ValueFromTerraform(ctx context.Context, v tftypes.Value) (attr.Value, error) {
	if v.IsNull() && c.tfType.Is(v.Type()) {
		return c.null, nil
	}
	return c.Type.ValueFromTerraform(ctx, v)
}

var attrValueType = reflect.TypeFor[attr.Value]()

// NewCodec matches the fields of model (a struct type) with the attributes of schemaType (the
// schema's object type), one to one.
func NewCodec(ctx context.Context, model reflect.Type, schemaType types.ObjectType) (*Codec, error) {
	typ, ok := schemaType.TerraformType(ctx).(tftypes.Object)
	if !ok {
		return nil, fmt.Errorf("%s: the schema type is not an object", model.Name())
	}
	c := &Codec{goType: model, Type: typ}
	seen := map[string]bool{}
	for _, f := range reflect.VisibleFields(model) {
		name := f.Tag.Get("tfsdk")
		if name == "" || name == "-" {
			continue // an embedded struct's own field: its fields come next
		}
		at, ok := schemaType.AttrTypes[name]
		if !ok {
			return nil, fmt.Errorf("%s.%s: the schema has no attribute %q", model.Name(), f.Name, name)
		}
		seen[name] = true
		mf := modelField{name: name, index: f.Index}
		switch {
		case f.Type.Implements(attrValueType):
			conv, err := newAttrConverter(ctx, at)
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %w", model.Name(), f.Name, err)
			}
			mf.conv = conv
		case f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct:
			obj, ok := at.(types.ObjectType)
			if !ok {
				return nil, fmt.Errorf("%s.%s: attribute %q is not a single nested block", model.Name(), f.Name, name)
			}
			block, err := NewCodec(ctx, f.Type.Elem(), obj)
			if err != nil {
				return nil, err
			}
			mf.block = block
		default:
			return nil, fmt.Errorf("%s.%s: unsupported field type %s", model.Name(), f.Name, f.Type)
		}
		c.fields = append(c.fields, mf)
	}
	for name := range typ.AttributeTypes {
		if !seen[name] {
			return nil, fmt.Errorf("%s: no field for the schema attribute %q", model.Name(), name)
		}
	}
	return c, nil
}

// Decode fills the struct dst points to from attrs, the top-level attributes of a value of the
// codec's type (UnmarshalConfig's).
func (c *Codec) Decode(ctx context.Context, attrs map[string]tftypes.Value, dst any) error {
	return c.decodeInto(ctx, attrs, reflect.ValueOf(dst).Elem())
}

func (c *Codec) decodeInto(ctx context.Context, attrs map[string]tftypes.Value, dst reflect.Value) error {
	for _, f := range c.fields {
		tv := attrs[f.name]
		if f.block != nil {
			if tv.IsNull() {
				continue // the zero value: a nil pointer
			}
			var inner map[string]tftypes.Value
			if err := tv.As(&inner); err != nil {
				return err
			}
			p := reflect.New(f.block.goType)
			if err := f.block.decodeInto(ctx, inner, p.Elem()); err != nil {
				return err
			}
			dst.FieldByIndex(f.index).Set(p)
			continue
		}
		av, err := f.conv.ValueFromTerraform(ctx, tv)
		if err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		dst.FieldByIndex(f.index).Set(reflect.ValueOf(av))
	}
	return nil
}

// NewModel returns a pointer to a new, zero model struct.
func (c *Codec) NewModel() any { return reflect.New(c.goType).Interface() }

// Attribute is the Terraform value of the top-level attribute name (an attr.Value field) of the
// struct src points to.
func (c *Codec) Attribute(ctx context.Context, src any, name string) (tftypes.Value, error) {
	for _, f := range c.fields {
		if f.name != name || f.block != nil {
			continue
		}
		av, _ := reflect.ValueOf(src).Elem().FieldByIndex(f.index).Interface().(attr.Value)
		tv, err := av.ToTerraformValue(ctx)
		if err != nil {
			return tftypes.Value{}, fmt.Errorf("%s: %w", name, err)
		}
		return tv, nil
	}
	return tftypes.Value{}, fmt.Errorf("%s: not an attribute of %s", name, c.goType)
}
