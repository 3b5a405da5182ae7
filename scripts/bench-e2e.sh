#!/usr/bin/env bash
# End-to-end benchmarks: `terraform plan` over many data sources, timed against floors.
#
# Builds the provider (and, with -base, a baseline build of another git revision, measured side by
# side in the same run), installs it through a dev_overrides CLI config (terraform init is never
# run, nothing is downloaded) and times `terraform plan`. terraform and each provider process it
# starts run under GNU time, which records their CPU time (terraform's includes its children's)
# and the provider's peak RSS; each plan's CPU is shown split into Terraform's own (terraform's
# total minus the provider's) and the provider's, and a ratio of two plans' CPU into those two
# shares. The builtin and fleet sections also plan the trivial data sources with the do-nothing
# provider (internal/benchgen/cmd/nullprovider: the provider's schema, served the same way, every
# read answered with its configuration at once): the floor of any provider, what Terraform and
# the plugin protocol cost. Sections (-only picks some):
#
#   floor    N hiera_lookup data sources (a third deep merges) over the bench hierarchy (six levels,
#            ~500 keys per file) against the same over a one-file trivial hierarchy (the floor).
#   builtin  2,000 trivial hiera_lookup data sources against 2,000 of Terraform's built-in
#            terraform_remote_state data sources (backend "local", a small state file, no plugin):
#            plan time ratio (target <= 1.5) and provider CPU per data source (target <= 0.5 ms);
#            and the do-nothing provider's plan of the same.
#   fleet    500 nodes x 4 keys, each data source with its own facts and certname, over a hierarchy
#            with one file per node (~520 files): against the same over the trivial hierarchy
#            (target <= 1.10), and that against the built-in floor (target <= 2); and the
#            do-nothing provider's plan of the trivial one. Then the same fleet as 500 hiera_node
#            data sources, one per node with the 4 keys, against the built-in floor's 2,000 data
#            sources (target <= 0.5; the work tree's build only). Then the fleet in ONE hiera_nodes
#            data source, its facts in a directory (one file per node): the 4 keys of every node
#            against the built-in floor's 2,000 (target <= 0.2), and every key of every node (whole
#            nodes, values only) against the same (target <= 10; the work tree's build only); a
#            sample of the 4-key values (every 20th node) is first checked against one hiera_lookup
#            per node and key. Both hiera_nodes plans are also replayed: each read is recorded once from the work
#            tree's provider (the do-nothing provider serving it, HIERAFORM_NULL_RECORD), its
#            recorded state checked byte for byte against a live read's (the provider writing the
#            state it sends into TF_LOG_SDK_PROTO_DATA_DIR), then planned with the do-nothing
#            provider answering the read with that response (HIERAFORM_NULL_REPLAY), reading
#            nothing: Terraform's own cost of these answers, the floor of any provider giving them,
#            against the same baselines.
#   rss      the provider's peak RSS while it looks values up for every node of the ~50 MB large
#            hierarchy, against the YAML size (target < 4).
#
# Usage: scripts/bench-e2e.sh [-n "100 1000"] [-full] [-r REPS] [-only "floor builtin fleet rss"]
#                             [-base REV] [-rss-n N] [-no-rss] [-dir DIR]
#   -n      counts of data sources in the floor section (default "100 1000")
#   -full   also run N=3000 there
#   -r      plans per measurement, alternating between builds; the fastest counts and the range is
#           shown (default 2)
#   -only   sections to run (default all four)
#   -base   also build this git revision (e.g. main, HEAD~3) and measure it beside the work tree
#   -rss-n  data sources in the peak-RSS run (default 480: 20 per node of the large hierarchy)
#   -no-rss skip the peak-RSS run
#   -dir    work directory to use and keep (default: a temporary one, removed at the end)
set -euo pipefail

