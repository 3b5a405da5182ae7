#!/usr/bin/env bash
# CPU time per operation of the engine's warm benchmarks, for a shared or loaded machine where the
# wall time go test reports mostly measures waiting for a core. Each benchmark runs once with 1
# iteration and once with N; (CPU(N) - CPU(1)) / (N - 1) is its CPU per operation, setup excluded.
# With -base REV the same is measured for a build of that git revision, alternating, so that both
# see the same load.
#
# Usage: scripts/bench-cpu.sh [-base REV] [-n N] [-r REPS] [-bench "WarmFirstFound ..."]
#   -n      iterations of the long run (default 50000)
#   -r      repetitions; the lowest CPU per operation counts and the range is shown (default 3)
#   -bench  benchmarks (default: WarmFirstFound WarmDeepMerge/merge=deep Interpolation)
set -euo pipefail

base=""
n=50000
reps=3
benches="WarmFirstFound WarmDeepMerge/merge=deep Interpolation"
while (($#)); do
	case "$1" in
	-base) base="$2"; shift ;;
	-n) n="$2"; shift ;;
	-r) reps="$2"; shift ;;
	-bench) benches="$2"; shift ;;
	*) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
	shift
done
[[ -x /usr/bin/time ]] || { echo "bench-cpu.sh needs GNU time (/usr/bin/time, Debian package time)" >&2; exit 1; }
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$work/base-src" 2>/dev/null || true; rm -rf "$work"' EXIT

builds="new"
(cd "$root" && go test -c -o "$work/new.test" ./internal/hiera)
if [[ -n "$base" ]]; then
	git -C "$root" worktree add --detach -f "$work/base-src" "$base" >/dev/null 2>&1
	(cd "$work/base-src" && go test -c -o "$work/base.test" ./internal/hiera)
	builds="base new"
fi

# cpu BUILD BENCH ITERATIONS prints the user + system seconds of one run.
cpu() {
	(cd "$root/internal/hiera" && /usr/bin/time -f "%U %S" -o "$work/time" "$work/$1.test" -test.run '^$' \
		-test.bench "^Benchmark$2\$" -test.cpu 1 -test.benchtime "$3x" >/dev/null)
	awk '{ print $1 + $2 }' "$work/time"
}

printf "%-28s %5s %22s\n" benchmark build "CPU µs/op (low-high)"
for bench in $benches; do
	declare -A low=() high=()
	for ((r = 0; r < reps; r++)); do
		for b in $builds; do
			us=$(echo "($(cpu "$b" "$bench" "$n") - $(cpu "$b" "$bench" 1)) * 1000000 / ($n - 1)" | bc -l)
			if [[ -z "${low[$b]:-}" ]] || (($(echo "$us < ${low[$b]}" | bc))); then low[$b]=$us; fi
			if [[ -z "${high[$b]:-}" ]] || (($(echo "$us > ${high[$b]}" | bc))); then high[$b]=$us; fi
		done
	done
	for b in $builds; do
		printf "%-28s %5s %22s\n" "$bench" "$b" "$(printf "%.1f-%.1f" "${low[$b]}" "${high[$b]}")"
	done
	unset low high
done
