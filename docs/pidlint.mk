# pidlint targets for a project's Makefile: copy them in, or keep this file
# beside it and write "include pidlint.mk".
#
#   make pidlint          every finding in the module
#   make pidlint-changed  only findings on lines changed since PIDLINT_BASE
#                         (the pre-merge guard for a repository adopting
#                         pidlint gradually)
#   make pidlint-vet      through go vet, which caches per package
#
# A finding fails the target. pidlint is installed into GOBIN on first use
# with go install github.com/pidlint/pidlint/cmd/pidlint@$(PIDLINT_VERSION),
# which needs a published release: none is tagged yet. Until one is, build
# pidlint from a clone (go install ./cmd/pidlint in a checkout of pidlint)
# and set PIDLINT to that binary, e.g. make pidlint PIDLINT=~/go/bin/pidlint.
# pidlint-vet sees the code as it builds for the host's GOOS only; pidlint
# and pidlint-changed see every GOOS of -goos.

GO ?= go
PIDLINT_VERSION ?= latest
PIDLINT ?= $(or $(shell $(GO) env GOBIN),$(shell $(GO) env GOPATH)/bin)/pidlint
PIDLINT_BASE ?= origin/main
PIDLINT_FLAGS ?=
PIDLINT_PACKAGES ?= ./...

.PHONY: pidlint pidlint-changed pidlint-vet

# Needs a published release, and none is tagged yet: until one is, set
# PIDLINT to a pidlint built from a clone (go install ./cmd/pidlint).
$(PIDLINT):
	$(GO) install github.com/pidlint/pidlint/cmd/pidlint@$(PIDLINT_VERSION)

pidlint: | $(PIDLINT)
	$(PIDLINT) $(PIDLINT_FLAGS) $(PIDLINT_PACKAGES)

pidlint-changed: | $(PIDLINT)
	$(PIDLINT) $(PIDLINT_FLAGS) -new-from-rev=$(PIDLINT_BASE) $(PIDLINT_PACKAGES)

pidlint-vet: | $(PIDLINT)
	$(GO) vet -vettool=$(PIDLINT) $(PIDLINT_FLAGS) $(PIDLINT_PACKAGES)
