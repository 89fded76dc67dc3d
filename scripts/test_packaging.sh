#!/usr/bin/env bash
# Checks the artefacts of scripts/package.sh as the people they are meant for get them:
#   1. portability: the portable egdb program builds and probes a database under
#      `qemu-x86_64 -cpu qemu64` (an x86-64 without AVX, AVX2, BMI1/2), where a program built like
#      the default build (x86-64-v3) dies with SIGILL, which shows that the check can fail; no
#      shipped library needs anything beyond the C library and the dynamic loader;
#   2. C and C++: tests/consumers/cmake (find_package(egdb CONFIG): egdb::egdb, egdb::egdb_c) and
#      tests/consumers/pkgconfig (pkg-config egdb: shared, and static with --static), built outside
#      the tree against dist/prefix and run;
#   3. Python: the wheel installed into a new virtual environment whose PATH holds no compiler,
#      CMake or pkg-config, then the pytest suite against it (and a build and probe on an
#      emulated CPU without AVX2);
#   4. Java: tests/consumers/java, which only declares org.egdb:egdb, compiled by Maven and run
#      with plain `java -cp` (no JVM flags), the jar extracting its own native library.
# Usage: scripts/test_packaging.sh   (after scripts/setup.sh; runs scripts/package.sh first)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scripts/package.sh
work=$root/build/packaging-test
rm -rf "$work" && mkdir -p "$work"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_output() {  # expect_output NAME PATTERN OUTPUT
  if grep -q -- "$2" <<<"$3"; then echo "ok: $1: $(grep -- "$2" <<<"$3" | head -n 1)"; else fail "$1 printed: $3"; fi
}

echo "== portability: no AVX2 and no shared libraries beyond the C library"
portable_egdb=$root/build-portable/cli/egdb
if command -v qemu-x86_64 >/dev/null && [[ $(uname -m) == x86_64 ]]; then
  old_cpu=(qemu-x86_64 -cpu qemu64)
  if out=$("${old_cpu[@]}" "$portable_egdb" build --pieces 3 --out "$work/qemu-db3" --threads 2 2>&1) &&
     out=$("${old_cpu[@]}" "$portable_egdb" probe --db "$work/qemu-db3" 'B:W28:BK26' 2>&1); then
    expect_output "portable egdb under qemu64" "wld=win dtw=5" "$out"
  else
    fail "the portable egdb failed on a CPU without AVX2 (qemu64): $out"
  fi
  # The control: a program that needs x86-64-v3 (an AVX2 addition, a BMI2 bit extraction, the
  # instructions of the default build) runs here and must die with SIGILL under qemu64, which shows
  # that the emulated CPU really lacks them and the check above can fail.
  cat >"$work/needs_v3.c" <<'EOF'
#include <immintrin.h>
#include <stdint.h>
int main(int argc, char** argv) {
    (void)argv;
    volatile uint64_t mask = 0xF0F0u;
    __m256i v = _mm256_add_epi32(_mm256_set1_epi32(argc), _mm256_set1_epi32(argc));
    return _mm256_extract_epi32(v, 3) == 2 * argc && _pext_u64(0xFFFFu, mask) == 0xFFu ? 0 : 1;
}
EOF
  cc -O1 -march=x86-64-v3 "$work/needs_v3.c" -o "$work/needs_v3"
  if grep -qw avx2 /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo && ! "$work/needs_v3"; then
    fail "the x86-64-v3 control program fails on this CPU"
  fi
  set +e
  "${old_cpu[@]}" "$work/needs_v3" >/dev/null 2>&1
  rc=$?
  set -e
  if ((rc == 132 || rc == 4)); then
    echo "ok: an x86-64-v3 program dies with SIGILL under qemu64, as the check expects"
  else
    fail "an x86-64-v3 program ran under qemu64 (exit $rc): the qemu check proves nothing"
  fi
else
  echo "SKIP: qemu-x86_64 (Debian: qemu-user) is not installed or this is not x86-64"
