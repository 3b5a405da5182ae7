# Shared by test.sh and quickstart.sh: project paths and the tools they need.
# Tools go into .tfbin/ (git-ignored), one directory per tool version, and are reused.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=$root/.tfbin
export CHECKPOINT_DISABLE=1 # no version checks from terraform or plugin-testing

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

# find_terraform: echoes a terraform binary: the one on PATH, else one built from source into .tfbin
# (five to ten minutes, only the first time: Go modules can be fetched where release downloads cannot).
find_terraform() {
	if command -v terraform >/dev/null 2>&1; then
		command -v terraform
		return
	fi
	local dir=$bin/terraform@v1.8.5
	if [ ! -x "$dir/terraform" ]; then
		echo "terraform is not on PATH: building v1.8.5 into $dir (once, five to ten minutes)" >&2
		GOBIN=$dir GOPROXY=$(modcache_proxy) go install -ldflags "-X github.com/hashicorp/terraform/version.dev=no" \
			github.com/hashicorp/terraform@v1.8.5 >&2
	fi
	echo "$dir/terraform"
}
