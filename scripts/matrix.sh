#!/usr/bin/env bash
# The version matrix: the provider tests (internal/provider) again under the oldest Terraform the
# docs promise (data sources), under the first Terraform with provider functions, and under
# OpenTofu; scripts/test.sh has already run them under the newest Terraform, where nothing skips.
# Each CLI is built from its Go source into .tfbin once (tools/versions.env: 5-15 minutes each on
# two cores when the Go build cache is cold, a link when it is warm); tests that need a newer CLI
# skip and say so. A failing entry does not stop the others; the exit status says whether all passed.
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
entry "Terraform $TERRAFORM_OLDEST" terraform_at "$TERRAFORM_OLDEST"
entry "Terraform $TERRAFORM_FUNCTIONS" terraform_at "$TERRAFORM_FUNCTIONS"
entry "OpenTofu $OPENTOFU" find_tofu

if [ ${#failed[@]} -gt 0 ]; then
	printf 'FAILED: %s\n' "${failed[@]}"
	exit 1
fi
