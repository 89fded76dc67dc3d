#!/usr/bin/env bash
# Builds what egdb ships to other machines into dist/ (scripts/test_packaging.sh checks each as its
# users get it):
#   dist/egdb-<v>-cp3XY-cp3XY-manylinux_2_17_<arch>.manylinux2014_<arch>.whl
#                  the Python wheels, CPython 3.9-3.13 x x86_64, aarch64: built with Zig against
#                  glibc 2.17 (cmake/toolchains/zig-linux.cmake) in build-zig-<arch>, one core and
#                  one libegdb.so per processor, one extension module per Python version, and the
#                  egdb program (pip puts it on the PATH; every command but serve)
#   dist/egdb-<v>.jar
#                  the Java binding with its natives for linux-x86_64, linux-aarch64 (the Zig
#                  builds) and windows-x86_64 (MinGW-w64, build-mingw-x86_64), also installed into
#                  the local Maven repository as org.egdb:egdb:<v>
#   dist/egdb-<v>-linux-x86_64.tar.gz
#                  the install prefix (dist/prefix: bin/egdb, include/egdb/egdb.h and the C++
#                  headers, lib/libegdb.so and libegdb.a, the CMake package, egdb.pc) of the
#                  portable host build (build-portable: baseline x86-64, static zstd and C++
#                  runtime); its egdb program has every command, egdb serve included
#   dist/egdb-<v>.tar.gz
#                  the Python source distribution: the whole source tree with a top pyproject.toml,
#                  for `pip install` where no wheel fits (builds with CMake and a C++20 compiler)
#   dist/egdb-<v>-windows-x86_64.zip
#                  egdb.dll (MinGW-w64, its C++ runtime inside), its import library, egdb.h and
#                  vba/egdb.bas, for Windows programs and 64-bit Excel
#   dist/SHA256SUMS
# Usage: scripts/package.sh [c|python|java]...   (default: all three; after scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
jobs=$(nproc 2>/dev/null || echo 2)
parts=("$@")
((${#parts[@]})) || parts=(c python java)
for part in "${parts[@]}"; do
  [[ $part == c || $part == python || $part == java ]] || { echo "package.sh: unknown part '$part' (c, python, java)" >&2; exit 2; }
done
wants() { [[ " ${parts[*]} " == *" $1 "* ]]; }
version=$(sed -n 's/^project(egdb VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
venv=$root/build/venv
dist=$root/dist
mkdir -p "$dist"

launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$root"
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# What every shipped build leaves out: tests, benchmarks, MPI.
shipped=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DEGDB_PORTABLE=ON -DEGDB_BUILD_TESTS=OFF -DEGDB_BUILD_BENCH=OFF -DEGDB_MPI=OFF)

# The CPython versions the wheels are for (scripts/cpython.sh), and the headers of each found on
# this machine: an interpreter python3.X in pyenv's versions or on the PATH. Only the headers are used (the
# extension is compiled, never run, here), and the same ones for aarch64: CPython's headers
# differ between Linux x86_64 and aarch64 in pyconfig.h only, in macros that do not change the
# ABI an extension sees (both LP64, little-endian, same sizes and alignments); the aarch64 wheel
# is imported by a real aarch64 CPython in scripts/test_packaging.sh where one can be had.
source scripts/cpython.sh
python_abis=()
for minor in "${egdb_python_minors[@]}"; do
  include=""
  interpreter=$(python_for "$minor")
  [[ -n $interpreter ]] && include=$("$interpreter" -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null || true)
  if [[ -n $include && -f $include/Python.h ]]; then
    python_abis+=("cp3$minor=$include")
  elif wants python; then
    echo "package: SKIP cp3$minor wheels: no CPython 3.$minor with its headers here (e.g. pyenv install 3.$minor)"
  fi
done

# The header-only libraries of the egdb program (CLI11, nlohmann-json), alone in a folder the cross
# builds include (CMakeLists.txt, EGDB_HEADER_ONLY_INCLUDE_DIR).
header_only=$root/build/deps/header-only
mkdir -p "$header_only"
for library in CLI nlohmann; do
  [[ -d /usr/include/$library ]] || { echo "package: /usr/include/$library missing: run scripts/setup.sh" >&2; exit 1; }
  ln -sfn "/usr/include/$library" "$header_only/$library"
done

zig_build() {  # zig_build ARCH TARGET...: the Zig cross build of build-zig-ARCH
  local arch=$1 abis
  shift
  abis=$(IFS=';'; echo "${python_abis[*]}")
  echo "package: Zig build for $arch-linux-gnu.2.17 in build-zig-$arch (${*})"
  # The egdb program without egdb serve (EGDB_HTTP=OFF): libmicrohttpd is not built for the target.
  # ccache takes the Zig wrapper as the compiler: it is told which compiler that is by Zig's
  # version, since the wrapper's own path and date differ from clone to clone.
  local zig_launcher=()
  if ((${#launcher[@]})); then
    zig_launcher=("-DCMAKE_C_COMPILER_LAUNCHER=env;CCACHE_COMPILERCHECK=string:zig-$zig_version;ccache"
                  "-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_COMPILERCHECK=string:zig-$zig_version;ccache")
  fi
  cmake -S . -B "build-zig-$arch" "${shipped[@]}" "${zig_launcher[@]}" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/zig-linux.cmake" \
    -DEGDB_ZIG_ARCH="$arch" -DEGDB_BUILD_CLI=ON -DEGDB_HTTP=OFF -DEGDB_HEADER_ONLY_INCLUDE_DIR="$header_only" \
    -DEGDB_BUILD_PYTHON=ON -DEGDB_PYTHON_ABIS="$abis" \
    -DEGDB_PYBIND11_INCLUDE_DIR="$("$venv/bin/python" -c 'import pybind11; print(pybind11.get_include())')" >/dev/null
  cmake --build "build-zig-$arch" -j "$jobs" --target "$@"
}

if wants c; then
  echo "package: portable CMake build in build-portable"
  cmake -S . -B build-portable "${shipped[@]}" "${launcher[@]}" \
    -DCMAKE_C_COMPILER="$(command -v "${CC:-cc}")" -DCMAKE_CXX_COMPILER="$(command -v "${CXX:-c++}")" >/dev/null
  cmake --build build-portable -j "$jobs" --target egdb_c egdb_static egdb egdb_jni
  rm -rf "$dist/prefix"
  cmake --install build-portable --prefix "$dist/prefix" --strip >/dev/null
  tar -C "$dist" --transform "s,^prefix,egdb-$version-linux-x86_64," -czf "$dist/egdb-$version-linux-x86_64.tar.gz" prefix
  echo "package: installed into $dist/prefix, packed as $dist/egdb-$version-linux-x86_64.tar.gz"
fi

if wants python || wants java; then
  if ! "$venv/bin/python" -c "import pybind11, ziglang, auditwheel" 2>/dev/null; then
    echo "package: $venv lacks pybind11, ziglang or auditwheel: run scripts/setup.sh" >&2
    exit 1
  fi
  if ((${#python_abis[@]} == 0)); then
    echo "package: no CPython 3.9-3.13 headers on this machine: no wheel can be built" >&2
    exit 1
  fi
  zig_version=$("$venv/bin/python" -m ziglang version)
  for arch in x86_64 aarch64; do
    zig_build "$arch" egdb_c egdb_jni egdb_python_extensions egdb
  done
fi

if wants python; then
  rm -f "$dist"/egdb-*.whl "$dist/egdb-$version.tar.gz"
  "$venv/bin/python" scripts/make_sdist.py --out "$dist"
  for arch in x86_64 aarch64; do
    "$venv/bin/python" scripts/make_wheels.py --build "build-zig-$arch" --arch "$arch" --out "$dist" \
      --program "build-zig-$arch/cli/egdb"
  done
fi

if wants java; then
  # windows-x86_64: egdb.dll and egdb_jni.dll from the MinGW-w64 build that the Windows tests
  # share (the same configuration as tests/windows/wine_capi_test.sh and test_windows_dll.py).
  echo "package: MinGW-w64 build in build-mingw-x86_64"
  cmake -S . -B build-mingw-x86_64 -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
    -DCMAKE_TOOLCHAIN_FILE="$root/bindings/windows/mingw-x86_64.cmake" \
    -DEGDB_MINGW_PREFIX="$root/build/deps/x86_64-w64-mingw32" -DEGDB_BUILD_TESTS=OFF \
    -DEGDB_BUILD_BENCH=OFF -DEGDB_BUILD_JAVA=ON -DEGDB_ARCH= >/dev/null
  cmake --build build-mingw-x86_64 -j "$jobs" --target egdb_c egdb_jni
  natives=$root/build/jar-natives
  rm -rf "$natives"
  for arch in x86_64 aarch64; do
    mkdir -p "$natives/native/linux-$arch"
    cp "build-zig-$arch/bindings/java/libegdb_jni.so" "build-zig-$arch/capi/libegdb.so" "$natives/native/linux-$arch/"
  done
  mkdir -p "$natives/native/windows-x86_64"
  cp build-mingw-x86_64/bindings/java/egdb_jni.dll build-mingw-x86_64/capi/egdb.dll "$natives/native/windows-x86_64/"
  # The same egdb.dll for Windows programs and Excel (64-bit), with its header and VBA module.
  rm -f "$dist/egdb-$version-windows-x86_64.zip"
  "$venv/bin/python" - "$dist/egdb-$version-windows-x86_64.zip" "egdb-$version-windows-x86_64" <<'EOF'
import sys, zipfile
archive, top = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
    for source, name in (("build-mingw-x86_64/capi/egdb.dll", "egdb.dll"),
                         ("build-mingw-x86_64/capi/libegdb.dll.a", "libegdb.dll.a"),
                         ("capi/egdb.h", "include/egdb/egdb.h"), ("vba/egdb.bas", "egdb.bas")):
        z.write(source, f"{top}/{name}")
EOF
  # -DskipTests: scripts/test.sh runs the JUnit suite (mvn test); here the jar is made and
  # installed, and scripts/test_packaging.sh runs it from a consumer project.
  mvn -B -q --no-transfer-progress -Dstyle.color=never -f java/pom.xml install -DskipTests \
    -Degdb.native.dir="$natives/native/linux-x86_64" -Degdb.natives.dir="$natives"
  rm -f "$dist"/egdb-*.jar
  cp "java/target/egdb-$version.jar" "$dist/"
  echo "package: $dist/egdb-$version.jar (installed as org.egdb:egdb:$version in the local Maven repository)"
fi

(cd "$dist" && find . -maxdepth 1 -type f \( -name '*.whl' -o -name '*.jar' -o -name '*.tar.gz' -o -name '*.zip' \) -printf '%f\n' |
  sort | xargs -r sha256sum >SHA256SUMS)
echo "package: $dist/SHA256SUMS:"
sed 's/^/  /' "$dist/SHA256SUMS"
