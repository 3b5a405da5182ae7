// Command terraform-provider-hiera serves the hiera Terraform provider.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/hieraform/terraform-provider-hiera/internal/gcheadroom"
	"github.com/hieraform/terraform-provider-hiera/internal/provider"
)

// Format the examples and regenerate docs/ (tfplugindocs is pinned in tools/versions.env).
//go:generate bash scripts/generate.sh

// version is set at build time, by goreleaser for a release: -ldflags "-X main.version=1.2.3".
// The provider reports it to Terraform and `terraform-provider-hiera -version` prints it.
var version = "dev"

// The garbage collector may let the heap grow by gcHeadroom bytes past what is live (parsed Hiera
// data, mostly), or by gcFloorPercent percent when that is more: see internal/gcheadroom.
const (
	gcHeadroom     = 32 << 20
	gcFloorPercent = 20
)

func main() {
	var debug, printVersion bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.BoolVar(&printVersion, "version", false, "print the provider's version and exit")
	flag.Parse()
	if printVersion {
		fmt.Println("terraform-provider-hiera", version)
		return
	}
	gcheadroom.Start(gcHeadroom, gcFloorPercent)
	oneCore(os.Getenv)

	const address = "registry.terraform.io/hieraform/hiera"
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	} else if quietUnlessLogged(os.Getenv, os.Setenv) && os.Getenv("TF_LOG_SDK_PROTO_DATA_DIR") == "" {
		// Nothing to log: the data sources' hot calls can skip the SDK's logging set-up.
		if err := provider.Serve(address, version); err != nil {
			log.Fatal(err.Error())
		}
		return
	}
	newServer := provider.NewServer(version)
	// Built once here so that a mistake in it stops the provider with a message, not a panic.
	if _, err := newServer(); err != nil {
		log.Fatal(err.Error())
	}
	err := tf6server.Serve(address, func() tfprotov6.ProviderServer {
		s, _ := newServer()
		return s
	}, opts...)
	if err != nil {
		log.Fatal(err.Error())
	}
}

// quietUnlessLogged turns the SDK's and the provider's logs off when Terraform discards them: it
// shows provider logs only with TF_LOG or TF_LOG_PROVIDER set, but without a level the SDK logs at
// TRACE, writing every line as JSON to stderr for Terraform to parse and throw away. That was a
// third of the provider's CPU. A level the user gives the SDK or the provider still wins. It
// reports whether the logs are off, as Terraform shows none.
func quietUnlessLogged(getenv func(string) string, setenv func(string, string) error) bool {
	if getenv("TF_LOG") != "" || getenv("TF_LOG_PROVIDER") != "" {
		return false
	}
	for _, name := range []string{"TF_LOG_SDK", "TF_LOG_PROVIDER_HIERA"} {
		if getenv(name) == "" {
			_ = setenv(name, "off") // cannot fail for these names
		}
	}
	return true
}

// oneCore runs the provider's Go code on one core unless GOMAXPROCS is set (the user's choice
// wins). Terraform's calls are small and mostly arrive one at a time; with a second core idle, the
// Go scheduler woke it for nearly every goroutine a call hands work to (gRPC's reader, the call,
// its writer) only to find nothing to run: a third of the provider's CPU in a plan of trivial data
// sources, and a plan over many or large data files went no faster with it.
func oneCore(getenv func(string) string) {
	if getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}
