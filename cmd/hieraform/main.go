// Command hieraform answers Hiera lookups from a shell with the engine of the hiera Terraform
// provider: lookup (as puppet lookup), node, diff and check, for CI and debugging without Puppet.
package main

import (
	"os"

	"github.com/hieraform/terraform-provider-hiera/internal/cli"
)

// version is set at build time, by goreleaser for a release: -ldflags "-X main.version=1.2.3".
var version = "dev"

func main() {
	os.Exit(cli.Run(os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Version: version,
		Terminal: cli.IsTerminal(os.Stdout), ErrTerminal: cli.IsTerminal(os.Stderr), Getenv: os.Getenv}))
}
