#!/usr/bin/env bash
# Builds the libFuzzer harnesses (fuzz/, Clang with AddressSanitizer + UndefinedBehaviorSanitizer,
# into build-fuzz) and runs each one for SECONDS seconds from its committed seed corpus
# (fuzz/corpus/<harness>). New inputs the fuzzer finds go to build-fuzz/corpus/<harness>, never into
# the source tree. A crash, a sanitizer report, a leak or a timeout of a harness fails the run; its
# input is kept as build-fuzz/artifacts/<harness>/crash-* (fuzz it again with
# `build-fuzz/fuzz/<harness> <file>`).
# Usage: scripts/fuzz.sh [SECONDS] [HARNESS...]   (default 25 s each, every harness, two at a time)
# scripts/test.sh runs it with the default; scripts/fuzz-long.sh for hours.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-25}
shift || true
clang=$(command -v clang++-16 || command -v clang++ || true)
if [[ -z $clang ]]; then
  echo "fuzz: no clang++ (scripts/setup.sh installs clang-16 and libclang-rt-16-dev)" >&2
  exit 1
fi
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR="$PWD"
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# Line tables only: enough for reports to name functions, files and lines, cheaper to compile than -g.
CC=${clang/clang++/clang} CXX=$clang cmake -S . -B build-fuzz -G Ninja "${launcher[@]}" -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" -DCMAKE_C_FLAGS="-O1 -gline-tables-only" -DEGDB_SANITIZE=ON -DEGDB_FUZZ=ON -DEGDB_BUILD_TESTS=OFF \
  -DEGDB_BUILD_BENCH=OFF -DEGDB_BUILD_CLI=OFF -DEGDB_MPI=OFF -DEGDB_BUILD_JAVA=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc 2>/dev/null || echo 2)" --target egdb_fuzzers
harnesses=("$@")
if ((${#harnesses[@]} == 0)); then
  harnesses=(fuzz_fen fuzz_move fuzz_kingsrow_index fuzz_native_slice fuzz_capi fuzz_kingsrow_runlen
    fuzz_kingsrow_tun_v1 fuzz_kingsrow_tun_v2 fuzz_kingsrow_mtc fuzz_kingsrow_dtw)
fi
# Leaks count as failures (detect_leaks), as do memory errors and undefined behaviour (the build
# stops at the first report); one input may take at most 10 s.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:symbolize=1"
export UBSAN_OPTIONS="print_stacktrace=1"
# Reports name functions and lines only with a symbolizer: Debian's clang-16 comes without one,
# while clang 14's (a dependency of other packages) reads the same DWARF.
if [[ -z ${ASAN_SYMBOLIZER_PATH:-} ]]; then
  for s in /usr/lib/llvm-16/bin/llvm-symbolizer /usr/lib/llvm-*/bin/llvm-symbolizer; do
    if [[ -x $s ]]; then export ASAN_SYMBOLIZER_PATH=$s; break; fi
  done
fi
# Two harnesses at a time on two cores (FUZZ_JOBS to change it): each is one process.
parallel=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
run_one() {
  local h=$1 corpus=build-fuzz/corpus/$1 artifacts=build-fuzz/artifacts/$1 log=build-fuzz/$1.log
  mkdir -p "$corpus" "$artifacts"
  # The corpus grown by earlier runs (written to), then the seeds (read only, from the source tree).
  if build-fuzz/fuzz/"$h" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$artifacts/" "$corpus" "fuzz/corpus/$h" >"$log" 2>&1; then
    if grep -q '^SKIP:' "$log"; then
      echo "fuzz: $h: $(grep '^SKIP:' "$log")"
      return 0
    fi
    local runs cov
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 || true)
    echo "fuzz: $h: ${seconds} s, $runs inputs, $cov, no crash"
  else
    {
      echo "fuzz: $h FAILED (log $log, inputs in $artifacts):"
      grep -E 'ERROR|SUMMARY|runtime error|deadly signal|Test unit written|terminate called' "$log" | head -n 20
    } >&2
    return 1
  fi
}
failed=0
running=0
for h in "${harnesses[@]}"; do
  if ((running >= parallel)); then
    wait -n || failed=$((failed + 1))
    running=$((running - 1))
  fi
  run_one "$h" &
  running=$((running + 1))
done
while ((running > 0)); do
  wait -n || failed=$((failed + 1))
  running=$((running - 1))
done
if ((failed)); then
  echo "fuzz: $failed harness(es) failed" >&2
  exit 1
fi
