#!/usr/bin/env bash
# End-to-end benchmark: `terraform plan` over N hiera_lookup data sources.
#
# Builds the provider, installs it through a dev_overrides CLI config (terraform init is never run,
# nothing is downloaded), generates the bench hierarchy (six levels, ~500 keys per file) and the
# floor hierarchy (one trivial file), and times `terraform plan` with N data sources on each; a
# third of them are deep merges. The floor run is everything but real Hiera work (Terraform, the
# plugin protocol, trivial lookups), so bench/floor and (bench - floor) / N show what the lookups
# cost. The provider process's CPU time and peak RSS (VmHWM) are polled from /proc meanwhile.
# Then it measures the provider's peak RSS while it looks values up for every node of the ~50 MB
# large hierarchy, against the YAML size (target < 4x).
#
# Usage: scripts/bench-e2e.sh [-n "100 1000"] [-full] [-r REPS] [-rss-n N] [-no-rss] [-dir DIR]
#   -n      counts of data sources (default "100 1000")
#   -full   also run N=3000
#   -r      plans per measurement; the fastest counts (default 2)
#   -rss-n  data sources in the peak-RSS run (default 480: 20 per node of the large hierarchy)
#   -no-rss skip the peak-RSS run
#   -dir    work directory to use and keep (default: a temporary one, removed at the end)
set -euo pipefail

counts="100 1000"
reps=2
rss_n=480
rss=1
work=""
while (($#)); do
	case "$1" in
	-n) counts="$2"; shift ;;
	-full) counts="$counts 3000" ;;
	-r) reps="$2"; shift ;;
	-rss-n) rss_n="$2"; shift ;;
	-no-rss) rss=0 ;;
	-dir) work="$2"; shift ;;
	*) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
	shift
done

root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z "$work" ]]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
bin="$work/bin"

export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
unset TF_LOG TF_LOG_PROVIDER

echo "== building the provider and the hierarchies in $work"
(cd "$root" && go build -o "$bin/terraform-provider-hiera" .)
cat >"$work/terraformrc" <<EOF
provider_installation {
  dev_overrides {
    "registry.terraform.io/hieraform/hiera" = "$bin"
  }
  direct {}
}
EOF
export TF_CLI_CONFIG_FILE="$work/terraformrc"

(cd "$root" && go build -o "$work/benchgen" ./tools/benchgen)
"$work/benchgen" -out "$work/hier/bench"
"$work/benchgen" -out "$work/hier/floor" -floor
((rss)) && "$work/benchgen" -out "$work/hier/large" -large

