package provider

// Serving the provider over go-plugin's gRPC, with the data sources' hot calls answered first.

import (
	"context"
	"unicode/utf8"

	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// terraform-plugin-go's gRPC layer (tf6server) prepares each call for logging before it reaches
// the provider: three loggers built, a request ID drawn from crypto/rand, a goroutine to watch
// for StopProvider, timing fields. With logs off that was a fifth of the provider's CPU in a plan
// of trivial data sources, as much as the provider's own work. When Terraform shows no provider
// logs (see main.go), Serve answers the hiera_* data sources' ValidateDataResourceConfig and
// ReadDataSource ahead of that layer, with the same server methods it would call: validations
// without diagnostics, and reads with or without (diagnostics written as tf6server writes them).
// Every other call, a validation with diagnostics and a deferred read go through tf6server
// unchanged.

// Serve serves the provider as tf6server.Serve does (same handshake, plugin and message limits),
// with the data sources' hot calls answered by hotCalls.
func Serve(address, version string) error {
	s, err := NewServer(version)()
	if err != nil {
		return err
	}
	direct, _ := s.(*server) // NewServer's type
	ServeWith(address, s, direct.hotCalls)
	return nil
}

// ServeWith serves s as tf6server.Serve does (same handshake, plugin and message limits), every
// call passing through the gRPC interceptor hot first. The benchmarks' do-nothing provider
// (internal/benchgen/cmd/nullprovider) is served by it too, so that it pays the same protocol
// costs as the provider.
func ServeWith(address string, s tfprotov6.ProviderServer, hot grpc.UnaryServerInterceptor) {
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: plugin.HandshakeConfig{
			ProtocolVersion:  6,
			MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
			MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
		},
		Plugins: plugin.PluginSet{"provider": &tf6server.GRPCProviderPlugin{
			GRPCProvider: func() tfprotov6.ProviderServer { return s },
			Name:         address,
		}},
		GRPCServer: func(opts []grpc.ServerOption) *grpc.Server {
			const maxMessage = 256 << 20 // tf6server's
			opts = append(opts, grpc.MaxRecvMsgSize(maxMessage), grpc.MaxSendMsgSize(maxMessage),
				grpc.ChainUnaryInterceptor(hot))
			return grpc.NewServer(opts...)
		},
	})
}

// hotCalls is a gRPC interceptor: it answers a hiera_* data source's validation when it has no
// diagnostics and its read when it is not deferred, and hands every other call to tf6server.
func (s *server) hotCalls(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	var rpc *hotRPC
	switch info.FullMethod {
	case "/tfplugin6.Provider/ValidateDataResourceConfig":
		rpc = protocol.validate
	case "/tfplugin6.Provider/ReadDataSource":
		rpc = protocol.read
	}
	msg, ok := req.(proto.Message)
	if rpc == nil || !ok || msg.ProtoReflect().Descriptor() != rpc.request {
		return handler(ctx, req)
	}
	in := msg.ProtoReflect()
	typeName := in.Get(rpc.typeName).String()
	if _, ours := s.dataSources[typeName]; !ours || !in.Has(rpc.config) {
		return handler(ctx, req)
	}
	dv := in.Get(rpc.config).Message()
	if len(dv.Get(protocol.json).Bytes()) > 0 { // Terraform sends msgpack
		return handler(ctx, req)
	}
	config := &tfprotov6.DynamicValue{MsgPack: dv.Get(protocol.msgpack).Bytes()}
	out := rpc.response.New()
	if rpc.state == nil { // validation
		if !s.quickValid(ctx, typeName, config) {
			return handler(ctx, req)
		}
		return out.Interface(), nil
	}
	read := &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: config}
	if in.Has(rpc.capabilities) {
		read.ClientCapabilities = &tfprotov6.ReadDataSourceClientCapabilities{
			DeferralAllowed: in.Get(rpc.capabilities).Message().Get(rpc.deferralAllowed).Bool()}
	}
	resp, err := s.ReadDataSource(ctx, read)
	if err != nil || resp.Deferred != nil || !setDiagnostics(out, rpc.diagnostics, resp.Diagnostics) {
		return handler(ctx, req)
	}
	if resp.State != nil {
		state := out.NewField(rpc.state).Message()
		state.Set(protocol.msgpack, protoreflect.ValueOfBytes(resp.State.MsgPack))
		out.Set(rpc.state, protoreflect.ValueOfMessage(state))
	}
	return out.Interface(), nil
}

// setDiagnostics writes diags into the response's diagnostics field as tf6server does (toproto);
// false when one has an attribute path step the protocol cannot carry (tf6server then answers).
func setDiagnostics(out protoreflect.Message, field protoreflect.FieldDescriptor, diags []*tfprotov6.Diagnostic) bool {
	if len(diags) == 0 {
		return true
	}
	p := &protocol.diag
	list := out.Mutable(field).List()
	for _, d := range diags {
		m := list.NewElement().Message()
		m.Set(p.severity, protoreflect.ValueOfEnum(protoreflect.EnumNumber(d.Severity)))
		m.Set(p.summary, protoreflect.ValueOfString(validUTF8(d.Summary)))
		m.Set(p.detail, protoreflect.ValueOfString(validUTF8(d.Detail)))
		if d.Attribute != nil {
			path := m.Mutable(p.attribute).Message()
			steps := path.Mutable(p.steps).List()
			for _, step := range d.Attribute.Steps() {
				st := steps.NewElement().Message()
				switch step := step.(type) {
				case tftypes.AttributeName:
					st.Set(p.attributeName, protoreflect.ValueOfString(string(step)))
				case tftypes.ElementKeyString:
					st.Set(p.elementKeyString, protoreflect.ValueOfString(string(step)))
				case tftypes.ElementKeyInt:
					st.Set(p.elementKeyInt, protoreflect.ValueOfInt64(int64(step)))
				default:
					return false
				}
				steps.Append(protoreflect.ValueOfMessage(st))
			}
		}
		list.Append(protoreflect.ValueOfMessage(m))
	}
	return true
}

