package provider

// The provider's protocol 6 server: the framework's, with the data sources' Read served directly.

import (
	"context"
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
	"github.com/hieraform/terraform-provider-hiera/internal/provider/wire"
)

// Terraform calls ReadDataSource once per data source and plan. Through the framework a trivial
// lookup cost about a millisecond of CPU, twenty times the lookup itself: reflection into the
// model (a regexp compiled per struct tag per call), schema walks per attribute, semantic
// equality checks and state encoding. The server below answers ReadDataSource of the hiera_* data
// sources itself: the same schema (lookupSchema, through the framework's own GetProviderSchema),
// the same model and the same lookup, so answers and diagnostics are those of the framework path.
// Validation is answered here only when nothing is wrong (wire/quickvalidate.go). Every other call goes to
// the framework.
//
// terraform-plugin-mux could combine a plugin-go server with the framework's, but it routes each
// type to one server only: the data sources' schema and the provider's Configure would then need
// a second implementation. Wrapping the framework's server keeps one of each.

// NewServer returns a factory for the provider's protocol 6 server.
func NewServer(version string) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		p := newProvider(version)
		fw, err := providerserver.NewProtocol6WithError(p)()
		if err != nil {
			return nil, err
		}
		return newServer(context.Background(), fw, p)
	}
}

type server struct {
	tfprotov6.ProviderServer // the framework's, for every call not overridden here
	provider                 *hieraProvider
	dataSources              map[string]*directDataSource // by type name
}

// directDataSource is a hiera_* data source as the server reads it.
type directDataSource struct {
	typ      tftypes.Object
	model    *wire.Codec
	validate *wire.QuickValidator
	computed map[string]bool // the top-level attributes a read fills in
	// read answers m, a pointer to the model with the configuration decoded into it, and returns the
	// msgpack encoding of each computed attribute, as the framework's Read would set it.
	read func(ctx context.Context, pd *providerData, m any, scope *hiera.Scope) (attributes appendAttribute, diags diag.Diagnostics)
}

// appendAttribute appends the msgpack encoding of the computed attribute name to pieces: one
// slice, or the chunks of an encoding too large to join before the state is (a fleet's).
type appendAttribute func(name string, pieces []wire.Piece) ([]wire.Piece, error)

// oneSlice is the appendAttribute of attribute, which gives each encoding whole.
func oneSlice(attribute func(name string) ([]byte, error)) appendAttribute {
	return func(name string, pieces []wire.Piece) ([]wire.Piece, error) {
		b, err := attribute(name)
		return append(pieces, wire.Piece{Bytes: b}), err
	}
}

func newServer(ctx context.Context, fw tfprotov6.ProviderServer, p *hieraProvider) (*server, error) {
	s := &server{ProviderServer: fw, provider: p, dataSources: map[string]*directDataSource{}}
	for _, factory := range p.DataSources(ctx) {
		var ds *directDataSource
		var err error
		d := factory()
		switch d := d.(type) {
		case *hieraDataSource:
			ds, err = newDirectDataSource(ctx, d, lookupSchema(d.kind), reflect.TypeFor[lookupModel]())
			if err == nil {
				kind, model, typ := d.kind, ds.model, ds.typ
				ds.read = func(ctx context.Context, pd *providerData, m any, scope *hiera.Scope) (appendAttribute, diag.Diagnostics) {
					lm, _ := m.(*lookupModel) // the codec's model
					diags := pd.lookup(ctx, kind, lm, scope)
					return func(name string, pieces []wire.Piece) ([]wire.Piece, error) {
						if name == "sources" { // thousands of plans' data sources: written directly
							return append(pieces, wire.Piece{Bytes: appendSources(nil, lm.sources)}), nil
						}
						tv, err := model.Attribute(ctx, m, name)
						if err != nil {
							return nil, err
						}
						dv, err := tfprotov6.NewDynamicValue(typ.AttributeTypes[name], tv)
						return append(pieces, wire.Piece{Bytes: dv.MsgPack}), err
					}, diags
				}
			}
		case *nodeDataSource:
			ds, err = newDirectDataSource(ctx, d, nodeSchema(), reflect.TypeFor[nodeModel]())
			if err == nil {
				ds.read = func(ctx context.Context, pd *providerData, m any, scope *hiera.Scope) (appendAttribute, diag.Diagnostics) {
					nm, _ := m.(*nodeModel) // the codec's model
					out, diags := pd.readNode(ctx, nm, scope, wholeNode)
					return oneSlice(out.attribute), diags
				}
			}
		case *nodesDataSource:
			ds, err = newDirectDataSource(ctx, d, nodesSchema(), reflect.TypeFor[nodesModel]())
			if err == nil {
				ds.read = func(ctx context.Context, pd *providerData, m any, scope *hiera.Scope) (appendAttribute, diag.Diagnostics) {
					nm, _ := m.(*nodesModel) // the codec's model
					out, diags := pd.readNodes(ctx, nm, scope)
					return out.appendAttribute, diags
				}
			}
		default:
			continue
		}
		var meta datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "hiera"}, &meta)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", meta.TypeName, err)
		}
		s.dataSources[meta.TypeName] = ds
	}
	return s, nil
}

