#!/usr/bin/env bash
# Every check, as CI runs it: go vet, gofmt, the unit and Terraform tests (the real terraform CLI,
# offline), then the checks that need tools of their own (golangci-lint, terraform fmt of the
# examples, docs/ freshness with tfplugindocs, goreleaser check) and the version matrix
# (scripts/matrix.sh: the provider tests under the other pinned Terraforms and OpenTofu).
# The tools are built from source once per machine (scripts/lib.sh: the tool cache), each saying
# what it builds, how long that usually takes and, every 30 seconds, how far it is. With 4 cores or
# more (or TOOLS_IN_BACKGROUND=1) they are built while the tests run.
# A failing check does not stop the others; the exit status says whether all passed.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$root" || exit 1
start=$SECONDS

tf=$(find_terraform) || { echo "no terraform and it could not be built"; exit 1; }
echo "newest terraform: $tf ($(cli_label "$tf")); every provider test runs under it"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# plugin-testing must use this terraform, never download one, and read an empty CLI config of
# our own rather than whatever the environment points at.
export TF_ACC_TERRAFORM_PATH=$tf
: >"$tmp/terraform.rc"
export TF_CLI_CONFIG_FILE=$tmp/terraform.rc

# follow LOG PID: passes LOG on as it grows until background job PID ends; PID's exit status.
follow() {
	local shown=0 size alive=1
	while [ $alive = 1 ]; do
		kill -0 "$2" 2>/dev/null || alive=0 # checked first, so that its last lines are shown
		size=$(wc -c <"$1")
		[ "$size" -gt "$shown" ] && tail -c +$((shown + 1)) "$1" | head -c $((size - shown))
		shown=$size
		[ $alive = 0 ] || sleep 1
	done
	wait "$2"
}

# A real PuppetDB for the integration tests (scripts/puppetdb.sh), started now in the background
# and waited for before the Go tests: as root (CI) it is installed when missing; otherwise only one
# already running is used, and the PuppetDB tests skip saying how to run them.
puppetdb=
if [ "${HIERAFORM_PUPPETDB:-}" = off ]; then
	echo "PuppetDB: HIERAFORM_PUPPETDB=off, its integration tests skip"
elif bash scripts/puppetdb.sh status >/dev/null 2>&1; then
	echo "PuppetDB: already running; the integration tests use it"
	puppetdb=running
elif [ "$(id -u)" = 0 ]; then
	echo "PuppetDB: starting it in the background for the integration tests (scripts/puppetdb.sh up; $tmp/puppetdb.log)"
	bash scripts/puppetdb.sh up >"$tmp/puppetdb.log" 2>&1 &
	puppetdb=$!
	trap 'bash scripts/puppetdb.sh down; rm -rf "$tmp"' EXIT
else
	echo "PuppetDB: not running and not root to start it: its integration tests skip (run scripts/puppetdb.sh up as root first)"
fi
# puppetdb_ready waits for the background start, passing its progress on, and exports the
# variables the tests read.
puppetdb_ready() {
	local waited=$SECONDS
	if [ "$puppetdb" != running ]; then
		follow "$tmp/puppetdb.log" "$puppetdb" || { echo "PuppetDB did not start: its integration tests skip"; return 1; }
		echo "PuppetDB: ready ($(elapsed "$waited") waited here)"
	fi
	eval "$(bash scripts/puppetdb.sh env)"
}

# pre-commit, for TestPreCommitHooks (which skips without it): installed as root when missing, the
# package lists fetched first when they lack it (a fresh machine), waiting for the dpkg lock that
# the PuppetDB install started above may hold.
apt_install() {
	local apt=(apt-get -q -o DPkg::Lock::Timeout=300)
	DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y "$@" >/dev/null 2>&1 ||
		{ "${apt[@]}" update >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y "$@" >/dev/null 2>&1; }
}
command -v pre-commit >/dev/null || [ "$(id -u)" != 0 ] || apt_install pre-commit || echo "pre-commit could not be installed: TestPreCommitHooks skips"

failed=()
check() { # check NAME COMMAND...: runs one check, never silent for long, and records its failure
	echo "== $1 ($(elapsed "$start") so far)"
	heartbeat "$1" "${@:2}" || failed+=("$1")
}

