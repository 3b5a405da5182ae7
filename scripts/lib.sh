# Shared by the scripts: project paths, the tools they need, and progress for long steps.
# Tools (versions pinned in tools/versions.env) are built once per machine, one directory per tool
# and version, in a cache every clone of the repository on the machine shares:
# $HIERAFORM_TOOLS, else ${XDG_CACHE_HOME:-$HOME/.cache}/hieraform/tools. A clone's own .tfbin/
# (git-ignored; where tools went before) is looked in first.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=$root/.tfbin
tools=${HIERAFORM_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/hieraform/tools}
export CHECKPOINT_DISABLE=1 # no version checks from terraform or plugin-testing
# shellcheck source=../tools/versions.env
source "$root/tools/versions.env" # every tool version, pinned once

# What a cold build of each tool cost on the project's 2-core machine with an empty build cache
# (modules already downloaded; measured with a throwaway GOCACHE), and about how many packages it
# compiles, for the progress lines.
declare -A build_time=([golangci-lint]="1.5 minutes" [tfplugindocs]="30 seconds" [goreleaser]="2 minutes" [terraform]="2-3 minutes" [tofu]="10 minutes")
declare -A build_packages=([golangci-lint]=1000 [tfplugindocs]=360 [goreleaser]=1500 [terraform]="650-1100" [tofu]=1300)

# Prefer modules already in the module cache, so that a warm machine needs no network.
modcache_proxy() {
	local cache
	cache=$(go env GOMODCACHE)/cache/download
	echo "file://$cache,$(go env GOPROXY)"
}

# cached_tool NAME@VERSION NAME: echoes the path of a tool built before, in .tfbin or the cache.
cached_tool() {
	local dir
	for dir in "$bin/$1" "$tools/$1"; do
		[ -x "$dir/$2" ] && { echo "$dir/$2"; return; }
	done
	return 1
}

# Long steps report every this many seconds.
progress_every=${HIERAFORM_PROGRESS_SECONDS:-30}

# elapsed START: the time since START (a $SECONDS value) as minutes:seconds.
elapsed() {
	local s=$((SECONDS - $1))
	printf '%d:%02d' $((s / 60)) $((s % 60))
}

# progress NAME LABEL CMD...: build_progress of tool NAME, saying first what it builds and how long
# that usually takes. On stderr.
progress() {
	local name=$1 label=$2
	shift 2
	echo "$label: once per machine; a cold build takes about ${build_time[$name]} on two cores (${build_packages[$name]} packages), more while modules download" >&2
	build_progress "$name" "$@"
}

# build_progress NAME CMD...: runs CMD, a `go build -v` or `go install -v` of NAME, saying every
# $progress_every seconds how far it is (the packages compiled so far) and how long it took; on
# failure, the end of its output. On stderr.
build_progress() {
	local name=$1 start=$SECONDS log rc
	shift
	log=$(mktemp)
	"$@" >"$log" 2>&1 &
	local pid=$! next=$((SECONDS + progress_every))
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		if [ $SECONDS -ge $next ]; then
			echo "  ... $name: $(grep -vc '^go: ' "$log") packages compiled, $(grep -c '^go: downloading' "$log") modules downloaded, $(elapsed "$start")" >&2
			next=$((next + progress_every))
		fi
	done
	wait "$pid"
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "  ... $name built in $(elapsed "$start") ($(grep -vc '^go: ' "$log") packages compiled)" >&2
	else
		tail -n 40 "$log" >&2
	fi
	rm -f "$log"
	return $rc
}

# heartbeat LABEL CMD...: runs CMD, passing its output on, and after each $progress_every seconds
# without output says (on stderr) that LABEL is still running, so that no long step is silent.
heartbeat() {
	local label=$1 start=$SECONDS line
	shift
	"$@" 2>&1 | while :; do
		if IFS= read -r -t "$progress_every" line; then
			printf '%s\n' "$line"
		elif [ $? -gt 128 ]; then
			echo "  ... $label: still running, $(elapsed "$start")" >&2
		else
			[ -z "$line" ] || printf '%s\n' "$line"
			break
		fi
	done
	return "${PIPESTATUS[0]}"
}

