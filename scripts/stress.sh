#!/usr/bin/env bash
# Concurrency under Terraform: a race-detector build of the provider answers a plan of N data
# sources (default 400; first, deep and unique lookups for every node of the bench hierarchy) at
# -parallelism=32. Any data race stops the provider (GORACE=halt_on_error=1) and fails the plan.
# Usage: scripts/stress.sh [N]   (terraform on PATH or TERRAFORM=path; never runs terraform init)
set -euo pipefail
n=${1:-400}
root=$(cd "$(dirname "$0")/.." && pwd)
tf=${TERRAFORM:-$(command -v terraform)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$root" && go build -race -o "$work/bin/terraform-provider-hiera" . && go run ./internal/benchgen/cmd/benchgen -out "$work/data" >/dev/null)
cat >"$work/terraformrc" <<RC
provider_installation {
  dev_overrides {
    "registry.terraform.io/hieraform/hiera" = "$work/bin"
  }
  direct {}
}
RC
python3 - "$work" "$n" <<'PY'
import json, sys
work, n = sys.argv[1], int(sys.argv[2])
m = json.load(open(f"{work}/data/manifest.json"))
keys = m["lookups"]
out = ['terraform {\n  required_providers {\n    hiera = { source = "hieraform/hiera" }\n  }\n}\n',
       f'provider "hiera" {{\n  config = "{work}/data/hiera.yaml"\n}}\n']
kinds = [("first", None), ("deep", "deep"), ("unique", "unique")]
for i in range(n):
    node = m["nodes"][i % len(m["nodes"])]
    kind, strategy = kinds[i % 3]
    pool = keys.get(kind) or keys["first"]
    merge = f'  merge {{\n    strategy = "{strategy}"\n  }}\n' if strategy else ""
    out.append(f'data "hiera_lookup" "l{i}" {{\n  key   = {json.dumps(pool[i % len(pool)])}\n'
               f'  facts = jsondecode({json.dumps(json.dumps(node["facts"]))})\n'
               f'  scope = jsondecode({json.dumps(json.dumps(node["scope"]))})\n{merge}}}\n')
open(f"{work}/main.tf", "w").write("".join(out))
PY
cd "$work"
export TF_CLI_CONFIG_FILE=$work/terraformrc CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 GORACE=halt_on_error=1
start=$(date +%s)
"$tf" plan -parallelism=32 -input=false -no-color >plan.log 2>&1 || { tail -40 plan.log; echo "stress: plan failed"; exit 1; }
reads=$(grep -c "Read complete" plan.log || true)
echo "stress: $reads/$n data sources read at -parallelism=32 by a -race build in $(($(date +%s) - start))s, no race"
[ "$reads" -eq "$n" ]
