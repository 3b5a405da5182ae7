#!/usr/bin/env bash
# The manifest reader (internal/manifest) against puppet parser validate, side by side: every .pp
# file of the manifests/ and types/ directories of each module under MODULES (one module per
# directory, as a modulepath holds them, such as Forge checkouts), read by BenchmarkReadModules N
# times and validated by Puppet once, in one process; prints both and the ratio.
# Usage: bash scripts/bench-manifests.sh MODULES [N]   (needs puppet on PATH; run under the heavy lock)
set -euo pipefail
cd "$(dirname "$0")/.."
modules=$(cd "$1" && pwd)
n=${2:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find -L "$modules"/*/manifests "$modules"/*/types -name '*.pp' 2>/dev/null >"$tmp/files"
files=$(wc -l <"$tmp/files")
bytes=$(xargs -a "$tmp/files" cat | wc -c)
ns=$(HIERAFORM_PUPPET_MODULES="$modules" go test ./internal/manifest -run '^$' -bench BenchmarkReadModules -benchtime "${n}x" |
	awk '/^BenchmarkReadModules/ {print $3}')
start=$(date +%s.%N)
xargs -a "$tmp/files" puppet parser validate >"$tmp/validate.out" 2>&1 || true
end=$(date +%s.%N)
puppet=$(echo "$end - $start" | bc -l)
ours=$(echo "$ns / 1000000000" | bc -l)
printf '%d modules, %d files, %d bytes\n' "$(ls -d "$modules"/*/ | wc -l)" "$files" "$bytes"
printf 'internal/manifest: %.3f s per read (%d reads); puppet parser validate: %.1f s; ratio %.0fx\n' \
	"$ours" "$n" "$puppet" "$(echo "$puppet / $ours" | bc -l)"
