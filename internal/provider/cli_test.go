package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// The CLI versions that give each feature the tests exercise. OpenTofu's version numbers are its
// own: it has provider functions from 1.7 and ephemeral resources from 1.11.
var (
	functionsCLI = needsCLI{"provider functions", version.Must(version.NewVersion("1.8.0")), version.Must(version.NewVersion("1.7.0"))}
	ephemeralCLI = needsCLI{"ephemeral resources", version.Must(version.NewVersion("1.10.0")), version.Must(version.NewVersion("1.11.0"))}
	anyCLI       = needsCLI{"protocol 6 data sources", version.Must(version.NewVersion("1.0.0")), version.Must(version.NewVersion("1.6.0"))}
	// Tests that make unknown values with the built-in terraform_data resource (Terraform 1.4).
	terraformDataCLI = needsCLI{"the terraform_data resource", version.Must(version.NewVersion("1.4.0")), version.Must(version.NewVersion("1.6.0"))}
	// Tests with a postcondition on a data source (custom conditions: Terraform 1.2).
	postconditionCLI = needsCLI{"a data source's postcondition", version.Must(version.NewVersion("1.2.0")), version.Must(version.NewVersion("1.6.0"))}
	// Tests of the sensitive marks in the state (terraform show -json lists the schema's sensitive
	// attributes from 1.4.6 on).
	sensitiveStateCLI = needsCLI{"sensitive attributes in the state's JSON", version.Must(version.NewVersion("1.4.6")), version.Must(version.NewVersion("1.6.0"))}
	// Tests of a bare null literal as a provider function argument: OpenTofu declares no provider
	// function parameter as taking a value of dynamic type, so for a bare null (whose type is
	// dynamic) it makes the result unknown without calling the provider (the Installing guide
	// says so). A typed null, such as tomap(null), reaches the provider under both.
	bareNullCLI = needsCLI{"a bare null provider function argument", functionsCLI.terraform, nil}
)

// noSkipEnv, when set, turns a skip for want of a newer CLI into a failure: scripts/test.sh sets it
// for the newest CLI, under which every test must run.
const noSkipEnv = "HIERAFORM_TEST_NO_SKIP"

// needsCLI skips a test on a CLI older than its feature needs, with a message naming the feature,
// the version it needs and the CLI in use. A nil version: no version of that CLI has the feature.
type needsCLI struct {
	feature         string
	terraform, tofu *version.Version
}

var _ tfversion.TerraformVersionCheck = needsCLI{}

func (n needsCLI) CheckTerraformVersion(_ context.Context, req tfversion.CheckTerraformVersionRequest, resp *tfversion.CheckTerraformVersionResponse) {
	name, least := "Terraform", n.terraform
	if onOpenTofu() {
		name, least = "OpenTofu", n.tofu
	}
	var msg string
	switch {
	case least == nil:
		msg = fmt.Sprintf("%s: %s does not pass it to the provider; this run uses %s %s", n.feature, name, name, req.TerraformVersion)
	case !req.TerraformVersion.Core().GreaterThanOrEqual(least):
		msg = fmt.Sprintf("%s: needs %s %s or later; this run uses %s %s", n.feature, name, least, name, req.TerraformVersion)
	default:
		return
	}
	if os.Getenv(noSkipEnv) != "" {
		resp.Error = fmt.Errorf("%s (%s is set: this CLI must run every test)", msg, noSkipEnv)
		return
	}
	resp.Skip = msg
}

// onOpenTofu tells whether the tests drive OpenTofu: plugin-testing runs whatever binary
// TF_ACC_TERRAFORM_PATH names, and OpenTofu's is called tofu.
func onOpenTofu() bool {
	return strings.HasPrefix(filepath.Base(os.Getenv("TF_ACC_TERRAFORM_PATH")), "tofu")
}
