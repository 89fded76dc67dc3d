#!/usr/bin/env bash
# The Windows DLL executed: the C test program of the ABI (tests/c/capi_test.c) cross-compiled
# with MinGW-w64 and run under Wine with egdb.dll, so that a database is built (atomic writes:
# FlushFileBuffers, MoveFileExW), opened (CreateFileMapping, MapViewOfFile) and probed through
# the Windows file code of core/util/*_windows.cpp, and every check of the C program passes; then
# threads that call the DLL and end must end cleanly (tests/windows/thread_exit_test.c).
#
# Usage: tests/windows/wine_capi_test.sh ARCH [ORACLE_FILE]
#   ARCH: x86_64 (needs wine64) or i686 (needs wine32, Debian's i386 multiarch package).
# Cross builds the DLL into build-mingw-ARCH (the same configuration as scripts/package.sh and python/tests'
# test_windows_dll.py, so the two share it), the test program and a Wine prefix into
# build-wine-ARCH. Exit code 0 when every check passed; 77 (skipped) when Wine for ARCH is missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
arch=${1:?usage: wine_capi_test.sh x86_64|i686 [ORACLE]}
oracle=${2:-}
case $arch in
  x86_64) triplet=x86_64-w64-mingw32 wine=wine64 ;;
  i686) triplet=i686-w64-mingw32 wine=wine ;;
  *) echo "unknown architecture $arch" >&2; exit 2 ;;
esac
# Debian puts wine64 in /usr/lib/wine; the wine package adds /usr/bin/wine (32-bit with wine32).
wine_path=$(command -v "$wine" || true)
[[ -z $wine_path && -x /usr/lib/wine/$wine ]] && wine_path=/usr/lib/wine/$wine
if [[ -z $wine_path ]]; then
  echo "SKIP: $wine not installed (scripts/setup.sh installs wine64; wine32 needs i386 multiarch)"
  exit 77
fi
if [[ $arch == i686 ]] && ! dpkg-query -W -f='${Status}' wine32:i386 2>/dev/null | grep -q "install ok installed"; then
  echo "SKIP: wine32:i386 not installed (the 32-bit DLL needs Debian's i386 multiarch wine32)"
  exit 77
fi

deps=${EGDB_MINGW_DEPS:-$root/build/deps}
build=$root/build-mingw-$arch
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR=$root
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$root/bindings/windows/mingw-$arch.cmake" -DEGDB_MINGW_PREFIX="$deps/$triplet" \
  -DEGDB_BUILD_TESTS=OFF -DEGDB_BUILD_BENCH=OFF -DEGDB_BUILD_JAVA=ON -DEGDB_ARCH= "${launcher[@]}" >/dev/null
cmake --build "$build" --target egdb_c -j 2 >/dev/null

work=$root/build-wine-$arch
rm -rf "$work/run"
mkdir -p "$work/run"
# The program links the DLL through egdb.h only, as a Windows user's C program would; the
# C runtime is linked statically so that the folder needs nothing but egdb.dll beside the .exe.
"$triplet-gcc-posix" -std=c11 -O1 -Wall -Wextra -I"$root" "$root/tests/c/capi_test.c" \
  -L"$build/capi" -l:libegdb.dll.a -static-libgcc -o "$work/run/capi_test.exe"
"$triplet-gcc-posix" -std=c11 -O1 -Wall -Wextra -I"$root" "$root/tests/windows/thread_exit_test.c" \
  -L"$build/capi" -l:libegdb.dll.a -static-libgcc -o "$work/run/thread_exit_test.exe"
cp "$build/capi/egdb.dll" "$work/run/"
if [[ -n $oracle && -f $oracle ]]; then cp "$oracle" "$work/run/oracle.txt"; oracle_arg=oracle.txt; else oracle_arg=; fi

# A private Wine prefix (created on the first run, about 10 s), no desktop integration, no
# debug chatter; the program runs with the run folder as its current directory (drive Z:).
export WINEPREFIX=$work/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" DISPLAY=
[[ $arch == i686 ]] && export WINEARCH=win32
cd "$work/run"
set +e
"$wine_path" capi_test.exe db3 $oracle_arg >stdout.txt 2>stderr.txt
status=$?
set -e
cat stdout.txt
if [[ $status -ne 0 ]]; then
  echo "FAIL: capi_test.exe under $wine exited with $status" >&2
  tail -n 40 stderr.txt >&2
  exit 1
fi
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' stdout.txt || true)
if [[ -z $summary || ! $summary =~ ^[1-9][0-9]*\ passed,\ 0\ failed ]]; then
  echo "FAIL: capi_test.exe did not report its checks as all passed" >&2
  grep -v '^$' stderr.txt | tail -n 40 >&2
  exit 1
fi
# The files came from the Windows code: a complete native database, no leftover temporaries.
slices=$(ls db3/slice-*.egdb | wc -l)
leftovers=$(find db3 -name '*.tmp*' | wc -l)
if [[ $slices -lt 1 || $leftovers -ne 0 ]]; then
  echo "FAIL: db3 holds $slices slice files and $leftovers temporaries" >&2
  exit 1
fi
# Threads that call the DLL and end (per-thread error messages, lookups) must end cleanly.
set +e
"$wine_path" thread_exit_test.exe db3 >threads.txt 2>threads-stderr.txt
status=$?
set -e
if [[ $status -ne 0 ]] || ! grep -q 'threads ended cleanly' threads.txt; then
  echo "FAIL: thread_exit_test.exe under $wine exited with $status" >&2
  cat threads.txt >&2
  grep -v '^$' threads-stderr.txt | head -n 20 >&2
  exit 1
fi
threads=$(cat threads.txt)
wineserver_path=$(command -v wineserver || echo /usr/lib/wine/wineserver)
"$wineserver_path" -w 2>/dev/null || true
echo "OK: $arch egdb.dll under $wine: $summary, $slices slice files written through the Windows API; $threads"
