// Package boundedfile reads the files the provider is pointed at (hiera.yaml, data files, eyaml
// keys) without trusting them: only regular files, never more than a limit. A named pipe would
// block the read forever and a device such as /dev/zero never ends.
package boundedfile

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Read returns the content of the regular file at path, refusing anything else (directories,
// named pipes, devices, sockets) and files larger than limit bytes.
func Read(path string, limit int64) ([]byte, error) { return ReadInto(path, limit, nil) }

// ReadInto is Read into scratch's space when it has room for the file, so that a caller reading
// many files can reuse one buffer.
func ReadInto(path string, limit int64, scratch []byte) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := regular(path, fi); err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s is %d bytes, more than the limit of %d", path, fi.Size(), limit)
	}
	// openFlags opens without blocking, in case a named pipe took the file's place since Stat.
	f, err := os.OpenFile(path, openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read-only: nothing to lose on close
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := regular(path, fi); err != nil {
		return nil, err
	}
	// Sized from the file, as os.ReadFile does (doubling a buffer takes twice the memory); the
	// MinRead spare bytes let ReadFrom see the end, and one byte over the limit tells a file that grew.
	size := min(fi.Size(), limit)
	if int64(cap(scratch)) < size+bytes.MinRead {
		scratch = make([]byte, 0, size+bytes.MinRead)
	}
	buf := bytes.NewBuffer(scratch[:0])
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > limit {
		return nil, fmt.Errorf("%s is larger than the limit of %d bytes", path, limit)
	}
	return buf.Bytes(), nil
}

func regular(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	kind := "not a regular file"
	switch t := fi.Mode().Type(); {
	case fi.IsDir():
		kind = "a directory"
	case t&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case t&fs.ModeDevice != 0:
		kind = "a device"
	case t&fs.ModeSocket != 0:
		kind = "a socket"
	}
	return fmt.Errorf("%s is %s, not a regular file", path, kind)
}
