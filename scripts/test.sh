#!/usr/bin/env bash
# Runs every test of the project: the GoogleTest suite in a Release build, then the core tests
# again under AddressSanitizer + UndefinedBehaviorSanitizer. Prints ctest's summary lines.
# Usage: scripts/test.sh   (after scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs"
(cd build && ctest --output-on-failure -j "$jobs")

# Sanitizer build: the same suite with slow, exhaustive cases reduced (EGDB_TEST_QUICK).
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEGDB_SANITIZE=ON \
  -DEGDB_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j "$jobs"
(cd build-asan && EGDB_TEST_QUICK=1 ctest --output-on-failure -j "$jobs")
