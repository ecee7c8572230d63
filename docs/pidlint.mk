# pidlint targets for a project's Makefile: copy them in, or keep this file
# beside it and write "include pidlint.mk".
#
#   make pidlint          every finding in the module
#   make pidlint-changed  only findings on lines changed since PIDLINT_BASE
#                         (the pre-merge guard for a repository adopting
#                         pidlint gradually)
#   make pidlint-vet      through go vet, which caches per package
#
# A finding fails the target. pidlint is installed into GOBIN on first use;
# set PIDLINT to use a binary you have already.

GO ?= go
PIDLINT_VERSION ?= latest
PIDLINT ?= $(or $(shell $(GO) env GOBIN),$(shell $(GO) env GOPATH)/bin)/pidlint
PIDLINT_BASE ?= origin/main
PIDLINT_FLAGS ?=
PIDLINT_PACKAGES ?= ./...

.PHONY: pidlint pidlint-changed pidlint-vet

$(PIDLINT):
	$(GO) install github.com/pidlint/pidlint/cmd/pidlint@$(PIDLINT_VERSION)

pidlint: | $(PIDLINT)
	$(PIDLINT) $(PIDLINT_FLAGS) $(PIDLINT_PACKAGES)

pidlint-changed: | $(PIDLINT)
	$(PIDLINT) $(PIDLINT_FLAGS) -new-from-rev=$(PIDLINT_BASE) $(PIDLINT_PACKAGES)

pidlint-vet: | $(PIDLINT)
	$(GO) vet -vettool=$(PIDLINT) $(PIDLINT_FLAGS) $(PIDLINT_PACKAGES)
