#!/usr/bin/env bash
# Tests the golangci-lint module plugin for real, without a git clone (the
# first build needs the Go module proxy):
#
#  1. builds bin/custom-gcl, golangci-lint v2.15.0 with the plugin compiled
#     in (tools/custom-gcl), from the Go module proxy and cache; skipped when
#     its stamp, a hash of every source it is built from, has not changed;
#  2. runs go vet and the unit tests of the plugin module, among them the
#     editor recipes of docs/editors.md, run with bin/custom-gcl;
#  3. runs bin/custom-gcl on the test module in testdata/ with two
#     configurations and checks that the findings are exactly the expected
#     ones (file:line and rule);
#  4. runs bin/custom-gcl run ./... on this repository and on safeprobe/
#     (a module of its own) with the root .golangci.yml, which must be
#     clean.
#
# Usage: tools/golangci/test.sh (make golangci). Set PIDLINT_GCL_REBUILD=1
# to force the build; GO_TEST_TIMEOUT is go test's -timeout (make passes
# its GOLANGCI_TIMEOUT).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
plugin=$repo/tools/golangci
custom=$repo/tools/custom-gcl
bin=$repo/bin/custom-gcl
stamp=$bin.stamp
cd "$repo"

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }

# sources prints the files bin/custom-gcl is built from, for the stamp: the
# Go files and embedded files of every package of this repository the
# plugin imports (the analyzer), the plugin, the command, the go.mod and
# go.sum files, and the Go version.
sources() {
	(cd "$plugin" && go list -deps -f '{{if and .Module (or .Module.Main .Module.Replace)}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$d}}/{{.}}
{{end}}{{end}}' .) | sed '/^$/d' | sort -u
	ls "$custom"/*.go
	ls "$repo"/go.mod "$repo"/go.sum "$plugin"/go.mod "$plugin"/go.sum "$custom"/go.mod "$custom"/go.sum
}

stamp_of() {
	{
		go version
		sources | while read -r f; do
			echo "$f $(sha256sum <"$f")"
		done
	} | sha256sum | cut -d' ' -f1
}

# 1. Build.
t=$(now)
want_stamp=$(stamp_of)
if [ -x "$bin" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want_stamp" ] && [ -z "${PIDLINT_GCL_REBUILD:-}" ]; then
	echo "golangci: bin/custom-gcl is up to date ($(since "$t"))"
else
	t=$(now)
	(cd "$custom" && go mod download)
	echo "golangci: go mod download in tools/custom-gcl: $(since "$t")"
	t=$(now)
	mkdir -p "$repo/bin"
	# -buildvcs=false: the binary depends only on the sources, so an
	# unchanged tree rebuilds to the same bytes and golangci-lint, whose
	# cache is salted with the binary's hash, keeps its cached results.
	(cd "$custom" && go build -buildvcs=false -o "$bin.tmp" . && go vet ./...)
	mv "$bin.tmp" "$bin"
	echo "$want_stamp" >"$stamp"
	echo "golangci: go build and go vet in tools/custom-gcl: $(since "$t")"
fi

# 2. The plugin's unit tests, and the editor recipes with the binary.
t=$(now)
(cd "$plugin" && go vet ./... && PIDLINT_CUSTOM_GCL="$bin" go test -count=1 -timeout="${GO_TEST_TIMEOUT:-10m}" ./...)
echo "golangci: go vet and go test in tools/golangci: $(since "$t")"

gcl_flags=(--allow-serial-runners --show-stats=false
	--output.text.print-issued-lines=false --output.text.colors=false)
failed=0

# check NAME CONFIG EXPECTED...: runs bin/custom-gcl in testdata/ with
# CONFIG and compares its findings, as "file:line ID" (ID is the rule, or
# the message when it names none), with EXPECTED.
check() {
	local name=$1 config=$2; shift 2
	local out rc=0 got want
	t=$(now)
	out=$(cd "$plugin/testdata" && "$bin" run -c "$config" "${gcl_flags[@]}" ./... 2>&1) || rc=$?
	echo "golangci: custom-gcl run ($name): $(since "$t")"
	got=$(sed -nE 's/^([^ :]+\.go):([0-9]+):[0-9]+: (PL00[0-9]+: .*|.*) \(pidlint\)$/\1:\2 \3/p' <<<"$out" |
		sed -E 's/^([^ ]+) (PL00[0-9]+): .*/\1 \2/' | sort)
	want=$(printf '%s\n' "$@" | sort)
	# golangci-lint exits 1 when it reports issues; every line of output
	# must be a pidlint finding.
	if [ $rc -ne 1 ] || [ "$got" != "$want" ] || [ "$(grep -c . <<<"$out")" -ne $# ]; then
		echo "FAIL: custom-gcl run -c $config ($name) exited $rc; output:"
		sed 's/^/	/' <<<"$out"
		echo "want:"
		sed 's/^/	/' <<<"$want"
		failed=1
	fi
}

# 3. The test module. Lines are those of testdata/probe/probe.go:
#    16 syscall.Kill(pid, 0) whose err == nil is the verdict (PL001)
#    22 p.Signal(syscall.Signal(0)) (PL002)
#    27 the same probe with //nolint:pidlint: not reported
#    32 the same with //pidlint:ignore PL001 on the line above: not reported
#    38 os.FindProcess whose error is the verdict (PL003)
#    45 a kill(pid, 0) that tells EPERM from ESRCH: reported in strict mode
#    51 a //pidlint:ignore that suppresses nothing
check "strict, disable PL003" .golangci.yml \
	"probe/probe.go:16 PL001" \
	"probe/probe.go:22 PL002" \
	"probe/probe.go:45 PL001" \
	"probe/probe.go:51 this pidlint:ignore PL004 matched nothing"
check "no settings" .golangci-defaults.yml \
	"probe/probe.go:16 PL001" \
	"probe/probe.go:22 PL002" \
	"probe/probe.go:38 PL003" \
	"probe/probe.go:51 this pidlint:ignore PL004 matched nothing"

# 4. The project guards itself: this module, and safeprobe, a module of
#    its own (its .golangci.yml is the root's, found upward).
for mod in . safeprobe; do
	t=$(now)
	rc=0
	out=$(cd "$repo/$mod" && "$bin" run "${gcl_flags[@]}" ./... 2>&1) || rc=$?
	echo "golangci: custom-gcl run ./... (in $mod): $(since "$t")"
	if [ $rc -ne 0 ]; then
		echo "FAIL: custom-gcl run ./... in $mod exited $rc:"
		sed 's/^/	/' <<<"$out"
		failed=1
	fi
done

if [ $failed -ne 0 ]; then
	exit 1
fi
echo "golangci: ok"
