#!/usr/bin/env bash
# Prepares Wine to run pidlint's Windows test binaries (GOOS=windows):
#
#   1. installs wine, wine64 and gcc-mingw-w64-x86-64 with apt-get, if missing;
#   2. creates the Wine prefix (see env.sh) headless, if missing;
#   3. builds processprng.c into bcryptprimitives.dll and installs it into the
#      prefix's system32, if changed (see README.md for why).
#
# Idempotent: a second run changes nothing and takes about a second. When the
# packages are missing and cannot be installed (not root, no network), it
# prints "SKIPPED: ..." and exits 0, unless CI=true, where it fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=env.sh
. "$here/env.sh"
start=$(date +%s)

skip() {
	if [ "${CI:-}" = true ]; then
		echo "wine setup: FAILED: $*" >&2
		exit 1
	fi
	{
		echo "#####################################################################"
		echo "# SKIPPED: Windows tests under Wine: $*"
		echo "#####################################################################"
	} >&2
	exit 0
}

# 1. Packages.
packages=(wine wine64 gcc-mingw-w64-x86-64)
missing=()
for p in "${packages[@]}"; do
	if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -gt 0 ]; then
	command -v apt-get >/dev/null 2>&1 || skip "${missing[*]} missing and no apt-get"
	sudo=()
	if [ "$(id -u)" -ne 0 ]; then
		if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
			sudo=(sudo -n)
		else
			skip "${missing[*]} missing and not root (run tools/wine/setup.sh as root)"
		fi
	fi
	echo "wine setup: apt-get install ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	"${sudo[@]}" apt-get update -qq || skip "apt-get update failed (no network?)"
	"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
		skip "apt-get install ${missing[*]} failed"
fi
wine=$(pidlint_wine) || skip "no wine64 or wine after installing ${packages[*]}"
wineserver=$(pidlint_wineserver) || skip "no wineserver after installing ${packages[*]}"

# 2. The prefix. wineboot -i creates it; wineserver -w waits until every Wine
# process of the prefix has exited, so the registry is on disk afterwards.
if [ ! -f "$WINEPREFIX/system.reg" ] || [ ! -d "$WINEPREFIX/drive_c/windows/system32" ]; then
	echo "wine setup: creating prefix $WINEPREFIX"
	mkdir -p "$(dirname "$WINEPREFIX")"
	"$wine" wineboot -i >/dev/null 2>&1 || true
	"$wineserver" -w
	[ -f "$WINEPREFIX/system.reg" ] || skip "wineboot did not create $WINEPREFIX"
fi

# 3. The ProcessPrng shim, rebuilt when its source or the compiler changes.
cc=x86_64-w64-mingw32-gcc
shimdir=$WINEPREFIX/pidlint-shim
dll=$shimdir/bcryptprimitives.dll
stamp=$({ sha256sum <"$here/processprng.c"; "$cc" --version | head -1; } | sha256sum | cut -d' ' -f1)
if [ ! -f "$dll" ] || [ "$(cat "$shimdir/stamp" 2>/dev/null)" != "$stamp" ]; then
	echo "wine setup: building $dll"
	mkdir -p "$shimdir"
	"$cc" -shared -O2 -s -Wall -Werror -o "$dll.tmp" "$here/processprng.c" -ladvapi32
	mv "$dll.tmp" "$dll"
	echo "$stamp" >"$shimdir/stamp"
fi
target=$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll
if ! cmp -s "$dll" "$target"; then
	echo "wine setup: installing $target"
	cp "$dll" "$target.tmp"
	mv "$target.tmp" "$target"
fi

echo "wine setup: ready ($("$wine" --version 2>/dev/null), prefix $WINEPREFIX, $(($(date +%s) - start))s)"
