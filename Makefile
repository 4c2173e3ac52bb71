# Quick start: `make run` (set up, build, run the main job) and `make test` (set up, build, test).
# `make asan` builds and runs the core tests under AddressSanitizer + UndefinedBehaviorSanitizer.
BUILD ?= build
BUILD_ASAN ?= build-asan
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: setup configure build run test asan bench clean

setup:
	@bash packaging/install-deps.sh

configure: setup
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DGRADSTEP_WERROR=ON $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@$(BUILD)/app/gradstep demo

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

asan: setup
	@cmake -S . -B $(BUILD_ASAN) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DGRADSTEP_WERROR=ON -DGRADSTEP_SANITIZE=ON -DGRADSTEP_BUILD_BENCH=OFF >/dev/null
	@cmake --build $(BUILD_ASAN) -j $(JOBS) --target gradstep_core_tests
	@cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS) -R '^core:'

bench: build
	@bash tests/bench/run_all.sh $(BUILD)

clean:
	@rm -rf $(BUILD) $(BUILD_ASAN)
