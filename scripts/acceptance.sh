#!/usr/bin/env bash
# The provider tests (internal/provider) against one terraform or tofu binary, as the version
# matrix of scripts/test.sh and CI runs them: no race detector (the full run has it), and a summary
# naming the CLI and why any test skipped. Usage: scripts/acceptance.sh PATH_TO_TERRAFORM_OR_TOFU [go test flags]
# (e.g. -run 'TestFactsFile' to run some tests only).
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$root" || exit 1

cli=$1
shift
log=$(mktemp)
cfg=$(mktemp)
trap 'rm -f "$log" "$cfg"' EXIT
# plugin-testing runs this binary, never downloads one, and reads an empty CLI config of ours.
export TF_ACC_TERRAFORM_PATH=$cli TF_CLI_CONFIG_FILE=$cfg
echo "provider tests on $(cli_label "$cli") ($cli)"
# OpenTofu resolves an unqualified provider (hiera, echo) under its own registry's host: the
# in-process providers must be attached there.
case $(basename "$cli") in tofu*) export TF_ACC_PROVIDER_HOST=registry.opentofu.org ;; esac

heartbeat "provider tests on $(cli_label "$cli")" go test -p 2 -count=1 -timeout 30m -v "$@" ./internal/provider/ >"$log"
rc=$?
if [ $rc -ne 0 ]; then # the failures, without the lines of tests that passed or the provider's JSON logs
	grep -Ev '^=== (RUN|PAUSE|CONT|NAME)|^\s*--- PASS|^\{"@' "$log"
fi
echo "$(grep -cE '^\s*--- PASS' "$log") passed, $(grep -cE '^\s*--- SKIP' "$log") skipped, $(grep -cE '^\s*--- FAIL' "$log") failed"
# why tests skipped: each skip's message ("FEATURE: needs CLI VERSION or later; this run uses ..."), counted
grep -E '^\s+[a-z_]+_test\.go:[0-9]+: .*; this run uses ' "$log" |
	sed -E 's/^\s+[a-z_]+_test\.go:[0-9]+: /skipped: /' | sort | uniq -c
exit $rc
