package main

// Recorded reads: the answers of a real read given back as Terraform received them.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// recordings is a directory of ReadDataSource responses, one file per request (its type name and
// configuration), each the response message as the provider sent it: replayed, Terraform receives
// the very bytes of the real read's state and diagnostics.
type recordings struct {
	dir  string
	read rpc
}

// recordCalls hands every call to the real provider and stores each read's response as its
// recording (replacing the one there was).
func recordCalls(recs recordings) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		out, err := handler(ctx, req)
		in, isReq := req.(proto.Message)
		resp, isResp := out.(proto.Message)
		if err != nil || info.FullMethod != "/tfplugin6.Provider/ReadDataSource" || !isReq || !isResp {
			return out, err
		}
		if err := recs.record(in.ProtoReflect(), resp); err != nil {
			recs.addError(resp.ProtoReflect(), fmt.Errorf("cannot record this %s read: %w", in.ProtoReflect().Get(recs.read.typeName).String(), err))
		}
		return resp, nil
	}
}

// path is the file of a read request's recording: named by a hash of its type name and config.
func (r recordings) path(in protoreflect.Message) string {
	h := sha256.New()
	h.Write([]byte(in.Get(r.read.typeName).String()))
	h.Write([]byte{0})
	config, _ := proto.MarshalOptions{Deterministic: true}.Marshal(in.Get(r.read.config).Message().Interface()) // cannot fail: a decoded message
	h.Write(config)
	return filepath.Join(r.dir, hex.EncodeToString(h.Sum(nil))+".pb")
}

// replay is a read's recorded response, or one with an error diagnostic saying why there is none
// (a plan never falls back to other answers).
func (r recordings) replay(in protoreflect.Message) proto.Message {
	path := r.path(in)
	out, err := r.load(path)
	if errors.Is(err, fs.ErrNotExist) {
		err = fmt.Errorf("no recording of this %s read in %s (%s): record one with HIERAFORM_NULL_RECORD=1",
			in.Get(r.read.typeName).String(), r.dir, filepath.Base(path))
	}
	if err != nil {
		out = r.read.response.New()
		r.addError(out, err)
	}
	return out.Interface()
}

// load reads a recording.
func (r recordings) load(path string) (protoreflect.Message, error) {
	recorded, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := r.read.response.New()
	if err := proto.Unmarshal(recorded, out.Interface()); err != nil {
		return nil, fmt.Errorf("the recording %s is not a ReadDataSource response (%v): record it again", path, err)
	}
	return out, nil
}

// record stores a read's response as its recording: written whole, then renamed, so that a
// recording is never half a response.
func (r recordings) record(in protoreflect.Message, resp proto.Message) error {
	recording, err := proto.MarshalOptions{Deterministic: true}.Marshal(resp)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(r.dir, ".recording-*")
	if err != nil {
		return err
	}
	_, err = f.Write(recording)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), r.path(in))
	}
	if err != nil {
		_ = os.Remove(f.Name())
	}
	return err
}

// writeState writes the state of the recording at path, its msgpack as Terraform received it (for
// bench-e2e.sh to compare with a live read's, which terraform-plugin-go writes to a file when
// TF_LOG_SDK_PROTO_DATA_DIR is set).
func (r recordings) writeState(w io.Writer, path string) error {
	out, err := r.load(path)
	if err != nil {
		return err
	}
	if !out.Has(r.read.state) {
		return fmt.Errorf("the recording %s has no state", path)
	}
	state := out.Get(r.read.state).Message()
	_, err = w.Write(state.Get(state.Descriptor().Fields().ByName("msgpack")).Bytes())
	return err
}

// addError appends an error diagnostic to a ReadDataSource response.
func (r recordings) addError(out protoreflect.Message, err error) {
	diags := out.Mutable(r.read.diagnostics).List()
	d := diags.NewElement().Message()
	f := d.Descriptor().Fields()
	severity := f.ByName("severity")
	d.Set(severity, protoreflect.ValueOfEnum(severity.Enum().Values().ByName("ERROR").Number()))
	d.Set(f.ByName("summary"), protoreflect.ValueOfString("nullprovider: recorded read"))
	d.Set(f.ByName("detail"), protoreflect.ValueOfString(err.Error()))
	diags.Append(protoreflect.ValueOfMessage(d))
}
