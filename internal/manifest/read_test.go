package manifest

import (
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRead reads the manifests and types of a module: classes and aliases found by name (aliases
// in any case, as Puppet's loaders find them); a broken file is one problem and the rest is read.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	write(t, dir+"/ntp/manifests/init.pp", "class ntp (Array[Ntp::Server] $servers) {}\n")
	write(t, dir+"/ntp/manifests/config/file.pp", "class ntp::config::file { $k = lookup('ntp::file_key') }\n")
	write(t, dir+"/ntp/manifests/broken.pp", "class ntp::broken {\n  $x = 'never closed\n}\n")
	write(t, dir+"/ntp/manifests/README.md", "class not::puppet {}\n")
	write(t, dir+"/ntp/types/server.pp", "type Ntp::Server = Variant[String, Struct[{host => String}]]\n")

	code := Read(dir+"/ntp/manifests", dir+"/ntp/types", dir+"/ntp/absent")
	if len(code.Files) != 3 {
		t.Errorf("files read: got %d, want 3", len(code.Files))
	}
	if len(code.Problems) != 1 || code.Problems[0].Error() != dir+"/ntp/manifests/broken.pp:2: a string is never closed (its ' is never matched)" {
		t.Errorf("problems: got %v", code.Problems)
	}
	if c := code.Class("NTP"); c == nil || len(c.Params) != 1 || c.Params[0].Type != "Array[Ntp::Server]" {
		t.Errorf("class ntp: got %+v", c)
	}
	if c := code.Class("ntp::config::file"); c == nil || c.File != dir+"/ntp/manifests/config/file.pp" {
		t.Errorf("class ntp::config::file: got %+v", c)
	}
	if code.Class("not::puppet") != nil || code.Class("ntp::broken") != nil {
		t.Error("a class of a file that is not read was found")
	}
	if a := code.Alias("ntp::server"); a == nil || a.Name != "Ntp::Server" || a.Line != 1 {
		t.Errorf("alias: got %+v", a)
	}
}
