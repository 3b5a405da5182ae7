package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	eschema "github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

var (
	_ ephemeral.EphemeralResource              = (*lookupEphemeralResource)(nil)
	_ ephemeral.EphemeralResourceWithConfigure = (*lookupEphemeralResource)(nil)
)

// NewLookupEphemeralResource returns the ephemeral resource hiera_lookup: the data source's lookup,
// secrets included, whose result Terraform never writes to plan or state.
func NewLookupEphemeralResource() ephemeral.EphemeralResource {
	return &lookupEphemeralResource{}
}

type lookupEphemeralResource struct {
	data *providerData
}

var ephemeralLookupKind = lookupVariant{
	name:     "lookup",
	function: hiera.FuncLookup,
	description: "Looks up one key in Hiera as the `hiera_lookup` data source does, secrets included (values decrypted " +
		"from eyaml, `convert_to: Sensitive`), and never lets Terraform write the result to the plan or the state. " +
		"Needs Terraform 1.10 or later, or OpenTofu 1.11 or later.",
	mergeText: lookupMergeText,
	shape:     anyShape,
	secret:    true,
}

func (r *lookupEphemeralResource) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + ephemeralLookupKind.name
}

func (r *lookupEphemeralResource) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	s, err := ephemeralSchema(lookupSchema(ephemeralLookupKind))
	if err != nil {
		resp.Diagnostics.AddError("Invalid Schema", err.Error()+". This is a provider bug, please report it.")
	}
	resp.Schema = s
}

func (r *lookupEphemeralResource) Configure(_ context.Context, req ephemeral.ConfigureRequest, resp *ephemeral.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	r.data, resp.Diagnostics = toProvider(req.ProviderData)
}

func (r *lookupEphemeralResource) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	m, deferred, diags := r.data.readLookup(ctx, ephemeralLookupKind, req.Config, req.ClientCapabilities.DeferralAllowed)
	resp.Diagnostics.Append(diags...)
	switch {
	case deferred:
		resp.Deferred = &ephemeral.Deferred{Reason: ephemeral.DeferredReasonProviderConfigUnknown}
	case !resp.Diagnostics.HasError():
		resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
	}
}

// ephemeralSchema turns a data source schema into the same schema for an ephemeral resource, so
// that the two keep the same arguments and results. It knows the attribute kinds the hiera_*
// schemas use.
func ephemeralSchema(s schema.Schema) (eschema.Schema, error) {
	attrs, err := ephemeralAttributes(s.Attributes)
	if err != nil {
		return eschema.Schema{}, err
	}
	blocks := make(map[string]eschema.Block, len(s.Blocks))
	for name, b := range s.Blocks {
		nb, ok := b.(schema.SingleNestedBlock)
		if !ok {
			return eschema.Schema{}, fmt.Errorf("block %q: no ephemeral equivalent for %T", name, b)
		}
		battrs, err := ephemeralAttributes(nb.Attributes)
		if err != nil {
			return eschema.Schema{}, fmt.Errorf("block %q: %w", name, err)
		}
		blocks[name] = eschema.SingleNestedBlock{
			Attributes:          battrs,
			MarkdownDescription: nb.MarkdownDescription,
			Validators:          nb.Validators,
		}
	}
	return eschema.Schema{MarkdownDescription: s.MarkdownDescription, Attributes: attrs, Blocks: blocks}, nil
}

func ephemeralAttributes(in map[string]schema.Attribute) (map[string]eschema.Attribute, error) {
	out := make(map[string]eschema.Attribute, len(in))
	for name, a := range in {
		// The framework's data source and ephemeral attribute structs have the same fields.
		switch t := a.(type) {
		case schema.StringAttribute:
			out[name] = eschema.StringAttribute(t)
		case schema.BoolAttribute:
			out[name] = eschema.BoolAttribute(t)
		case schema.DynamicAttribute:
			out[name] = eschema.DynamicAttribute(t)
		case schema.ListAttribute:
			out[name] = eschema.ListAttribute(t)
		default:
			return nil, fmt.Errorf("attribute %q: no ephemeral equivalent for %T", name, a)
		}
	}
	return out, nil
}
