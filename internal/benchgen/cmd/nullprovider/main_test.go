package main

import (
	"bytes"
	"context"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// A read answers with the configuration as the state, a validation with nothing; other calls go
// on to the server. (scripts/bench-e2e.sh checks that a plan with it reads every data source.)
func TestNullCalls(t *testing.T) {
	validate, read, err := findRPCs()
	if err != nil {
		t.Fatal(err)
	}
	calls := nullCalls(validate, read)
	config := []byte{0x81, 0xa3, 'k', 'e', 'y', 0xa1, 'a'} // {"key": "a"} in msgpack
	handedOn := func(context.Context, any) (any, error) { return "handed on", nil }
	call := func(method string, req any) any {
		t.Helper()
		out, err := calls(context.Background(), req, &grpc.UnaryServerInfo{FullMethod: "/tfplugin6.Provider/" + method}, handedOn)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	answer := func(method string) protoreflect.Message {
		t.Helper()
		out, ok := call(method, request(t, method, config)).(proto.Message)
		if !ok {
			t.Fatalf("%s answered %v", method, out)
		}
		return out.ProtoReflect()
	}

	out := answer("ReadDataSource")
	state := out.Get(read.state).Message()
	if got := state.Get(state.Descriptor().Fields().ByName("msgpack")).Bytes(); !bytes.Equal(got, config) {
		t.Errorf("read state = %x, want the configuration %x", got, config)
	}
	if diags := out.Get(out.Descriptor().Fields().ByName("diagnostics")).List(); diags.Len() != 0 {
		t.Errorf("read has %d diagnostics", diags.Len())
	}
	out = answer("ValidateDataResourceConfig")
	if out.Descriptor().FullName() != "tfplugin6.ValidateDataResourceConfig.Response" || out.Get(out.Descriptor().Fields().ByName("diagnostics")).List().Len() != 0 {
		t.Errorf("validation answered %v", out)
	}
	if got := call("GetProviderSchema", nil); got != "handed on" {
		t.Errorf("GetProviderSchema answered %v, want it handed on", got)
	}
}

// request is the protocol's request of rpc for a data source configuration.
func request(t *testing.T, rpc string, msgpack []byte) proto.Message {
	t.Helper()
	mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName("tfplugin6." + rpc + ".Request"))
	if err != nil {
		t.Fatal(err)
	}
	m := mt.New()
	f := m.Descriptor().Fields()
	m.Set(f.ByName("type_name"), protoreflect.ValueOfString("hiera_lookup"))
	dv := m.NewField(f.ByName("config")).Message()
	dv.Set(dv.Descriptor().Fields().ByName("msgpack"), protoreflect.ValueOfBytes(msgpack))
	m.Set(f.ByName("config"), protoreflect.ValueOfMessage(dv))
	return m.Interface()
}