# gen_tf DIR HIERARCHY N SPREAD writes DIR/main.tf: N hiera_lookup data sources over HIERARCHY
# (a directory from benchgen), every third one a deep merge. The provider looks up as the first
# node; with SPREAD=1 data source i looks up as node i mod (number of nodes) instead.
gen_tf() {
	local dir=$1 hier=$2 n=$3 spread=$4 manifest="$2/manifest.json"
	local -a first deep facts scope
	mapfile -t first < <(jq -r '.lookups.first[]' "$manifest")
	mapfile -t deep < <(jq -r '.lookups.deep[]' "$manifest")
	# JSON objects are valid HCL object expressions.
	mapfile -t facts < <(jq -c '.nodes[].facts' "$manifest")
	mapfile -t scope < <(jq -c '.nodes[].scope' "$manifest")
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
			echo "data \"hiera_lookup\" \"d$i\" {"
			if ((i % 3 == 2)); then
				echo "  key = \"${deep[i % ${#deep[@]}]}\""
				echo "  merge {"
				echo "    strategy = \"deep\""
				echo "  }"
			else
				echo "  key = \"${first[i % ${#first[@]}]}\""
			fi
			if ((spread)); then
				node=$((i % ${#facts[@]}))
				echo "  facts = ${facts[node]}"
				echo "  scope = ${scope[node]}"
			fi
			echo "}"
		done
	} >"$dir/main.tf"
}

# read_all DIR N checks that the plan in DIR read all N data sources. (A key that is not found is
# an error, so a plan that succeeds found them all.)
read_all() {
	[[ "$(grep -c ': Read complete after' "$1/plan.log")" == "$2" ]]
}

# plan DIR N runs terraform plan in DIR while watching the provider processes terraform starts
# (their VmHWM and CPU time, polled from /proc), and checks that it read all N data sources.
# It sets secs (wall time), cpu (seconds of provider CPU) and peak (provider peak RSS, KiB).
plan() {
	local dir=$1 n=$2 start end tfpid p hwm rest
	local -A ticks=() # provider pid -> utime + stime, last seen
	start=$(date +%s%N)
	(cd "$dir" && exec terraform plan -refresh=true -lock=false -input=false -no-color >plan.log 2>&1) &
	tfpid=$!
	peak=0
	while kill -0 "$tfpid" 2>/dev/null; do
		for p in $(pgrep -P "$tfpid" || true); do
			[[ "$(readlink "/proc/$p/exe" 2>/dev/null)" == "$bin/terraform-provider-hiera" ]] || continue
			hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$p/status" 2>/dev/null || true)
			if [[ -n "$hwm" ]] && ((hwm > peak)); then peak=$hwm; fi
			# /proc/PID/stat after "(comm) ": fields 3 (state) on; utime and stime are 14 and 15.
			rest=$(cat "/proc/$p/stat" 2>/dev/null || true)
			rest=${rest##*) }
			[[ -n "$rest" ]] && ticks[$p]=$(awk '{ print $12 + $13 }' <<<"$rest")
		done
		sleep 0.05
	done
	end=$(date +%s%N)
	if ! wait "$tfpid" || ! read_all "$dir" "$n"; then
		echo "terraform plan failed or did not read $n data sources in $dir:" >&2
		tail -n 30 "$dir/plan.log" >&2
		exit 1
	fi
	secs=$(echo "scale=3; ($end - $start) / 1000000000" | bc)
	cpu=0
	for p in "${!ticks[@]}"; do cpu=$((cpu + ticks[$p])); done
	cpu=$(echo "scale=2; $cpu / $(getconf CLK_TCK)" | bc)
}

# best DIR N runs $reps plans and keeps the fastest's secs, cpu and peak in best_secs, best_cpu
# and best_peak.
best() {
	best_secs=""
	for ((r = 0; r < reps; r++)); do
		plan "$1" "$2"
		if [[ -z "$best_secs" ]] || (($(echo "$secs < $best_secs" | bc))); then
			best_secs=$secs best_cpu=$cpu best_peak=$peak
		fi
	done
}

mb() { echo "scale=1; $1 * 1024 / 1000000" | bc; } # KiB -> MB

echo "== terraform plan, best of $reps (a third of the lookups are deep merges across six levels)"
echo "   time: wall seconds of terraform plan; cpu: seconds of provider CPU; rss: provider peak RSS"
printf "%6s %9s %9s %7s %15s %9s %9s %13s %9s %9s\n" "N" "time" "floor" "ratio" "per lookup ms" \
	"cpu" "floor" "cpu/lookup ms" "rss MB" "floor"
for n in $counts; do
	gen_tf "$work/tf/bench-$n" "$work/hier/bench" "$n" 0
	gen_tf "$work/tf/floor-$n" "$work/hier/floor" "$n" 0
	best "$work/tf/bench-$n" "$n"
	tb=$best_secs cb=$best_cpu pb=$best_peak
	best "$work/tf/floor-$n" "$n"
	printf "%6s %9s %9s %7s %15s %9s %9s %13s %9s %9s\n" "$n" "$tb" "$best_secs" \
		"$(echo "scale=2; $tb / $best_secs" | bc)" "$(echo "scale=3; ($tb - $best_secs) * 1000 / $n" | bc)" \
		"$cb" "$best_cpu" "$(echo "scale=3; ($cb - $best_cpu) * 1000 / $n" | bc)" "$(mb "$pb")" "$(mb "$best_peak")"
done

if ((rss)); then
	dir="$work/tf/rss"
	gen_tf "$dir" "$work/hier/large" "$rss_n" 1
	yaml_bytes=$(jq '.yaml_bytes' "$work/hier/large/manifest.json")
	nodes=$(jq '.nodes | length' "$work/hier/large/manifest.json")
	echo "== peak RSS: $rss_n lookups spread over the $nodes nodes of the large hierarchy (every file is read)"
	plan "$dir" "$rss_n"
	printf "YAML %.1f MB, provider peak RSS %.1f MB, ratio %.2f (target < 4); plan %s s, provider CPU %s s\n" \
		"$(echo "$yaml_bytes / 1000000" | bc -l)" "$(echo "$peak * 1024 / 1000000" | bc -l)" \
		"$(echo "$peak * 1024 / $yaml_bytes" | bc -l)" "$secs" "$cpu"
fi
