#!/usr/bin/env bash
# hieraform lookup against puppet lookup: one key (ntp::servers) of examples/control-repository, the
# same flags, N runs each side by side, wall and CPU time from GNU time; prints the ratio.
# Usage: bash scripts/bench-cli.sh [N]   (needs puppet on PATH; run under the heavy lock)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/hieraform" ./cmd/hieraform
repo=examples/control-repository
printf '{"role": "web", "os": {"family": "Debian"}}\n' >"$tmp/facts.json"
common=(--facts "$tmp/facts.json" --node web01.example.com --environmentpath "$repo/environments" --environment production --render-as json ntp::servers)
ours=("$tmp/hieraform" lookup "${common[@]}")
theirs=(puppet lookup --hiera_config /dev/null/none.yaml "${common[@]}")
"${ours[@]}" >"$tmp/ours.out"
"${theirs[@]}" >"$tmp/theirs.out" 2>"$tmp/theirs.err" || true
if ! cmp -s "$tmp/ours.out" "$tmp/theirs.out"; then
	echo "outputs differ:"; diff "$tmp/ours.out" "$tmp/theirs.out" || true; cat "$tmp/theirs.err"
fi
total() { # total wall seconds of N runs of the command
	local start end
	start=$(date +%s.%N)
	for _ in $(seq "$n"); do "$@" >/dev/null 2>&1 || true; done
	end=$(date +%s.%N)
	echo "$end - $start" | bc -l
}
t_ours=$(total "${ours[@]}")
t_theirs=$(total "${theirs[@]}")
/usr/bin/time -o "$tmp/t1" -f "hieraform lookup: %e s wall, %U s user, %S s sys, %M KB max RSS" "${ours[@]}" >/dev/null
/usr/bin/time -o "$tmp/t2" -f "puppet lookup:    %e s wall, %U s user, %S s sys, %M KB max RSS" "${theirs[@]}" >/dev/null 2>&1 || true
cat "$tmp/t1" "$tmp/t2"
printf 'hieraform lookup: %.4f s per run; puppet lookup: %.3f s per run (%d runs each); ratio %.0fx\n' \
	"$(echo "$t_ours / $n" | bc -l)" "$(echo "$t_theirs / $n" | bc -l)" "$n" "$(echo "$t_theirs / $t_ours" | bc -l)"