// validUTF8 is s with each invalid byte replaced by U+FFFD, as tf6server sends messages (protobuf
// refuses invalid UTF-8).
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+9)
	for _, r := range s { // an invalid byte reads as utf8.RuneError, one at a time
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// The protocol's message types are internal to terraform-plugin-go: hotCalls reads and writes them
// by field name, through the descriptors that package registers.
var protocol = findProtocol()

type hotRPC struct {
	request          protoreflect.MessageDescriptor
	typeName, config protoreflect.FieldDescriptor
	response         protoreflect.MessageType
	// ReadDataSource's; nil for validation
	state, diagnostics            protoreflect.FieldDescriptor // of the response
	capabilities, deferralAllowed protoreflect.FieldDescriptor // of the request, of its ClientCapabilities
}

type hotProtocol struct {
	validate, read *hotRPC
	msgpack, json  protoreflect.FieldDescriptor // of DynamicValue
	diag           diagnosticFields
}

// diagnosticFields are the fields of Diagnostic, of its AttributePath and of the path's Step.
type diagnosticFields struct {
	severity, summary, detail, attribute           protoreflect.FieldDescriptor
	steps                                          protoreflect.FieldDescriptor
	attributeName, elementKeyString, elementKeyInt protoreflect.FieldDescriptor
}

// findProtocol finds the messages hotCalls reads and writes; where one is not as expected, hotCalls
// hands its calls on (a newer terraform-plugin-go: the tests fail then).
func findProtocol() hotProtocol {
	var p hotProtocol
	dv := findMessage("DynamicValue")
	diag, path, step := findMessage("Diagnostic"), findMessage("AttributePath"), findMessage("AttributePath.Step")
	if dv == nil || diag == nil || path == nil || step == nil {
		return hotProtocol{}
	}
	p.msgpack, p.json = dv.Fields().ByName("msgpack"), dv.Fields().ByName("json")
	p.diag = diagnosticFields{
		severity: diag.Fields().ByName("severity"), summary: diag.Fields().ByName("summary"), detail: diag.Fields().ByName("detail"),
		attribute: diag.Fields().ByName("attribute"), steps: path.Fields().ByName("steps"),
		attributeName: step.Fields().ByName("attribute_name"), elementKeyString: step.Fields().ByName("element_key_string"),
		elementKeyInt: step.Fields().ByName("element_key_int"),
	}
	d := p.diag
	for _, f := range []protoreflect.FieldDescriptor{p.msgpack, p.json, d.severity, d.summary, d.detail, d.attribute, d.steps,
		d.attributeName, d.elementKeyString, d.elementKeyInt} {
		if f == nil {
			return hotProtocol{}
		}
	}
	if d.severity.Kind() != protoreflect.EnumKind || d.attribute.Message() != path || d.steps.Message() != step {
		return hotProtocol{}
	}
	p.validate = findRPC("ValidateDataResourceConfig", false)
	p.read = findRPC("ReadDataSource", true)
	return p
}

// findMessage finds the protocol's message name (relative to the package tfplugin6), or nil.
func findMessage(name protoreflect.FullName) protoreflect.MessageDescriptor {
	d, err := protoregistry.GlobalFiles.FindDescriptorByName("tfplugin6." + name)
	if err != nil {
		return nil
	}
	md, _ := d.(protoreflect.MessageDescriptor)
	return md
}

func findRPC(name protoreflect.Name, read bool) *hotRPC {
	req, err1 := protoregistry.GlobalTypes.FindMessageByName("tfplugin6." + protoreflect.FullName(name) + ".Request")
	resp, err2 := protoregistry.GlobalTypes.FindMessageByName("tfplugin6." + protoreflect.FullName(name) + ".Response")
	if err1 != nil || err2 != nil {
		return nil
	}
	rpc := &hotRPC{request: req.Descriptor(), response: resp,
		typeName: req.Descriptor().Fields().ByName("type_name"), config: req.Descriptor().Fields().ByName("config")}
	if rpc.typeName == nil || !isMessage(rpc.config, "tfplugin6.DynamicValue") {
		return nil
	}
	if read {
		rpc.state = resp.Descriptor().Fields().ByName("state")
		rpc.diagnostics = resp.Descriptor().Fields().ByName("diagnostics")
		rpc.capabilities = req.Descriptor().Fields().ByName("client_capabilities")
		if !isMessage(rpc.state, "tfplugin6.DynamicValue") || !isMessage(rpc.diagnostics, "tfplugin6.Diagnostic") || !rpc.diagnostics.IsList() ||
			!isMessage(rpc.capabilities, "tfplugin6.ClientCapabilities") {
			return nil
		}
		if rpc.deferralAllowed = rpc.capabilities.Message().Fields().ByName("deferral_allowed"); rpc.deferralAllowed == nil ||
			rpc.deferralAllowed.Kind() != protoreflect.BoolKind {
			return nil
		}
	}
	return rpc
}

// isMessage tells whether f is a field holding the message name.
func isMessage(f protoreflect.FieldDescriptor, name protoreflect.FullName) bool {
	return f != nil && f.Message() != nil && f.Message().FullName() == name
}
