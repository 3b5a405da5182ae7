#!/usr/bin/env bash
# Formats the examples and regenerates docs/ with tfplugindocs (its version in tools/versions.env),
# from the module cache first, so a warm machine needs no network. `make generate` runs it.
# Usage: scripts/generate.sh [DIR]   (DIR: a copy of the repository; default the repository itself)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
dir=${1:-$root}

tf=$(usable_terraform)
docs=$(go_tool tfplugindocs github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs "$TFPLUGINDOCS")
cd "$dir"
"$tf" fmt -recursive ./examples/
# tfplugindocs runs the terraform it finds on PATH (to read the provider's schema).
PATH="$(dirname "$tf"):$PATH" "$docs" generate --provider-name hiera
