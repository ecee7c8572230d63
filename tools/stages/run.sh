#!/usr/bin/env bash
# Runs make targets one after another as the stages of a test run: prints
# each stage's name before it starts and its time when it ends, goes on
# after a failure so that one run shows every failing stage, and ends
# with a summary table that says, under each failed stage, which tests
# failed and why (their first line of output; for a go test -timeout, the
# tests that were running). Exits 1 when a stage failed.
#
# Usage: tools/stages/run.sh STAGE... (make test, make test-quick). MAKE
# is the make command to run each stage with.
set -uo pipefail
make_cmd=${MAKE:-make}
here=$(cd "$(dirname "$0")" && pwd)
n=$#
i=0
names=() times=() results=() whys=()
failed=0
total_start=$(date +%s.%N)
logs=$(mktemp -d "${TMPDIR:-/tmp}/pidlint-stages.XXXXXX") || exit 1
trap 'rm -rf "$logs"' EXIT

elapsed() {
	awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN {
		d = b - a
		if (d >= 60) printf "%dm%04.1fs", int(d / 60), d - 60 * int(d / 60)
		else printf "%.1fs", d
	}'
}

for stage in "$@"; do
	i=$((i + 1))
	echo "=== stage $i/$n: $stage"
	start=$(date +%s.%N)
	log=$logs/$i.log
	$make_cmd --no-print-directory "$stage" 2>&1 | tee "$log"
	if [ "${PIPESTATUS[0]}" -eq 0 ]; then
		result=ok why=
	else
		result=FAIL failed=1
		why=$(awk -f "$here/failures.awk" "$log")
	fi
	t=$(elapsed "$start")
	echo "=== stage $i/$n: $stage: $result ($t)"
	names+=("$stage") times+=("$t") results+=("$result") whys+=("$why")
done

echo
echo "=== summary"
for j in "${!names[@]}"; do
	printf '%-4s  %-12s %8s\n' "${results[$j]}" "${names[$j]}" "${times[$j]}"
	if [ -n "${whys[$j]}" ]; then
		sed 's/^/      /' <<<"${whys[$j]}"
	fi
done
if [ $failed -ne 0 ]; then
	echo "=== FAIL in $(elapsed "$total_start")"
	exit 1
fi
echo "=== ok in $(elapsed "$total_start")"
