# photosync — Rules
#
#   make setup        install the system packages the build needs (apt-get, as root)
#   make build        debug build
#   make test         build and run every test (what CI runs)
#   make demo         build, fetch the bundled fixtures into ./demo/catalog.sqlite, list one photographer
#   make release      optimized build
#   make install      install the binary, shell completions and man page under $(PREFIX)
#   make clean        remove build products

SWIFT        ?= swift
PREFIX       ?= /usr/local
SYSTEM_PKGS  := libsqlite3-dev libcurl4-openssl-dev
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup build test demo release install clean

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

# Completions come from the binary itself; the man page from argument-parser's generate-manual
# plugin (which builds in release mode, then runs the binary with --experimental-dump-help).
# DESTDIR stages the tree for packaging: files go to $(DESTDIR)$(PREFIX)/...
install uninstall: DEST = $(DESTDIR)$(PREFIX)
install: release
	$(SWIFT) package plugin generate-manual
	@mkdir -p .build/completions
	.build/release/photosync --generate-completion-script bash > .build/completions/photosync
	.build/release/photosync --generate-completion-script zsh > .build/completions/_photosync
	.build/release/photosync --generate-completion-script fish > .build/completions/photosync.fish
	install -d $(DEST)/bin $(DEST)/share/bash-completion/completions $(DEST)/share/zsh/site-functions \
	  $(DEST)/share/fish/vendor_completions.d $(DEST)/share/man/man1
	install -m 0755 .build/release/photosync $(DEST)/bin/photosync
	install -m 0644 .build/completions/photosync $(DEST)/share/bash-completion/completions/photosync
	install -m 0644 .build/completions/_photosync $(DEST)/share/zsh/site-functions/_photosync
	install -m 0644 .build/completions/photosync.fish $(DEST)/share/fish/vendor_completions.d/photosync.fish
	install -m 0644 .build/plugins/GenerateManual/outputs/photosync/photosync.1 $(DEST)/share/man/man1/photosync.1

.PHONY: uninstall
uninstall:
	rm -f $(DEST)/bin/photosync $(DEST)/share/bash-completion/completions/photosync \
	  $(DEST)/share/zsh/site-functions/_photosync $(DEST)/share/fish/vendor_completions.d/photosync.fish \
	  $(DEST)/share/man/man1/photosync.1

clean:
	rm -rf .build demo
