#!/usr/bin/env bash
# Runs safeprobe's tests as a Windows (amd64) binary under Wine: make wine.
#
# Only safeprobe: the analyzer's tests run the go command, and there is no Go
# toolchain inside the Wine prefix. Extra arguments go to go test (-v, -run).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
here=$repo/tools/wine
# shellcheck source=env.sh
. "$here/env.sh"
cd "$repo"

# One run per prefix at a time: the exit trap below stops every process in
# the prefix, which would end another checkout's run sharing it.
mkdir -p "$(dirname "$WINEPREFIX")"
exec 9>"$WINEPREFIX.lock"
if command -v flock >/dev/null; then
	flock 9
fi

t0=$(date +%s)
bash "$here/setup.sh"
t1=$(date +%s)
echo "wine: setup took $((t1 - t0))s"

if ! pidlint_wine >/dev/null || [ ! -f "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" ]; then
	# setup.sh printed why (and failed instead under CI=true).
	echo "wine: SKIPPED: Wine is not set up; the Windows tests did not run" >&2
	exit 0
fi

# However the tests end, stop the prefix's wineserver and what it started.
wineserver=$(pidlint_wineserver)
trap '"$wineserver" -k 2>/dev/null || true' EXIT


rc=0
# safeprobe is a module of its own: its tests run from its directory. One
# test binary at a time (-p 1): go-wine-exec stops the prefix's processes
# after each.
(cd "$repo/safeprobe" && GOOS=windows GOARCH=amd64 ${GO:-go} test -count=1 -p 1 -exec "$here/go-wine-exec" "$@" ./...) || rc=$?
t2=$(date +%s)
echo "wine: tests took $((t2 - t1))s (exit $rc)"
exit $rc
