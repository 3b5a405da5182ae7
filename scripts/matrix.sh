#!/usr/bin/env bash
# The version matrix: the provider tests (internal/provider) again under the oldest Terraform the
# docs promise (data sources), under the first Terraform with provider functions, and under
# OpenTofu; scripts/test.sh runs it after running them under the newest Terraform, where nothing
# may skip. Here a test that needs a newer CLI skips and says so. Each Terraform is built from its
# Go source once per machine into the tool cache (scripts/lib.sh), with progress: a few minutes each
# on two cores with cold Go caches, nothing when built before.
# OpenTofu runs only when it is at hand: TOFU=/path/to/tofu, or tofu OPENTOFU on PATH or already
# built; TOFU=1 builds it first. Its cold build (about 10 minutes more on two quiet cores, and
# many more modules to download) would take a fresh machine's test command too close to CI's 90
# minutes, so the test command does not build it. A failing entry does not stop the others; the
# exit status says whether all passed.
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
# OpenTofu: TOFU=1 builds it, TOFU=PATH names one; else it runs when at hand.
notofu="== provider tests, OpenTofu $OPENTOFU: skipped, not built (TOFU=1 bash scripts/matrix.sh builds it once per machine)"
case ${TOFU:-} in
1) entry "OpenTofu $OPENTOFU" find_tofu ;;
"") if cached_tofu >/dev/null; then entry "OpenTofu $OPENTOFU" cached_tofu; else echo "$notofu"; fi ;;
*) entry "OpenTofu at $TOFU" echo "$TOFU" ;;
esac

if [ ${#failed[@]} -gt 0 ]; then
	printf 'FAILED: %s\n' "${failed[@]}"
	exit 1
fi
