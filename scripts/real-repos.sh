#!/usr/bin/env bash
# Whole nodes of two real control repositories against real Puppet: lays out, under DIR, each
# repository with its modules at pinned commits (git clone, once: an existing directory is kept)
# and its nodes' facts (internal/cli/testdata/realrepos/facts), then runs TestRealRepos over them.
# Usage: scripts/real-repos.sh DIR [go test flags...]
#   GIT_URL: where the repositories are cloned from, %s the owner/name (default https://github.com/%s)
#   EYAML=1: checks too a copy of each repository (DIR/NAME-eyaml) whose eyaml blocks are encrypted
#     again, by hieraform eyaml, with a key pair of its own (their real keys are not public), each
#     of a known text, and whose hiera.yaml names that pair: the secrets are then decrypted on both
#     sides and compared (the report never shows a secret's value).
#   CRLF=1: checks too a copy of each repository (DIR/NAME-crlf) with Windows line ends in its YAML,
#     JSON and environment.conf files, as a checkout with core.autocrlf=true has them.
# The check needs git, and puppet and ruby to compare (apt-get install puppet); without them it only
# checks that every node's read succeeds, the same alone as in a fleet. Another repository: lay it out as TestRealRepos' comment
# says and run HIERAFORM_REAL_REPOS=DIR go test ./internal/cli -run TestRealRepos -v -count=1.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: scripts/real-repos.sh DIR [go test flags...]" >&2; exit 2; }
dir=$(mkdir -p "$1" && cd "$1" && pwd)
shift
root=$(cd "$(dirname "$0")/.." && pwd)
url=${GIT_URL:-https://github.com/%s}

# REPOSITORY DIRECTORY OWNER/NAME COMMIT: one line per checkout, the control repository first
checkouts='
seteam .                     puppetlabs-seteam/control-repo 38722b45ec99fae321f8c5ad59e21088e79ff7e7
seteam modules/chrony        voxpupuli/puppet-chrony        3cb43150f7d2d376af17fa6b10fd55933396324d
seteam modules/systemd       voxpupuli/puppet-systemd       426553cc90f59eea9d79b6805c190d2a75f3b4e4
seteam modules/prometheus    voxpupuli/puppet-prometheus    4da3c2c5f4870a33d4d412615649a5dc2a8d261d
seteam modules/php           voxpupuli/puppet-php           add11e1dd7bde4bfa43b64c1184e3bbe062a6ff4
seteam modules/ssh           ghoneycutt/puppet-module-ssh   3f7e5cf5067af511dee3e0a749020db91b5cd75d
seteam modules/ntp           puppetlabs/puppetlabs-ntp      6f79ed29e1cf8caec1a6a58dc3401a279e6508fc
seteam modules/apt           puppetlabs/puppetlabs-apt      34db4f17a35ca860a52eb46cb1aa53f5e6d4fd7e
seteam modules/selinux       voxpupuli/puppet-selinux       b992ae84c5b65fa274d03303a65b40dc7bc2ff8b
seteam modules/yum           voxpupuli/puppet-yum           ce49506e3931db539923249dc94e09d466b10c3d
seteam modules/logrotate     voxpupuli/puppet-logrotate     46ddbab1e368d5b372a6815a7abd8266e5e5c158
seteam modules/epel          voxpupuli/puppet-epel          3a18dcb95c83b0505f9eb08ad54e559955fc742d
psick  .                     example42/psick                e94f09e8c2a1cc1a0310e572e5cb2c986c1f877c
psick  modules/hieradata     example42/psick-hieradata      eee6d4c22bd3802530871145f8f5b4b15ff0fb29
psick  modules/tp            example42/puppet-tp            89524ae96062d36572a2eb1c33fc97b28920ab3b
psick  modules/psick         example42/puppet-psick         e303515f42ade8856ba346a4dbab5411ffd6eb09
psick  modules/psick_profile example42/puppet-psick_profile fc20f85cfa536d9b5b4f7ad5d09405d6fded6ea6
psick  modules/stdlib        puppetlabs/puppetlabs-stdlib   75517cc6e0abc00d8f082319f78a1544dba6f201
psick  modules/concat        puppetlabs/puppetlabs-concat   8cbb369535b3c376e7ef9f9ea732c6a600b8b0bc
psick  modules/firewall      puppetlabs/puppetlabs-firewall 804b4842257dcb77b17863ee9a3fe88eb9b21b80
psick  modules/inifile       puppetlabs/puppetlabs-inifile  546d4bbe501f7354d7dce83abc8dc0f149a417a9
psick  modules/vcsrepo       puppetlabs/puppetlabs-vcsrepo  2f31c06b6bebd71471a1e424b3f79bc25580ab54
psick  modules/rabbitmq      voxpupuli/puppet-rabbitmq      b94a428b37126bbcf3b32dce371f879eccb0b4be
'

repos=()
while read -r repo sub name commit; do
  [ -n "$repo" ] || continue
  dest="$dir/$repo/environments/production"
  if [ "$sub" = . ]; then
    repos+=("$dir/$repo")
    mkdir -p "$dir/$repo/facts"
    cp "$root/internal/cli/testdata/realrepos/facts/$repo"/*.json "$dir/$repo/facts/"
  else
    dest="$dest/$sub"
  fi
  if [ ! -e "$dest/.git" ]; then # cloned aside, then moved: an interrupted clone is not taken for one
    rm -rf "$dir/.cloning"
    # shellcheck disable=SC2059 # the URL pattern is the format
    git clone -q "$(printf "$url" "$name")" "$dir/.cloning"
    git -C "$dir/.cloning" checkout -q "$commit"
    mkdir -p "$(dirname "$dest")"
    mv "$dir/.cloning" "$dest"
  fi
done <<<"$checkouts"

# with_own_keys REPO: DIR/REPO-eyaml, REPO with its ENC[PKCS7,...] blocks encrypted again under DIR/REPO-eyaml/keys
with_own_keys() {
  local copy="$dir/$1-eyaml"
  rm -rf "$copy"
  cp -a "$dir/$1" "$copy"
  (cd "$copy" && "$dir/hieraform" eyaml createkeys)
  python3 - "$copy" "$dir/hieraform" <<'PY'
import os, re, subprocess, sys
copy, hieraform = sys.argv[1], sys.argv[2]
public, private = f"{copy}/keys/public_key.pkcs7.pem", f"{copy}/keys/private_key.pkcs7.pem"
blocks = 0
def encrypt(_):
    global blocks
    blocks += 1
    return subprocess.run([hieraform, "eyaml", "encrypt", "-o", "string", "--pkcs7-public-key", public,
                           "-s", f"secret {blocks}"], capture_output=True, text=True, check=True).stdout.strip()
for top, _, names in os.walk(f"{copy}/environments"):
    for name in names:
        path = os.path.join(top, name)
        if os.path.islink(path) or not name.endswith((".yaml", ".yml", ".eyaml")):
            continue
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
            text = f.read()
        if name == "hiera.yaml":
            new = re.sub(r"pkcs7_private_key:.*", f"pkcs7_private_key: {private}", text)
            new = re.sub(r"pkcs7_public_key:.*", f"pkcs7_public_key: {public}", new)
        else: # a block may be folded over several lines: it becomes one
            new = re.sub(r"ENC\[PKCS7,[A-Za-z0-9+/=\s]*\]", encrypt, text)
        if new != text:
            with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
                f.write(new)
print(f"{copy}: {blocks} eyaml blocks encrypted again")
PY
  repos+=("$copy")
}

# with_crlf REPO: DIR/REPO-crlf, REPO with CRLF line ends
with_crlf() {
  local copy="$dir/$1-crlf"
  rm -rf "$copy"
  cp -a "$dir/$1" "$copy"
  find "$copy/environments" -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' -o -name environment.conf \) \
    -exec sed -i 's/\r*$/\r/' {} +
  crlf_repos+=("$copy")
}

cd "$root"
if [ "${CRLF:-}" = 1 ]; then
  crlf_repos=()
  for repo in "${repos[@]}"; do with_crlf "$(basename "$repo")"; done
  repos+=("${crlf_repos[@]}")
fi
if [ "${EYAML:-}" = 1 ]; then
  go build -o "$dir/hieraform" ./cmd/hieraform
  for repo in "${repos[@]}"; do
    case $repo in *-crlf) ;; *) with_own_keys "$(basename "$repo")" ;; esac
  done
fi
HIERAFORM_REAL_REPOS=$(IFS=:; echo "${repos[*]}") go test ./internal/cli -run '^TestRealRepos$' -count=1 -v "$@"
