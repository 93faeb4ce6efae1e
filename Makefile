# mangabookmark: `make demo` runs the whole thing locally, `make test` runs every test.
SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin
GO ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
# golangci-lint is pinned here and built from source by `make lint-install`
# (.ci/run does it), never downloaded as a binary.
GOLANGCI_LINT_VERSION := v2.15.0
GOLANGCI_LINT ?= $(shell $(GO) env GOPATH)/bin/golangci-lint
# govulncheck, pinned and built from source the same way.
GOVULNCHECK_VERSION := v1.9.0
export GOVULNCHECK ?= $(shell $(GO) env GOPATH)/bin/govulncheck
# Packages `make test-race` covers: all of them unless narrowed. `make
# test` runs the race detector over scripts/race-packages only.
RACE_PKGS ?= ./...
# The per-package bound of `make test`: against a hung test, not a measure.
# A loaded 2-core machine has run backend/lanes alone for 12 minutes.
TEST_TIMEOUT ?= 20m
# Packages at once, and tests at once inside a package, in `make test`: the
# two cores of the CI machine and the suite's PostgreSQL connection budget
# (docs/development.md, "PostgreSQL connections").
TEST_P ?= 2
TEST_PARALLEL ?= 2

.PHONY: build demo test test-short test-race test-loaded bench faults lint lint-install vulncheck vulncheck-install fmt clean help

build: ## build both binaries into bin/
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/mangabookmark ./cmd/mangabookmark
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/mbctl ./cmd/mbctl

demo: build ## backend + owner console on a local database and the Site simulator
	scripts/demo.sh

test: ## every test once (-race where code runs on several goroutines), against a real PostgreSQL and Debian's Chromium
	TEST_DATABASE_URL=$${TEST_DATABASE_URL:-$$(scripts/db.sh admin)} GO=$(GO) \
		TEST_TIMEOUT=$(TEST_TIMEOUT) TEST_P=$(TEST_P) TEST_PARALLEL=$(TEST_PARALLEL) scripts/test.sh

test-short: ## the quick subset (no browser, no long drives), in make test's shape
	TEST_DATABASE_URL=$${TEST_DATABASE_URL:-$$(scripts/db.sh admin)} GO=$(GO) \
		TEST_TIMEOUT=$(TEST_TIMEOUT) TEST_P=$(TEST_P) TEST_PARALLEL=$(TEST_PARALLEL) scripts/test.sh -short

test-loaded: ## the suite twice at once beside a CPU hog, as a loaded CI machine runs it
	scripts/test-loaded.sh

test-race: ## every package under the race detector (RACE_PKGS narrows it; slower than make test)
	TEST_DATABASE_URL=$${TEST_DATABASE_URL:-$$(scripts/db.sh admin)} \
		$(GO) test -race -count=1 -timeout 20m $(RACE_PKGS)

bench: ## the benchmark report (also written to docs/benchmarks.md)
	TEST_DATABASE_URL=$${TEST_DATABASE_URL:-$$(scripts/db.sh admin)} scripts/bench.sh

faults: ## the fault suite against the real binary (internal/proctest builds its own copy)
	TEST_DATABASE_URL=$${TEST_DATABASE_URL:-$$(scripts/db.sh admin)} \
		$(GO) test -v -count=1 -timeout 20m -tags faults ./faults/...

lint: ## gofmt check, go vet and golangci-lint (.golangci.yml)
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@test -x $(GOLANGCI_LINT) || { echo "golangci-lint is missing: run make lint-install"; exit 1; }
	$(GOLANGCI_LINT) run ./...

lint-install: ## build the pinned golangci-lint from source into GOPATH/bin
	$(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION)

vulncheck: ## govulncheck over every package, when a vulnerability database is reachable or given in GOVULNDB
	scripts/vulncheck.sh

vulncheck-install: ## build the pinned govulncheck from source into GOPATH/bin
	$(GO) install golang.org/x/vuln/cmd/govulncheck@$(GOVULNCHECK_VERSION)

fmt: ## gofmt every Go file
	gofmt -w $$(git ls-files '*.go')

clean: ## remove bin/
	rm -rf bin

help: ## list the targets
	@awk 'BEGIN { FS = ":.*## " } /^[a-z][a-z-]*:.*## / { printf "  %-13s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)
