// Command terraform-provider-hiera serves the hiera Terraform provider.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/hieraform/terraform-provider-hiera/internal/gcheadroom"
	"github.com/hieraform/terraform-provider-hiera/internal/provider"
)

// Format the examples and regenerate docs/ (tfplugindocs is pinned here, not in go.mod).
//go:generate terraform fmt -recursive ./examples/
//go:generate go run github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs@v0.25.0 generate --provider-name hiera

// version is set by goreleaser at release time.
var version = "dev"

// The garbage collector may let the heap grow by gcHeadroom bytes past what is live (parsed Hiera
// data, mostly), or by gcFloorPercent percent when that is more: see internal/gcheadroom.
const (
	gcHeadroom     = 32 << 20
	gcFloorPercent = 20
)

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	gcheadroom.Start(gcHeadroom, gcFloorPercent)

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         "registry.terraform.io/hieraform/hiera",
		Debug:           debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
