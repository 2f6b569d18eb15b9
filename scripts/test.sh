#!/usr/bin/env bash
# Builds and runs every test: the release suite (C++ GoogleTest via ctest, pytest, examples),
# then the suite under AddressSanitizer + UndefinedBehaviorSanitizer, then the threading
# tests under ThreadSanitizer. Installs missing dependencies first.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
jobs="${OPENACL_JOBS:-$(nproc)}"

scripts/setup.sh
scripts/fetch_models.sh >/dev/null

build() {  # build <dir> <cmake args...>
  local dir=$1
  shift
  cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}

echo "== release build and tests =="
# Tests on explicitly: scripts/main.sh builds the same folder without them.
build build/release -DCMAKE_BUILD_TYPE=Release -DOPENACL_BUILD_TESTS=ON -DOPENACL_BUILD_BENCH=OFF
ctest --test-dir build/release -j "$jobs" --output-on-failure --no-tests=error

echo "== ggml's CANN backend on openacl: test-backend-ops, the ops of --subset =="
# llama.cpp from the npm registry, built unchanged against the installed openacl and cached in
# build/ggml (the first build takes long, see docs/ggml.md); every case of these ops that ggml
# claims as supported must pass. The full pass: scripts/ggml_cann.sh without --subset.
scripts/ggml_cann.sh --subset

echo "== AddressSanitizer + UndefinedBehaviorSanitizer =="
build build/asan -DCMAKE_BUILD_TYPE=Debug -DOPENACL_SANITIZE=address \
  -DOPENACL_BUILD_PYTHON=OFF -DOPENACL_BUILD_BENCH=OFF -DOPENACL_BUILD_TOOLS=OFF
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build/asan -j "$jobs" --output-on-failure -L cpu -LE 'slow|fuzz'

echo "== API-sequence fuzzer under AddressSanitizer + UndefinedBehaviorSanitizer =="
# tests/fuzz: 8 threads of random runtime calls per seed, 4 seeds, over 1,000,000 calls in all
# (tests/fuzz/CMakeLists.txt). A failing seed prints itself; replay it with
# build/asan/tests/fuzz/openacl_fuzz --seed S --calls N --threads 8.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build/asan -j "$jobs" --output-on-failure -L fuzz

echo "== ThreadSanitizer (runtime core and diagnostics suites) =="
# The core-only library (no op library, no models) keeps this build short; the op and model
# suites ran under ASan above.
build build/tsan -DCMAKE_BUILD_TYPE=Debug -DOPENACL_SANITIZE=thread -DOPENACL_CORE_ONLY=ON \
  -DOPENACL_TEST_DIRS="core;check;fuzz" -DOPENACL_BUILD_PYTHON=OFF -DOPENACL_BUILD_BENCH=OFF \
  -DOPENACL_BUILD_TOOLS=OFF -DOPENACL_BUILD_EXAMPLES=OFF
# The checker's buggy programs (CheckRace, CheckHost, CheckFree, and the CheckMode tests that
# run them) race on purpose: TSan would rightly flag the programs themselves, so only their
# correct twins run here.
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  ctest --test-dir build/tsan -j "$jobs" --output-on-failure -LE fuzz -E '^Check(Race|Host|Free|Mode)[.]'

echo "== API-sequence fuzzer under ThreadSanitizer =="
# The fuzzer runs race-safe here (tests/fuzz/fuzz.h): the runtime's own synchronization is
# what TSan checks, not data races the random program would make on its buffers.
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  ctest --test-dir build/tsan -j "$jobs" --output-on-failure -L fuzz

echo "== all tests passed =="
