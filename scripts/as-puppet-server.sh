#!/usr/bin/env bash
# Runs a command as on a Puppet server or a user's workstation: eyaml keys of their own at
# /etc/puppetlabs/puppet/eyaml, a puppet.conf, a facts cache, and the provider's HIERA_EYAML_*
# variables pointing at those keys. No test may depend on them (the test command must pass here).
# The real filesystem is untouched: in a private mount namespace, /etc and /opt get overlays whose
# upper layers live on a tmpfs that only the namespace sees. Linux, as root (unshare -m).
# Usage: bash scripts/as-puppet-server.sh go test -count=1 ./internal/hiera ./internal/cli
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 COMMAND [ARGS...]" >&2; exit 2; }
exec unshare -m --propagation private bash -c '
set -euo pipefail
t=$(mktemp -d)
mount -t tmpfs none "$t"
for d in etc opt; do
	mkdir -p "$t/$d/upper" "$t/$d/work"
	mount -t overlay overlay -o "lowerdir=/$d,upperdir=$t/$d/upper,workdir=$t/$d/work" "/$d"
done
keys=/etc/puppetlabs/puppet/eyaml
mkdir -p "$keys" /opt/puppetlabs/puppet/cache/yaml/facts
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$keys/private_key.pkcs7.pem" -out "$keys/public_key.pkcs7.pem" \
	-days 1 -subj "/CN=puppet-server" 2>/dev/null
printf "[main]\ncertname = puppet.example.com\n[server]\nvardir = /opt/puppetlabs/server/data/puppetserver\n" >/etc/puppetlabs/puppet/puppet.conf
printf -- "--- !ruby/object:Puppet::Node::Facts\nname: web01.example.com\nvalues:\n  role: server\n" \
	>/opt/puppetlabs/puppet/cache/yaml/facts/web01.example.com.yaml
export HIERA_EYAML_PRIVATE_KEY_PATH=$keys/private_key.pkcs7.pem HIERA_EYAML_PUBLIC_KEY_PATH=$keys/public_key.pkcs7.pem
echo "as a Puppet server: keys of its own at $keys (this namespace only)" >&2
"$@"
' bash "$@"
