# The two commands a newcomer needs: `make demo` and `make test`. Everything else is CMake.
BUILD ?= build
# Unity batches (8 files a batch): a build from a clean clone compiles less.
CMAKE_FLAGS ?= -DFITZ_UNITY_BUILD=ON

.PHONY: all deps configure build test demo update-golden clean grammar fuzz

all: build

deps:
	@bash scripts/install-deps.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

configure: $(BUILD)/build.ninja

build: deps configure
	cmake --build $(BUILD)

# Builds what the tests run (the release tools, then the sanitized tree with every test binary)
# and runs every test group; see scripts/run-tests.sh (which configures the trees it creates as
# unity builds, so a clean clone compiles less).
test: deps
	bash scripts/run-tests.sh $(BUILD)

# Rewrites every golden file from the current output; review the diff before committing.
update-golden: build
	FITZ_UPDATE_GOLDEN=1 $(BUILD)/bin/fitz_golden_tests

# The demo needs fitz and the runtime libraries it links programs against (dependencies of the
# `fitz` target), not the test binaries nor the tools the test stages run.
demo: deps configure
	cmake --build $(BUILD) --target fitz
	bash scripts/demo.sh $(BUILD)

grammar:
	bash scripts/regen-grammar.sh

# Builds every libFuzzer target with clang in $(BUILD)/fuzz and runs each for FITZ_FUZZ_SECONDS
# (default 40); crashing inputs land in $(BUILD)/fuzz/artifacts.
fuzz: deps
	bash scripts/fuzz.sh $(BUILD)/fuzz

clean:
	rm -rf $(BUILD)
