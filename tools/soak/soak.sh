#!/usr/bin/env bash
# Runs pidlint (all rules, -strict, then -fix in a temporary copy) over the
# standard library, golang.org/x/tools, golang.org/x/sys and large modules
# with process code, for linux, windows and darwin. It fails on a panic, an
# analysis error, a fix that does not apply, or a fix after which a package
# that built no longer builds.
#
#   tools/soak/soak.sh          every module (minutes; make soak)
#   tools/soak/soak.sh -quick   the std packages that hold process code (seconds)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

modules=(
	golang.org/x/tools@v0.52.0
	golang.org/x/sys@v0.49.0
	github.com/opencontainers/runc@v1.5.2
	github.com/shirou/gopsutil/v4@v4.26.10
	github.com/jackc/pgx/v5@v5.12.0
	github.com/containerd/containerd/v2@v2.4.2
)
std=(std)
if [ "${1:-}" = -quick ]; then
	modules=()
	std=(os os/exec os/signal syscall internal/syscall/unix runtime/pprof)
fi
oses=(linux windows darwin)

go build -o "$work/pidlint" "$repo/cmd/pidlint"
pidlint=$work/pidlint
packages=0 findings=0 fixed=0 failed=0 loaderrors=0

# lint DIR GOOS PATTERN...: runs pidlint -strict. Exit 3 (findings) is
# fine, and so is exit 1 for packages that do not type-check for this GOOS
# (a Linux-only module for windows): every driver skips those.
lint() {
	local dir=$1 goos=$2; shift 2
	local out rc=0
	out=$(cd "$dir" && GOOS=$goos "$pidlint" -strict "$@" 2>&1) || rc=$?
	if [ $rc -eq 1 ]; then
		loaderrors=$((loaderrors + 1))
	fi
	if [ $rc -ne 0 ] && [ $rc -ne 1 ] && [ $rc -ne 3 ] || grep -q "panic:\|internal error\|goroutine [0-9]" <<<"$out"; then
		echo "FAIL: pidlint -strict $* (GOOS=$goos) exited $rc:"
		echo "$out" | head -40
		failed=$((failed + 1))
	fi
	findings=$((findings + $(grep -c ': PL00[0-9]' <<<"$out" || true)))
}

broken() { # the packages that do not build, one per line
	(cd "$1" && GOOS=$2 go build ./... 2>&1 | grep '^# ' | sort) || true
}

for goos in "${oses[@]}"; do
	n=$(GOOS=$goos go list "${std[@]}" | wc -l)
	packages=$((packages + n))
	echo "std ($n packages, GOOS=$goos)"
	lint "$repo" "$goos" "${std[@]}"
done

for mod in "${modules[@]}"; do
	src=$(go mod download -json "$mod" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
	dir=$work/$(basename "${mod%@*}")
	cp -r "$src" "$dir"
	chmod -R u+w "$dir"
	(cd "$dir" && go mod download >/dev/null 2>&1 || true)
	n=$(cd "$dir" && go list ./... 2>/dev/null | wc -l)
	packages=$((packages + n * ${#oses[@]}))
	for goos in "${oses[@]}"; do
		echo "$mod ($n packages, GOOS=$goos)"
		lint "$dir" "$goos" ./...
	done
	# Apply every fix, then check that what built still builds.
	declare -A before=()
	for goos in "${oses[@]}"; do before[$goos]=$(broken "$dir" "$goos"); done
	(cd "$dir" && go mod edit -require=github.com/pidlint/pidlint/safeprobe@v0.0.0 -replace=github.com/pidlint/pidlint/safeprobe="$repo/safeprobe")
	out=$(cd "$dir" && "$pidlint" -strict -fix ./... 2>&1) || true
	if grep -q "panic:\|conflict\|failed to apply\|could not apply" <<<"$out"; then
		echo "FAIL: $mod: fixes did not apply:"; echo "$out" | head -20; failed=$((failed + 1))
	fi
	changed=$(cd "$dir" && git diff --no-index --name-only "$src" . 2>/dev/null | grep '\.go$' || true)
	n=$(grep -c . <<<"$changed" || true)
	[ -z "$changed" ] || sed 's|^\./||; s|^|  fixed: |' <<<"$changed"
	fixed=$((fixed + n))
	(cd "$dir" && GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 || true)
	for goos in "${oses[@]}"; do
		after=$(broken "$dir" "$goos")
		if [ -n "$(comm -13 <(echo "${before[$goos]}") <(echo "$after"))" ]; then
			echo "FAIL: $mod: fixed code no longer builds for $goos:"
			comm -13 <(echo "${before[$goos]}") <(echo "$after")
			failed=$((failed + 1))
		fi
	done
	echo "$mod: $n files fixed"
done

echo "soak: $packages packages analysed, $findings strict findings, $fixed files fixed and rebuilt for ${oses[*]}, $loaderrors runs with packages that do not type-check for their GOOS, $failed failures"
[ "$failed" -eq 0 ]
