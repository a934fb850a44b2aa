# Useful Map — the two commands README promises, and their helpers.
SHARED ?= $(abspath ../shared)
TAMPERE ?= $(SHARED)/data/tampere

.PHONY: build test release bench demo clean

build:
	swift build

# Builds everything (warnings are errors) and runs every test: unit, storage, routing on the
# real Tampere data, and the daemon's integration tests.
test:
	swift build --build-tests -Xswiftc -warnings-as-errors
	USEFULMAP_SHARED=$(SHARED) swift test --skip-build

release:
	swift build -c release

bench: release
	USEFULMAP_SHARED=$(SHARED) .build/release/usefulmap-bench all

clean:
	rm -rf .build
