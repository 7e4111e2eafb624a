# photosync — Rules
#
#   make setup        install the system packages the build needs (apt-get, as root)
#   make setup-test   the same plus the PostgreSQL server the tests run against
#   make build        debug build
#   make test         build and run every test against a throwaway PostgreSQL server, then fuzz 5 s (what CI runs)
#   make demo         build, fetch the bundled fixtures into ./demo/catalog.sqlite, list one photographer
#   make release      optimized build
#   make install      install the binary, shell completions and man page under $(PREFIX)
#   make clean        remove build products
#   make bench        release build, then the full benchmark (10k, 100k, 1M photos; long) -> Benchmarks/results/latest.md,
#                     then bench-scale's rows
#   make bench-quick  release build, then the 10k benchmark (import, floor, re-imports) in about a minute
#   make bench-scale  release build, then deletes and PostgreSQL imports/migrate against their floors
#   make test-faults  the fault suite including its slow part (50 kill rounds)
#   make fuzz         libFuzzer on the feed decoder for FUZZ_SECONDS (default 60)
#   make docs         GraphStore's DocC documentation -> .build/docs/GraphStore (static site)

SWIFT        ?= swift
PREFIX       ?= /usr/local
SYSTEM_PKGS  := libsqlite3-dev libcurl4-openssl-dev libpq-dev
# Only the tests need a server: Tests/postgres/cluster.sh starts a throwaway one from these
# binaries (Debian's postinst may create and start its own "main" cluster; the tests never use it).
# chromium: the gallery's browser tests (ServeBrowserTests) drive it headless over its DevTools pipe.
TEST_PKGS    := postgresql openssl chromium nghttp2-server
# wrk: the load client of `make bench`'s serve rows (Benchmarks/serve_bench.py).
BENCH_PKGS   := wrk
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Runs a command with PHOTOSYNC_TEST_POSTGRES_URL set (a server of your own if you set it).
WITH_POSTGRES := Tests/postgres/cluster.sh run --

.PHONY: setup setup-test build test demo release install clean bench bench-quick

# $(call install_missing,PACKAGES): apt-get installs those of PACKAGES that are not installed.
define install_missing
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
endef

setup:
	$(call install_missing,$(SYSTEM_PKGS))

setup-test:
	$(call install_missing,$(SYSTEM_PKGS) $(TEST_PKGS))

build: setup
	$(SWIFT) build

# A few seconds of `make fuzz` end `make test`, so the fuzz harness keeps building and its oracle
# keeps agreeing with the decoder's rules.
TEST_FUZZ_SECONDS ?= 5

# MALLOC_ARENA_MAX=1: Foundation's Process.run() reads up to 256 bytes past a readdir buffer
# (swift-corelibs-foundation #5472); in a thread's own malloc arena that buffer can end at an unmapped
# page, which crashed the test process in CI. The main arena keeps slack above its top.
# One test process: every suite runs its tests on threads of its own (Tests/PhotoSyncTestSupport/
# TestThreads.swift), off Swift's two cooperative threads, TEST_WIDTH tests at a time; see docs/testing.md.
# The run's output is kept in TEST_LOG; a failing run ends by repeating its failures, so the last
# lines of a CI log name them.
TEST_WIDTH ?= 6
TEST_LOG   := .build/test-artifacts/test.log
test: SHELL := /bin/bash
test: setup-test
	$(SWIFT) build --build-tests
	@mkdir -p $(dir $(TEST_LOG))
	set -o pipefail; MALLOC_ARENA_MAX=1 SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) \
	  $(WITH_POSTGRES) $(SWIFT) test --skip-build 2>&1 | tee $(TEST_LOG) || { \
	  echo; echo "== failures (whole log: $(TEST_LOG)) =="; \
	  grep -A4 -E '^(✘ Test .* recorded an issue|Test Case .* failed|.*error: )' $(TEST_LOG) | head -n 80; exit 1; }
	$(MAKE) fuzz FUZZ_SECONDS=$(TEST_FUZZ_SECONDS)

