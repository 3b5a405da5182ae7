package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

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
	calls := nullCalls(validate, read.configAsState)
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

// A read recorded from the real provider is replayed as the very response message (state and
// diagnostics byte for byte) without the provider; a read without a recording is an error when
// replaying and goes to the provider when recording; a recording that is not a response is an
// error diagnostic, never a panic.
func TestReplay(t *testing.T) {
	validate, read, err := findRPCs()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	recs := recordings{dir: dir, read: read}
	configA := []byte{0x81, 0xa3, 'k', 'e', 'y', 0xa1, 'a'} // {"key": "a"}
	configB := []byte{0x81, 0xa3, 'k', 'e', 'y', 0xa1, 'b'} // {"key": "b"}
	stateA := []byte{0x81, 0xa5, 'v', 'a', 'l', 'u', 'e', 0xa1, '1'}
	live := response(t, read, stateA, "a warning the real read gave")
	calls := 0
	provider := func(answer proto.Message) grpc.UnaryHandler {
		return func(context.Context, any) (any, error) { calls++; return answer, nil }
	}
	noProvider := func(context.Context, any) (any, error) {
		t.Error("a replayed call reached the provider")
		return nil, nil
	}
	callWith := func(calls grpc.UnaryServerInterceptor, handler grpc.UnaryHandler, method string, config []byte) protoreflect.Message {
		t.Helper()
		out, err := calls(context.Background(), request(t, method, config),
			&grpc.UnaryServerInfo{FullMethod: "/tfplugin6.Provider/" + method}, handler)
		msg, ok := out.(proto.Message)
		if err != nil || !ok {
			t.Fatalf("%s answered %v, %v", method, out, err)
		}
		return msg.ProtoReflect()
	}
	readWith := func(calls grpc.UnaryServerInterceptor, handler grpc.UnaryHandler, config []byte) protoreflect.Message {
		t.Helper()
		return callWith(calls, handler, "ReadDataSource", config)
	}
	replay, record := nullCalls(validate, recs.replay), recordCalls(recs)

	// Replaying before anything is recorded: an error, never the provider.
	out := readWith(replay, noProvider, configA)
	if got := diagnostics(out); len(got) != 1 || !strings.Contains(got[0], "ERROR: nullprovider: recorded read: no recording of this hiera_lookup read in "+dir) {
		t.Errorf("replay without a recording: diagnostics %q", got)
	}
	if out.Has(read.state) {
		t.Error("replay without a recording has a state")
	}

	// Recording: the provider answers, and its answer is what Terraform gets.
	out = readWith(record, provider(live), configA)
	if calls != 1 || !proto.Equal(out.Interface(), live) {
		t.Fatalf("recording read: %d provider calls, answer %v, want %v", calls, out, live)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.pb"))
	if len(files) != 1 {
		t.Fatalf("recordings after one read: %q", files)
	}

	// Replayed: the same bytes, the provider not called.
	out = readWith(replay, noProvider, configA)
	if got, want := marshal(t, out.Interface()), marshal(t, live); !bytes.Equal(got, want) {
		t.Errorf("replayed response %x, want the recorded %x", got, want)
	}
	if got := stateBytes(read, out); !bytes.Equal(got, stateA) {
		t.Errorf("replayed state %x, want %x", got, stateA)
	}
	if got := diagnostics(callWith(replay, noProvider, "ValidateDataResourceConfig", configA)); len(got) != 0 {
		t.Errorf("replayed validation: diagnostics %q", got)
	}

	// Another configuration is another recording: replaying it fails, recording it reads.
	if got := diagnostics(readWith(replay, noProvider, configB)); len(got) != 1 || !strings.Contains(got[0], "no recording") {
		t.Errorf("replay of another configuration: diagnostics %q", got)
	}
	liveB := response(t, read, []byte{0xc0}, "")
	if out := readWith(record, provider(liveB), configB); calls != 2 || !proto.Equal(out.Interface(), liveB) {
		t.Errorf("recording another configuration: %d provider calls, answer %v", calls, out)
	}
	if files, _ = filepath.Glob(filepath.Join(dir, "*.pb")); len(files) != 2 {
		t.Errorf("recordings after two configurations: %q", files)
	}

	// Recording again replaces the recording.
	changed := response(t, read, []byte{0x81, 0xa5, 'v', 'a', 'l', 'u', 'e', 0xa1, '2'}, "")
	if got := diagnostics(readWith(record, provider(changed), configA)); len(got) != 0 {
		t.Errorf("recording again: diagnostics %q", got)
	}
	if got := stateBytes(read, readWith(replay, noProvider, configA)); !bytes.Equal(got, stateBytes(read, changed.ProtoReflect())) {
		t.Errorf("after recording again, replayed state %x, want the new recording's", got)
	}

	// -state writes a recording's state as Terraform receives it.
	path := recs.path(request(t, "ReadDataSource", configA).ProtoReflect())
	var written bytes.Buffer
	if err := recs.writeState(&written, path); err != nil || !bytes.Equal(written.Bytes(), stateBytes(read, changed.ProtoReflect())) {
		t.Errorf("-state wrote %x (%v), want the recorded state", written.Bytes(), err)
	}

	// A recording that cannot be stored: an error diagnostic on the live answer.
	unwritable := recordCalls(recordings{dir: filepath.Join(dir, "missing"), read: read})
	if got := diagnostics(readWith(unwritable, provider(response(t, read, stateA, "")), configA)); len(got) != 1 ||
		!strings.Contains(got[0], "ERROR: nullprovider: recorded read: cannot record this hiera_lookup read: ") {
		t.Errorf("recording into a missing directory: diagnostics %q", got)
	}

	// A corrupt recording: an error naming it, when replayed and for -state.
	for _, corrupt := range [][]byte{{0xff, 0xff, 0xff}, marshal(t, live)[:5], {}} {
		if err := os.WriteFile(path, corrupt, 0o600); err != nil {
			t.Fatal(err)
		}
		out := readWith(replay, noProvider, configA)
		got := diagnostics(out)
		if len(corrupt) == 0 { // an empty message is a valid response: no state, no diagnostics
			if len(got) != 0 || out.Has(read.state) {
				t.Errorf("empty recording: %v", out)
			}
			if err := recs.writeState(io.Discard, path); err == nil || !strings.Contains(err.Error(), "has no state") {
				t.Errorf("-state of an empty recording: %v", err)
			}
			continue
		}
		want := "the recording " + path + " is not a ReadDataSource response"
		if len(got) != 1 || !strings.Contains(got[0], want) {
			t.Errorf("corrupt recording %x: diagnostics %q", corrupt, got)
		}
		if err := recs.writeState(io.Discard, path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("-state of corrupt recording %x: %v", corrupt, err)
		}
	}
}

// Recording serves the real provider (Terraform configures it); replaying and doing nothing serve
// one that configures nothing; recording needs the directory.
func TestMode(t *testing.T) {
	validate, read, err := findRPCs()
	if err != nil {
		t.Fatal(err)
	}
	var live tfprotov6.ProviderServer = realServer{}
	for _, c := range []struct {
		env      map[string]string
		recorded bool
		err      string
	}{
		{env: map[string]string{}},
		{env: map[string]string{"HIERAFORM_NULL_REPLAY": "/rec"}},
		{env: map[string]string{"HIERAFORM_NULL_REPLAY": "/rec", "HIERAFORM_NULL_RECORD": "1"}, recorded: true},
		{env: map[string]string{"HIERAFORM_NULL_RECORD": "1"}, err: "HIERAFORM_NULL_RECORD needs HIERAFORM_NULL_REPLAY"},
	} {
		served, calls, err := mode(func(k string) string { return c.env[k] }, live, validate, read)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: error %v, want %q", c.env, err, c.err)
			}
		case err != nil || calls == nil:
			t.Errorf("%v: %v", c.env, err)
		case c.recorded != (served == live):
			t.Errorf("%v: served %T %v, want the real server: %v", c.env, served, served, c.recorded)
		}
	}
}

