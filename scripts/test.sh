#!/usr/bin/env bash
# Runs every test of the project:
#   1. the GoogleTest suite (ctest) in the portable Release build, build-portable: baseline x86-64
#      code with zstd and the C++ runtime linked in, the configuration of everything shipped to
#      others (the wheel, the jar, the installed prefix), which scripts/package.sh then reuses;
#   2. the same suite under AddressSanitizer + UndefinedBehaviorSanitizer in the default native
#      configuration (x86-64-v3: the BMI2 index code), with the exhaustive cases cut down
#      (EGDB_TEST_QUICK=1);
#   3. the concurrency tests under ThreadSanitizer;
#   4. the artefacts for other machines (scripts/test_packaging.sh): the portable program run on an
#      emulated CPU without AVX2, cmake --install with the find_package and pkg-config consumer
#      projects, the wheel tested in a fresh virtual environment without a compiler, the jar run
#      from a consumer project with no JVM flags;
#   5. the Python package: the same wheel in build/venv with the test dependencies, then pytest
#      (includes the README example, the Hub engine against pydraughts and dame-rs, the VBA
#      declaration check, and the MinGW-w64 cross build of egdb.dll for x86-64 and i686 into
#      build-mingw-<arch> with the check of its export table); the Java binding (mvn test);
#   6. the libFuzzer harnesses of fuzz/ (Clang, ASan + UBSan), each for 25 s from its seed corpus
#      (scripts/fuzz.sh; scripts/fuzz-long.sh runs them for longer);
#   7. the Windows DLL executed: tests/c/capi_test.c cross-compiled with MinGW-w64 and run under
#      Wine with egdb.dll (x86-64; i686 when wine32 is installed, else reported as skipped).
# Every stage prints its wall time, and the run ends with the table of them.
# Usage: scripts/test.sh   (after scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
# ccache lets the wheel's build (a second CMake build of the same sources, by scikit-build-core)
# reuse the objects of build-portable, and a second run of this script reuse everything.
launcher=()
if command -v ccache >/dev/null; then
  # Paths below the clone are hashed relative to it, so a clone in another folder (CI's) reuses
  # the objects of an earlier run of the same sources.
  export CCACHE_BASEDIR="$PWD"
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# The compilers by the names scripts/package.sh gives them (a different name would make CMake
# discard build-portable's cache when package.sh configures it again).
compilers=(-DCMAKE_C_COMPILER="$(command -v "${CC:-cc}")" -DCMAKE_CXX_COMPILER="$(command -v "${CXX:-c++}")")

stage_names=()
stage_seconds=()
stage_started=$SECONDS
stage() {  # stage TITLE: ends the running stage (recording its time) and starts the next
  if ((${#stage_names[@]})); then stage_seconds+=($((SECONDS - stage_started))); fi
  stage_names+=("$1")
  stage_started=$SECONDS
  echo "== $1"
}
stage_table() {
  stage_seconds+=($((SECONDS - stage_started)))
  echo "== Wall time per stage"
  local i
  for i in "${!stage_names[@]}"; do printf '%6d s  %s\n' "${stage_seconds[$i]}" "${stage_names[$i]}"; done
  printf '%6d s  in all\n' "$SECONDS"
}

stage "Portable Release build (build-portable) and the GoogleTest suite"
cmake -S . -B build-portable -G Ninja -DCMAKE_BUILD_TYPE=Release "${compilers[@]}" "${launcher[@]}" -DEGDB_PORTABLE=ON \
  -DEGDB_BUILD_TESTS=ON -DEGDB_BUILD_BENCH=ON -DEGDB_MPI=ON >/dev/null
cmake --build build-portable -j "$jobs"
(cd build-portable && ctest --output-on-failure -j "$jobs")

stage "AddressSanitizer + UndefinedBehaviorSanitizer (native configuration, quick cases)"
# -O1 without debug information: sanitizer builds are about checking, and compile time counts.
cmake -S . -B build-asan -G Ninja "${launcher[@]}" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O1 -DCMAKE_C_FLAGS=-O1 \
  -DEGDB_SANITIZE=ON -DEGDB_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j "$jobs"
(cd build-asan && EGDB_TEST_QUICK=1 ctest --output-on-failure -j "$jobs")

stage "ThreadSanitizer (concurrency tests)"
cmake -S . -B build-tsan -G Ninja "${launcher[@]}" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O1 -DCMAKE_C_FLAGS=-O1 \
  -DEGDB_TSAN=ON -DEGDB_BUILD_BENCH=OFF >/dev/null
cmake --build build-tsan -j "$jobs" --target egdb_thread_tests
TSAN_OPTIONS="halt_on_error=1" build-tsan/tests/egdb_thread_tests

stage "Packaging: portable wheel, jar and install prefix, each checked as its users get it"
scripts/test_packaging.sh

stage "Python binding: the wheel in build/venv, then pytest (README example, Hub engine, VBA declarations, egdb.dll cross builds and export checks)"
venv=build/venv
if ! "$venv/bin/python" -c "import pytest, draughts, dame, selenium" 2>/dev/null; then
  echo "test: $venv lacks the test dependencies: run scripts/setup.sh" >&2
  exit 1
fi
# The wheel scripts/package.sh made from ./python (the build `pip install ./python` runs, with the
# portable flags): installing it here costs no second compilation of the core.
"$venv/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps dist/egdb-*.whl
EGDB_CLI="$PWD/build-portable/cli/egdb" "$venv/bin/python" -m pytest -q -rs -p no:cacheprovider python/tests

stage "Java binding: mvn test (JUnit 5) with the portable JNI library"
cmake --build build-portable -j "$jobs" --target egdb_jni
mvn -B --no-transfer-progress -f java/pom.xml test -Degdb.native.dir="$PWD/build-portable/bindings/java"

stage "Fuzzing: every libFuzzer harness of fuzz/ for 25 s, two at a time (scripts/fuzz.sh)"
scripts/fuzz.sh 25

stage "Windows DLL under Wine: the C test program with egdb.dll (tests/windows/wine_capi_test.sh)"
for arch in x86_64 i686; do
  status=0
  tests/windows/wine_capi_test.sh "$arch" "${EGDB_SHARED_DIR:-$PWD/../shared}/oracles/kingsrow_example_wld.txt" || status=$?
  # 77: Wine for this architecture is not installed (the script says which package is missing).
  if [[ $status -ne 0 && $status -ne 77 ]]; then exit "$status"; fi
done
stage_table
