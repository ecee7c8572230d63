#!/usr/bin/env bash
# Runs make targets one after another as the stages of a test run: prints
# each stage's name before it starts and its time when it ends, goes on
# after a failure so that one run shows every failing stage, and ends
# with a summary table. Exits 1 when a stage failed.
#
# Usage: tools/stages/run.sh STAGE... (make test, make test-quick). MAKE
# is the make command to run each stage with.
set -uo pipefail
make_cmd=${MAKE:-make}
n=$#
i=0
names=() times=() results=()
failed=0
total_start=$(date +%s.%N)

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
	if $make_cmd --no-print-directory "$stage"; then
		result=ok
	else
		result=FAIL
		failed=1
	fi
	t=$(elapsed "$start")
	echo "=== stage $i/$n: $stage: $result ($t)"
	names+=("$stage") times+=("$t") results+=("$result")
done

echo
echo "=== summary"
for j in "${!names[@]}"; do
	printf '%-4s  %-12s %8s\n' "${results[$j]}" "${names[$j]}" "${times[$j]}"
done
if [ $failed -ne 0 ]; then
	echo "=== FAIL in $(elapsed "$total_start")"
	exit 1
fi
echo "=== ok in $(elapsed "$total_start")"
