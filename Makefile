# photosync — Rules
#
#   make setup        install the system packages the build needs (apt-get, as root)
#   make build        debug build
#   make test         build and run every test (what CI runs)
#   make demo         build, fetch the bundled fixtures into ./demo/catalog.sqlite, list one photographer
#   make release      optimized build
#   make install      install the binary, shell completions and man page under $(PREFIX)
#   make clean        remove build products
#   make bench        release build, then the full benchmark (10k, 100k, 1M photos; long) -> Benchmarks/results/latest.md
#   make bench-quick  release build, then the 10k benchmark (import, floor, re-imports) in about a minute

SWIFT        ?= swift
PREFIX       ?= /usr/local
SYSTEM_PKGS  := libsqlite3-dev libcurl4-openssl-dev
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup build test demo release install clean bench bench-quick

setup:
	@missing=""; for p in $(SYSTEM_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

build: setup
	$(SWIFT) build

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

release: setup
	$(SWIFT) build -c release

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

install: release
	install -d $(PREFIX)/bin
	install -m 0755 .build/release/photosync $(PREFIX)/bin/photosync

clean:
	rm -rf .build demo

# Benchmarks (issue #5): never run by CI or `make test`. See Benchmarks/bench.py.
bench: setup release
	python3 Benchmarks/bench.py

bench-quick: setup release
	python3 Benchmarks/bench.py --quick