# go_tool NAME MODULE_PATH VERSION: echoes the path of NAME, installing it with go install once.
go_tool() {
	local dir=$tools/$1@$3
	cached_tool "$1@$3" "$1" && return
	GOBIN=$dir GOPROXY=$(modcache_proxy) progress "$1" "installing $1 $3 into $dir" go install -v "$2@$3" || return 1
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

# build_cli NAME MODULE VERSION: echoes the path of NAME (terraform or tofu) VERSION, built once per
# machine into the tool cache from its Go source module: release downloads may not be reachable,
# Go modules are, and `go install` refuses these modules (their go.mod has replace directives), so
# the build runs inside the module. From Terraform 1.10 on, the go.mod replaces the remote-state
# backends with nested modules that no module zip holds: they become stubs (a state backend such
# as s3 cannot be configured with that binary; the provider tests use none).
build_cli() {
	local name=$1 module=$2 version=$3
	local dir=$tools/$name@v$version src work rc
	cached_tool "$name@v$version" "$name" && return
	mkdir -p "$dir"
	src=$(GOPROXY=$(modcache_proxy) heartbeat "downloading $module@v$version" go mod download -json "$module@v$version" |
		sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	[ -n "$src" ] || { echo "could not download $module@v$version" >&2; return 1; }
	work=$src
	if grep -q '^replace .* => \./' "$src/go.mod"; then
		# a writable copy for the stubs, outside the repository (gofmt and the linters walk it)
		work=${TMPDIR:-/tmp}/hieraform-cli-src/$name@v$version.$$
		rm -rf "$work" && mkdir -p "$work" && cp -R "$src/." "$work" && chmod -R u+w "$work"
		stub_nested_modules "$work" "$module"
	fi
	# -mod=mod: old modules' go.sum files lack entries that today's go command wants.
	(cd "$work" && GOFLAGS=-mod=mod GOPROXY=$(modcache_proxy) progress "$name" "building $name $version from source into $dir" \
		go build -v -ldflags "-X $module/version.dev=no" -o "$dir/$name" "./${cli_packages[$name]}")
	rc=$?
	[ "$work" = "$src" ] || rm -rf "$work"
	[ $rc -eq 0 ] || return 1
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

# find_terraform: echoes the newest terraform, TERRAFORM_NEWEST: the one on PATH when it is that
# version, else built from source. Users run the newest, so every provider test runs under it.
find_terraform() {
	terraform_at "$TERRAFORM_NEWEST"
}

# usable_terraform: echoes a terraform for running the project rather than testing it (quickstart,
# docs, benchmarks): the one on PATH when it is at least 1.10 (the ephemeral resource needs it),
# else the newest, built from source.
usable_terraform() {
	local tf
	tf=$(command -v terraform) && version_at_least "$(cli_version "$tf")" 1.10 && { echo "$tf"; return; }
	find_terraform
}

# path_terraform: echoes the terraform on PATH when it is none of the pinned versions (a CLI this
# machine's users have, tested too); fails otherwise.
path_terraform() {
	local tf version
	tf=$(command -v terraform) || return 1
	version=$(cli_version "$tf")
	case $version in "$TERRAFORM_NEWEST" | "$TERRAFORM_PREVIOUS" | "$TERRAFORM_FUNCTIONS" | "$TERRAFORM_OLDEST" | "") return 1 ;; esac
	echo "$tf"
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

# cached_tofu: echoes tofu OPENTOFU when it is on PATH or already built (.tfbin or the tool cache);
# fails, building nothing, otherwise.
cached_tofu() {
	local tofu
	tofu=$(command -v tofu) && [ "$(cli_version "$tofu")" = "$OPENTOFU" ] && { echo "$tofu"; return; }
	cached_tool "tofu@v$OPENTOFU" tofu
}
