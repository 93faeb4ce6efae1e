# mangabookmark: `make demo` runs the whole thing locally, `make test` runs every test.
SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin
GO ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

.PHONY: build demo test test-short bench faults lint fmt clean

build: ## build both binaries into bin/
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/mangabookmark ./cmd/mangabookmark
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/mbctl ./cmd/mbctl

demo: build ## backend + owner console on a local database and the Site simulator
	scripts/demo.sh

test: ## every test, against a real PostgreSQL (started if needed) and Debian's Chromium
	TEST_DATABASE_URL=$${TEST_DATABASE_URL:-$$(scripts/db.sh admin)} \
		$(GO) test -count=1 -timeout 12m ./...

test-short: ## the quick subset (no browser, no long drives)
	TEST_DATABASE_URL=$${TEST_DATABASE_URL:-$$(scripts/db.sh admin)} \
		$(GO) test -short -count=1 ./...

bench: ## the benchmark report (also written to docs/benchmarks.md)
	TEST_DATABASE_URL=$${TEST_DATABASE_URL:-$$(scripts/db.sh admin)} scripts/bench.sh

faults: ## the fault suite against the real binary (internal/proctest builds its own copy)
	TEST_DATABASE_URL=$${TEST_DATABASE_URL:-$$(scripts/db.sh admin)} \
		$(GO) test -v -count=1 -timeout 20m -tags faults ./faults/...

lint: ## gofmt check and go vet
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin
