// Command nullprovider is a do-nothing hiera provider, for scripts/bench-e2e.sh only: the floor
// any provider can reach for the same data sources. It serves the provider's own schema (from the
// provider's GetProviderSchema, so the two cannot drift) the way the provider is served
// (provider.ServeWith: the same go-plugin handshake, AutoMTLS and gRPC options), but configures
// nothing, answers every data source's validation with no diagnostics and its read with its
// configuration as the state (the computed attributes null), without decoding either. What a plan
// with it costs beyond Terraform's built-in data sources is Terraform's and the plugin protocol's,
// not the provider's work.
package main

import (
	"context"
	"errors"
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

	srv, err := provider.NewServer("dev")()
	if err != nil {
		log.Fatal(err)
	}
	validate, read, err := findRPCs()
	if err != nil {
		log.Fatal(err)
	}
	provider.ServeWith("registry.terraform.io/hieraform/hiera", nullServer{srv}, nullCalls(validate, read))
}

// nullCalls is a gRPC interceptor answering every data source's validation and read at once.
func nullCalls(validate, read rpc) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		switch info.FullMethod {
		case "/tfplugin6.Provider/ValidateDataResourceConfig":
			return validate.response.New().Interface(), nil
		case "/tfplugin6.Provider/ReadDataSource":
			if in, ok := req.(proto.Message); ok {
				out := read.response.New()
				out.Set(read.state, in.ProtoReflect().Get(read.config))
				return out.Interface(), nil
			}
		}
		return handler(ctx, req)
	}
}

// nullServer is the provider's server (for its schema and metadata), configured with nothing.
type nullServer struct{ tfprotov6.ProviderServer }

func (nullServer) ConfigureProvider(context.Context, *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return &tfprotov6.ConfigureProviderResponse{}, nil
}

// rpc holds the protocol's messages of one call, which are internal to terraform-plugin-go.
type rpc struct {
	response      protoreflect.MessageType
	config, state protoreflect.FieldDescriptor // of the request, of the response
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
		c.rpc.config = req.Descriptor().Fields().ByName("config")
		c.rpc.state = c.rpc.response.Descriptor().Fields().ByName("state")
	}
	if read.config == nil || read.state == nil || read.config.Message() != read.state.Message() {
		return rpc{}, rpc{}, errors.New("ReadDataSource's config and state are not both a DynamicValue")
	}
	return validate, read, nil
}