// newDirectDataSource is what the server needs to read a data source of schema sch and model type
// model (its read set apart).
func newDirectDataSource(ctx context.Context, d datasource.DataSource, sch schema.Schema, model reflect.Type) (*directDataSource, error) {
	schemaType, ok := sch.Type().(types.ObjectType)
	if !ok {
		return nil, fmt.Errorf("the schema is not an object")
	}
	codec, err := wire.NewCodec(ctx, model, schemaType)
	if err != nil {
		return nil, err
	}
	computed, err := wire.ComputedAttributes(sch)
	if err != nil {
		return nil, err
	}
	return &directDataSource{typ: codec.Type, model: codec, validate: wire.NewQuickValidator(d, sch), computed: computed}, nil
}

// ValidateDataResourceConfig answers at once when the configuration passes every check of the
// schema (see wire.QuickValidator); otherwise the framework validates it and words the diagnostics.
func (s *server) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	if s.quickValid(ctx, req.TypeName, req.Config) {
		return &tfprotov6.ValidateDataResourceConfigResponse{}, nil
	}
	return s.ProviderServer.ValidateDataResourceConfig(ctx, req)
}

// quickValid tells whether a hiera_* data source's configuration passes every check of its
// schema (false: ask the framework).
func (s *server) quickValid(ctx context.Context, typeName string, dv *tfprotov6.DynamicValue) bool {
	ds, ok := s.dataSources[typeName]
	if !ok || dv == nil {
		return false
	}
	attrs, err := wire.UnmarshalConfig(dv, ds.typ, ds.validate.Unchecked...)
	return err == nil && ds.validate.Valid(ctx, attrs)
}

// ReadDataSource does what hieraDataSource.Read does through the framework.
func (s *server) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	ds, ok := s.dataSources[req.TypeName]
	if !ok || req.Config == nil {
		return s.ProviderServer.ReadDataSource(ctx, req)
	}
	// As the framework does, a failed or deferred read returns the configuration as the state.
	resp := &tfprotov6.ReadDataSourceResponse{State: req.Config}
	var diags diag.Diagnostics
	defer func() { resp.Diagnostics = toProtoDiagnostics(diags) }()

	// Data sources with the same facts, scope and facts_file bytes share their conversion (scopecache.go).
	pd := s.provider.configured.Load()
	var cached *scopeArgs
	var key []byte
	var file *factsFile
	if pd != nil {
		key, file = scopeKey(req.Config.MsgPack, pd.factsFiles)
		cached = pd.scopes.get(key)
	}
	var skip []string // attributes not to decode: cached has them
	if cached != nil {
		skip = scopeAttributes
	}
	attrs, err := wire.UnmarshalConfig(req.Config, ds.typ, skip...)
	if err != nil {
		diags.AddError("Unable to Convert Configuration", "An unexpected error was encountered when converting the configuration from the protocol type. "+
			"This is always an issue in terraform-plugin-framework used to implement the provider and should be reported to the provider developers.\n\n"+
			"Please report this to the provider developer:\n\n"+err.Error())
		return resp, nil
	}
	m := ds.model.NewModel()
	withArgs, ok := m.(interface{ args() *lookupArgs }) // every model embeds lookupArgs
	if !ok {
		diags.AddError("Internal Error in the Hiera Provider", fmt.Sprintf("The model of %s has no lookup arguments. This is a bug; please report it.", req.TypeName))
		return resp, nil
	}
	args := withArgs.args()
	if err := ds.model.Decode(ctx, attrs, m); err != nil {
		diags.AddError("Value Conversion Error", "An unexpected error was encountered trying to convert the configuration. This is always an error in the provider. "+
			"Please report the following to the provider developer:\n\n"+err.Error())
		return resp, nil
	}
	if pd != nil && pd.unknown && req.ClientCapabilities != nil && req.ClientCapabilities.DeferralAllowed {
		resp.Deferred = &tfprotov6.Deferred{Reason: tfprotov6.DeferredReasonProviderConfigUnknown}
		return resp, nil
	}
	var scope *hiera.Scope
	switch {
	case cached != nil:
		args.Facts, args.Scope, args.FactsFile, args.PuppetDBNode = cached.facts, cached.scope, cached.factsFile, cached.puppetdbNode
		scope = &cached.engine
	case pd != nil && !pd.unknown && key != nil:
		if cached = pd.scopeArgsOf(ctx, args); cached != nil {
			scope = &pd.scopes.put(key, file, cached).engine
		}
	}
	attribute, readDiags := ds.read(ctx, pd, m, scope)
	if diags.Append(readDiags...); diags.HasError() {
		return resp, nil
	}
	state, err := ds.state(req.Config, attribute)
	if err == nil {
		resp.State = state
	}
	if err != nil {
		diags.AddError("Value Conversion Error", "An unexpected error was encountered trying to convert the state. This is always an error in the provider. "+
			"Please report the following to the provider developer:\n\n"+err.Error())
	}
	return resp, nil
}

