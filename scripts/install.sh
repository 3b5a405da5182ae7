#!/usr/bin/env bash
# Builds the provider and installs it where `terraform init` and `tofu init` find it without a
# registry: a local mirror directory that both read when the CLI configuration has no
# provider_installation block, ~/.terraform.d/plugins (PLUGIN_DIR=DIR to choose another). The
# binary goes under both registries' addresses, as a filesystem mirror lays providers out:
#   DIR/registry.terraform.io/hieraform/hiera/VERSION/OS_ARCH/terraform-provider-hiera_vVERSION
#   DIR/registry.opentofu.org/hieraform/hiera/VERSION/OS_ARCH/terraform-provider-hiera_vVERSION
# VERSION is the newest in CHANGELOG.md unless VERSION=X.Y.Z is given. `make install` runs it.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$root"

version=${VERSION:-$(sed -n 's/^## \([0-9][0-9A-Za-z.+-]*\).*/\1/p' CHANGELOG.md | head -n 1)}
[ -n "$version" ] || { echo "no version: CHANGELOG.md has no '## X.Y.Z' heading; give VERSION=X.Y.Z" >&2; exit 1; }
dir=${PLUGIN_DIR:-$HOME/.terraform.d/plugins}
platform=$(go env GOOS)_$(go env GOARCH)
name=terraform-provider-hiera_v$version

echo "building terraform-provider-hiera $version for $platform"
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
# -trimpath: the same source builds the same binary on any machine, so its checksum in a
# configuration's lock file only changes when the code does.
go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$build/$name" .
for host in registry.terraform.io registry.opentofu.org; do
	target=$dir/$host/hieraform/hiera/$version/$platform
	mkdir -p "$target"
	rm -f "$target"/terraform-provider-hiera*
	cp "$build/$name" "$target/$name"
	echo "installed $target/$name"
done

# The mirror is only read when no CLI configuration file has a provider_installation block.
for rc in "${TF_CLI_CONFIG_FILE:-}" "$HOME/.terraformrc" "$HOME/.tofurc"; do
	[ -n "$rc" ] && [ -f "$rc" ] && grep -q '^[[:space:]]*provider_installation' "$rc" || continue
	cat <<MSG
note: $rc has a provider_installation block, so the CLI reads no implied mirror. In that block,
add the mirror and keep direct from asking a registry for the provider (and remove any
dev_overrides entry for hieraform/hiera):
  filesystem_mirror {
    path    = "$dir"
    include = ["registry.terraform.io/hieraform/hiera", "registry.opentofu.org/hieraform/hiera"]
  }
  direct {
    exclude = ["registry.terraform.io/hieraform/hiera", "registry.opentofu.org/hieraform/hiera"]
  }
MSG
done
cat <<MSG
Declare it with source = "hieraform/hiera" in required_providers, then run terraform init (or tofu init).
A configuration initialised with an earlier build of $version has its checksum in .terraform.lock.hcl: delete the
hieraform/hiera entry there (or the file) and run init again.
MSG
