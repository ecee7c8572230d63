#!/usr/bin/env bash
# Measures pidlint against its baselines, side by side in one run, and
# prints one markdown table of medians and ratios (make bench):
#
#   - pidlint ./... (four GOOS) against go vet ./... (the host's): warm,
#     after editing one file, and peak memory, on golang.org/x/tools and,
#     when PODMAN names a checkout of github.com/containers/podman, on
#     podman; and with an empty build cache on x/tools, peak memory against
#     go vet's own (which first compiles every dependency: minutes);
#   - the analyzer against a no-op analyzer through go vet -vettool;
#   - the cost of pidlint's facts;
#   - safeprobe's probe and lock against the raw syscalls and peer libraries,
#     and the system calls of one lock and unlock (bench/safeprobe.sh);
#   - the safeprobe command's alive and status against kill -0 and flock -n.
#
# RUNS (default 5) alternating runs per timing.
set -euo pipefail
bench=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$bench/.." && pwd)
runs=${RUNS:-5}
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
start=$(date +%s)

(cd "$repo" && go build -o "$work/pidlint" ./cmd/pidlint)
(cd "$bench" && go build -o "$work/noop" ./noop && go build -o "$work/factcost" ./factcost && go build -o "$work/peakrss" ./peakrss)
# pidlint's cache of other-GOOS builds is part of what a warm run is: one
# of its own, removed with the rest.
export PIDLINT_CACHE=$work/pidlint-cache

xtools=$work/x-tools
src=$(go mod download -json golang.org/x/tools@v0.52.0 | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
cp -r "$src" "$xtools"
chmod -R u+w "$xtools"
(cd "$xtools" && go mod download)

# seconds DIR CMD...: wall time of one run (exit 3, findings, is success).
seconds() {
	local dir=$1; shift
	local t0 t1 rc=0
	t0=$(date +%s.%N)
	(cd "$dir" && "$@" >/dev/null 2>&1) || rc=$?
	t1=$(date +%s.%N)
	if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
		echo "bench: $* in $dir exited $rc" >&2
		exit 1
	fi
	echo "$t1 - $t0" | bc
}

median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m}'; }

rows=()
# compare LABEL DIR PIDLINT-ARGV -- NOOP-ARGV: alternating runs, medians, ratio.
compare() {
	local label=$1 dir=$2; shift 2
	local a=() b=() seen=0
	for arg in "$@"; do
		if [ "$arg" = -- ]; then seen=1; continue; fi
		if [ $seen -eq 0 ]; then a+=("$arg"); else b+=("$arg"); fi
	done
	local ta=() tb=()
	for _ in $(seq "$runs"); do
		ta+=("$(seconds "$dir" "${a[@]}")")
		tb+=("$(seconds "$dir" "${b[@]}")")
	done
	local ma mb
	ma=$(printf '%s\n' "${ta[@]}" | median)
	mb=$(printf '%s\n' "${tb[@]}" | median)
	rows+=("| $label | ${ma} s | ${mb} s | $(echo "scale=3; $ma / $mb" | bc) |")
	echo "  $label: pidlint $ma s, no-op $mb s" >&2
}

# fresh COPY-OF-TOOL: a copy of the tool with bytes appended, so its -V=full
# ID differs and go vet analyses every package again (compilation stays
# cached): the cost of a first pidlint run on a tree.
fresh() {
	local copy
	copy=$(mktemp -p "$work" "$(basename "$1").XXXX")
	cp "$1" "$copy"
	head -c 16 /dev/urandom >>"$copy"
	chmod +x "$copy"
	echo "$copy"
}

# mib DIR CMD...: the peak memory of one run's process tree, in MiB.
mib() {
	local dir=$1; shift
	# exit 3 (findings) is success, as in seconds.
	(cd "$dir" && { "$work/peakrss" "$@" 2>&1 >/dev/null || true; } | awk '/^peakrss:/ {print $2}')
}

# edit FILE: change FILE as a user does between runs: a line at the top,
# which moves every declaration (so importers are analyzed again too).
edit() { sed -i "1i // bench edit $RANDOM" "$1"; }

