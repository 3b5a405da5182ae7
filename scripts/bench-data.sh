#!/usr/bin/env bash
# hiera_data against local_file + yamlencode (issue 39): the same 200 keys in 20 files, written by
# 20 hiera_data resources or by 20 local_file resources, side by side in one run: `terraform apply`
# from nothing, then `terraform plan` with nothing to do. Targets: each within 1.5x of local_file.
#
# Both providers are installed through a dev_overrides CLI config (terraform init is never run,
# nothing is downloaded by Terraform). hashicorp/local is not in any offline mirror: it is built
# once from its Go source through the Go module proxy (its go.mod names the module
# github.com/terraform-providers/terraform-provider-local) into the tool cache, or taken from
# LOCAL_PROVIDER=/path/to/terraform-provider-local.
#
# Usage: scripts/bench-data.sh [-r REPS] [-dir DIR]
#   -r    applies and plans per measurement, alternating between the two (default 3); the fastest counts
#   -dir  work directory to use and keep (default: a temporary one, removed at the end)
set -euo pipefail
source "$(dirname "$0")/lib.sh"

reps=3
work=""
while (($#)); do
	case "$1" in
	-r) reps="$2"; shift ;;
	-dir) work="$2"; shift ;;
	*) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
	shift
done
if [[ -z "$work" ]]; then
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
unset TF_LOG TF_LOG_PROVIDER

# The local provider's pseudo-version on the Go module proxy (its main branch of 2026-05-13).
local_version=v1.4.1-0.20260513075820-3561e410f9fe
local_bin=${LOCAL_PROVIDER:-}
if [[ -z "$local_bin" ]]; then
	local_bin=$(go_tool terraform-provider-local github.com/terraform-providers/terraform-provider-local "$local_version")
fi
tf=$(find_terraform)

echo "== building the provider into $work"
mkdir -p "$work/hiera" "$work/local"
(cd "$root" && go build -o "$work/hiera/terraform-provider-hiera" .)
cp "$local_bin" "$work/local/terraform-provider-local"
cat >"$work/cli.tfrc" <<EOF
provider_installation {
  dev_overrides {
    "registry.terraform.io/hieraform/hiera"   = "$work/hiera"
    "registry.terraform.io/hashicorp/local"   = "$work/local"
  }
  direct {}
}
EOF
export TF_CLI_CONFIG_FILE=$work/cli.tfrc

# values I: the 10 keys of file I as an HCL object (strings, numbers, a list, a nested object).
values() {
	local i=$1 k
	echo "{"
	for ((k = 0; k < 10; k++)); do
		case $((k % 4)) in
		0) echo "    \"profile::f$i::key$k\" = \"value-$i-$k\"" ;;
		1) echo "    \"profile::f$i::key$k\" = $((i * 100 + k))" ;;
		2) echo "    \"profile::f$i::key$k\" = [\"a$k\", \"b$k\", \"10.0.$i.$k\"]" ;;
		3) echo "    \"profile::f$i::key$k\" = { port = $((8000 + k)), host = \"h$i.example.com\", tags = [\"x\", \"y\"] }" ;;
		esac
	done
	echo "  }"
}

# gen KIND writes $work/KIND/main.tf: 20 resources of KIND (hiera_data or local_file), each
# writing the 10 keys of its file under $work/KIND/data.
gen() {
	local kind=$1 dir=$work/$1 i
	mkdir -p "$dir"
	{
		echo 'terraform {'
		echo '  required_providers {'
		if [[ $kind == hiera_data ]]; then
			echo '    hiera = { source = "hieraform/hiera" }'
		else
			echo '    local = { source = "hashicorp/local" }'
		fi
		echo '  }'
		echo '}'
		for ((i = 0; i < 20; i++)); do
			if [[ $kind == hiera_data ]]; then
				echo "resource \"hiera_data\" \"f$i\" {"
				echo "  path   = \"\${path.module}/data/f$i.yaml\""
				echo "  values = $(values "$i")"
			else
				echo "resource \"local_file\" \"f$i\" {"
				echo "  filename = \"\${path.module}/data/f$i.yaml\""
				echo "  content  = yamlencode($(values "$i"))"
			fi
			echo "}"
		done
	} >"$dir/main.tf"
}

# timed KIND WHAT ARGS...: runs terraform ARGS in KIND's directory, sets secs (wall seconds).
timed() {
	local dir=$work/$1 what=$2 start end
	shift 2
	start=$(date +%s%N)
	if ! (cd "$dir" && "$tf" "$@" -input=false -no-color >"$what.log" 2>&1); then
		echo "terraform $* failed in $dir:" >&2
		tail -n 30 "$dir/$what.log" >&2
		exit 1
	fi
	end=$(date +%s%N)
	secs=$(printf "%.3f" "$(echo "scale=3; ($end - $start) / 1000000000" | bc)")
}

declare -A best
keep() { if [[ -z "${best[$1]:-}" ]] || (($(echo "$2 < ${best[$1]}" | bc))); then best[$1]=$2; fi; }

gen hiera_data
gen local_file
echo "== best of $reps, alternating: 200 keys in 20 files"
for ((r = 0; r < reps; r++)); do
	for kind in hiera_data local_file; do
		rm -rf "$work/$kind/data" "$work/$kind"/terraform.tfstate*
		timed "$kind" apply apply -auto-approve -lock=false
		keep "$kind-apply" "$secs"
		[[ $(find "$work/$kind/data" -name '*.yaml' | wc -l) == 20 ]] || { echo "$kind did not write 20 files" >&2; exit 1; }
		timed "$kind" plan plan -detailed-exitcode -lock=false
		keep "$kind-plan" "$secs"
	done
done
ratio() { printf "%.2f" "$(echo "scale=4; $1 / $2" | bc)"; }
printf "   %-22s %10s %10s\n" "" hiera_data local_file
printf "   %-22s %10s %10s  ratio %s (target <= 1.5)\n" "apply (20 files)" "${best[hiera_data-apply]}" "${best[local_file-apply]}" \
	"$(ratio "${best[hiera_data-apply]}" "${best[local_file-apply]}")"
printf "   %-22s %10s %10s  ratio %s (target <= 1.5)\n" "plan, nothing to do" "${best[hiera_data-plan]}" "${best[local_file-plan]}" \
	"$(ratio "${best[hiera_data-plan]}" "${best[local_file-plan]}")"
