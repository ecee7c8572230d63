# pidlint: make test runs every test; make lint runs pidlint on this tree.
SHELL := /bin/bash
GO ?= go
CROSS_OS := windows darwin freebsd
# safeprobe is a module of its own (at go 1.21, so that requiring or
# vendoring it keeps a module's go line): every stage runs it from its
# directory as well as this module's ./... .
SAFEPROBE := safeprobe
# The oldest Go safeprobe supports, its go line: make compat tests with it.
COMPAT_GO := go1.21.13
# Where safeprobe must still build and vet (its tests too): 32-bit, the
# other BSDs, and the OSes it answers only in part.
EXTRA_TARGETS := linux/386 linux/arm windows/386 freebsd/386 netbsd/amd64 openbsd/amd64 \
	dragonfly/amd64 solaris/amd64 illumos/amd64 aix/ppc64 plan9/amd64 js/wasm wasip1/wasm

.PHONY: test test-quick test-loaded check unit unit-quick cross compat initscript wine lint soak soak-quick fuzz bench bench-build golangci sarifcheck pyparser docs

# go test's -timeout for each stage, so that no package leans on the
# 10-minute default: a hung test fails its stage, and the summary names it,
# instead of holding CI. Each is at least twice what the slowest package of
# its stage may take on 2 cores kept busy by stress-ng --cpu 2 (make
# test-loaded), by the README's targets: the unit stage 5 minutes quiet,
# 10 loaded (30m: 3x); test-quick 30 s warm, minutes after an edit to the
# analyzer, whose tests -short keeps (10m); a fuzz target 10 s (5m).
UNIT_TIMEOUT ?= 30m
QUICK_TIMEOUT ?= 10m
COMPAT_TIMEOUT ?= 10m
FUZZ_TIMEOUT ?= 5m
SARIF_TIMEOUT ?= 5m
GOLANGCI_TIMEOUT ?= 10m
PYPARSER_TIMEOUT ?= 10m
WINE_TIMEOUT ?= 10m
# Runs that only compile test binaries (-run=NONE): nothing runs long.
BUILD_TIMEOUT ?= 1m

# Every test, stage by stage: formatting and vet, the race-enabled unit
# tests, the cross-OS builds, safeprobe with the oldest Go it supports, the
# benchmarks' build, SARIF validation, the fuzz targets, pidlint over std,
# golangci-lint with the plugin, the safeprobe command as an init script
# uses it, and the Windows tests under Wine. Each stage's name and time is printed, and a
# summary at the end; a failed stage does not stop the others.
TEST_STAGES := check unit cross compat bench-build sarifcheck pyparser fuzz soak-quick golangci initscript wine
test:
	@MAKE="$(MAKE)" bash tools/stages/run.sh $(TEST_STAGES)

# The unit stage quiet, then again beside stress-ng --cpu (one worker per
# core, installed with apt-get when missing), which keeps every core busy:
# the suite must pass on a busy machine too. Prints both times.
test-loaded:
	@MAKE="$(MAKE)" bash tools/stages/loaded.sh unit

# The edit loop: gofmt, vet and the unit tests without -race and without
# the slow end-to-end tests (-short), cached between runs; under 30 seconds
# with a warm build cache.
QUICK_STAGES := check unit-quick
test-quick:
	@MAKE="$(MAKE)" bash tools/stages/run.sh $(QUICK_STAGES)

unit-quick:
	$(GO) test -short -timeout=$(QUICK_TIMEOUT) ./...
	cd $(SAFEPROBE) && $(GO) test -short -timeout=$(QUICK_TIMEOUT) ./...

check:
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt -l:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	cd $(SAFEPROBE) && $(GO) vet ./...

# The unit stage installs what safeprobe's tests need (mkfs.btrfs, for a
# loop-mounted btrfs) as the wine stage installs Wine.
unit:
	bash tools/apt/need.sh btrfs-progs mkfs.btrfs
	@# safeprobe's tests mostly wait (for processes, locks, timeouts): they
	@# run beside pidlint's, their output printed after it.
	@out=$$(mktemp); \
	(cd $(SAFEPROBE) && $(GO) test -race -count=1 -timeout=$(UNIT_TIMEOUT) ./...) >$$out 2>&1 & sp=$$!; \
	echo "go test -race ./... (and in $(SAFEPROBE), beside it)"; \
	$(GO) test -race -count=1 -timeout=$(UNIT_TIMEOUT) ./...; rc=$$?; \
	wait $$sp; sprc=$$?; cat $$out; rm -f $$out; \
	[ $$rc -eq 0 ] && [ $$sprc -eq 0 ]

# Vet and build for the other OSes safeprobe supports, and compile their
# test binaries: pidlint on amd64 (it has no code of its own per
# architecture), safeprobe on amd64 and arm64.
cross:
	@set -e; for os in $(CROSS_OS); do \
		echo "GOOS=$$os go vet ./..."; \
		GOOS=$$os GOARCH=amd64 $(GO) vet ./...; \
		GOOS=$$os GOARCH=amd64 $(GO) test -count=1 -run=NONE -timeout=$(BUILD_TIMEOUT) -exec=true ./... >/dev/null; \
		for arch in amd64 arm64; do \
		echo "GOOS=$$os GOARCH=$$arch go vet ./... (in $(SAFEPROBE))"; \
		(cd $(SAFEPROBE) && GOOS=$$os GOARCH=$$arch $(GO) vet ./... && \
			GOOS=$$os GOARCH=$$arch $(GO) test -count=1 -run=NONE -timeout=$(BUILD_TIMEOUT) -exec=true ./... >/dev/null); \
	done; done
	@set -e; cd $(SAFEPROBE); for t in $(EXTRA_TARGETS); do \
		echo "GOOS=$${t%/*} GOARCH=$${t#*/} go vet ./... (in $(SAFEPROBE))"; \
		GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) vet ./...; \
	done