fi
# The libraries the artefacts may load from the system: the C library and the loader.
allowed_needed='^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|ld-linux-x86-64\.so\.2|libegdb\.so)$'
# The egdb program may also need GNU libmicrohttpd (the server of egdb serve; Debian's libmicrohttpd12,
# which brings GnuTLS) and cpp-httplib (the client of egdb bench serve; Debian ships it only as a
# shared library, libcpp-httplib0.11); the libraries that bindings load stay libc-only.
allowed_for_program='^(libmicrohttpd\.so\.12|libcpp-httplib\.so\.0\.11)$'
check_needed() {  # check_needed [--program] FILE...
  local file needed pattern=$allowed_needed
  if [[ $1 == --program ]]; then pattern="$allowed_needed|$allowed_for_program"; shift; fi
  for file in "$@"; do
    needed=$(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    if grep -Evq "$pattern" <<<"$needed"; then
      fail "$file needs $(grep -Ev "$pattern" <<<"$needed" | tr '\n' ' ')"
    else
      echo "ok: $(basename "$file") needs only $(tr '\n' ' ' <<<"$needed")"
    fi
  done
}
check_needed "$root/dist/prefix/lib/libegdb.so" "$root/build-portable/bindings/java/libegdb_jni.so"
check_needed --program "$root/dist/prefix/bin/egdb"

echo "== C and C++: consumer projects against the installed prefix"
prefix=$root/dist/prefix
cmake -S tests/consumers/cmake -B "$work/cmake-consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake-consumer" >/dev/null
expect_output "find_package: egdb::egdb (C++, static)" "c++: win in 5 plies" \
  "$("$work/cmake-consumer/probe_cpp" "$work/cpp-db3" 2>&1)"
expect_output "find_package: egdb::egdb_c (C, shared)" "win in 5 plies, best move 26-31" \
  "$("$work/cmake-consumer/probe_c" "$work/c-db3" 2>&1)"
if command -v qemu-x86_64 >/dev/null && [[ $(uname -m) == x86_64 ]]; then
  expect_output "the installed libegdb.so on qemu64" "win in 5 plies, best move 26-31" \
    "$(qemu-x86_64 -cpu qemu64 "$work/cmake-consumer/probe_c" "$work/c-qemu-db3" 2>&1)"
fi
if grep -q 'NEEDED.*libegdb\.so' <<<"$(readelf -d "$work/cmake-consumer/probe_c")"; then
  echo "ok: probe_c links the shared libegdb"
else
  fail "probe_c does not link libegdb.so"
fi
mkdir -p "$work/pkgconfig-consumer"
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" make -s -C tests/consumers/pkgconfig OUT="$work/pkgconfig-consumer"
expect_output "pkg-config egdb (shared)" "win in 5 plies, best move 26-31" \
  "$("$work/pkgconfig-consumer/probe" "$work/pc-db3" 2>&1)"
expect_output "pkg-config --static egdb" "win in 5 plies, best move 26-31" \
  "$("$work/pkgconfig-consumer/probe_static" "$work/pc-static-db3" 2>&1)"
if grep -q 'NEEDED.*libegdb' <<<"$(readelf -d "$work/pkgconfig-consumer/probe_static")"; then
  fail "probe_static links the shared libegdb"
fi

echo "== Python: the wheel in a fresh virtual environment without a compiler"
venv=$work/venv
python3 -m venv "$venv"
wheel=$(ls "$root"/dist/egdb-*.whl)
"$venv/bin/pip" install -q --disable-pip-version-check "$wheel" pytest
# PATH: the environment's own programs and nothing else, so no cc, c++, cmake, pkg-config, make.
bare_path="$venv/bin"
if env PATH="$bare_path" "$venv/bin/python" - <<'EOF'
import shutil, sys
found = [tool for tool in ("cc", "gcc", "c++", "g++", "clang", "cmake", "pkg-config", "make", "ld") if shutil.which(tool)]
sys.exit(f"still on PATH: {found}" if found else 0)
EOF
then
  echo "ok: no compiler, linker, CMake, make or pkg-config on the PATH of the test run"
else
  fail "the bare PATH still holds build tools"
fi
location=$(cd "$work" && env PATH="$bare_path" "$venv/bin/python" -c "import egdb, pathlib; print(pathlib.Path(egdb.__file__).parent)")
if [[ $location == "$venv"/* ]]; then
  echo "ok: egdb is imported from the wheel ($location)"
else
  fail "egdb is imported from $location, not from the installed wheel"
fi
if ! (cd "$work" && env PATH="$bare_path" "$venv/bin/python" -m pytest -q -rs -p no:cacheprovider "$root/python/tests"); then
  fail "the Python tests failed against the installed wheel"
fi
if command -v qemu-x86_64 >/dev/null && [[ $(uname -m) == x86_64 ]]; then
  # SandyBridge (AVX, but none of x86-64-v3's AVX2, BMI1/2, FMA, MOVBE, LZCNT) rather than qemu64:
  # numpy, which the package imports, needs more than the baseline: numpy 2's wheels x86-64-v2,
  # and since 2.4 AVX as well (`import numpy` dies with SIGILL under qemu's Nehalem and Westmere).
  # egdb's own code is checked on qemu64 (baseline x86-64) above and below; here the wheel's
  # libraries are checked free of the default build's x86-64-v3 instructions.
  out=$(cd "$work" && qemu-x86_64 -cpu SandyBridge "$venv/bin/python" -c "
import egdb
egdb.build('qemu-py-db3', 3)
with egdb.open('qemu-py-db3') as db:
    print('python without AVX2:', db.probe_wld('B:W28:BK26'), db.probe_dtw('B:W28:BK26'))" 2>&1) || true
  expect_output "the wheel on a CPU without AVX2 (qemu SandyBridge)" "python without AVX2: win 5" "$out"
fi

echo "== Java: a consumer project that only declares the dependency"
consumer=tests/consumers/java
mvn -B -q --no-transfer-progress -Dstyle.color=never -f "$consumer/pom.xml" compile dependency:build-classpath \
  -Dmdep.outputFile="$work/java-classpath.txt"
# The listing is taken whole before it is searched: `unzip -l | grep -q` under pipefail fails when
# grep stops at the first match and unzip, still writing a listing longer than the pipe, dies of
# SIGPIPE (it did, once, on a jar that held the library).
if grep -q 'native/linux-x86_64/libegdb_jni.so' <<<"$(unzip -l "$(ls "$root"/dist/egdb-*.jar)")"; then
  echo "ok: the jar carries native/linux-x86_64/libegdb_jni.so and libegdb.so"
else
  fail "the jar has no native/linux-x86_64/libegdb_jni.so"
fi
# Plain java: no -Djava.library.path, no -Degdb.library, nothing in the environment either.
out=$(env -u LD_LIBRARY_PATH -u JAVA_TOOL_OPTIONS -u JDK_JAVA_OPTIONS \
  java -cp "$consumer/target/classes:$(cat "$work/java-classpath.txt")" ProbeConsumer "$work/java-db3" 2>&1) || true
expect_output "java consumer (no JVM flags)" "java: WIN in 5 plies, best move 26-31" "$out"

if ((failures)); then
  echo "packaging: $failures check(s) failed"
  exit 1
fi
echo "packaging: all checks passed"
