//go:build unix

package provider

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/hieraform/terraform-provider-hiera/internal/facts"
)

// A facts_file that cannot be read as a file: a prompt error on facts_file naming it, never a hang
// (a named pipe blocks a plain read forever, /dev/zero never ends) nor a read of 16 MB and more.
func TestFactsFile_unreadable(t *testing.T) {
	dir := factsSite(t)
	at := func(name string) string { return filepath.Join(dir, "facts", name) }
	if err := syscall.Mkfifo(at("pipe.json"), 0o644); err != nil {
		t.Skipf("cannot make a named pipe: %v", err)
	}
	for link, target := range map[string]string{"zero.json": "/dev/zero", "loop.json": at("loop.json")} {
		if err := os.Symlink(target, at(link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(at("huge.json"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(at("huge.json"), facts.MaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	var steps []resource.TestStep
	for name, want := range map[string]string{
		"pipe.json": `pipe.json is a named pipe, not a regular file`,
		"zero.json": `zero.json is a device, not a regular file`,
		"loop.json": `loop.json: too many levels of symbolic links`,
		"huge.json": `huge.json is 16777217 bytes, more than the limit of 16777216`,
	} {
		steps = append(steps, resource.TestStep{
			Config: `provider "hiera" { config = "` + dir + `/hiera.yaml" }
data "hiera_lookup" "x" {
  key        = "who"
  facts_file = "` + at(name) + `"
}
`,
			ExpectError: errorRE(`Invalid Facts File.*facts_file = .*facts file ` + at(name) + `.*` + want),
		})
	}
	unitTest(t, steps...)
}
