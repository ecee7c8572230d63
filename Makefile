# pidlint: make test runs every test; make lint runs pidlint on this tree.
GO ?= go
CROSS_OS := windows darwin freebsd

.PHONY: test check unit cross wine lint soak soak-quick

# Every test: formatting and vet, the race-enabled unit tests, the
# cross-OS builds, and the Windows tests under Wine.
test: check unit cross soak-quick wine

check:
	@unformatted="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt -l:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

unit:
	$(GO) test -race -count=1 ./...

# Vet and build for the other OSes safeprobe supports, and compile their
# test binaries, on amd64 and arm64.
cross:
	@set -e; for os in $(CROSS_OS); do for arch in amd64 arm64; do \
		echo "GOOS=$$os GOARCH=$$arch go vet ./..."; \
		GOOS=$$os GOARCH=$$arch $(GO) vet ./...; \
		GOOS=$$os GOARCH=$$arch $(GO) test -count=1 -run=NONE -exec=true ./... >/dev/null; \
	done; done

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
