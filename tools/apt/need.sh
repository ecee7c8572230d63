#!/usr/bin/env bash
# need.sh [-required] PACKAGE COMMAND: installs the Debian package PACKAGE
# with apt-get when COMMAND is missing (looked for in PATH, /usr/sbin and
# /sbin), as tools/wine/setup.sh installs Wine: as root, or through sudo -n.
#
# When it cannot (not root, no apt-get, no network) it prints "SKIPPED: ..."
# and exits 0, and the tests that need COMMAND skip, saying so; under
# CI=true, where .ci/run installs it, or with -required, it fails.
set -euo pipefail
required=false
if [ "${1:-}" = -required ]; then
	required=true
	shift
fi
if [ $# -ne 2 ]; then
	echo "usage: need.sh [-required] PACKAGE COMMAND" >&2
	exit 2
fi
pkg=$1 cmd=$2

have() { command -v "$cmd" >/dev/null || [ -x "/usr/sbin/$cmd" ] || [ -x "/sbin/$cmd" ]; }

skip() {
	if [ "${CI:-}" = true ] || $required; then
		echo "need: FAILED: $*" >&2
		exit 1
	fi
	echo "need: SKIPPED: $* (the tests that need $cmd skip)" >&2
	exit 0
}

have && exit 0
command -v apt-get >/dev/null 2>&1 || skip "$cmd missing and no apt-get to install $pkg"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		sudo=(sudo -n)
	else
		skip "$cmd missing and not root to install $pkg"
	fi
fi
echo "need: apt-get install $pkg (for $cmd)" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq || skip "apt-get update failed (no network?)"
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null || skip "apt-get install $pkg failed"
have || skip "no $cmd after installing $pkg"