release: setup
	$(SWIFT) build -c release --static-swift-stdlib

# The demo serves the bundled fixture pages on a loopback port and runs a real fetch over HTTP.
demo: release
	@rm -rf demo && mkdir -p demo
	@python3 Fixtures/serve_feed.py --fixtures Fixtures/feed --port 0 > demo/server.port & echo $$! > demo/server.pid; \
	for i in 1 2 3 4 5 6 7 8 9 10; do [ -s demo/server.port ] && break; sleep 0.3; done; \
	port=$$(head -n1 demo/server.port); \
	.build/release/photosync --db demo/catalog.sqlite fetch --url http://127.0.0.1:$$port/ --api-key demo-key; status=$$?; \
	kill $$(cat demo/server.pid) 2>/dev/null; \
	[ $$status -eq 0 ] || exit $$status; \
	echo; echo '$$ photosync list --photographer "Ana Lima"'; \
	.build/release/photosync --db demo/catalog.sqlite list --photographer "Ana Lima"

# Completions come from the binary itself; the man page from argument-parser's generate-manual
# tool (built on its own, in debug: it never relinks photosync) run on the release binary.
# `make install` uses the binary `make release` built and builds one only when there is none, so
# `make release && make install PREFIX=$$HOME/.local` works for a user without root, no rebuild.
# DESTDIR stages the tree for packaging: files go to $(DESTDIR)$(PREFIX)/...
install uninstall: DEST = $(DESTDIR)$(PREFIX)
RELEASE_BIN := .build/release/photosync
$(RELEASE_BIN):
	$(MAKE) release
install: $(RELEASE_BIN)
	$(SWIFT) build --product generate-manual
	@mkdir -p .build/completions .build/man
	.build/debug/generate-manual $(RELEASE_BIN) --output-directory .build/man
	$(RELEASE_BIN) --generate-completion-script bash > .build/completions/photosync
	$(RELEASE_BIN) --generate-completion-script zsh > .build/completions/_photosync
	$(RELEASE_BIN) --generate-completion-script fish > .build/completions/photosync.fish
	install -d $(DEST)/bin $(DEST)/share/bash-completion/completions $(DEST)/share/zsh/site-functions \
	  $(DEST)/share/fish/vendor_completions.d $(DEST)/share/man/man1
	install -m 0755 $(RELEASE_BIN) $(DEST)/bin/photosync
	install -m 0644 .build/completions/photosync $(DEST)/share/bash-completion/completions/photosync
	install -m 0644 .build/completions/_photosync $(DEST)/share/zsh/site-functions/_photosync
	install -m 0644 .build/completions/photosync.fish $(DEST)/share/fish/vendor_completions.d/photosync.fish
	install -m 0644 .build/man/photosync.1 $(DEST)/share/man/man1/photosync.1

.PHONY: uninstall
uninstall:
	rm -f $(DEST)/bin/photosync $(DEST)/share/bash-completion/completions/photosync \
	  $(DEST)/share/zsh/site-functions/_photosync $(DEST)/share/fish/vendor_completions.d/photosync.fish \
	  $(DEST)/share/man/man1/photosync.1

clean:
	rm -rf .build demo

# ---------------------------------------------------------------------------
# Reliability (issue #4)
#
#   make test-faults  the fault suite including its slow, gated part (50 kill rounds, long timeouts)
#   make fuzz         build the libFuzzer target for FeedDecoder.decode and run it FUZZ_SECONDS (60)
#
# `make test` runs the fast part of PhotoSyncFaultTests already; the slow tests report as skipped there.

FUZZ_SECONDS ?= 60
FUZZ_DIR     := .build-fuzz
FUZZ_BIN     := $(FUZZ_DIR)/feed-decoder-fuzz
# Fixtures/fuzz-regressions holds inputs that once crashed the decoder (each has a regression test).
FUZZ_SEEDS   ?= Fixtures/feed Fixtures/fuzz-regressions