counts="100 1000"
reps=2
rss_n=480
sections="floor builtin fleet rss"
base=""
work=""
while (($#)); do
	case "$1" in
	-n) counts="$2"; shift ;;
	-full) counts="$counts 3000" ;;
	-r) reps="$2"; shift ;;
	-only) sections="$2"; shift ;;
	-base) base="$2"; shift ;;
	-rss-n) rss_n="$2"; shift ;;
	-no-rss) sections=${sections/rss/} ;;
	-dir) work="$2"; shift ;;
	*) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
	shift
done
want() { [[ " $sections " == *" $1 "* ]]; }

[[ -x /usr/bin/time ]] || { echo "bench-e2e.sh needs GNU time (/usr/bin/time, Debian package time)" >&2; exit 1; }
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z "$work" ]]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)

export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
unset TF_LOG TF_LOG_PROVIDER

# install NAME SRC [PKG] builds the provider (or the Go package PKG) from the source tree SRC into
# $work/NAME, behind a wrapper that runs it under GNU time (appending "user-seconds
# system-seconds max-RSS-KiB" per process to $HIERA_BENCH_RUSAGE), and writes the CLI config
# $work/NAME.tfrc that installs it.
install() {
	local name=$1 src=$2 pkg=${3:-.} dir="$work/$1"
	mkdir -p "$dir"
	(cd "$src" && go build -o "$dir/provider" "$pkg")
	cat >"$dir/terraform-provider-hiera" <<EOF
#!/bin/sh
exec /usr/bin/time -a -o "\$HIERA_BENCH_RUSAGE" -f "%U %S %M" "$dir/provider" "\$@"
EOF
	chmod +x "$dir/terraform-provider-hiera"
	cat >"$work/$name.tfrc" <<EOF
provider_installation {
  dev_overrides {
    "registry.terraform.io/hieraform/hiera" = "$dir"
  }
  direct {}
}
EOF
}

echo "== building in $work"
builds="new"
install new "$root"
if [[ -n "$base" ]]; then
	rm -rf "$work/base-src"
	git -C "$root" worktree add --detach -f "$work/base-src" "$base" >/dev/null 2>&1
	install base "$work/base-src"
	git -C "$root" worktree remove --force "$work/base-src"
	builds="base new"
	echo "   base = $base ($(git -C "$root" rev-parse --short "$base")), new = the work tree"
fi
if want builtin || want fleet; then
	install null "$root" ./internal/benchgen/cmd/nullprovider
fi
(cd "$root" && go build -o "$work/benchgen" ./internal/benchgen/cmd/benchgen)
gen() { [[ -e "$work/hier/$1/manifest.json" ]] || "$work/benchgen" -out "$work/hier/$1" "${@:2}"; }

