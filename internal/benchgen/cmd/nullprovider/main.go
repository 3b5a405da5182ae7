// Command nullprovider is a do-nothing hiera provider, for scripts/bench-e2e.sh only: the floor
// any provider can reach for the same data sources. It serves the provider's own schema (from the
// provider's GetProviderSchema, so the two cannot drift) the way the provider is served
// (provider.ServeWith: the same go-plugin handshake, AutoMTLS and gRPC options), but configures
// nothing, answers every data source's validation with no diagnostics and its read with its
// configuration as the state (the computed attributes null), without decoding either. What a plan
// with it costs beyond Terraform's built-in data sources is Terraform's and the plugin protocol's,
// not the provider's work.
//
// With HIERAFORM_NULL_REPLAY=DIR it replays instead: a read is answered with its recording in DIR
// (a file named by a hash of the request's type name and configuration, holding the response
// message as the real provider sent it), still configuring and reading nothing, so that a plan
// with it costs what Terraform's own handling of the real answers costs, the floor of any provider
// giving these answers. A read without a recording, or with one that cannot be read, fails with an
// error diagnostic. With HIERAFORM_NULL_RECORD=1 as well it serves the real provider (configured as
// the provider is) and records: each read's response is stored in DIR. `nullprovider -state FILE`
// writes a recording's state (its msgpack) to stdout, for comparing with a live read's.
package main

import (
	"context"
	"errors"
	"flag"
	"log"
	"os"
	"runtime"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/hieraform/terraform-provider-hiera/internal/provider"
)

func main() {
	// As the provider's main.go does in a plan: one core, and the SDK's logs off.
	runtime.GOMAXPROCS(1)
	_ = os.Setenv("TF_LOG_SDK", "off")
	_ = os.Setenv("TF_LOG_PROVIDER_HIERA", "off")

	state := flag.String("state", "", "write the state of this recording to stdout and exit")
	flag.Parse()
	validate, read, err := findRPCs()
	if err != nil {
		log.Fatal(err)
	}
	if *state != "" {
		if err := (recordings{read: read}).writeState(os.Stdout, *state); err != nil {
			log.Fatal(err)
		}
		return
	}
	srv, err := provider.NewServer("dev")()
	if err != nil {
		log.Fatal(err)
	}
	served, calls, err := mode(os.Getenv, srv, validate, read)
	if err != nil {
		log.Fatal(err)
	}
	provider.ServeWith("registry.terraform.io/hieraform/hiera", served, calls)
}

// mode is the server to serve and the calls to answer first, as the environment asks: do nothing,
// replay (HIERAFORM_NULL_REPLAY=DIR) or record (HIERAFORM_NULL_RECORD=1 too: the real provider).
func mode(getenv func(string) string, srv tfprotov6.ProviderServer, validate, read rpc) (tfprotov6.ProviderServer, grpc.UnaryServerInterceptor, error) {
	recs := recordings{dir: getenv("HIERAFORM_NULL_REPLAY"), read: read}
	switch {
	case getenv("HIERAFORM_NULL_RECORD") != "" && recs.dir == "":
		return nil, nil, errors.New("nullprovider: HIERAFORM_NULL_RECORD needs HIERAFORM_NULL_REPLAY, the directory of the recordings")
	case getenv("HIERAFORM_NULL_RECORD") != "":
		return srv, recordCalls(recs), nil
	case recs.dir != "":
		return nullServer{srv}, nullCalls(validate, recs.replay), nil
	}
	return nullServer{srv}, nullCalls(validate, read.configAsState), nil
}

// nullCalls is a gRPC interceptor answering every data source's validation at once (no
// diagnostics) and its read with answer, configuring and reading nothing.
func nullCalls(validate rpc, answer func(request protoreflect.Message) proto.Message) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		switch info.FullMethod {
		case "/tfplugin6.Provider/ValidateDataResourceConfig":
			return validate.response.New().Interface(), nil
		case "/tfplugin6.Provider/ReadDataSource":
			if in, ok := req.(proto.Message); ok {
				return answer(in.ProtoReflect()), nil
			}
		}
		return handler(ctx, req)
	}
}

// configAsState answers a read with its configuration as the state.
func (read rpc) configAsState(in protoreflect.Message) proto.Message {
	out := read.response.New()
	out.Set(read.state, in.Get(read.config))
	return out.Interface()
}

// nullServer is the provider's server (for its schema and metadata), configured with nothing.
type nullServer struct{ tfprotov6.ProviderServer }

func (nullServer) ConfigureProvider(context.Context, *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return &tfprotov6.ConfigureProviderResponse{}, nil
}

// rpc holds the protocol's messages of one call, which are internal to terraform-plugin-go.
type rpc struct {
	response           protoreflect.MessageType
	typeName, config   protoreflect.FieldDescriptor // of the request
	state, diagnostics protoreflect.FieldDescriptor // of the response
}

func findRPCs() (validate, read rpc, err error) {
	for _, c := range []struct {
		name string
		rpc  *rpc
	}{{"ValidateDataResourceConfig", &validate}, {"ReadDataSource", &read}} {
		req, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName("tfplugin6." + c.name + ".Request"))
		if err != nil {
			return rpc{}, rpc{}, err
		}
		if c.rpc.response, err = protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName("tfplugin6." + c.name + ".Response")); err != nil {
			return rpc{}, rpc{}, err
		}
		c.rpc.typeName = req.Descriptor().Fields().ByName("type_name")
		c.rpc.config = req.Descriptor().Fields().ByName("config")
		c.rpc.state = c.rpc.response.Descriptor().Fields().ByName("state")
		c.rpc.diagnostics = c.rpc.response.Descriptor().Fields().ByName("diagnostics")
	}
	if read.config == nil || read.state == nil || read.config.Message() != read.state.Message() {
		return rpc{}, rpc{}, errors.New("ReadDataSource's config and state are not both a DynamicValue")
	}
	if read.typeName == nil || read.diagnostics == nil {
		return rpc{}, rpc{}, errors.New("ReadDataSource has no type_name or no diagnostics")
	}
	return validate, read, nil
}
