//go:build unix

package puppetdb

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A CA, certificate or key path naming a device, a named pipe or a file past the bound is refused
// before it is read, as every file the provider is pointed at: a pipe hung New, /dev/zero ran it
// out of memory.
func TestNewRefusesUnboundedPEMFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pipe := filepath.Join(dir, "ca.pem")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "bundle.pem")
	if err := os.WriteFile(big, make([]byte, maxPEMFileSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"named pipe", Config{URL: "https://puppetdb", CACert: pipe}, "cacert " + pipe + " is a named pipe, not a regular file"},
		{"device", Config{URL: "https://puppetdb", Cert: "/dev/null", KeyPEM: "x"}, "cert /dev/null is a device, not a regular file"},
		{"past the bound", Config{URL: "https://puppetdb", Key: big, CertPEM: "x"}, "key " + big + " is 4194305 bytes, more than the limit of 4194304"},
	} {
		done := make(chan error, 1)
		go func() { _, err := New(tc.cfg); done <- err }()
		select {
		case err := <-done:
			if want := "PuppetDB https://puppetdb: " + tc.want; err == nil || err.Error() != want {
				t.Errorf("%s: %v\nwant %s", tc.name, err, want)
			}
		case <-time.After(2 * time.Minute): // a guard against the hang, far above a busy machine
			t.Fatalf("%s: New did not return: a hang", tc.name)
		}
	}
}