# safeprobe with the Go of its go line and the golang.org/x/sys its go.mod
# requires (the lowest it builds with): go vet for every target cross
# covers, and the tests on this host (the unit stage runs them with -race
# under this module's Go). The go command fetches
# the toolchain from the module proxy once, checked against the checksum
# database, into the module cache.
compat:
	@set -e; cd $(SAFEPROBE); \
	GOTOOLCHAIN=$(COMPAT_GO) $(GO) version; \
	for os in $(CROSS_OS) linux; do for arch in amd64 arm64; do \
		echo "GOTOOLCHAIN=$(COMPAT_GO) GOOS=$$os GOARCH=$$arch go vet ./... (in $(SAFEPROBE))"; \
		GOTOOLCHAIN=$(COMPAT_GO) GOOS=$$os GOARCH=$$arch $(GO) vet ./...; \
	done; done; \
	for t in $(EXTRA_TARGETS); do \
		echo "GOTOOLCHAIN=$(COMPAT_GO) GOOS=$${t%/*} GOARCH=$${t#*/} go vet ./... (in $(SAFEPROBE))"; \
		GOTOOLCHAIN=$(COMPAT_GO) GOOS=$${t%/*} GOARCH=$${t#*/} $(GO) vet ./...; \
	done; \
	echo "GOTOOLCHAIN=$(COMPAT_GO) go test ./... (in $(SAFEPROBE))"; \
	GOTOOLCHAIN=$(COMPAT_GO) $(GO) test -count=1 -timeout=$(COMPAT_TIMEOUT) ./...

# The safeprobe command as an init script uses it: start twice, SIGKILL the
# holder, stop, and stop after the holder's PID was given to another process
# (in a PID namespace of its own, as root). Seconds; bounded at 5 minutes.
initscript:
	timeout 300 bash tools/initscript/test.sh

# Windows behaviour, for real, under Wine (installs wine with apt-get).
wine:
	bash tools/wine/test.sh -timeout=$(WINE_TIMEOUT)

lint:
	$(GO) run ./cmd/pidlint ./...

# pidlint -strict and -fix over std, x/tools, x/sys and large modules with
# process code, for linux, windows and darwin (minutes).
soak:
	bash tools/soak/soak.sh

# The same over the std packages that hold process code (seconds).
soak-quick:
	bash tools/soak/soak.sh -quick

# Each fuzz target for FUZZTIME, from its committed seed corpus.
FUZZTIME ?= 10s
# Each as module directory:package:target.
FUZZ_TARGETS := \
	.:./analyzer/internal/goos:FuzzOfFile \
	$(SAFEPROBE):.:FuzzParseStat \
	$(SAFEPROBE):.:FuzzParseRecord \
	$(SAFEPROBE):.:FuzzParsePID \
	$(SAFEPROBE):.:FuzzProcLocks

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		dir=$${t%%:*}; pkg=$${t#*:}; pkg=$${pkg%%:*}; name=$${t##*:}; \
		echo "go test -fuzz=^$$name\$$ -fuzztime=$(FUZZTIME) $$pkg (in $$dir)"; \
		out=$$(cd $$dir && $(GO) test -run=NONE -fuzz="^$$name\$$" -fuzztime=$(FUZZTIME) -timeout=$(FUZZ_TIMEOUT) $$pkg 2>&1) && \
			tail -3 <<<"$$out" || { echo "$$out"; exit 1; }; \
	done

# The benchmarks compile and vet with every test run; make bench runs them.
bench-build:
	cd bench && $(GO) vet ./... && $(GO) test -count=1 -run=NONE -bench=NONE -timeout=$(BUILD_TIMEOUT) ./... >/dev/null

# Analyzer overhead against a no-op analyzer, probe and lock against the
# raw syscalls and peer libraries, and the lock's system calls (strace,
# installed if missing): one markdown table (minutes).
bench:
	bash bench/run.sh

# golangci-lint v2.15.0 with the pidlint plugin, built without a git clone
# (through the Go module proxy) from tools/custom-gcl into bin/custom-gcl,
# run on its test module and on this tree (docs/golangci-lint.md).
golangci:
	GO_TEST_TIMEOUT=$(GOLANGCI_TIMEOUT) bash tools/golangci/test.sh

# The SARIF output validated against the SARIF 2.1.0 JSON schema (a nested
# module, so the validator stays out of pidlint's dependencies).
sarifcheck:
	cd tools/sarifcheck && $(GO) vet ./... && $(GO) test -count=1 -timeout=$(SARIF_TIMEOUT) ./...

# The Python parser regenerated from its pinned C sources (clang to
# WebAssembly, wasm2go to Go) and compared byte for byte with the committed
# file (tools/pyparser; .ci/run installs the C toolchain).
pyparser:
	cd tools/pyparser && $(GO) vet ./... && $(GO) test -count=1 -timeout=$(PYPARSER_TIMEOUT) ./...

# PL007 and PL008 scored on labelled sites in public modules
# (tools/recall/sites.tsv): precision, recall and every unlabelled finding,
# as docs/recall.md explains. It needs the Go module proxy and takes
# minutes, so make test does not run it.
.PHONY: recall
recall:
	bash tools/recall/recall.sh

# docs/rules.md from the rules' own text; a test fails when it is stale.
docs:
	$(GO) run ./cmd/pidlint -explain -markdown > docs/rules.md
