#!/usr/bin/env bash
# The two drivers of a native build side by side, one after the other on an otherwise idle
# machine (docs/distributed-build.md, "Measured here"):
#   egdb build --pieces P --threads T            build and its closing verification (the product's default)
#   BASELINE build --pieces P --threads T        the same with another egdb (e.g. an older commit), if given
#   egdb build --pieces P --threads T --no-verify
#   mpirun -np T+1 egdb-mpi build --pieces P --threads 1 --no-verify   T workers and a coordinator
# Every run starts from an empty directory; the slice files of every run are compared byte for
# byte with the first. Prints a table of wall times with the ratio to the first run.
# Usage: bench/compare_builds.sh PIECES WORKDIR EGDB EGDB_MPI [BASELINE_EGDB]
# Environment: THREADS (default 2), MEMORY_GB (default: each program's own default).
set -euo pipefail
pieces=$1
work=$2
egdb=$3
egdb_mpi=$4
baseline=${5:-}
threads=${THREADS:-2}
memory=()
[[ -n ${MEMORY_GB:-} ]] && memory=(--memory-gb "$MEMORY_GB")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
rm -rf "$work"
mkdir -p "$work"

names=()
seconds=()
run() {  # run NAME DIR COMMAND...
  local name=$1 dir=$2
  shift 2
  local start end
  start=$(date +%s.%N)
  "$@" > "$work/$name.out" 2> "$work/$name.err" || { echo "FAIL: $name exited $? (see $work/$name.err)"; exit 1; }
  end=$(date +%s.%N)
  names+=("$name")
  seconds+=("$(echo "$end - $start" | bc)")
  echo "$name: $(printf '%.1f' "${seconds[-1]}") s" >&2
}

run egdb "$work/egdb" "$egdb" build --pieces "$pieces" --threads "$threads" "${memory[@]}" --out "$work/egdb"
if [[ -n $baseline ]]; then
  run baseline "$work/baseline" "$baseline" build --pieces "$pieces" --threads "$threads" "${memory[@]}" --out "$work/baseline"
fi
run egdb-no-verify "$work/egdb-no-verify" "$egdb" build --pieces "$pieces" --threads "$threads" "${memory[@]}" --no-verify \
  --out "$work/egdb-no-verify"
run "mpirun-np$((threads + 1))" "$work/mpi" mpirun --oversubscribe -np $((threads + 1)) "$egdb_mpi" build --pieces "$pieces" \
  --threads 1 "${memory[@]}" --no-verify --out "$work/mpi"

dirs=("$work/egdb")
[[ -n $baseline ]] && dirs+=("$work/baseline")
dirs+=("$work/egdb-no-verify" "$work/mpi")
printf '| run | wall s | ratio to %s | slice files equal to %s |\n|---|---|---|---|\n' "${names[0]}" "${names[0]}"
for i in "${!names[@]}"; do
  same=0 total=0
  for f in "${dirs[0]}"/slice-*.egdb; do
    total=$((total + 1))
    cmp -s "$f" "${dirs[$i]}/$(basename "$f")" && same=$((same + 1))
  done
  ratio=$(printf '%.2f' "$(echo "scale=4; ${seconds[$i]} / ${seconds[0]}" | bc)")
  printf '| %s | %.1f | %s | %d of %d |\n' "${names[$i]}" "${seconds[$i]}" "$ratio" "$same" "$total"
done