# gen_tf DIR HIERARCHY N MODE [NODES] writes DIR/main.tf: N hiera_lookup data sources over
# HIERARCHY (a directory from benchgen). The provider looks up as the first node. MODE:
#   mixed   every third data source a deep merge, the rest first-found lookups
#   spread  mixed, and data source i looks up as node i mod (number of nodes), with its own facts
#   plain   first-found lookups only
#   fleet   first-found lookups, data source i as node i/4 (its own facts) of key i mod 4
#   node    hiera_node data sources, data source i as node i (its own facts) with the fleet's 4 keys
# NODES is a manifest whose nodes to use instead of HIERARCHY's.
gen_tf() {
	local dir=$1 hier=$2 n=$3 mode=$4 nodes=${5:-}
	local manifest="$2/manifest.json"
	local -a first deep facts scope
	mapfile -t first < <(jq -r '.lookups.first[]' "$manifest")
	mapfile -t deep < <(jq -r '.lookups.deep[]' "$manifest")
	# JSON objects are valid HCL object expressions.
	mapfile -t facts < <(jq -c '.nodes[].facts' "${nodes:-$manifest}")
	mapfile -t scope < <(jq -c '.nodes[].scope' "${nodes:-$manifest}")
	mkdir -p "$dir"
	{
		cat <<EOF
terraform {
  required_providers {
    hiera = { source = "hieraform/hiera" }
  }
}

provider "hiera" {
  config = "$hier/hiera.yaml"
  facts  = ${facts[0]}
  scope  = ${scope[0]}
}

EOF
		local i node
		for ((i = 0; i < n; i++)); do
			if [[ $mode == node ]]; then
				node=$((i % ${#facts[@]}))
				echo "data \"hiera_node\" \"d$i\" {"
				echo "  keys  = [\"${first[0]}\", \"${first[1]}\", \"${first[2]}\", \"${first[3]}\"]"
				echo "  facts = ${facts[node]}"
				echo "  scope = ${scope[node]}"
				echo "}"
				continue
			fi
			echo "data \"hiera_lookup\" \"d$i\" {"
			if [[ $mode == fleet ]]; then
				echo "  key = \"${first[i % 4]}\""
			elif [[ $mode == plain ]]; then
				echo "  key = \"${first[i % ${#first[@]}]}\""
			elif ((i % 3 == 2)); then
				echo "  key = \"${deep[i % ${#deep[@]}]}\""
				echo "  merge {"
				echo "    strategy = \"deep\""
				echo "  }"
			else
				echo "  key = \"${first[i % ${#first[@]}]}\""
			fi
			if [[ $mode == spread || $mode == fleet ]]; then
				node=$((i % ${#facts[@]}))
				[[ $mode == fleet ]] && node=$((i / 4 % ${#facts[@]}))
				echo "  facts = ${facts[node]}"
				echo "  scope = ${scope[node]}"
			fi
			echo "}"
		done
	} >"$dir/main.tf"
}

# gen_fleet_dir MANIFEST DIR writes one facts file per node of MANIFEST into DIR, as a facts
# directory holds them: the node's facts, its certname as clientcert and its scope's environment
# as a fact (top-scope %{environment} reads it: hiera_nodes' scope is shared by every node).
gen_fleet_dir() {
	local manifest=$1 dir=$2
	[[ -e "$dir/.done" ]] && return
	mkdir -p "$dir"
	jq -r '.nodes[] | [.certname, (.facts + {clientcert: .certname, environment: .scope.environment} | tojson)] | @tsv' "$manifest" |
		while IFS=$'\t' read -r certname facts; do printf '%s\n' "$facts" >"$dir/$certname.json"; done
	touch "$dir/.done"
}

# gen_nodes_tf DIR HIERARCHY FACTS_DIR [KEYS...] writes DIR/main.tf: one hiera_nodes data source
# over HIERARCHY for every node of FACTS_DIR, with KEYS (none: whole nodes), and an output of how
# many nodes it read.
gen_nodes_tf() {
	local dir=$1 hier=$2 facts=$3 keys=""
	shift 3
	(($#)) && keys="keys = [$(printf '"%s", ' "$@" | sed 's/, $//')]"
	mkdir -p "$dir"
	cat >"$dir/main.tf" <<EOF
terraform {
  required_providers {
    hiera = { source = "hieraform/hiera" }
  }
}

provider "hiera" {
  config = "$hier/hiera.yaml"
}

data "hiera_nodes" "fleet" {
  facts_dir = "$facts"
  $keys
}

output "nodes" {
  value = length(data.hiera_nodes.fleet.node_names)
}
EOF
}

# gen_sample_tf DIR HIERARCHY FACTS_DIR KEYS... writes DIR/main.tf: the fleet's hiera_nodes with
# KEYS, and one hiera_lookup per key of every 20th node (its facts and scope as the fleet section's
# hiera_lookup data sources have them), with an output listing the node and key of each answer
# that differs from the hiera_nodes value (jsonencode of both).
gen_sample_tf() {
	local dir=$1 hier=$2 facts_dir=$3 manifest="$2/manifest.json" i k
	shift 3
	local -a keys=("$@") facts scope certs
	mapfile -t facts < <(jq -c '.nodes[].facts' "$manifest")
	mapfile -t scope < <(jq -c '.nodes[].scope' "$manifest")
	mapfile -t certs < <(jq -r '.nodes[].certname' "$manifest")
	mkdir -p "$dir"
	{
		cat <<EOF
terraform {
  required_providers {
    hiera = { source = "hieraform/hiera" }
  }
}

provider "hiera" {
  config = "$hier/hiera.yaml"
}

data "hiera_nodes" "fleet" {
  facts_dir = "$facts_dir"
  keys      = [$(printf '"%s", ' "${keys[@]}" | sed 's/, $//')]
}

EOF
		for ((i = 0; i < ${#certs[@]}; i += 20)); do
			for k in "${!keys[@]}"; do
				echo "data \"hiera_lookup\" \"n${i}_k$k\" {"
				echo "  key           = \"${keys[k]}\""
				echo "  facts         = ${facts[i]}"
				echo "  scope         = ${scope[i]}"
				echo "  default_value = \"(missing)\""
				echo "}"
			done
		done
		echo 'locals {'
		echo '  lookups = ['
		for ((i = 0; i < ${#certs[@]}; i += 20)); do
			for k in "${!keys[@]}"; do
				echo "    { node = \"${certs[i]}\", key = \"${keys[k]}\", value = data.hiera_lookup.n${i}_k$k.value },"
			done
		done
		echo '  ]'
		echo '}'
		cat <<'EOF'
output "compared" {
  value = length(local.lookups)
}
output "differ" {
  value = [for l in local.lookups : "${l.node} ${l.key}"
    if jsonencode(l.value) != jsonencode(try(data.hiera_nodes.fleet.values[l.node][l.key], "(missing)"))]
}
EOF
	} >"$dir/main.tf"
}

# check_sample DIR applies DIR/main.tf (gen_sample_tf) with the work tree's provider and fails
# unless every hiera_lookup answers as the hiera_nodes value.
check_sample() {
	local dir=$1 differ
	export TF_CLI_CONFIG_FILE="$work/new.tfrc" HIERA_BENCH_RUSAGE=/dev/null
	if ! (cd "$dir" && terraform apply -auto-approve -lock=false -input=false -no-color >apply.log 2>&1); then
		echo "the sample check did not apply in $dir:" >&2
		tail -n 30 "$dir/apply.log" >&2
		exit 1
	fi
	differ=$(cd "$dir" && terraform output -json differ)
	if [[ $differ != "[]" ]]; then
		echo "hiera_nodes answers differ from hiera_lookup's in $dir: $differ" >&2
		exit 1
	fi
	echo "   a sample of the 4-key hiera_nodes values: each equal to one hiera_lookup of its node and key ($(cd "$dir" && terraform output -raw compared) compared)"
}

# gen_builtin DIR N writes DIR/main.tf: N terraform_remote_state data sources reading a small local
# state file, Terraform's own floor for a data source.
gen_builtin() {
	local dir=$1 n=$2 i
	mkdir -p "$dir"
	cat >"$dir/small.tfstate" <<EOF
{"version": 4, "terraform_version": "1.11.4", "serial": 1, "lineage": "bench",
 "outputs": {"greeting": {"value": "hello", "type": "string"}}, "resources": []}
EOF
	for ((i = 0; i < n; i++)); do
		cat <<EOF
data "terraform_remote_state" "d$i" {
  backend = "local"
  config  = { path = "\${path.module}/small.tfstate" }
}
EOF
	done >"$dir/main.tf"
}

# plan BUILD DIR N runs terraform plan in DIR with BUILD's provider and checks that it read all N
# data sources. It sets secs (wall time), cpu (seconds of provider CPU, all processes), tfcpu
# (seconds of Terraform's own CPU: terraform's and its children's but the provider's) and peak
# (largest provider peak RSS, KiB).
plan() {
	local build=$1 dir=$2 n=$3 start end total
	export HIERA_BENCH_RUSAGE="$dir/rusage" TF_CLI_CONFIG_FILE="$work/$build.tfrc"
	: >"$HIERA_BENCH_RUSAGE"
	start=$(date +%s%N)
	if ! (cd "$dir" && /usr/bin/time -o terraform.rusage -f "%U %S" \
		terraform plan -refresh=true -lock=false -input=false -no-color >plan.log 2>&1) ||
		[[ "$(grep -c ': Read complete after' "$dir/plan.log")" != "$n" ]]; then
		echo "terraform plan failed or did not read $n data sources in $dir:" >&2
		tail -n 30 "$dir/plan.log" >&2
		exit 1
	fi
	end=$(date +%s%N)
	secs=$(echo "scale=3; ($end - $start) / 1000000000" | bc)
	read -r cpu peak < <(awk '/^[0-9.]+ [0-9.]+ [0-9]+$/ { cpu += $1 + $2; if ($3 > peak) peak = $3 }
		END { printf "%.2f %d\n", cpu, peak }' "$HIERA_BENCH_RUSAGE")
	total=$(awk '/^[0-9.]+ [0-9.]+$/ { print $1 + $2 }' "$dir/terraform.rusage")
	tfcpu=$(echo "scale=2; $total - $cpu" | bc)
}

# measure KEY BUILD DIR N runs one plan and keeps, under KEY, the fastest (secs, cpu, tfcpu, peak)
# and the slowest time seen.
declare -A best_secs best_cpu best_tfcpu best_peak worst_secs
measure() {
	local key=$1
	plan "$2" "$3" "$4"
	if [[ -z "${best_secs[$key]:-}" ]] || (($(echo "$secs < ${best_secs[$key]}" | bc))); then
		best_secs[$key]=$secs best_cpu[$key]=$cpu best_tfcpu[$key]=$tfcpu best_peak[$key]=$peak
	fi
	if [[ -z "${worst_secs[$key]:-}" ]] || (($(echo "$secs > ${worst_secs[$key]}" | bc))); then
		worst_secs[$key]=$secs
	fi
}
ratio() { printf "%.2f" "$(echo "scale=4; $1 / $2" | bc)"; }
range() { echo "${best_secs[$1]}-${worst_secs[$1]}"; }
perds() { printf "%.3f" "$(echo "scale=4; ${best_cpu[$1]} * 1000 / $2" | bc)"; } # provider CPU ms per data source
mb() { echo "scale=1; $1 * 1024 / 1000000" | bc; }            # KiB -> MB

# rows N KEY LABEL [KEY LABEL...] prints a line per plan of N data sources: wall seconds
# (fastest-slowest), then of the fastest plan Terraform's own CPU seconds, the provider's, and the
# provider's milliseconds per data source.
# shellcheck disable=SC2059 # fmt is the format
rows() {
	local n=$1
	shift
	local fmt="   %-24s %13s %9s %13s %9s\n"
	printf "$fmt" plan "wall s" "tf cpu s" "provider cpu" "ms per ds"
	while (($#)); do
		if [[ $1 == builtin ]]; then
			printf "$fmt" "$2" "$(range "$1")" "${best_tfcpu[$1]}" - -
		else
			printf "$fmt" "$2" "$(range "$1")" "${best_tfcpu[$1]}" "${best_cpu[$1]}" "$(perds "$1" "$n")"
		fi
		shift 2
	done
}

# split KEY REF prints KEY's plan against REF's: the ratio of wall times, and the ratio of CPU
# times as Terraform's share plus the provider's (KEY's own CPU and the provider's, each over REF's
# total CPU).
split() {
	local k=$1 ref
	ref=$(echo "${best_tfcpu[$2]} + ${best_cpu[$2]}" | bc)
	printf "wall %s, cpu %s = terraform %s + provider %s" "$(ratio "${best_secs[$k]}" "${best_secs[$2]}")" \
		"$(ratio "$(echo "${best_tfcpu[$k]} + ${best_cpu[$k]}" | bc)" "$ref")" \
		"$(ratio "${best_tfcpu[$k]}" "$ref")" "$(ratio "${best_cpu[$k]}" "$ref")"
}

# bound KEY REF prints the least wall time KEY's plan can take with any provider, Terraform's own
# CPU spread over every core, against REF's wall time.
cores=$(nproc)
bound() {
	local least
	least=$(echo "scale=4; ${best_tfcpu[$1]} / $cores" | bc)
	printf "Terraform's own cpu alone needs %.2f s on %d cores: wall >= %s x %s for any provider" "$least" "$cores" \
		"$(ratio "$least" "${best_secs[$2]}")" "$2"
}

echo "== best of $reps plans, builds alternating; times are wall seconds (fastest-slowest); of the"
echo "   fastest plan: cpu (provider cpu) is the provider's CPU seconds (all its processes), tf cpu"
echo "   Terraform's own (the plan's but the provider's), rss the provider's peak RSS; null is the"
echo "   do-nothing provider; ratios of cpu are split into Terraform's share and the provider's"

if want floor; then
	gen bench
	gen floor -floor
	echo
	echo "-- floor: N data sources (a third deep merges) over the six-level hierarchy vs the trivial one"
	for n in $counts; do
		gen_tf "$work/tf/bench-$n" "$work/hier/bench" "$n" mixed
		gen_tf "$work/tf/floor-$n" "$work/hier/floor" "$n" mixed
		for ((r = 0; r < reps; r++)); do
			for b in $builds; do
				measure "bench-$n-$b" "$b" "$work/tf/bench-$n" "$n"
				measure "floor-$n-$b" "$b" "$work/tf/floor-$n" "$n"
			done
		done
	done
	printf "%6s %5s %13s %13s %6s %13s %8s %8s %13s %8s %8s %8s %8s\n" N build time floor ratio "ms per lookup" \
		cpu floor "cpu/lookup ms" "tf cpu" floor "rss MB" floor
	for n in $counts; do
		for b in $builds; do
			tb=${best_secs[bench-$n-$b]} tf=${best_secs[floor-$n-$b]}
			printf "%6s %5s %13s %13s %6s %13s %8s %8s %13s %8s %8s %8s %8s\n" "$n" "$b" "$(range "bench-$n-$b")" \
				"$(range "floor-$n-$b")" "$(ratio "$tb" "$tf")" "$(echo "scale=3; ($tb - $tf) * 1000 / $n" | bc)" \
				"${best_cpu[bench-$n-$b]}" "${best_cpu[floor-$n-$b]}" \
				"$(echo "scale=3; (${best_cpu[bench-$n-$b]} - ${best_cpu[floor-$n-$b]}) * 1000 / $n" | bc)" \
				"${best_tfcpu[bench-$n-$b]}" "${best_tfcpu[floor-$n-$b]}" \
				"$(mb "${best_peak[bench-$n-$b]}")" "$(mb "${best_peak[floor-$n-$b]}")"
		done
	done
fi

if want builtin || want fleet; then
	gen floor -floor
	gen_builtin "$work/tf/builtin" 2000
fi

if want builtin; then
	echo
	echo "-- builtin: 2,000 trivial hiera_lookup data sources vs 2,000 built-in terraform_remote_state"
	gen_tf "$work/tf/trivial" "$work/hier/floor" 2000 plain
	for ((r = 0; r < reps; r++)); do
		measure builtin new "$work/tf/builtin" 2000
		for b in $builds null; do measure "trivial-$b" "$b" "$work/tf/trivial" 2000; done
	done
	list=(builtin builtin)
	for b in $builds null; do list+=("trivial-$b" "trivial, $b"); done
	rows 2000 "${list[@]}"
	for b in $builds; do
		echo "   trivial $b / builtin: $(split "trivial-$b" builtin) (wall target <= 1.5; provider cpu $(perds "trivial-$b" 2000) ms per ds, target <= 0.5)"
	done
	echo "   trivial null / builtin: $(split trivial-null builtin) (any provider's floor)"
	echo "     $(bound trivial-null builtin)"
	for b in $builds; do echo "   trivial $b / trivial null: $(split "trivial-$b" trivial-null)"; done
fi

if want fleet; then
	echo
	echo "-- fleet: 500 nodes x 4 keys, per-data-source facts and certname"
	gen fleet -nodes 500 -keys 100
	jq '{nodes: .nodes}' "$work/hier/fleet/manifest.json" >"$work/hier/fleet-nodes.json"
	echo "   $(jq '.files' "$work/hier/fleet/manifest.json") files, $(jq '.yaml_bytes' "$work/hier/fleet/manifest.json") bytes of YAML"
	gen_tf "$work/tf/fleet" "$work/hier/fleet" 2000 fleet
	gen_tf "$work/tf/fleet-node" "$work/hier/fleet" 500 node
	# The same fleet in one hiera_nodes: its facts in a directory, the same 4 keys, or whole nodes.
	gen_fleet_dir "$work/hier/fleet/manifest.json" "$work/hier/fleet-facts"
	mapfile -t fleet_keys < <(jq -r '.lookups.first[0:4][]' "$work/hier/fleet/manifest.json")
	gen_nodes_tf "$work/tf/fleet-nodes" "$work/hier/fleet" "$work/hier/fleet-facts" "${fleet_keys[@]}"
	gen_nodes_tf "$work/tf/fleet-whole" "$work/hier/fleet" "$work/hier/fleet-facts"
	gen_sample_tf "$work/tf/fleet-sample" "$work/hier/fleet" "$work/hier/fleet-facts" "${fleet_keys[@]}"
	check_sample "$work/tf/fleet-sample"
	# The same nodes' facts and scope, over the trivial hierarchy.
	gen_tf "$work/tf/fleet-trivial" "$work/hier/floor" 2000 fleet "$work/hier/fleet-nodes.json"
	# Each hiera_nodes read recorded from the work tree's provider (the do-nothing provider serving
	# it), and the recorded state checked byte for byte against a live read's by the provider as
	# built (terraform-plugin-go writes the state it sends into TF_LOG_SDK_PROTO_DATA_DIR).
	recorded="$work/recorded"
	rm -rf "$recorded"
	for tf in fleet-nodes fleet-whole; do
		mkdir -p "$recorded/$tf" "$recorded/$tf-live"
		HIERAFORM_NULL_REPLAY=$recorded/$tf HIERAFORM_NULL_RECORD=1 plan null "$work/tf/$tf" 1
		TF_LOG_SDK_PROTO_DATA_DIR=$recorded/$tf-live plan new "$work/tf/$tf" 1
		if ! "$work/null/provider" -state "$recorded/$tf"/*.pb |
			cmp -s - "$recorded/$tf-live"/*_ReadDataSource_Response_State.msgpack; then
			echo "the recorded state of $work/tf/$tf is not a live read's, byte for byte" >&2
			exit 1
		fi
		rm -rf "$recorded/$tf-live"
	done
	recorded_mb() { printf "%.1f" "$(echo "scale=2; $(stat -c %s "$recorded/$1"/*.pb) / 1000000" | bc)"; }
	for ((r = 0; r < reps; r++)); do
		measure builtin new "$work/tf/builtin" 2000
		for b in $builds; do
			measure "fleet-$b" "$b" "$work/tf/fleet" 2000
			measure "fleet-trivial-$b" "$b" "$work/tf/fleet-trivial" 2000
		done
		measure fleet-trivial-null null "$work/tf/fleet-trivial" 2000
		measure fleet-node new "$work/tf/fleet-node" 500
		measure fleet-node-null null "$work/tf/fleet-node" 500
		measure fleet-nodes new "$work/tf/fleet-nodes" 1
		HIERAFORM_NULL_REPLAY=$recorded/fleet-nodes measure fleet-nodes-replay null "$work/tf/fleet-nodes" 1
		measure fleet-whole new "$work/tf/fleet-whole" 1
		HIERAFORM_NULL_REPLAY=$recorded/fleet-whole measure fleet-whole-replay null "$work/tf/fleet-whole" 1
	done
	list=(builtin builtin)
	for b in $builds; do list+=("fleet-$b" "fleet, $b" "fleet-trivial-$b" "trivial hierarchy, $b"); done
	rows 2000 "${list[@]}" fleet-trivial-null "trivial hierarchy, null"
	rows 500 fleet-node "fleet as 500 hiera_node" fleet-node-null "500 hiera_node, null"
	for b in $builds; do
		echo "   fleet $b / trivial hierarchy $b: $(split "fleet-$b" "fleet-trivial-$b") (wall target <= 1.10)"
		echo "   trivial hierarchy $b / builtin: $(split "fleet-trivial-$b" builtin) (wall target <= 2)"
	done
	echo "   trivial hierarchy null / builtin: $(split fleet-trivial-null builtin) (any provider's floor)"
	echo "     $(bound fleet-trivial-null builtin)"
	for b in $builds; do
		echo "   trivial hierarchy $b / null: $(split "fleet-trivial-$b" fleet-trivial-null)"
	done
	echo "   fleet as 500 hiera_node / builtin: $(split fleet-node builtin) (wall target <= 0.5)"
	echo "   500 hiera_node null / builtin: $(split fleet-node-null builtin) (any provider's floor)"
	echo "     $(bound fleet-node-null builtin)"
	for b in $builds; do echo "   fleet as 500 hiera_node / fleet $b: $(split fleet-node "fleet-$b")"; done
	rows 500 fleet-nodes "one hiera_nodes, 4 keys" fleet-whole "one hiera_nodes, whole" \
		fleet-nodes-replay "4 keys, replayed" fleet-whole-replay "whole, replayed"
	echo "   one hiera_nodes, 4 keys / builtin: $(split fleet-nodes builtin) (wall target <= 0.2)"
	echo "   one hiera_nodes, whole nodes (values only) / builtin: $(split fleet-whole builtin) (wall target <= 10)"
	echo "   one hiera_nodes, whole nodes / 500 hiera_node, 4 keys: $(split fleet-whole fleet-node)"
	echo "   provider peak RSS: hiera_nodes 4 keys $(mb "${best_peak[fleet-nodes]}") MB, whole nodes $(mb "${best_peak[fleet-whole]}") MB"
	echo "   replayed: the do-nothing provider answering each hiera_nodes read with the response our provider"
	echo "   gave it ($(recorded_mb fleet-nodes) MB for 4 keys, $(recorded_mb fleet-whole) MB whole; its state is a live read's byte"
	echo "   for byte), reading nothing: Terraform's own cost of these answers, the floor of any provider"
	echo "   giving them"
	echo "   4 keys, replayed / builtin: $(split fleet-nodes-replay builtin) (floor of the 0.2 target's plan)"
	echo "     $(bound fleet-nodes-replay builtin)"
	echo "   whole, replayed / builtin: $(split fleet-whole-replay builtin) (floor of the 10 target's plan)"
	echo "     $(bound fleet-whole-replay builtin)"
	echo "   one hiera_nodes, 4 keys / replayed: $(split fleet-nodes fleet-nodes-replay) (what our provider adds; target <= 1.15)"
	echo "   one hiera_nodes, whole / replayed: $(split fleet-whole fleet-whole-replay) (what our provider adds; target <= 1.05)"
fi

if want rss; then
	gen large -large
	dir="$work/tf/rss"
	gen_tf "$dir" "$work/hier/large" "$rss_n" spread
	yaml_bytes=$(jq '.yaml_bytes' "$work/hier/large/manifest.json")
	nodes=$(jq '.nodes | length' "$work/hier/large/manifest.json")
	echo
	echo "-- rss: $rss_n lookups spread over the $nodes nodes of the large hierarchy (every file is read)"
	for ((r = 0; r < reps; r++)); do
		for b in $builds; do measure "rss-$b" "$b" "$dir" "$rss_n"; done
	done
	for b in $builds; do
		printf "%5s YAML %.1f MB, provider peak RSS %.1f MB, ratio %.2f (target < 4); plan %s s, provider CPU %s s\n" \
			"$b" "$(echo "$yaml_bytes / 1000000" | bc -l)" "$(echo "${best_peak[rss-$b]} * 1024 / 1000000" | bc -l)" \
			"$(echo "${best_peak[rss-$b]} * 1024 / $yaml_bytes" | bc -l)" "$(range "rss-$b")" "${best_cpu[rss-$b]}"
	done
fi
