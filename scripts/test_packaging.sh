#!/usr/bin/env bash
# Checks the artefacts of scripts/package.sh as the people they are meant for get them:
#   1. portability: the portable egdb program builds and probes a database under
#      `qemu-x86_64 -cpu qemu64` (an x86-64 without AVX, AVX2, BMI1/2), where a program built like
#      the default build (x86-64-v3) dies with SIGILL, which shows that the check can fail; no
#      shipped library needs anything beyond the C library and the dynamic loader;
#   2. C and C++: tests/consumers/cmake (find_package(egdb CONFIG): egdb::egdb, egdb::egdb_c) and
#      tests/consumers/pkgconfig (pkg-config egdb: shared, and static with --static), built outside
#      the tree against dist/prefix and run;
#   3. Python: every wheel's manylinux_2_17 tag (auditwheel show) and symbol versions
#      (scripts/check_glibc_symbols.py, with a control that must fail); each x86_64 wheel in a new
#      virtual environment of its CPython (3.9-3.13, those this machine has) whose PATH holds no
#      compiler, CMake or pkg-config: import, build, probe; the pytest suite on the oldest and the
#      newest; a build and probe on an emulated CPU without AVX2; the cp311 aarch64 wheel in
#      Debian's aarch64 CPython under qemu-aarch64;
#   4. Java: the jar's natives for linux-x86_64, linux-aarch64 (the C test program on the jar's
#      libegdb.so under qemu-aarch64) and windows-x86_64 (the files the Wine stage runs);
#      tests/consumers/java, which only declares org.egdb:egdb, compiled by Maven and run with
#      plain `java -cp` (no JVM flags), the jar extracting its own native library;
#   5. README.md's quick start, every block run as written in a folder holding dist/.
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
# Every libegdb.so shipped exports exactly the functions egdb.h declares (capi/egdb_exports.map).
declared=$(grep -o 'EGDB_CALL *\**[a-z_0-9]*(' capi/egdb.h | sed 's/EGDB_CALL *\**\([a-z_0-9]*\)(/\1/' | sort)
for library in "$root/dist/prefix/lib/libegdb.so" build-zig-x86_64/capi/libegdb.so build-zig-aarch64/capi/libegdb.so; do
  [[ -f $library ]] || continue
  exported=$(nm -D --defined-only "$library" | awk '{print $3}' | sort)
  if [[ $exported == "$declared" ]]; then
    echo "ok: ${library#"$root"/} exports the $(wc -l <<<"$declared") functions of egdb.h and nothing else"
  else
    fail "${library#"$root"/} exports differ from egdb.h: $(diff <(echo "$declared") <(echo "$exported") | grep '^[<>]' | head -n 5 | tr '\n' ' ')"
  fi
done

echo "== C and C++: consumer projects against the installed prefix"
prefix=$root/dist/prefix
# Users include <egdb/egdb.h>: the source tree's capi/ folder is no part of the installed layout.
if [[ -f $prefix/include/egdb/egdb.h && -z $(find "$prefix" -path '*capi*') ]]; then
  echo "ok: the prefix has include/egdb/egdb.h and no path containing capi/"
else
  fail "the prefix lacks include/egdb/egdb.h or has paths containing capi/: $(find "$prefix" -path '*capi*' | head -n 3)"
fi
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

echo "== Python: every wheel's tag and symbol versions"
venv_tools=$root/build/venv
source scripts/cpython.sh
# Python code that builds the 3-piece database DB and prints "LABEL: <value> <DTW>" of B:W28:BK26.
probe_code() {  # probe_code LABEL DB
  printf '%s\n' "import egdb" "egdb.build('$2', 3)" "with egdb.open('$2') as db:" \
    "    print('$1:', db.probe_wld('B:W28:BK26'), db.probe_dtw('B:W28:BK26'))"
}

shopt -s nullglob
wheels=("$root"/dist/egdb-*-manylinux_2_17_*.whl)
shopt -u nullglob
# Every version whose CPython (with its headers) this machine has must have its two wheels; the
# others cannot be built here (scripts/package.sh said so), and are reported skipped.
for minor in "${egdb_python_minors[@]}"; do
  if [[ -z $(python_for "$minor") ]]; then
    echo "SKIP: cp3$minor wheels: no CPython 3.$minor on this machine to build them with (e.g. pyenv install 3.$minor)"
    continue
  fi
  for arch in x86_64 aarch64; do
    [[ -f $(ls "$root"/dist/egdb-*-cp3$minor-cp3$minor-manylinux_2_17_$arch.*.whl 2>/dev/null | head -n 1) ]] ||
      fail "no cp3$minor wheel for $arch in dist/"
  done
