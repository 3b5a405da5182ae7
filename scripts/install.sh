#!/usr/bin/env bash
# Builds the provider and the hieraform command and installs them. The provider goes where
# `terraform init` and `tofu init` find it without a registry: a local mirror directory that both
# read when the CLI configuration has no provider_installation block, ~/.terraform.d/plugins
# (PLUGIN_DIR=DIR to choose another), under both registries' addresses, as a filesystem mirror
# lays providers out:
#   DIR/registry.terraform.io/hieraform/hiera/VERSION/OS_ARCH/terraform-provider-hiera_vVERSION
#   DIR/registry.opentofu.org/hieraform/hiera/VERSION/OS_ARCH/terraform-provider-hiera_vVERSION
# hieraform goes where `go install` puts commands: $(go env GOBIN), else $(go env GOPATH)/bin
# (BIN_DIR=DIR to choose another). VERSION is the newest in CHANGELOG.md unless VERSION=X.Y.Z is
# given. `make install` runs it.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$root"

version=${VERSION:-$(sed -n 's/^## \([0-9][0-9A-Za-z.+-]*\).*/\1/p' CHANGELOG.md | head -n 1)}
[ -n "$version" ] || { echo "no version: CHANGELOG.md has no '## X.Y.Z' heading; give VERSION=X.Y.Z" >&2; exit 1; }
dir=${PLUGIN_DIR:-$HOME/.terraform.d/plugins}
platform=$(go env GOOS)_$(go env GOARCH)
name=terraform-provider-hiera_v$version

bindir=${BIN_DIR:-$(go env GOBIN)}
bindir=${bindir:-$(go env GOPATH)/bin}

build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
# -trimpath: the same source builds the same binary on any machine, so its checksum in a
# configuration's lock file only changes when the code does. The quickstart builds with it too:
# the build cache keys packages by it, and a build without it compiles every dependency again.
echo "building terraform-provider-hiera and hieraform $version for $platform: go build -trimpath compiles what the build cache"
echo "does not hold yet (every dependency the first time on a machine, a few minutes on two cores; seconds after)"
build_progress "terraform-provider-hiera and hieraform" \
	go build -v -trimpath -ldflags "-s -w -X main.version=$version" -o "$build/" . ./cmd/hieraform
mv "$build/terraform-provider-hiera" "$build/$name"
for host in registry.terraform.io registry.opentofu.org; do
	target=$dir/$host/hieraform/hiera/$version/$platform
	mkdir -p "$target"
	rm -f "$target"/terraform-provider-hiera*
	cp "$build/$name" "$target/$name"
	echo "installed $target/$name"
done
mkdir -p "$bindir"
cp "$build/hieraform" "$bindir/hieraform.new" && mv "$bindir/hieraform.new" "$bindir/hieraform"
echo "installed $bindir/hieraform"
case ":$PATH:" in
*":$bindir:"*) ;;
*) echo "note: $bindir is not on PATH: add it (export PATH=\"$bindir:\$PATH\") to run hieraform by name" ;;
esac

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