drows=()
# driver LABEL DIR EDIT-FILE [ENV...]: pidlint ./... against go vet ./...,
# warm and after one edit, alternating; peak memory of each, warm.
driver() {
	local label=$1 dir=$2 file=$3; shift 3
	local env=(env "$@")
	local p=("${env[@]}" "$work/pidlint" ./...) v=("${env[@]}" go vet ./...)
	seconds "$dir" "${v[@]}" >/dev/null
	seconds "$dir" "${p[@]}" >/dev/null
	local tp=() tv=() ep=() ev=() rp=() rv=()
	for _ in $(seq "$runs"); do
		tp+=("$(seconds "$dir" "${p[@]}")")
		tv+=("$(seconds "$dir" "${v[@]}")")
	done
	for _ in $(seq "$runs"); do
		edit "$dir/$file"
		ep+=("$(seconds "$dir" "${p[@]}")")
		edit "$dir/$file"
		ev+=("$(seconds "$dir" "${v[@]}")")
	done
	for _ in $(seq 3); do
		rp+=("$(mib "$dir" "${p[@]}")")
		rv+=("$(mib "$dir" "${v[@]}")")
	done
	local mp mv np nv mrp mrv
	mp=$(printf '%s\n' "${tp[@]}" | median) mv=$(printf '%s\n' "${tv[@]}" | median)
	np=$(printf '%s\n' "${ep[@]}" | median) nv=$(printf '%s\n' "${ev[@]}" | median)
	mrp=$(printf '%s\n' "${rp[@]}" | median) mrv=$(printf '%s\n' "${rv[@]}" | median)
	drows+=("| $label, warm | ${mp} s | ${mv} s | $(ratio "$mp" "$mv") |")
	drows+=("| $label, one file edited | ${np} s | ${nv} s | $(ratio "$np" "$nv") |")
	drows+=("| $label, peak memory (warm, 3 runs) | ${mrp} MiB | ${mrv} MiB | $(ratio "$mrp" "$mrv") |")
	echo "  $label: warm $mp / $mv s, edit $np / $nv s, memory $mrp / $mrv MiB" >&2
}

# cold LABEL DIR [ENV...]: an empty build cache, pidlint ./... against go
# vet ./..., whose own cold run compiles every dependency: time and peak
# memory of one run each (COLD_RUNS).
cold() {
	local label=$1 dir=$2; shift 2
	local tp=() tv=() rp=() rv=()
	for _ in $(seq "${COLD_RUNS:-1}"); do
		tp+=("$(seconds "$dir" env GOCACHE="$(mktemp -d -p "$work")" "$@" "$work/pidlint" ./...)")
		rp+=("$(mib "$dir" env GOCACHE="$(mktemp -d -p "$work")" "$@" "$work/pidlint" ./...)")
		tv+=("$(seconds "$dir" env GOCACHE="$(mktemp -d -p "$work")" "$@" go vet ./...)")
		rv+=("$(mib "$dir" env GOCACHE="$(mktemp -d -p "$work")" "$@" go vet ./...)")
	done
	local mp mv mrp mrv
	mp=$(printf '%s\n' "${tp[@]}" | median) mv=$(printf '%s\n' "${tv[@]}" | median)
	mrp=$(printf '%s\n' "${rp[@]}" | median) mrv=$(printf '%s\n' "${rv[@]}" | median)
	drows+=("| $label, empty GOCACHE (${COLD_RUNS:-1} runs) | ${mp} s | ${mv} s | $(ratio "$mp" "$mv") |")
	drows+=("| $label, peak memory (empty GOCACHE) | ${mrp} MiB | ${mrv} MiB | $(ratio "$mrp" "$mrv") |")
	echo "  $label cold: $mp / $mv s, $mrp / $mrv MiB" >&2
}

ratio() { echo "scale=2; $1 / $2" | bc; }

echo "pidlint against go vet ($runs alternating runs each)" >&2
seconds "$xtools" go build ./... >/dev/null
driver "x/tools" "$xtools" go/ast/astutil/util.go
if [ -n "${PODMAN:-}" ]; then
	# podman builds without cgo with its remote tags. It is measured in
	# place (a copy would be a cold tree for go vet); the edited file is
	# put back.
	podman=$(cd "$PODMAN" && pwd)
	cp "$podman/pkg/util/utils.go" "$work/utils.go"
	trap 'cp "$work/utils.go" "$podman/pkg/util/utils.go"; chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
	podenv=(CGO_ENABLED=0 GOFLAGS=-tags=remote,containers_image_openpgp,exclude_graphdriver_btrfs)
	driver "podman" "$podman" pkg/util/utils.go "${podenv[@]}"
fi
cold "x/tools" "$xtools"