done
for wheel in "${wheels[@]}"; do
  shown=$("$venv_tools/bin/auditwheel" show "$wheel" 2>&1 | tr '\n' ' ')
  if grep -q 'consistent with the following platform tag: "manylinux_2_17_' <<<"$shown"; then
    echo "ok: auditwheel show $(basename "$wheel"): manylinux_2_17"
  else
    fail "auditwheel show $(basename "$wheel"): $shown"
  fi
done
# The same promise checked by the project's own script (symbol versions, needed libraries), and
# its control: the default build's libegdb.so (glibc 2.36, libstdc++, libzstd) must fail it.
if "$venv_tools/bin/python" scripts/check_glibc_symbols.py --glibc 2.17 "${wheels[@]}" >"$work/glibc-check.txt" 2>&1; then
  echo "ok: every ELF file of the ${#wheels[@]} wheels needs glibc 2.17 at most and only system libraries"
else
  fail "scripts/check_glibc_symbols.py: $(grep FAIL "$work/glibc-check.txt" | head -n 5)"
fi
if [[ -f build/capi/libegdb.so ]]; then
  if "$venv_tools/bin/python" scripts/check_glibc_symbols.py --glibc 2.17 build/capi/libegdb.so >/dev/null 2>&1; then
    fail "check_glibc_symbols.py passed build/capi/libegdb.so (glibc 2.36): the check proves nothing"
  else
    echo "ok: check_glibc_symbols.py fails the default build's libegdb.so, as it must"
  fi
fi

echo "== Python: each x86_64 wheel in a fresh virtual environment of its CPython, without a compiler"
# PATH: the environment's own programs and nothing else, so no cc, c++, cmake, pkg-config, make.
tested_minors=()
for minor in "${egdb_python_minors[@]}"; do
  wheel=$(ls "$root"/dist/egdb-*-cp3$minor-cp3$minor-manylinux_2_17_x86_64.*.whl 2>/dev/null | head -n 1 || true)
  interpreter=$(python_for "$minor")
  if [[ -z $interpreter || -z $wheel ]]; then
    echo "SKIP: cp3$minor x86_64: no CPython 3.$minor interpreter on this machine (or no wheel)"
    continue
  fi
  venv=$work/venv-cp3$minor
  "$interpreter" -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "$wheel" pytest
  bare_path="$venv/bin"
  if ! env PATH="$bare_path" "$venv/bin/python" -c "
