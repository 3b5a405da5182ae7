#!/usr/bin/env bash
# hieraform diff and unused over a fleet, against what a script does without them: one
# `hieraform node` process per node and side. The fleet is bench-e2e.sh's (benchgen -nodes 500
# -keys 100: a six-level hierarchy, one data file per node, ~520 files); the second checkout is a
# copy with a role's deep-merged subkey, a common key that other keys interpolate, a node's value
# and an OS family's unique-merged array edited. Each measurement runs -r times, alternating; the
# fastest counts. Wall and CPU (user+sys, children included) from GNU time. Prints the ratios
# (targets: diff <= 0.05, unused <= 0.1) and checks that the diff finds as many changed nodes as
# the per-node outputs differ in.
# Usage: bash scripts/bench-fleet.sh [-r REPS] [-nodes N]   (run under the heavy lock)
set -euo pipefail
reps=2
nodes=500
while (($#)); do
	case "$1" in
	-r) reps="$2"; shift ;;
	-nodes) nodes="$2"; shift ;;
	*) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
	shift
done
[[ -x /usr/bin/time ]] || { echo "bench-fleet.sh needs GNU time (/usr/bin/time, Debian package time)" >&2; exit 1; }
command -v jq >/dev/null || { echo "bench-fleet.sh needs jq" >&2; exit 1; }
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/hieraform" ./cmd/hieraform
go build -o "$tmp/benchgen" ./internal/benchgen/cmd/benchgen
"$tmp/benchgen" -out "$tmp/a" -nodes "$nodes" -keys 100
mkdir "$tmp/facts"
jq -c '.nodes[] | {certname, facts: (.facts + {clientcert: .certname})}' "$tmp/a/manifest.json" |
	while IFS= read -r node; do jq '.facts' <<<"$node" >"$tmp/facts/$(jq -r '.certname' <<<"$node").json"; done
cp -r "$tmp/a" "$tmp/b"
sed -i '0,/max_conn: .*/s//max_conn: edited-in-b/' "$tmp/b/data/roles/web.yaml"
sed -i 's/^bench::base::domain: .*/bench::base::domain: example.org/' "$tmp/b/data/common.yaml"
sed -i '0,/^\(bench::first::k0000\): .*/s//\1: edited-in-b/' "$tmp/b/data/nodes/node007.example.com.yaml"
sed -i '/^bench::unique::k0001:/{n;s/- .*/- edited-in-b/}' "$tmp/b/data/os/Suse.yaml"
diff -rq "$tmp/a/data" "$tmp/b/data" | sed 's/^/   edited: /' || true

# per_node SIDE...: one hieraform node process per node and side, as a script would run them.
per_node() {
	for side in "$@"; do
		mkdir -p "$tmp/out/$side"
		for f in "$tmp"/facts/*.json; do
			"$tmp/hieraform" node --config "$tmp/$side/hiera.yaml" --facts "$f" --render-as json >"$tmp/out/$side/${f##*/}"
		done
	done
}
export -f per_node
export tmp

# measure NAME CMD...: runs CMD under GNU time, appending "wall cpu" to $tmp/NAME.
measure() {
	local name=$1; shift
	/usr/bin/time -o "$tmp/t" -f "%e %U %S" "$@" >/dev/null 2>"$tmp/err" || [[ $? == 1 ]] || { cat "$tmp/err" >&2; exit 1; }
	tail -1 "$tmp/t" | awk '{printf "%.3f %.3f\n", $1, $2 + $3}' >>"$tmp/$name" # after "Command exited with non-zero status 1"
}
best() { sort -n "$tmp/$1" | head -1; }

for _ in $(seq "$reps"); do
	measure diff "$tmp/hieraform" diff --config "$tmp/a/hiera.yaml" --config "$tmp/b/hiera.yaml" --facts "$tmp/facts" --render-as json
	measure unused "$tmp/hieraform" unused --config "$tmp/a/hiera.yaml" --facts "$tmp/facts" --render-as json
	measure nodes bash -c 'per_node a b'
done

changed=$("$tmp/hieraform" diff --config "$tmp/a/hiera.yaml" --config "$tmp/b/hiera.yaml" --facts "$tmp/facts" --render-as json | jq -r '.summary' || true)
differ=0
for f in "$tmp"/out/a/*.json; do cmp -s "$f" "$tmp/out/b/${f##*/}" || differ=$((differ + 1)); done
echo "diff: $changed; per-node outputs differ for $differ nodes"
read -r dw dc <<<"$(best diff)"
read -r uw uc <<<"$(best unused)"
read -r nw nc <<<"$(best nodes)"
printf '%-44s %8s %8s\n' "" "wall s" "CPU s"
printf '%-44s %8.2f %8.2f\n' "hieraform diff --facts DIR ($nodes nodes)" "$dw" "$dc" "hieraform unused --facts DIR" "$uw" "$uc" \
	"$((2 * nodes)) hieraform node processes" "$nw" "$nc"
printf 'diff / per-node processes:   wall %.3f, CPU %.3f (target <= 0.05)\n' "$(echo "$dw / $nw" | bc -l)" "$(echo "$dc / $nc" | bc -l)"
printf 'unused / per-node processes: wall %.3f, CPU %.3f (target <= 0.1)\n' "$(echo "$uw / $nw" | bc -l)" "$(echo "$uc / $nc" | bc -l)"
[[ "$changed" == "$differ of $nodes nodes change"* ]] || { echo "the diff's count of changed nodes is not the per-node outputs'" >&2; exit 1; }