# The Python scan: 10,000 .py files (the python3 standard library without
# its tests, copied until there are that many) with -languages=python,
# against pidlint ./... on x/tools warm, alternating.
pytree=$work/py10k
python3 - "$pytree" <<'PY'
import os, shutil, sys, sysconfig
src, dst = sysconfig.get_paths()["stdlib"], sys.argv[1]
skip = {"test", "tests", "idle_test", "lib2to3", "site-packages", "dist-packages"}
files = sorted(os.path.join(d, f) for d, dirs, fs in os.walk(src) if not skip & set(os.path.relpath(d, src).split(os.sep)) for f in fs if f.endswith(".py"))
for i in range(10000):
    out = os.path.join(dst, str(i // len(files)), os.path.relpath(files[i % len(files)], src))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    shutil.copyfile(files[i % len(files)], out)
PY
tpy=() tgo=()
for _ in $(seq "$runs"); do
	tpy+=("$(seconds "$pytree" "$work/pidlint" -languages=python ./...)")
	tgo+=("$(seconds "$xtools" "$work/pidlint" ./...)")
done
mpy=$(printf '%s\n' "${tpy[@]}" | median) mgo=$(printf '%s\n' "${tgo[@]}" | median)
pyrows=("| 10,000 Python files, -languages=python / x/tools, pidlint ./... warm | ${mpy} s | ${mgo} s | $(ratio "$mpy" "$mgo") |")
echo "  Python: $mpy s against x/tools warm $mgo s" >&2

echo "analyzer overhead ($runs alternating runs each)" >&2
seconds "$xtools" go vet -vettool="$work/pidlint" ./... >/dev/null
seconds "$xtools" go vet -vettool="$work/noop" ./... >/dev/null
compare "go vet -vettool, x/tools, warm" "$xtools" go vet -vettool="$work/pidlint" ./... -- go vet -vettool="$work/noop" ./...
cold_runs=${COLD_RUNS:-2}
ta=() tb=()
for _ in $(seq "$cold_runs"); do
	ta+=("$(seconds "$xtools" go vet -vettool="$(fresh "$work/pidlint")" ./go/...)")
	tb+=("$(seconds "$xtools" go vet -vettool="$(fresh "$work/noop")" ./go/...)")
done
ma=$(printf '%s\n' "${ta[@]}" | median)
mb=$(printf '%s\n' "${tb[@]}" | median)
rows+=("| go vet -vettool, x/tools/go/..., first run ($cold_runs runs) | ${ma} s | ${mb} s | $(echo "scale=3; $ma / $mb" | bc) |")

echo "facts" >&2
facts=$(cd "$xtools" && "$work/factcost" ./...)
facts_gopsutil=$(cd "$repo/bench" && "$work/factcost" github.com/shirou/gopsutil/v4/...)

# safeprobe's probe and lock, and the lock's system calls: a script of its
# own, which can be run alone.
safeprobe_md=$(RUNS=$runs bash "$bench/safeprobe.sh")

cat <<MD

## pidlint benchmarks ($(go version | cut -d' ' -f3), $(nproc) cores, $(uname -r))

### pidlint ./... (linux, darwin, windows, freebsd) against go vet ./... (host); median of $runs alternating runs

| run | pidlint | go vet | pidlint / go vet |
|---|---|---|---|
$(printf '%s\n' "${drows[@]}")

### The Python scan against a Go run (median of $runs alternating runs)

| run | Python | Go | Python / Go |
|---|---|---|---|
$(printf '%s\n' "${pyrows[@]}")

### Analyzer against a no-op analyzer (median of $runs alternating runs)

| run | pidlint | no-op | ratio |
|---|---|---|---|
$(printf '%s\n' "${rows[@]}")

Facts, x/tools ./...: $facts
Facts, gopsutil/v4/...: $facts_gopsutil

MD
printf '%s\n' "$safeprobe_md"

# The safeprobe command against the commands scripts use today, each run
# in turn (bench/clitime): alive against kill -0 (the procps binary, a
# process started as safeprobe is), status against flock -n, on a lock
# that safeprobe run holds; true is the floor, a process that does
# nothing.
echo "safeprobe command ($((runs * 40)) alternating runs)" >&2
(cd "$repo/safeprobe" && go build -o "$work/safeprobe" ./cmd/safeprobe)
(cd "$bench" && go build -o "$work/clitime" ./clitime)
mkdir -m 700 "$work/cli"
(
	"$work/safeprobe" run -lock "$work/cli/held.pid" -- sleep 600 &
	holder=$!
	trap 'kill "$holder"; wait' EXIT
	for _ in $(seq 100); do [ -s "$work/cli/held.pid" ] && break; sleep 0.05; done
	"$work/clitime" -n $((runs * 40)) \
		"kill=$(type -P kill) -0 $holder" "alive=$work/safeprobe alive $holder" \
		"flock=$(type -P flock) -n $work/cli/held.pid true" "status=$work/safeprobe status $work/cli/held.pid" \
		"true=$(type -P true)"
) >"$work/cli.txt"
# cli LABEL: median and 90th percentile of a command's time and its median
# CPU time, in ms; clif LABEL FIELD: one field, in µs.
cli() { awk -v l="$1" '$1 == l {printf "%.2f ms | %.2f ms | %.2f ms", $2 / 1000, $3 / 1000, $4 / 1000}' "$work/cli.txt"; }
clif() { awk -v l="$1" -v f="$2" '$1 == l {print $f}' "$work/cli.txt"; }
# vs A B: time and CPU ratios of A to B.
vs() { echo "$(ratio "$(clif "$1" 2)" "$(clif "$2" 2)") | $(ratio "$(clif "$1" 4)" "$(clif "$2" 4)")"; }
cat <<MD

### safeprobe command ($((runs * 40)) alternating runs, fork to exit; CPU: user + system)

| command | median | p90 | CPU (median) | time ratio | CPU ratio |
|---|---|---|---|---|---|
| \`safeprobe alive PID\` | $(cli alive) | $(vs alive kill) (to kill -0) |
| \`kill -0 PID\` (/usr/bin/kill) | $(cli kill) | 1 | 1 |
| \`safeprobe status FILE\` (held) | $(cli status) | $(vs status flock) (to flock -n) |
| \`flock -n FILE true\` (held) | $(cli flock) | 1 | 1 |
| \`true\` | $(cli true) | | |
MD
echo
echo "bench: $(( $(date +%s) - start )) s" >&2
