//go:build unix

package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// Files that are not regular files, or far too large, where hiera.yaml expects a data file or an
// eyaml key: a named pipe would block the read forever (Puppet hangs), /dev/zero never ends, a
// huge key would exhaust memory. Each is a prompt error naming the file.
func TestBadInput_nonRegularFiles(t *testing.T) {
	t.Parallel()
	fifo := func(t *testing.T, p string) {
		t.Helper()
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("cannot make a named pipe: %v", err)
		}
	}
	symlink := func(t *testing.T, target, p string) {
		t.Helper()
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	sparse := func(t *testing.T, p string, size int64) {
		t.Helper()
		if err := os.Truncate(p, size); err != nil {
			t.Fatal(err)
		}
	}
	private := func(dir string) string { return filepath.Join(dir, "keys/private_key.pkcs7.pem") }
	public := func(dir string) string { return filepath.Join(dir, "keys/public_key.pkcs7.pem") }
	tests := map[string]struct {
		edit func(t *testing.T, dir string)
		key  string
		want string
	}{
		"data file is a named pipe": {edit: func(t *testing.T, dir string) { fifo(t, filepath.Join(dir, "data/common.yaml")) },
			key: "greeting", want: `common.yaml is a named pipe, not a regular file.*hierarchy level "Common"`},
		"data file is /dev/zero": {edit: func(t *testing.T, dir string) { symlink(t, "/dev/zero", filepath.Join(dir, "data/common.yaml")) },
			key: "greeting", want: `common.yaml is a device, not a regular file`},
		"hiera.yaml is a named pipe": {edit: func(t *testing.T, dir string) { fifo(t, filepath.Join(dir, "hiera.yaml")) },
			key: "greeting", want: `hiera.yaml is a named pipe, not a regular file`},
		"private key is a named pipe": {edit: func(t *testing.T, dir string) { fifo(t, private(dir)) },
			key: "db_password", want: `private_key.pkcs7.pem is a named pipe, not a regular file.*hierarchy level "Secrets"`},
		"private key is /dev/zero": {edit: func(t *testing.T, dir string) { symlink(t, "/dev/zero", private(dir)) },
			key: "db_password", want: `private_key.pkcs7.pem is a device, not a regular file`},
		"private key is /dev/urandom": {edit: func(t *testing.T, dir string) { symlink(t, "/dev/urandom", private(dir)) },
			key: "db_password", want: `private_key.pkcs7.pem is a device, not a regular file`},
		"private key of 2 GiB": {edit: func(t *testing.T, dir string) { sparse(t, private(dir), 2<<30) },
			key: "db_password", want: `private_key.pkcs7.pem is 2147483648 bytes, more than the limit of 1048576`},
		"public key is a named pipe": {edit: func(t *testing.T, dir string) { fifo(t, public(dir)) },
			key: "db_password", want: `public_key.pkcs7.pem is a named pipe, not a regular file`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := eyamlFixture(t)
			tc.edit(t, dir)
			unitTest(t, resource.TestStep{
				Config:      fmt.Sprintf("data \"hiera_secret\" \"test\" {\n  key    = %q\n  config = %q\n}\n", tc.key, filepath.Join(dir, "hiera.yaml")),
				ExpectError: errorRE(tc.want),
			})
		})
	}
}
