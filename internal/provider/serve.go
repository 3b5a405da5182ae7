// Serving the provider over go-plugin's gRPC, with the data sources' hot calls answered first.
package provider

import (
	"context"

	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
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
// ReadDataSource ahead of that layer, with the same server methods it would call, whenever the
// answer has no diagnostics; every other call, and every answer with diagnostics, goes through
// tf6server unchanged.

// Serve serves the provider as tf6server.Serve does (same handshake, plugin and message limits),
// with the data sources' hot calls answered by hotCalls.
func Serve(address, version string) error {
	s, err := NewServer(version)()
	if err != nil {
		return err
	}
	direct, _ := s.(*server) // NewServer's type
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
				grpc.ChainUnaryInterceptor(direct.hotCalls))
			return grpc.NewServer(opts...)
		},
	})
	return nil
}

// hotCalls is a gRPC interceptor: it answers a hiera_* data source's validation and read itself
// when the answer has no diagnostics, and hands every other call to tf6server.
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
	resp, err := s.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: config})
	if err != nil || len(resp.Diagnostics) > 0 || resp.Deferred != nil || resp.State == nil {
		return handler(ctx, req)
	}
	state := out.NewField(rpc.state).Message()
	state.Set(protocol.msgpack, protoreflect.ValueOfBytes(resp.State.MsgPack))
	out.Set(rpc.state, protoreflect.ValueOfMessage(state))
	return out.Interface(), nil
}

// The protocol's message types are internal to terraform-plugin-go: hotCalls reads and writes them
// by field name, through the descriptors that package registers.
var protocol = findProtocol()

type hotRPC struct {
	request          protoreflect.MessageDescriptor
	typeName, config protoreflect.FieldDescriptor
	response         protoreflect.MessageType
	state            protoreflect.FieldDescriptor // ReadDataSource's; nil for validation
}

type hotProtocol struct {
	validate, read *hotRPC
	msgpack, json  protoreflect.FieldDescriptor // of DynamicValue
}

// findProtocol finds the messages hotCalls reads and writes; where one is not as expected, hotCalls
// hands its calls on (a newer terraform-plugin-go: the tests fail then).
func findProtocol() hotProtocol {
	var p hotProtocol
	if dv, err := protoregistry.GlobalFiles.FindDescriptorByName("tfplugin6.DynamicValue"); err == nil {
		if md, ok := dv.(protoreflect.MessageDescriptor); ok {
			p.msgpack, p.json = md.Fields().ByName("msgpack"), md.Fields().ByName("json")
		}
	}
	if p.msgpack == nil || p.json == nil {
		return hotProtocol{}
	}
	p.validate = findRPC("ValidateDataResourceConfig", "")
	p.read = findRPC("ReadDataSource", "state")
	return p
}

func findRPC(name, stateField protoreflect.Name) *hotRPC {
	req, err1 := protoregistry.GlobalTypes.FindMessageByName("tfplugin6." + protoreflect.FullName(name) + ".Request")
	resp, err2 := protoregistry.GlobalTypes.FindMessageByName("tfplugin6." + protoreflect.FullName(name) + ".Response")
	if err1 != nil || err2 != nil {
		return nil
	}
	rpc := &hotRPC{request: req.Descriptor(), response: resp,
		typeName: req.Descriptor().Fields().ByName("type_name"), config: req.Descriptor().Fields().ByName("config")}
	if rpc.typeName == nil || rpc.config == nil || rpc.config.Message() == nil || rpc.config.Message().FullName() != "tfplugin6.DynamicValue" {
		return nil
	}
	if stateField != "" {
		if rpc.state = resp.Descriptor().Fields().ByName(stateField); rpc.state == nil || rpc.state.Message() == nil ||
			rpc.state.Message().FullName() != "tfplugin6.DynamicValue" {
			return nil
		}
	}
	return rpc
}
