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

.PHONY: test test-quick check unit unit-quick cross compat initscript wine lint soak soak-quick fuzz bench bench-build golangci sarifcheck docs

# Every test, stage by stage: formatting and vet, the race-enabled unit
# tests, the cross-OS builds, safeprobe with the oldest Go it supports, the
# benchmarks' build, SARIF validation, the fuzz targets, pidlint over std,
# golangci-lint with the plugin, the safeprobe command as an init script
# uses it, and the Windows tests under Wine. Each stage's name and time is printed, and a
# summary at the end; a failed stage does not stop the others.
TEST_STAGES := check unit cross compat bench-build sarifcheck fuzz soak-quick golangci initscript wine
test:
	@MAKE="$(MAKE)" bash tools/stages/run.sh $(TEST_STAGES)

# The edit loop: gofmt, vet and the unit tests without -race and without
# the slow end-to-end tests (-short), cached between runs; under 3 minutes.
QUICK_STAGES := check unit-quick
test-quick:
	@MAKE="$(MAKE)" bash tools/stages/run.sh $(QUICK_STAGES)

unit-quick:
	$(GO) test -short ./...
	cd $(SAFEPROBE) && $(GO) test -short ./...

check:
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt -l:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	cd $(SAFEPROBE) && $(GO) vet ./...

unit:
	$(GO) test -race -count=1 ./...
	cd $(SAFEPROBE) && $(GO) test -race -count=1 ./...

# Vet and build for the other OSes safeprobe supports, and compile their
# test binaries, on amd64 and arm64.
cross:
	@set -e; for os in $(CROSS_OS); do for arch in amd64 arm64; do \
		echo "GOOS=$$os GOARCH=$$arch go vet ./..."; \
		GOOS=$$os GOARCH=$$arch $(GO) vet ./...; \
		GOOS=$$os GOARCH=$$arch $(GO) test -count=1 -run=NONE -exec=true ./... >/dev/null; \
		echo "GOOS=$$os GOARCH=$$arch go vet ./... (in $(SAFEPROBE))"; \
		(cd $(SAFEPROBE) && GOOS=$$os GOARCH=$$arch $(GO) vet ./... && \
			GOOS=$$os GOARCH=$$arch $(GO) test -count=1 -run=NONE -exec=true ./... >/dev/null); \
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
	GOTOOLCHAIN=$(COMPAT_GO) $(GO) test -count=1 ./...

# The safeprobe command as an init script uses it: start twice, SIGKILL the
# holder, stop, and stop after the holder's PID was given to another process
# (in a PID namespace of its own, as root). Seconds; bounded at 5 minutes.
initscript:
	timeout 300 bash tools/initscript/test.sh

# Windows behaviour, for real, under Wine (installs wine with apt-get).
wine:
	bash tools/wine/test.sh

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
		(cd $$dir && $(GO) test -run=NONE -fuzz="^$$name\$$" -fuzztime=$(FUZZTIME) $$pkg 2>&1 | tail -3; \
			exit $${PIPESTATUS[0]}); \
	done

# The benchmarks compile and vet with every test run; make bench runs them.
bench-build:
	cd bench && $(GO) vet ./... && $(GO) test -count=1 -run=NONE -bench=NONE ./... >/dev/null

# Analyzer overhead against a no-op analyzer, probe and lock against the
# raw syscalls and peer libraries: one markdown table (minutes).
bench:
	bash bench/run.sh

# golangci-lint v2.15.0 with the pidlint plugin, built without a git clone
# (through the Go module proxy) from tools/custom-gcl into bin/custom-gcl,
# run on its test module and on this tree (docs/golangci-lint.md).
golangci:
	bash tools/golangci/test.sh

# The SARIF output validated against the SARIF 2.1.0 JSON schema (a nested
# module, so the validator stays out of pidlint's dependencies).
sarifcheck:
	cd tools/sarifcheck && $(GO) vet ./... && $(GO) test -count=1 ./...

# docs/rules.md from the rules' own text; a test fails when it is stale.
docs:
	$(GO) run ./cmd/pidlint -explain -markdown > docs/rules.md