# The tools of the later checks and of the version matrix; each is built once per machine.
tool_builds() {
	go_tool golangci-lint github.com/golangci/golangci-lint/v2/cmd/golangci-lint "$GOLANGCI_LINT" >/dev/null
	go_tool tfplugindocs github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs "$TFPLUGINDOCS" >/dev/null
	go_tool goreleaser github.com/goreleaser/goreleaser/v2 "$GORELEASER" >/dev/null
	terraform_at "$TERRAFORM_PREVIOUS" >/dev/null
	terraform_at "$TERRAFORM_FUNCTIONS" >/dev/null
	terraform_at "$TERRAFORM_OLDEST" >/dev/null
	[ "${TOFU:-}" = off ] || find_tofu >/dev/null
	return 0 # a tool that fails to build fails its check later, with the reason
}
background=
if [ "${TOOLS_IN_BACKGROUND:-}" = 1 ] || { [ -z "${TOOLS_IN_BACKGROUND:-}" ] && [ "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)" -ge 4 ]; }; then
	echo "building the missing tools in the background while the tests run ($tmp/tools.log)"
	tool_builds >"$tmp/tools.log" 2>&1 &
	background=$!
fi
# tools_ready waits for the background builds, passing their progress on as it comes.
tools_ready() {
	[ -n "$background" ] || return 0
	follow "$tmp/tools.log" "$background"
	background=
}

gofmt_check() {
	local bad
	bad=$(gofmt -s -l .)
	[ -z "$bad" ] || { echo "not gofmt -s formatted: $bad"; return 1; }
}

lint() {
	local lint
	lint=$(go_tool golangci-lint github.com/golangci/golangci-lint/v2/cmd/golangci-lint "$GOLANGCI_LINT") ||
		{ echo "golangci-lint could not be installed: skipped"; return 0; }
	"$lint" run ./...
}

# docs_current regenerates docs/ in a copy of the tree and compares, never touching the work tree.
docs_current() {
	mkdir "$tmp/src"
	# tar may warn that a file changed while it read it: harmless, generate needs only the sources.
	tar -C "$root" --exclude=./.git --exclude=./.tfbin --exclude=./bin --exclude=./dist -cf - . 2>/dev/null | tar -C "$tmp/src" -xf -
	bash scripts/generate.sh "$tmp/src" >"$tmp/docs.log" 2>&1 || { cat "$tmp/docs.log"; return 1; }
	diff -ru docs "$tmp/src/docs" || { echo "docs/ is out of date: run 'make generate' and commit it"; return 1; }
}

release_config() {
	local rel
	rel=$(go_tool goreleaser github.com/goreleaser/goreleaser/v2 "$GORELEASER") ||
		{ echo "goreleaser could not be installed: skipped"; return 0; }
	"$rel" check
}

check "go vet" go vet ./...
check gofmt gofmt_check
[ -z "$puppetdb" ] || { echo "== PuppetDB up ($(elapsed "$start") so far)"; puppetdb_ready || failed+=("PuppetDB up"); } # not in check: it exports
# Under the newest CLI every provider test must run: a skip for want of a newer one fails.
check "go test" env HIERAFORM_TEST_NO_SKIP=1 go test -race -p 2 -count=1 -timeout 30m ./...
# the engine's agreement with Puppet's recorded answers, as a number (the test above enforces it)
conformance() { go test -count=1 -run '^TestConformance$' -v ./internal/hiera/ | grep '^conformance:'; }
check "conformance" conformance
check "concurrent plan" env TERRAFORM="$tf" bash scripts/stress.sh 300
tools_ready
check golangci-lint lint
check "terraform fmt" "$tf" fmt -check -recursive -diff examples/
check "docs current" docs_current
check "goreleaser check" release_config
# the provider tests again under the previous minor Terraform, the one on PATH, the first with
# functions, the oldest the docs promise and OpenTofu (scripts/matrix.sh); no race detector there
check "version matrix" bash scripts/matrix.sh

echo "== all checks took $(elapsed "$start")"
if [ ${#failed[@]} -gt 0 ]; then
	printf 'FAILED: %s\n' "${failed[@]}"
	exit 1
fi
