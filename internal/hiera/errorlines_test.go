package hiera_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hieraform/terraform-provider-hiera/internal/hiera"
)

// KeyLine digs a dotted key through hash keys and array indexes, and says whether the file holds
// the whole key (a merge's files each hold part of a hash).
func TestKeyLine(t *testing.T) {
	file := filepath.Join(t.TempDir(), "common.yaml")
	if err := os.WriteFile(file, []byte("ntp::servers:\n  - a.example.com\n  - b.example.com\nntp::config:\n  minpoll: 6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hocon := filepath.Join(t.TempDir(), "common.conf")
	if err := os.WriteFile(hocon, []byte("a { b = 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file, key string
		line      int
		whole     bool
	}{
		{file, "ntp::servers", 1, true},
		{file, "ntp::servers.0", 2, true},
		{file, "ntp::servers.1", 3, true},
		{file, "ntp::servers.2", 1, false}, // no third server: the array's line
		{file, "ntp::config.minpoll", 5, true},
		{file, "ntp::config.maxpoll", 4, false},
		{file, "ntp::config.minpoll.x", 5, false},
		{file, "missing", 0, false},
		{file, "a..b", 0, false},
		{hocon, "a.b", 0, false},
	} {
		if line, whole := hiera.KeyLine(tc.file, tc.key); line != tc.line || whole != tc.whole {
			t.Errorf("KeyLine(%s, %q) = %d, %v; want %d, %v", filepath.Base(tc.file), tc.key, line, whole, tc.line, tc.whole)
		}
	}
}
