#!/usr/bin/env bash
# A fleet from PuppetDB against the same fleet from a facts directory, in one terraform plan each,
# side by side: N nodes (benchgen's fleet hierarchy, one data file per node), 4 keys each, read by
# one hiera_nodes data source. Each plan's wall time, the provider's CPU, and the read split into
# the fetch (the facts directory read, or PuppetDB queried and its answer decoded) and the lookups,
# as the provider logs them (TF_LOG_PROVIDER=DEBUG, "hiera nodes": fetch_ms, answer_ms). Both plans
# must give the same answers (a digest of every node's json).
#
# Needs a running PuppetDB (scripts/puppetdb.sh up); the fleet is stored in it once with
# replace_facts (scripts/puppetdb.sh load) and found there again on later runs.
#
# Usage: scripts/bench-puppetdb.sh [-n NODES] [-r REPS] [-dir DIR]   (default 1000 nodes, 3 plans each)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
nodes=1000
reps=3
work=""
while (($#)); do
	case "$1" in
	-n) nodes=$2; shift 2 ;;
	-r) reps=$2; shift 2 ;;
	-dir) work=$2; shift 2 ;;
	*) echo "usage: scripts/bench-puppetdb.sh [-n NODES] [-r REPS] [-dir DIR]" >&2; exit 2 ;;
	esac
done
bash "$root/scripts/puppetdb.sh" status >/dev/null 2>&1 || { echo "PuppetDB is not running: scripts/puppetdb.sh up (as root) first" >&2; exit 1; }
eval "$(bash "$root/scripts/puppetdb.sh" env)"
if [[ -z "$work" ]]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
tf=$(usable_terraform)
tag=bench-$nodes # the fleet's nodes in PuppetDB carry it: hieraform_bench = tag

echo "== building the provider and benchgen in $work"
(cd "$root" && go build -o "$work/bin/terraform-provider-hiera" . && go build -o "$work/benchgen" ./internal/benchgen/cmd/benchgen)
cat >"$work/cli.tfrc" <<EOF
provider_installation {
  dev_overrides { "hieraform/hiera" = "$work/bin" }
  direct {}
}
EOF
export TF_CLI_CONFIG_FILE=$work/cli.tfrc CHECKPOINT_DISABLE=1

[[ -e "$work/hier/manifest.json" ]] || "$work/benchgen" -out "$work/hier" -nodes "$nodes" -keys 100 >/dev/null
mkdir -p "$work/facts"
# each node's facts, its certname as clientcert, and the tag
jq -c --arg tag "$tag" '.nodes[] | [.scope.trusted.certname, (.facts + {clientcert: .scope.trusted.certname, hieraform_bench: $tag})]' \
	"$work/hier/manifest.json" | while IFS= read -r line; do
	name=$(jq -r '.[0]' <<<"$line")
	jq '.[1]' <<<"$line" >"$work/facts/$name.json"
done
mapfile -t keys < <(jq -r '.lookups.first[0:4][]' "$work/hier/manifest.json")
query="inventory[certname, facts] { facts.hieraform_bench = \\\"$tag\\\" }"
held=$(curl -fsS -G "$HIERAFORM_PUPPETDB_URL/pdb/query/v4" --data-urlencode "query=inventory[count()] { facts.hieraform_bench = \"$tag\" }" | jq '.[0].count')
if [[ "$held" != "$nodes" ]]; then
	echo "== storing the $nodes nodes in PuppetDB (replace_facts; once)"
	bash "$root/scripts/puppetdb.sh" load "$work/facts"
else
	echo "== PuppetDB holds the $nodes nodes already"
fi

keylist=$(printf '"%s", ' "${keys[@]}")
for source in dir puppetdb; do
	mkdir -p "$work/tf/$source"
	if [[ $source == dir ]]; then nodes_arg="facts_dir = \"$work/facts\""; else nodes_arg="puppetdb { query = \"$query\" }"; fi
	cat >"$work/tf/$source/main.tf" <<EOF
terraform {
  required_providers {
    hiera = { source = "hieraform/hiera" }
  }
}
provider "hiera" {
  config = "$work/hier/hiera.yaml"
  puppetdb { url = "$HIERAFORM_PUPPETDB_URL" }
}
data "hiera_nodes" "fleet" {
  $nodes_arg
  keys = [${keylist%, }]
  with_json = true
}
output "nodes" { value = length(data.hiera_nodes.fleet.node_names) }
output "digest" { value = sha256(jsonencode(data.hiera_nodes.fleet.json)) }
EOF
done

# plan SOURCE: one plan; prints "wall cpu fetch_ms answer_ms nodes digest".
plan() {
	local dir=$work/tf/$1 log=$work/tf/$1/provider.log
	rm -f "$log"
	local out
	out=$(cd "$dir" && TF_LOG_PROVIDER=DEBUG TF_LOG_PATH=$log /usr/bin/time -f '%e %U %S' "$tf" plan -no-color -input=false 2>"$dir/time" >"$dir/plan.txt"; tail -n 1 "$dir/time")
	local wall user sys
	read -r wall user sys <<<"$out"
	local line
	line=$(grep -m 1 '"hiera nodes"\|hiera nodes' "$log" | tail -n 1)
	local fetch answer
	fetch=$(sed -n 's/.*fetch_ms=\([0-9]*\).*/\1/p' <<<"$line")
	answer=$(sed -n 's/.*answer_ms=\([0-9]*\).*/\1/p' <<<"$line")
	local n digest
	n=$(sed -n 's/^ *+ nodes *= *\([0-9]*\).*/\1/p' "$dir/plan.txt")
	digest=$(sed -n 's/^ *+ digest *= *"\(.*\)".*/\1/p' "$dir/plan.txt")
	echo "$wall $(echo "$user + $sys" | bc) ${fetch:-?} ${answer:-?} ${n:-?} ${digest:0:12}"
}

echo "== $reps plans each, alternating: $nodes nodes x 4 keys in one hiera_nodes (wall s, CPU s of terraform and the provider, fetch ms, lookups ms)"
declare -A best digests
for ((r = 1; r <= reps; r++)); do
	for source in dir puppetdb; do
		result=$(plan "$source")
		printf '  %-9s %s\n' "$source" "$result"
		read -r wall _ fetch answer n digest <<<"$result"
		[[ $n == "$nodes" ]] || { echo "the $source plan read $n nodes, not $nodes (see $work/tf/$source/plan.txt)" >&2; exit 1; }
		digests[$source]=$digest
		if [[ -z "${best[$source]:-}" ]] || (($(echo "$wall < ${best[$source]%% *}" | bc))); then
			best[$source]="$wall $fetch $answer"
		fi
	done
	[[ "${digests[dir]}" == "${digests[puppetdb]}" ]] || { echo "the answers differ: dir ${digests[dir]}, puppetdb ${digests[puppetdb]}" >&2; exit 1; }
done
read -r dwall dfetch danswer <<<"${best[dir]}"
read -r pwall pfetch panswer <<<"${best[puppetdb]}"
echo "== fastest plans: facts directory ${dwall} s (fetch ${dfetch} ms, lookups ${danswer} ms); PuppetDB ${pwall} s (fetch ${pfetch} ms, lookups ${panswer} ms)"
echo "   PuppetDB / directory: plan $(echo "scale=2; $pwall / $dwall" | bc)x, fetch $(echo "scale=2; $pfetch / ($dfetch + 0.5)" | bc)x, lookups $(echo "scale=2; $panswer / ($danswer + 0.5)" | bc)x; the same answers (digest ${digests[dir]})"
