#!/usr/bin/env bash
# Runs every test of the project:
#   1. the GoogleTest suite (ctest) in a Release build of the default native configuration
#      (x86-64-v3), exhaustive cases included;
#   2. the same suite under AddressSanitizer + UndefinedBehaviorSanitizer, with the exhaustive
#      cases cut down (EGDB_TEST_QUICK=1);
#   3. the concurrency tests under ThreadSanitizer;
#   4. the artefacts for other machines (scripts/test_packaging.sh), all from one portable build
#      (build-portable: baseline x86-64, zstd and the C++ runtime linked in): the portable program
#      run on an emulated CPU without AVX2, cmake --install with the find_package and pkg-config
#      consumer projects, the wheel tested in a fresh virtual environment without a compiler, the
#      jar run from a consumer project with no JVM flags;
#   5. the Python package: that same wheel in build/venv with the test dependencies, then pytest
#      (includes the README example, the Hub engine against pydraughts and dame-rs, the VBA
#      declaration check, and the MinGW-w64 cross build of egdb.dll for x86-64 and i686 into
#      build-mingw-<arch> with the check of its export table); the Java binding (mvn test) with
#      the natives the jar carries for linux-x86_64;
#   6. the libFuzzer harnesses of fuzz/ (Clang, ASan + UBSan), each for 15 s from its seed corpus
#      (scripts/fuzz.sh; scripts/fuzz-long.sh runs them for longer);
#   7. the Windows DLL executed: tests/c/capi_test.c cross-compiled with MinGW-w64 and run under
#      Wine with egdb.dll (x86-64; i686 when wine32 is installed, else reported as skipped).
# Every build here is a unity build (CMakeLists.txt makes it the default: sixteen sources a batch,
# half the compile time from nothing).
# Every stage prints its wall time, and the run ends with the table of them.
# Usage: scripts/test.sh   (after scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
# ccache lets a second run of this script, or a clone in another folder, reuse every object.
launcher=()
if command -v ccache >/dev/null; then
  # Paths below the clone are hashed relative to it, so a clone in another folder (CI's) reuses
  # the objects of an earlier run of the same sources.
  export CCACHE_BASEDIR="$PWD"
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

stage_names=()
stage_seconds=()
stage_started=$SECONDS
stage() {  # stage TITLE: ends the running stage (recording its time) and starts the next
  if ((${#stage_names[@]})); then stage_seconds+=($((SECONDS - stage_started))); fi
  stage_names+=("$1")
  stage_started=$SECONDS
  echo "== $1 (from $SECONDS s)"
}
stage_table() {
  stage_seconds+=($((SECONDS - stage_started)))
  echo "== Wall time per stage"
  local i
  for i in "${!stage_names[@]}"; do printf '%6d s  %s\n' "${stage_seconds[$i]}" "${stage_names[$i]}"; done
  printf '%6d s  in all\n' "$SECONDS"
}

stage "Release build and the GoogleTest suite"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
cmake --build build -j "$jobs"
(cd build && ctest --output-on-failure -j "$jobs")

stage "AddressSanitizer + UndefinedBehaviorSanitizer (quick cases)"
# -Og without debug information: sanitizer builds are about checking, and compile time counts.
# On 2 cores from nothing, -O1 took 159-195 s to compile and 83-88 s to run the suite; -Og 95 s
# and 103 s.
# What both sanitizer builds share: no build type flags, and neither the micro-benchmarks nor
# egdb-mpi nor the JNI library, which their stages do not run.
sanitizer_build=(-G Ninja "${launcher[@]}" -DCMAKE_BUILD_TYPE=None -DEGDB_BUILD_BENCH=OFF -DEGDB_MPI=OFF -DEGDB_BUILD_JAVA=OFF)
cmake -S . -B build-asan "${sanitizer_build[@]}" -DCMAKE_CXX_FLAGS=-Og -DCMAKE_C_FLAGS=-Og -DEGDB_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$jobs"
(cd build-asan && EGDB_TEST_QUICK=1 ctest --output-on-failure -j "$jobs")

stage "ThreadSanitizer (concurrency tests)"
cmake -S . -B build-tsan "${sanitizer_build[@]}" -DCMAKE_CXX_FLAGS=-O1 -DCMAKE_C_FLAGS=-O1 -DEGDB_TSAN=ON >/dev/null
cmake --build build-tsan -j "$jobs" --target egdb_thread_tests
# Its suites through ctest, as the other stages: two processes on two cores, where one process
# spends most of its time in the single-threaded reference solutions the tests compare against.
(cd build-tsan && TSAN_OPTIONS="halt_on_error=1" ctest --output-on-failure -j "$jobs" -L '^egdb_thread_tests$')

stage "Packaging: portable wheel, jar and install prefix, each checked as its users get it"
scripts/test_packaging.sh

stage "Python binding: the wheel in build/venv, then pytest (README example, Hub engine, VBA declarations, egdb.dll cross builds and export checks)"
venv=build/venv
if ! "$venv/bin/python" -c "import pytest, draughts, dame, selenium" 2>/dev/null; then
  echo "test: $venv lacks the test dependencies: run scripts/setup.sh" >&2
  exit 1
fi
# The wheel of scripts/package.sh for this environment's CPython (pip picks it among dist/'s by its
# tags): installing it here costs no second compilation of the core.
"$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps --no-index --find-links dist egdb
"$venv/bin/python" -m pytest -q -rs -p no:cacheprovider python/tests

stage "Java binding: mvn test (JUnit 5) with the jar's linux-x86_64 natives (Zig, glibc 2.17)"
mvn -B --no-transfer-progress -f java/pom.xml test -Degdb.native.dir="$PWD/build/jar-natives/native/linux-x86_64"

stage "Fuzzing: every libFuzzer harness of fuzz/ for 15 s, two at a time (scripts/fuzz.sh)"
scripts/fuzz.sh 15

stage "Windows DLL under Wine: the C test program with egdb.dll (tests/windows/wine_capi_test.sh)"
for arch in x86_64 i686; do
  status=0
  tests/windows/wine_capi_test.sh "$arch" "${EGDB_SHARED_DIR:-$PWD/../shared}/oracles/kingsrow_example_wld.txt" || status=$?
  # 77: Wine for this architecture is not installed (the script says which package is missing).
  if [[ $status -ne 0 && $status -ne 77 ]]; then exit "$status"; fi
done
stage_table
