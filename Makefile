# Useful Map — the two commands README promises, and their helpers.
SHARED ?= $(abspath ../shared)
TAMPERE ?= $(SHARED)/data/tampere

.PHONY: build test release bench demo clean

build:
	swift build

# Builds everything (warnings are errors) and runs every test: unit, storage, routing on the
# real Tampere data, and the daemon's integration tests. Every test is XCTest, so the empty
# Swift Testing pass is skipped and the run ends on XCTest's own count.
test:
	swift build --build-tests -Xswiftc -warnings-as-errors
	USEFULMAP_SHARED=$(SHARED) swift test --skip-build --disable-swift-testing

release:
	swift build -c release

bench: release
	USEFULMAP_SHARED=$(SHARED) .build/release/usefulmap-bench all

clean:
	rm -rf .build

# README's first command: builds, starts usefulmapd on a temporary data directory, imports
# the Tampere sample region (streets + Nysse GTFS), prints a walk/transit/car comparison
# between two central Tampere places on the feed's test day, then stops the daemon.
DEMO_FROM ?= Keskustori
DEMO_TO ?= Tampere-talo
DEMO_AT ?= 2022-01-12T08:00
demo: build
	@set -e; dir=$$(mktemp -d /tmp/usefulmap-demo-XXXXXX); sock=$$dir/usefulmapd.sock; \
	umctl() { .build/debug/umctl "$$@" --socket $$sock; }; \
	.build/debug/usefulmapd --data-dir $$dir/data --socket $$sock --log-level warning & pid=$$!; \
	trap 'kill -TERM $$pid 2>/dev/null; wait $$pid 2>/dev/null; rm -rf $$dir' EXIT INT TERM; \
	for i in $$(seq 100); do umctl status >/dev/null 2>&1 && break; sleep 0.1; done; \
	echo "== importing Tampere (streets and GTFS) =="; \
	umctl region import tampere --osm $(TAMPERE)/tampere.osm.pbf --gtfs $(TAMPERE)/tampere.zip 2>/dev/null; \
	echo "== umctl compare \"$(DEMO_FROM)\" \"$(DEMO_TO)\" --at $(DEMO_AT) =="; \
	umctl compare "$(DEMO_FROM)" "$(DEMO_TO)" --at $(DEMO_AT)
