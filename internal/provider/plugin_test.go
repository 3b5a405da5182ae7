package provider

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// protocolRequest builds the gRPC request message of rpc for a data source configuration.
func protocolRequest(t *testing.T, rpc, typeName string, msgpack []byte) proto.Message {
	t.Helper()
	mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName("tfplugin6." + rpc + ".Request"))
	if err != nil {
		t.Fatal(err)
	}
	m := mt.New()
	fields := m.Descriptor().Fields()
	m.Set(fields.ByName("type_name"), protoreflect.ValueOfString(typeName))
	cf := fields.ByName("config")
	dv := m.NewField(cf).Message()
	dv.Set(dv.Descriptor().Fields().ByName("msgpack"), protoreflect.ValueOfBytes(msgpack))
	m.Set(cf, protoreflect.ValueOfMessage(dv))
	return m.Interface()
}

// callGRPC calls rpc on a tf6server gRPC server, whose interface type is internal to
// terraform-plugin-go.
func callGRPC(t *testing.T, srv any, rpc string, req any) any {
	t.Helper()
	out := reflect.ValueOf(srv).MethodByName(rpc).Call([]reflect.Value{reflect.ValueOf(context.Background()), reflect.ValueOf(req)})
	if err, _ := out[1].Interface().(error); err != nil {
		t.Fatalf("%s: %v", rpc, err)
	}
	return out[0].Interface()
}

// The hot calls, answered ahead of tf6server, get tf6server's answers: the same messages for every
// configuration of the comparison with the framework. Reads and validations without diagnostics
// are answered without tf6server, validations with diagnostics by it.
func TestHotCalls_sameAnswersAsPluginGo(t *testing.T) {
	t.Setenv("TF_LOG_SDK", "off") // tf6server logs every call at TRACE otherwise
	ctx := context.Background()
	direct, _, providerType := configuredPair(t)
	configure(t, direct, providerType, map[string]tftypes.Value{"config": str6(filepath.Join("testdata", "site", "hiera.yaml"))})
	slow := tf6server.New("registry.terraform.io/hieraform/hiera", direct)
	severities := map[string]bool{} // of the reads' diagnostics
	for typeName, ds := range direct.dataSources {
		for name, attrs := range configsFor(typeName, ds.typ) {
			cfg := encodeConfig(t, ds.typ, attrs)
			for _, rpc := range []string{"ValidateDataResourceConfig", "ReadDataSource"} {
				t.Run(typeName+"/"+name+"/"+rpc, func(t *testing.T) {
					req := protocolRequest(t, rpc, typeName, cfg.MsgPack)
					handedOn := false
					handler := func(_ context.Context, req any) (any, error) {
						handedOn = true
						return callGRPC(t, slow, rpc, req), nil
					}
					got, err := direct.hotCalls(ctx, req, &grpc.UnaryServerInfo{FullMethod: "/tfplugin6.Provider/" + rpc}, handler)
					if err != nil {
						t.Fatal(err)
					}
					want := callGRPC(t, slow, rpc, req)
					if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
						t.Errorf("answers differ (-tf6server +hotCalls):\n%s", diff)
					}
					wm, _ := want.(proto.Message)
					w := wm.ProtoReflect()
					hasDiagnostics := w.Get(w.Descriptor().Fields().ByName("diagnostics")).List().Len() > 0
					if wantHandedOn := hasDiagnostics && rpc == "ValidateDataResourceConfig"; handedOn != wantHandedOn {
						t.Errorf("handed on to tf6server: %v, want %v", handedOn, wantHandedOn)
					}
					diagsField := w.Descriptor().Fields().ByName("diagnostics")
					severity := diagsField.Message().Fields().ByName("severity")
					for i, diags := 0, w.Get(diagsField).List(); i < diags.Len(); i++ {
						name := severity.Enum().Values().ByNumber(diags.Get(i).Message().Get(severity).Enum()).Name()
						severities[rpc+" "+string(name)] = true
					}
				})
			}
		}
	}
	for _, want := range []string{"ReadDataSource ERROR", "ReadDataSource WARNING"} {
		if !severities[want] {
			t.Errorf("no configuration gave a diagnostic %s", want)
		}
	}
	// Other calls and other types go to tf6server.
	for _, c := range []struct{ method, typeName string }{
		{"/tfplugin6.Provider/ReadDataSource", "hiera_nothing"},
		{"/tfplugin6.Provider/ReadResource", "hiera_lookup"},
	} {
		handedOn := false
		_, _ = direct.hotCalls(ctx, protocolRequest(t, "ReadDataSource", c.typeName, []byte{0x80}), &grpc.UnaryServerInfo{FullMethod: c.method},
			func(context.Context, any) (any, error) { handedOn = true; return nil, nil })
		if !handedOn {
			t.Errorf("%s of %s was not handed on", c.method, c.typeName)
		}
	}
}

// With the provider's arguments unknown, a read is deferred when Terraform allows it (tf6server
// answers) and an error otherwise (hotCalls answers): the same messages either way.
func TestHotCalls_deferral(t *testing.T) {
	t.Setenv("TF_LOG_SDK", "off")
	ctx := context.Background()
	direct, _, providerType := configuredPair(t)
	configure(t, direct, providerType, map[string]tftypes.Value{"config": str6(filepath.Join("testdata", "site", "hiera.yaml")),
		"facts": tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue)})
	slow := tf6server.New("registry.terraform.io/hieraform/hiera", direct)
	cfg := encodeConfig(t, direct.dataSources["hiera_lookup"].typ, map[string]tftypes.Value{"key": str6("string")})
	for _, c := range []struct {
		name                   string
		capabilities, deferral bool
	}{{"no capabilities", false, false}, {"deferral not allowed", true, false}, {"deferral allowed", true, true}} {
		t.Run(c.name, func(t *testing.T) {
			req := protocolRequest(t, "ReadDataSource", "hiera_lookup", cfg.MsgPack)
			if c.capabilities {
				m := req.ProtoReflect()
				cf := m.Descriptor().Fields().ByName("client_capabilities")
				caps := m.NewField(cf).Message()
				caps.Set(caps.Descriptor().Fields().ByName("deferral_allowed"), protoreflect.ValueOfBool(c.deferral))
				m.Set(cf, protoreflect.ValueOfMessage(caps))
			}
			handler := func(_ context.Context, req any) (any, error) { return callGRPC(t, slow, "ReadDataSource", req), nil }
			got, err := direct.hotCalls(ctx, req, &grpc.UnaryServerInfo{FullMethod: "/tfplugin6.Provider/ReadDataSource"}, handler)
			if err != nil {
				t.Fatal(err)
			}
			want := callGRPC(t, slow, "ReadDataSource", req)
			if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
				t.Errorf("answers differ (-tf6server +hotCalls):\n%s", diff)
			}
			wm, _ := want.(proto.Message)
			deferred := wm.ProtoReflect().Has(wm.ProtoReflect().Descriptor().Fields().ByName("deferred"))
			if deferred != c.deferral {
				t.Errorf("deferred: %v, want %v", deferred, c.deferral)
			}
		})
	}
}

// Messages reach Terraform as valid UTF-8, each invalid byte replaced as tf6server does.
func TestValidUTF8(t *testing.T) {
	for in, want := range map[string]string{"plain": "plain", "a\xffb": "a\uFFFDb", "\xff\xfe": "\uFFFD\uFFFD", "é\xc3": "é\uFFFD"} {
		if got := validUTF8(in); got != want {
			t.Errorf("validUTF8(%q) = %q, want %q", in, got, want)
		}
	}
}
