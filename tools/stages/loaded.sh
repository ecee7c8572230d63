#!/usr/bin/env bash
# Runs the given stages twice with tools/stages/run.sh: once as the machine
# is, then beside stress-ng --cpu with one worker per core, which keeps
# every core busy as other builds on a shared CI runner do. The suite must
# pass both ways; the last line gives both times. stress-ng comes from
# apt-get when it is missing (as root); it is stopped however the run ends.
#
# Usage: tools/stages/loaded.sh STAGE... (make test-loaded). MAKE is the
# make command to run each stage with.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v stress-ng >/dev/null; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "loaded: stress-ng is not installed, and installing it needs root (apt-get install stress-ng)" >&2
		exit 1
	fi
	export DEBIAN_FRONTEND=noninteractive
	if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends stress-ng >/dev/null; }; then
		echo "loaded: apt-get install stress-ng failed" >&2
		exit 1
	fi
fi
cores=$(nproc)

# run LABEL: the stages through run.sh, timed; sets secs and rc.
run() {
	local start
	echo "=== loaded: ${stages[*]}, $1"
	start=$(date +%s.%N)
	bash "$here/run.sh" "${stages[@]}"
	rc=$?
	secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
}
stages=("$@")

run quiet
quiet=$secs quiet_rc=$rc

hog=
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null; wait 2>/dev/null' EXIT
trap 'exit 130' INT TERM
# A cap on its life too, should this script be killed outright.
stress-ng --cpu "$cores" --timeout 2h --quiet &
hog=$!
run "beside stress-ng --cpu $cores"
loaded=$secs loaded_rc=$rc
kill "$hog" 2>/dev/null
wait "$hog" 2>/dev/null
hog=

verdict() { [ "$1" -eq 0 ] && echo ok || echo FAIL; }
ratio=$(awk -v q="$quiet" -v l="$loaded" 'BEGIN { printf "%.2f", (q > 0 ? l / q : 0) }')
echo "=== loaded: ${stages[*]}: quiet ${quiet}s ($(verdict $quiet_rc)), beside stress-ng --cpu $cores ${loaded}s ($(verdict $loaded_rc)), ${ratio}x"
[ $quiet_rc -eq 0 ] && [ $loaded_rc -eq 0 ]