.PHONY: test-faults fuzz fuzz-build

test-faults: setup-test
	$(SWIFT) build --build-tests
	MALLOC_ARENA_MAX=1 SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) PHOTOSYNC_SLOW_FAULTS=1 \
	  $(WITH_POSTGRES) $(SWIFT) test --skip-build --filter PhotoSyncFaultTests --filter FetchModelTests

# The fuzzer is built with swiftc straight from the decoder's sources (PhotoFeed/Feed has no
# dependency on libcurl), so `swift build` never needs -sanitize=fuzzer.
$(FUZZ_BIN): $(wildcard Sources/PhotoFeed/Feed/*.swift) Fuzz/FeedDecoderFuzz/FeedDecoderFuzz.swift
	@mkdir -p $(FUZZ_DIR)
	swiftc -parse-as-library -sanitize=fuzzer,address -O -g -module-name PhotoFeed \
	  Sources/PhotoFeed/Feed/*.swift Fuzz/FeedDecoderFuzz/FeedDecoderFuzz.swift -o $@ 2>&1 \
	  | { grep -v "Cannot export local symbol" || true; }
	@test -x $@

fuzz-build: setup $(FUZZ_BIN)

# New inputs go to $(FUZZ_DIR)/corpus; Fixtures/feed and Fixtures/fuzz-regressions are read-only seeds.
# A crash is saved as $(FUZZ_DIR)/crash-*: add it under Fixtures/fuzz-regressions/ with a test.
fuzz: fuzz-build
	@mkdir -p $(FUZZ_DIR)/corpus
	SWIFT_BACKTRACE=enable=no $(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
	  -dict=Fuzz/FeedDecoderFuzz/feed.dict -artifact_prefix=$(FUZZ_DIR)/ -print_final_stats=1 \
	  $(FUZZ_DIR)/corpus $(FUZZ_SEEDS)

# Benchmarks (issue #5): never run by CI or `make test`. See Benchmarks/bench.py. Then what
# persistent history costs a first import (issue 26: the same code built without it), a first
# import with every field against the floor that writes them too (issue 25), and the deletes and PostgreSQL rows (bench-scale), which need the throwaway server: `bench` installs what
# tests do, and wrk.
.PHONY: setup-bench
setup-bench:
	$(call install_missing,$(SYSTEM_PKGS) $(TEST_PKGS) $(BENCH_PKGS))

bench: setup-bench release
	python3 Benchmarks/bench.py
	$(SWIFT) build -c release --static-swift-stdlib --product photosync --build-path .build/bench-without-history \
	  -Xswiftc -DPHOTOSYNC_BENCH_WITHOUT_HISTORY
	python3 Benchmarks/history_bench.py --with .build/release/photosync --without .build/bench-without-history/release/photosync
	python3 Benchmarks/metadata_bench.py
	$(WITH_POSTGRES) python3 Benchmarks/scale_bench.py --large 1000000

bench-quick: setup release
	python3 Benchmarks/bench.py --quick

# Issue 24: deletes against a one-DELETE-per-id floor; PostgreSQL imports and migrate against the
# set-based libpq floor (Benchmarks/scale_bench.py), on a throwaway server.
.PHONY: bench-scale
bench-scale: setup-test release
	$(WITH_POSTGRES) python3 Benchmarks/scale_bench.py

# GraphStore's DocC catalog (Sources/GraphStore/GraphStore.docc), built by swift-docc-plugin.
.PHONY: docs
docs: setup
	@rm -rf .build/docs/GraphStore && mkdir -p .build/docs
	$(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation --target GraphStore \
	  --output-path .build/docs/GraphStore --transform-for-static-hosting
	@echo "open .build/docs/GraphStore/index.html through a web server (static hosting layout)"
