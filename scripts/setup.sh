#!/usr/bin/env bash
# Installs everything egdb needs to build and test on a fresh Debian (12) machine.
# Run as root (or with sudo available). Idempotent: packages already present are not fetched again.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ccache
  libgtest-dev libgmock-dev libbenchmark-dev libzstd-dev
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
binding_packages=(python3-venv python3-dev openjdk-17-jdk-headless maven
  g++-mingw-w64-x86-64 g++-mingw-w64-i686 binutils-mingw-w64)
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
if ! "$venv/bin/python" -c "import scikit_build_core, pybind11, numpy, pytest" 2>/dev/null; then
  echo "setup: creating $venv (scikit-build-core, pybind11, numpy, pytest)"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "scikit-build-core>=0.10" "pybind11>=2.12" numpy pytest
else
  echo "setup: Python environment present"
fi