import shutil, sys
found = [t for t in ('cc', 'gcc', 'c++', 'g++', 'clang', 'cmake', 'pkg-config', 'make', 'ld') if shutil.which(t)]
sys.exit(f'still on PATH: {found}' if found else 0)"; then
    fail "cp3$minor: the bare PATH still holds build tools"
  fi
  # The interpreter is the version's, and egdb comes from the wheel installed in its environment.
  out=$(cd "$work" && env PATH="$bare_path" "$venv/bin/python" -c "import pathlib, sys, egdb
assert sys.version_info[:2] == (3, $minor), sys.version
assert pathlib.Path(egdb.__file__).is_relative_to('$venv'), egdb.__file__
$(probe_code "python 3.$minor" "py$minor-db3")" 2>&1) || true
  expect_output "cp3$minor wheel: import, build, probe" "python 3.$minor: win 5" "$out"
  # The wheel's egdb program, on the environment's PATH as pip installs it.
  out=$(cd "$work" && env PATH="$bare_path" egdb probe --db "py$minor-db3" 'B:W28:BK26' 2>&1) || true
  expect_output "cp3$minor wheel: the egdb program on the PATH" "B:W28:BK26 wld=win dtw=5" "$out"
  tested_minors+=("$minor")
done
# The whole Python suite on the oldest and the newest version tested.
if ((${#tested_minors[@]})); then
  for minor in "${tested_minors[0]}" "${tested_minors[-1]}"; do
    venv=$work/venv-cp3$minor
    if (cd "$work" && env PATH="$venv/bin" "$venv/bin/python" -m pytest -q -rs -p no:cacheprovider "$root/python/tests" >"$work/pytest-cp3$minor.txt" 2>&1); then
      echo "ok: the Python suite on CPython 3.$minor: $(tail -n 1 "$work/pytest-cp3$minor.txt")"
    else
      tail -n 30 "$work/pytest-cp3$minor.txt"
      fail "the Python suite failed on the cp3$minor wheel"
    fi
  done
fi
if command -v qemu-x86_64 >/dev/null && [[ $(uname -m) == x86_64 ]] && ((${#tested_minors[@]})); then
  # SandyBridge (AVX, but none of x86-64-v3's AVX2, BMI1/2, FMA, MOVBE, LZCNT) rather than qemu64:
  # numpy, which the package imports, needs more than the baseline: numpy 2's wheels x86-64-v2,
  # and since 2.4 AVX as well (`import numpy` dies with SIGILL under qemu's Nehalem and Westmere).
  # egdb's own code is checked on qemu64 (baseline x86-64) above and below; here the wheel's
  # libraries are checked free of the default build's x86-64-v3 instructions.
  venv=$work/venv-cp3${tested_minors[-1]}
  out=$(cd "$work" && qemu-x86_64 -cpu SandyBridge "$venv/bin/python" -c "$(probe_code "python without AVX2" qemu-py-db3)" 2>&1) || true
  expect_output "the wheel on a CPU without AVX2 (qemu SandyBridge)" "python without AVX2: win 5" "$out"
fi

echo "== Python: the aarch64 wheel in an aarch64 CPython under qemu-aarch64"
aarch64_root=$root/build/aarch64-root
aarch64_python=$aarch64_root/usr/bin/python3.11
if command -v qemu-aarch64 >/dev/null && [[ -x $aarch64_python ]]; then
  wheel=$(ls "$root"/dist/egdb-*-cp311-cp311-manylinux_2_17_aarch64.*.whl)
  # pip installs for the other processor (its tag checks included) into a folder the emulated
  # interpreter reads; numpy comes as the aarch64 wheel PyPI has for it.
  "$venv_tools/bin/pip" install -q --disable-pip-version-check --target "$work/aarch64-site" --platform manylinux2014_aarch64 \
    --python-version 3.11 --implementation cp --abi cp311 --only-binary=:all: "$wheel"
  out=$(cd "$work" && PYTHONPATH="$work/aarch64-site" qemu-aarch64 -L "$aarch64_root" "$aarch64_python" -c "import platform
assert platform.machine() == 'aarch64', platform.machine()
$(probe_code "aarch64 python" aarch64-py-db3)" 2>&1) || true
  expect_output "cp311 aarch64 wheel in Debian's aarch64 CPython 3.11 (qemu)" "aarch64 python: win 5" "$out"
  echo "SKIP: cp39, cp310, cp312, cp313 aarch64 wheels are not imported: the registries have an aarch64 CPython 3.11 only (Debian 12); their extensions come from the same build and headers, and pass the tag and symbol checks above"
else
  echo "SKIP: aarch64 wheel: qemu-aarch64 or the aarch64 CPython of scripts/setup.sh (build/aarch64-root) is missing"
fi

echo "== Python: the sdist builds the package where no wheel fits"
sdist=$root/dist/egdb-$(sed -n 's/^project(egdb VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt).tar.gz
if [[ -f $sdist ]]; then
  # Unpacked into a fixed folder below the clone, built by scikit-build-core as pip does, with the
  # tools of build/venv (no download) and ccache (the folder's paths are relative to the clone).
  rm -rf "$work/sdist" && mkdir -p "$work/sdist" && tar -xzf "$sdist" -C "$work/sdist"
  sdist_tree=$(ls -d "$work"/sdist/egdb-*)
  sdist_args=(-C "build-dir=$work/sdist/build")
  if command -v ccache >/dev/null; then
    sdist_args+=(-C cmake.define.CMAKE_C_COMPILER_LAUNCHER=ccache -C cmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  # The Kingsrow tables from where this build found them (a user's build downloads them).
  tables=$(sed -n 's/^EGDB_KINGSROW_TABLES:PATH=//p' build-portable/CMakeCache.txt 2>/dev/null || true)
  [[ -n $tables ]] && sdist_args+=(-C "cmake.define.EGDB_KINGSROW_TABLES=$tables")
  if CCACHE_BASEDIR=$root CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) "$venv_tools/bin/pip" wheel -q --disable-pip-version-check \
       --no-deps --no-build-isolation -w "$work/sdist/wheel" "${sdist_args[@]}" "$sdist_tree" >"$work/sdist/log.txt" 2>&1; then
    python3 -m venv "$work/sdist/venv"
    "$work/sdist/venv/bin/pip" install -q --disable-pip-version-check "$work"/sdist/wheel/egdb-*.whl
    out=$(cd "$work/sdist" && "$work/sdist/venv/bin/python" -c "$(probe_code "from the sdist" db3)" 2>&1) || true
    expect_output "a wheel built from $(basename "$sdist"), installed and probed" "from the sdist: win 5" "$out"
  else
    tail -n 20 "$work/sdist/log.txt"
    fail "pip wheel of $(basename "$sdist") failed"
  fi
else
  fail "no sdist in dist/"
fi

echo "== Java: the jar's natives, and a consumer project that only declares the dependency"
jar=$(ls "$root"/dist/egdb-*.jar)
# The listing is taken whole before it is searched: `unzip -l | grep -q` under pipefail fails when
# grep stops at the first match and unzip, still writing a listing longer than the pipe, dies of
# SIGPIPE (it did, once, on a jar that held the library).
listing=$(unzip -l "$jar")
for native in linux-x86_64/libegdb_jni.so linux-x86_64/libegdb.so linux-aarch64/libegdb_jni.so linux-aarch64/libegdb.so \
              windows-x86_64/egdb_jni.dll windows-x86_64/egdb.dll; do
  if grep -q "native/$native" <<<"$listing"; then echo "ok: the jar carries native/$native"; else fail "the jar has no native/$native"; fi
done
rm -rf "$work/jar" && mkdir -p "$work/jar" && (cd "$work/jar" && unzip -q "$jar" 'native/*')
if "$venv_tools/bin/python" scripts/check_glibc_symbols.py --glibc 2.17 "$work"/jar/native/linux-*/*.so >"$work/jar-glibc.txt" 2>&1; then
  echo "ok: the jar's Linux natives need glibc 2.17 at most"
else
  fail "the jar's Linux natives: $(grep FAIL "$work/jar-glibc.txt" | head -n 3)"
fi
# linux-aarch64: the C test program of the ABI, compiled for aarch64 by Zig, against the jar's own
# libegdb.so, run under qemu-aarch64 on Debian's aarch64 C library.
zig=$(ls "$venv_tools"/lib/python3*/site-packages/ziglang/zig 2>/dev/null | head -n 1 || true)
if command -v qemu-aarch64 >/dev/null && [[ -x $aarch64_python && -n $zig ]]; then
  native=$work/jar/native/linux-aarch64
  "$zig" cc -target aarch64-linux-gnu.2.17 -std=c11 -O1 -I"$root" tests/c/capi_test.c -L"$native" -legdb \
    -Wl,-rpath,'$ORIGIN' -o "$native/capi_test"
  out=$(cd "$work" && qemu-aarch64 -L "$aarch64_root" "$native/capi_test" "$work/aarch64-c-db3" 2>&1 | tail -n 1) || true
  expect_output "the jar's linux-aarch64 libegdb.so: tests/c/capi_test.c under qemu-aarch64" "^[1-9][0-9]* passed, 0 failed" "$out"
else
  echo "SKIP: the jar's aarch64 natives: qemu-aarch64, the aarch64 root of scripts/setup.sh or zig is missing"
fi
# windows-x86_64: the jar carries the very files the Wine stage of scripts/test.sh runs
# (build-mingw-x86_64), and the JNI library imports egdb.dll and exports the native methods.
for dll in egdb.dll egdb_jni.dll; do
  built=build-mingw-x86_64/capi/$dll
  [[ $dll == egdb_jni.dll ]] && built=build-mingw-x86_64/bindings/java/$dll
  if cmp -s "$built" "$work/jar/native/windows-x86_64/$dll"; then
    echo "ok: the jar's windows-x86_64/$dll is the one built in build-mingw-x86_64"
  else
    fail "the jar's windows-x86_64/$dll differs from $built"
  fi
done
jni_dump=$(x86_64-w64-mingw32-objdump -p "$work/jar/native/windows-x86_64/egdb_jni.dll")
if grep -q 'DLL Name: egdb.dll' <<<"$jni_dump" && grep -q 'Java_egdb_Native_' <<<"$jni_dump"; then
  echo "ok: egdb_jni.dll imports egdb.dll and exports the native methods"
else
  fail "egdb_jni.dll does not import egdb.dll or export Java_egdb_Native_*"
fi
consumer=tests/consumers/java
mvn -B -q --no-transfer-progress -Dstyle.color=never -f "$consumer/pom.xml" compile dependency:build-classpath \
  -Dmdep.outputFile="$work/java-classpath.txt"
# Plain java: no -Djava.library.path, no -Degdb.library, nothing in the environment either.
out=$(env -u LD_LIBRARY_PATH -u JAVA_TOOL_OPTIONS -u JDK_JAVA_OPTIONS \
  java -cp "$consumer/target/classes:$(cat "$work/java-classpath.txt")" ProbeConsumer "$work/java-db3" 2>&1) || true
expect_output "java consumer (no JVM flags)" "java: WIN in 5 plies, best move 26-31" "$out"

echo "== README.md's quick start, run as written in a folder holding dist/ (tests/readme/quickstart_test.py)"
if ! "$venv_tools/bin/python" tests/readme/quickstart_test.py --readme README.md --dist "$root/dist" \
     --egdb "$root/dist/prefix/bin/egdb" --work "$work/quickstart"; then
  fail "the README's quick start"
fi

if ((failures)); then
  echo "packaging: $failures check(s) failed"
  exit 1
fi
echo "packaging: all checks passed"
