package provider

// The provider's protocol 6 server: the framework's, with the data sources' Read served directly.

import (
	"context"
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
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
	kind     lookupVariant
	typ      tftypes.Object
	model    *wire.Codec
	validate *wire.QuickValidator
	computed map[string]bool // the top-level attributes a read fills in
}

func newServer(ctx context.Context, fw tfprotov6.ProviderServer, p *hieraProvider) (*server, error) {
	s := &server{ProviderServer: fw, provider: p, dataSources: map[string]*directDataSource{}}
	for _, factory := range p.DataSources(ctx) {
		ds, ok := factory().(*hieraDataSource)
		if !ok {
			continue
		}
		var meta datasource.MetadataResponse
		ds.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "hiera"}, &meta)
		sch := lookupSchema(ds.kind)
		schemaType, ok := sch.Type().(types.ObjectType)
		if !ok {
			return nil, fmt.Errorf("the schema of %s is not an object", meta.TypeName)
		}
		model, err := wire.NewCodec(ctx, reflect.TypeFor[lookupModel](), schemaType)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", meta.TypeName, err)
		}
		s.dataSources[meta.TypeName] = &directDataSource{kind: ds.kind, typ: model.Type, model: model, validate: wire.NewQuickValidator(ds, sch),
			computed: wire.ComputedAttributes(sch)}
	}
	return s, nil
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
	config, err := wire.UnmarshalConfig(dv, ds.typ, ds.validate.Unchecked...)
	return err == nil && ds.validate.Valid(ctx, config)
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

	// Data sources with the same facts and scope bytes share their conversion (scopecache.go).
	pd := s.provider.configured.Load()
	var args *scopeArgs
	key := scopeKey(req.Config.MsgPack)
	if pd != nil {
		args = pd.scopes.get(key)
	}
	var skip []string // attributes not to decode: args has them
	if args != nil {
		skip = scopeAttributes
	}
	config, err := wire.UnmarshalConfig(req.Config, ds.typ, skip...)
	if err != nil {
		diags.AddError("Unable to Convert Configuration", "An unexpected error was encountered when converting the configuration from the protocol type. "+
			"This is always an issue in terraform-plugin-framework used to implement the provider and should be reported to the provider developers.\n\n"+
			"Please report this to the provider developer:\n\n"+err.Error())
		return resp, nil
	}
	var m lookupModel
	if err := ds.model.Decode(ctx, config, &m); err != nil {
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
	case args != nil:
		m.Facts, m.Scope = args.facts, args.scope
		scope = &args.engine
	case pd != nil && !pd.unknown && key != nil:
		if args = pd.scopeArgsOf(ctx, &m); args != nil {
			scope = &pd.scopes.put(key, args).engine
		}
	}
	diags.Append(pd.lookup(ctx, ds.kind, &m, scope)...)
	if diags.HasError() {
		return resp, nil
	}
	state, err := ds.state(ctx, req.Config, &m)
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

// state is the state of a read of config that filled in m.
func (ds *directDataSource) state(ctx context.Context, config *tfprotov6.DynamicValue, m *lookupModel) (*tfprotov6.DynamicValue, error) {
	if len(ds.computed) == 0 {
		return ds.fullState(ctx, m)
	}
	var failed error
	spliced, ok := wire.SpliceState(config.MsgPack, len(ds.computed), func(name string) ([]byte, bool) {
		if !ds.computed[name] || failed != nil {
			return nil, false
		}
		b, err := ds.model.EncodeAttribute(ctx, m, name)
		failed = err
		return b, err == nil
	})
	switch {
	case failed != nil:
		return nil, failed
	case ok:
		return &tfprotov6.DynamicValue{MsgPack: spliced}, nil
	}
	return ds.fullState(ctx, m)
}

func (ds *directDataSource) fullState(ctx context.Context, m *lookupModel) (*tfprotov6.DynamicValue, error) {
	full, err := ds.model.Encode(ctx, m)
	if err != nil {
		return nil, err
	}
	dv, err := tfprotov6.NewDynamicValue(ds.typ, full)
	return &dv, err
}
