#!/usr/bin/env bash
# Runs the engine benchmarks (internal/hiera/bench_test.go) on one core and prints a summary
# against the targets: a warm deep-merge lookup under 20 µs/op, parsing at 20 MB/s or more (and,
# for information, the heap a loaded hierarchy keeps per byte of YAML).
# Extra arguments go to go test, e.g.: scripts/bench.sh -benchtime 3s -count 3
# Exits 1 when a target is missed.
set -euo pipefail
cd "$(dirname "$0")/.."

out=$(mktemp)
trap 'rm -f "$out"' EXIT

go test -run '^$' -bench . -benchmem -cpu 1 "$@" ./internal/hiera/ | tee "$out"

echo
echo "Summary (one core):"
awk '
/^Benchmark/ {
	name = $1; sub(/^Benchmark/, "", name); sub(/-[0-9]+$/, "", name)
	ns = mbs = bop = allocs = ratio = ""
	for (i = 3; i < NF; i++) {
		if ($(i+1) == "ns/op") ns = $i
		if ($(i+1) == "MB/s") mbs = $i
		if ($(i+1) == "B/op") bop = $i
		if ($(i+1) == "allocs/op") allocs = $i
		if ($(i+1) == "heap/yaml") ratio = $i
	}
	verdict = ""
	if (name == "ColdLoad") verdict = (mbs + 0 >= 20) ? "ok (target >= 20 MB/s)" : "MISSED (target >= 20 MB/s)"
	if (name ~ /^WarmDeepMerge/) verdict = (ns / 1000 < 20) ? "ok (target < 20 µs)" : "MISSED (target < 20 µs)"
	if (ratio != "") verdict = sprintf("retained heap %.2fx the YAML (peak RSS target < 4x)", ratio)
	if (verdict ~ /MISSED/) missed = 1
	if (!header++) printf "  %-30s %12s %9s %12s %10s  %s\n", "benchmark", "µs/op", "MB/s", "B/op", "allocs/op", "target"
	printf "  %-30s %12.2f %9s %12s %10s  %s\n", name, ns / 1000, (mbs == "" ? "-" : mbs), bop, allocs, verdict
}
END { if (!header) { print "  no benchmark ran"; exit 1 } exit missed }
' "$out"
