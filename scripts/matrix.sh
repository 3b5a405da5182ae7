#!/usr/bin/env bash
# The version matrix: the provider tests (internal/provider) again under the newest Terraform of the
# minor version before the newest, under the terraform on PATH when it is none of the pinned ones,
# under the first Terraform with provider functions, under the oldest the docs promise (data
# sources), and under OpenTofu; scripts/test.sh runs it after running them under the newest
# Terraform, where nothing may skip. Here a test that needs a newer CLI skips and says so. Each CLI
# is built from its Go source once per machine into the tool cache (scripts/lib.sh), with progress:
# a few minutes each on two cores with cold Go caches (OpenTofu about 10), nothing when built
# before. TOFU=/path/to/tofu tests that binary instead of the pinned OpenTofu; TOFU=off leaves
# OpenTofu out. A failing entry does not stop the others; the exit status says whether all passed.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$root" || exit 1

failed=()
entry() { # entry LABEL COMMAND...: gets a CLI with COMMAND, then runs the provider tests on it
	local cli
	echo "== provider tests, $1"
	if ! cli=$("${@:2}"); then
		echo "$1 could not be built"
		failed+=("$1")
		return
	fi
	bash scripts/acceptance.sh "$cli" || failed+=("$1")
}
entry "Terraform $TERRAFORM_PREVIOUS" terraform_at "$TERRAFORM_PREVIOUS"
if tf=$(path_terraform); then entry "Terraform $(cli_version "$tf") (on PATH)" echo "$tf"; fi
entry "Terraform $TERRAFORM_FUNCTIONS" terraform_at "$TERRAFORM_FUNCTIONS"
entry "Terraform $TERRAFORM_OLDEST" terraform_at "$TERRAFORM_OLDEST"
case ${TOFU:-} in
off) echo "== provider tests, OpenTofu: left out (TOFU=off)" ;;
"" | 1) entry "OpenTofu $OPENTOFU" find_tofu ;;
*) entry "OpenTofu at $TOFU" echo "$TOFU" ;;
esac

if [ ${#failed[@]} -gt 0 ]; then
	printf 'FAILED: %s\n' "${failed[@]}"
	exit 1
fi
