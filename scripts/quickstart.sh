#!/usr/bin/env bash
# Builds the provider and applies examples/quickstart with it through a dev_overrides CLI config:
# no registry, no network, no terraform init. Under OpenTofu: TOFU=/path/to/tofu, or TOFU=1 for
# the OpenTofu of tools/versions.env (built once per machine).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$root"

case ${TOFU:-} in
"") cli=$(usable_terraform) ;;
1) cli=$(find_tofu) ;;
*) cli=$TOFU ;;
esac
echo "applying examples/quickstart with $(cli_label "$cli") ($cli)"
mkdir -p "$root/bin"
# -trimpath, as scripts/install.sh builds: the build cache keys packages by it, so that `make install`
# after the quickstart reuses what this compiled.
go build -trimpath -o "$root/bin/terraform-provider-hiera" .
# The same file serves both CLIs: each looks the provider up under its own registry's address.
cat >"$root/bin/dev.tfrc" <<RC
provider_installation {
  dev_overrides {
    "registry.terraform.io/hieraform/hiera" = "$root/bin"
    "registry.opentofu.org/hieraform/hiera" = "$root/bin"
  }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE=$root/bin/dev.tfrc
cd examples/quickstart
"$cli" apply -auto-approve -input=false
