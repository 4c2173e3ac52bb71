# Quick start: `make run` (set up, build, run the main job) and `make test` (set up, build, test).
# `make asan` builds and runs the core tests under AddressSanitizer + UndefinedBehaviorSanitizer
# (leaks inside Graphviz, the font libraries and CPython are suppressed: tests/lsan_external.supp).
# `make fuzz` builds the op fuzzer with clang (libFuzzer + ASan + UBSan) and runs FUZZ_RUNS inputs
# (about a minute here) from FUZZ_SEED, at most FUZZ_SECONDS: with a fixed seed and a fresh corpus
# every run explores the same inputs, so CI cannot fail on a find the last local run did not see.
# For exploration run it longer with another seed: make fuzz FUZZ_SEED=0 FUZZ_RUNS=-1 FUZZ_SECONDS=600.
# Any crash, sanitizer report or leak fails it and leaves the input in build-fuzz/.
# `make package` builds the Debian package (build/package/gradstep_VERSION-1_ARCH.deb) from the
# Release build; `make package-check` also installs it with apt, runs the installed program
# (--version, the default sample, the window offscreen) and removes it (packaging/check-package.sh).
BUILD ?= build
BUILD_ASAN ?= build-asan
BUILD_FUZZ ?= build-fuzz
FUZZ_SECONDS ?= 120
FUZZ_RUNS ?= 150000
FUZZ_SEED ?= 1
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: setup configure build run test package package-check asan fuzz bench clean

setup:
	@bash packaging/install-deps.sh

configure: setup
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DGRADSTEP_WERROR=ON $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# With a display: the window on the default sample. Headless: the same job, printing its report.
run: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then $(BUILD)/app/gradstep gui samples/lenet5_digits.py; \
	else $(BUILD)/app/gradstep run samples/lenet5_digits.py; fi

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

package: build
	@rm -rf $(BUILD)/package && cpack --config $(BUILD)/CPackConfig.cmake -B $(BUILD)/package >/dev/null
	@ls $(BUILD)/package/gradstep_*.deb

package-check: build
	@bash packaging/check-package.sh $(BUILD)

asan: setup
	@cmake -S . -B $(BUILD_ASAN) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DGRADSTEP_WERROR=ON -DGRADSTEP_SANITIZE=ON -DGRADSTEP_BUILD_BENCH=OFF >/dev/null
	@cmake --build $(BUILD_ASAN) -j $(JOBS) --target gradstep_core_tests
	@cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan_external.supp ctest --output-on-failure -j $(JOBS) -R '^core:'

# -O1 keeps the sanitizers' reports readable at a usable speed. New corpus entries go to
# $(BUILD_FUZZ)/corpus; tests/fuzz/corpus holds the committed seeds.
fuzz: setup
	@cmake -S . -B $(BUILD_FUZZ) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
		-DCMAKE_CXX_COMPILER=clang++ -DGRADSTEP_FUZZ=ON -DGRADSTEP_WERROR=ON -DGRADSTEP_BUILD_TESTS=OFF \
		-DGRADSTEP_BUILD_BENCH=OFF $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD_FUZZ) -j $(JOBS) --target gradstep_ops_fuzz
	@rm -rf $(BUILD_FUZZ)/corpus && mkdir -p $(BUILD_FUZZ)/corpus
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $(BUILD_FUZZ)/tests/fuzz/gradstep_ops_fuzz \
		-seed=$(FUZZ_SEED) -runs=$(FUZZ_RUNS) -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
		-artifact_prefix=$(BUILD_FUZZ)/ $(BUILD_FUZZ)/corpus tests/fuzz/corpus

bench: build
	@bash tests/bench/run_all.sh $(BUILD)

clean:
	@rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_FUZZ)