// realServer stands for the provider's server.
type realServer struct{ tfprotov6.ProviderServer }

// response is a ReadDataSource response with state msgpack and, unless empty, a warning.
func response(t *testing.T, read rpc, msgpack []byte, warning string) proto.Message {
	t.Helper()
	out := read.response.New()
	state := out.NewField(read.state).Message()
	state.Set(state.Descriptor().Fields().ByName("msgpack"), protoreflect.ValueOfBytes(msgpack))
	out.Set(read.state, protoreflect.ValueOfMessage(state))
	if warning != "" {
		list := out.Mutable(read.diagnostics).List()
		d := list.NewElement().Message()
		f := d.Descriptor().Fields()
		d.Set(f.ByName("severity"), protoreflect.ValueOfEnum(f.ByName("severity").Enum().Values().ByName("WARNING").Number()))
		d.Set(f.ByName("summary"), protoreflect.ValueOfString(warning))
		list.Append(protoreflect.ValueOfMessage(d))
	}
	return out.Interface()
}

// diagnostics are a response's diagnostics as "SEVERITY: summary: detail".
func diagnostics(out protoreflect.Message) []string {
	field := out.Descriptor().Fields().ByName("diagnostics")
	var diags []string
	for i, list := 0, out.Get(field).List(); i < list.Len(); i++ {
		d := list.Get(i).Message()
		f := d.Descriptor().Fields()
		severity := f.ByName("severity").Enum().Values().ByNumber(d.Get(f.ByName("severity")).Enum()).Name()
		diags = append(diags, fmt.Sprintf("%s: %s: %s", severity, d.Get(f.ByName("summary")).String(), d.Get(f.ByName("detail")).String()))
	}
	return diags
}

func stateBytes(read rpc, out protoreflect.Message) []byte {
	state := out.Get(read.state).Message()
	return state.Get(state.Descriptor().Fields().ByName("msgpack")).Bytes()
}

func marshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
