#!/usr/bin/env bash
# Builds the provider and applies examples/quickstart with it through a dev_overrides CLI config:
# no registry, no network, no terraform init.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$root"

tf=$(find_terraform)
mkdir -p "$root/bin"
go build -o "$root/bin/terraform-provider-hiera" .
cat >"$root/bin/dev.tfrc" <<RC
provider_installation {
  dev_overrides {
    "registry.terraform.io/hieraform/hiera" = "$root/bin"
  }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE=$root/bin/dev.tfrc
cd examples/quickstart
"$tf" apply -auto-approve -input=false
