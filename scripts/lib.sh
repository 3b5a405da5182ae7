# Shared by test.sh and quickstart.sh: project paths and the tools they need.
# Tools go into .tfbin/ (git-ignored), one directory per tool version, and are reused.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=$root/.tfbin
export CHECKPOINT_DISABLE=1 # no version checks from terraform or plugin-testing
# shellcheck source=../tools/versions.env
source "$root/tools/versions.env" # every tool version, pinned once

# Prefer modules already in the module cache, so that a warm machine needs no network.
modcache_proxy() {
	local cache
	cache=$(go env GOMODCACHE)/cache/download
	echo "file://$cache,$(go env GOPROXY)"
}

# go_tool NAME MODULE_PATH VERSION: echoes the path of NAME, installing it with go install once.
go_tool() {
	local dir=$bin/$1@$3
	if [ ! -x "$dir/$1" ]; then
		echo "installing $1 $3 into $dir (once)" >&2
		GOBIN=$dir GOPROXY=$(modcache_proxy) go install "$2@$3" >&2 || return 1
	fi
	echo "$dir/$1"
}

# cli_label BINARY: the name and version a terraform or tofu binary reports ("Terraform v1.11.4"),
# past any warning about the CLI configuration printed before it.
cli_label() {
	"$1" version 2>/dev/null | grep -m 1 -E '^(Terraform|OpenTofu) v'
}

# cli_version BINARY: the version alone ("1.11.4").
cli_version() {
	cli_label "$1" | sed 's/^[A-Za-z]* v\([0-9][0-9.]*\).*/\1/'
}

# version_at_least A B: whether version A >= B.
version_at_least() {
	[ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n 1)" = "$2" ]
}

# build_cli NAME MODULE VERSION: echoes the path of NAME (terraform or tofu) VERSION, built once into
# .tfbin from its Go source module: release downloads cannot be reached here, Go modules can, and
# `go install` refuses these modules (their go.mod has replace directives), so the build runs
# inside the module. From Terraform 1.10 on, the go.mod replaces the remote-state backends with
# nested modules that no module zip holds: they become stubs (a state backend such as s3 cannot be
# configured with that binary; the provider tests use none). Cold: 5-15 minutes on 2 cores.
build_cli() {
	local name=$1 module=$2 version=$3
	local dir=$bin/$name@v$version src work
	if [ ! -x "$dir/$name" ]; then
		echo "building $name $version from source into $dir (once)" >&2
		src=$(GOPROXY=$(modcache_proxy) go mod download -json "$module@v$version" |
			sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
		[ -n "$src" ] || { echo "could not download $module@v$version" >&2; return 1; }
		work=$src
		if grep -q '^replace .* => \./' "$src/go.mod"; then
			# a writable copy for the stubs, outside the repository (gofmt and the linters walk it)
			work=${TMPDIR:-/tmp}/hieraform-cli-src/$name@v$version
			rm -rf "$work" && mkdir -p "$work" && cp -R "$src/." "$work" && chmod -R u+w "$work"
			stub_nested_modules "$work" "$module"
		fi
		# -mod=mod: old modules' go.sum files lack entries that today's go command wants.
		(cd "$work" && GOFLAGS=-mod=mod GOPROXY=$(modcache_proxy) \
			go build -ldflags "-X $module/version.dev=no" -o "$dir/$name" "./${cli_packages[$name]}") >&2
		local rc=$?
		[ "$work" = "$src" ] || rm -rf "$work"
		[ $rc -eq 0 ] || return 1
	fi
	echo "$dir/$name"
}
declare -A cli_packages=([terraform]=. [tofu]=cmd/tofu)

# stub_nested_modules DIR MODULE: for each local replace whose directory the module zip lacks, a
# module with a New() that returns no backend (what Terraform's backend list calls).
stub_nested_modules() {
	local dir=$1 module=$2 path rel
	sed -n 's/^replace \([^ ]*\) => \(\.\/[^ ]*\)$/\1 \2/p' "$dir/go.mod" | while read -r path rel; do
		[ -e "$dir/$rel/go.mod" ] && continue
		mkdir -p "$dir/$rel"
		printf 'module %s\n\ngo 1.22\n' "$path" >"$dir/$rel/go.mod"
		cat >"$dir/$rel/stub.go" <<GO
// Package stub stands in for a state backend that the module zip does not hold.
package stub

import "$module/internal/backend"

func New() backend.Backend { return nil }
GO
	done
}

# find_terraform: echoes the newest terraform: the one on PATH when it is at least 1.10 (so that
# the ephemeral resource's tests run), else TERRAFORM_NEWEST built from source.
find_terraform() {
	local tf
	tf=$(command -v terraform) && version_at_least "$(cli_version "$tf")" 1.10 && { echo "$tf"; return; }
	terraform_at "$TERRAFORM_NEWEST"
}

# terraform_at VERSION: echoes terraform VERSION: the one on PATH when it is that version, else built.
terraform_at() {
	local tf
	tf=$(command -v terraform) && [ "$(cli_version "$tf")" = "$1" ] && { echo "$tf"; return; }
	build_cli terraform github.com/hashicorp/terraform "$1"
}

# find_tofu: echoes tofu OPENTOFU: the one cached_tofu finds, else built.
find_tofu() {
	cached_tofu || build_cli tofu github.com/opentofu/opentofu "$OPENTOFU"
}

# cached_tofu: echoes tofu OPENTOFU when it is on PATH or already built into .tfbin; fails, building
# nothing, otherwise.
cached_tofu() {
	local tofu
	tofu=$(command -v tofu) && [ "$(cli_version "$tofu")" = "$OPENTOFU" ] && { echo "$tofu"; return; }
	tofu=$bin/tofu@v$OPENTOFU/tofu
	[ -x "$tofu" ] && echo "$tofu"
}