// CallFunction passes a null argument on as a msgpack null. OpenTofu (1.12) sends a null argument
// of a parameter that allows null as an empty DynamicValue, which the framework cannot decode
// ("DynamicValue had no JSON or msgpack data set"); Terraform sends a msgpack null.
func (s *server) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	for i, arg := range req.Arguments {
		if arg == nil || (len(arg.MsgPack) == 0 && len(arg.JSON) == 0) {
			req.Arguments[i] = &tfprotov6.DynamicValue{MsgPack: msgpackNull}
		}
	}
	return s.ProviderServer.CallFunction(ctx, req)
}

// msgpackNull is a null of any type in msgpack.
var msgpackNull = []byte{0xc0}

// toProtoDiagnostics converts the framework's diagnostics as the framework does.
func toProtoDiagnostics(diags diag.Diagnostics) []*tfprotov6.Diagnostic {
	var out []*tfprotov6.Diagnostic
	for _, d := range diags {
		pd := &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityError, Summary: d.Summary(), Detail: d.Detail()}
		if d.Severity() == diag.SeverityWarning {
			pd.Severity = tfprotov6.DiagnosticSeverityWarning
		}
		if dp, ok := d.(diag.DiagnosticWithPath); ok {
			pd.Attribute = toAttributePath(dp.Path())
		}
		out = append(out, pd)
	}
	return out
}

func toAttributePath(p path.Path) *tftypes.AttributePath {
	if len(p.Steps()) == 0 {
		return nil
	}
	ap := tftypes.NewAttributePath()
	for _, step := range p.Steps() {
		switch st := step.(type) {
		case path.PathStepAttributeName:
			ap = ap.WithAttributeName(string(st))
		case path.PathStepElementKeyInt:
			ap = ap.WithElementKeyInt(int(st))
		case path.PathStepElementKeyString:
			ap = ap.WithElementKeyString(string(st))
		default:
			return nil // a set element: no data source diagnostic points into a set
		}
	}
	return ap
}

// state is the state of a read of config: attribute gives the encodings of the computed attributes.
func (ds *directDataSource) state(config *tfprotov6.DynamicValue, attribute appendAttribute) (*tfprotov6.DynamicValue, error) {
	var failed error
	spliced, ok := wire.SpliceState(config.MsgPack, len(ds.computed), func(name []byte, pieces []wire.Piece) ([]wire.Piece, bool) {
		if !ds.computed[string(name)] || failed != nil {
			return nil, false
		}
		pieces, failed = attribute(string(name), pieces)
		return pieces, failed == nil
	})
	switch {
	case failed != nil:
		return nil, failed
	case ok:
		return &tfprotov6.DynamicValue{MsgPack: spliced}, nil
	}
	return ds.fullState(config, attribute)
}

// fullState is state for configurations SpliceState does not take: the configuration decoded, its
// computed attributes decoded in, encoded again.
func (ds *directDataSource) fullState(config *tfprotov6.DynamicValue, attribute appendAttribute) (*tfprotov6.DynamicValue, error) {
	v, err := config.Unmarshal(ds.typ)
	var attrs map[string]tftypes.Value
	if err == nil {
		err = v.As(&attrs)
	}
	for name := range ds.computed {
		var pieces []wire.Piece
		if err == nil {
			pieces, err = attribute(name, nil)
		}
		if err != nil {
			return nil, err
		}
		if attrs[name], err = (&tfprotov6.DynamicValue{MsgPack: wire.Join(pieces)}).Unmarshal(ds.typ.AttributeTypes[name]); err != nil {
			return nil, err
		}
	}
	if err != nil {
		return nil, err
	}
	dv, err := tfprotov6.NewDynamicValue(ds.typ, tftypes.NewValue(ds.typ, attrs))
	return &dv, err
}
