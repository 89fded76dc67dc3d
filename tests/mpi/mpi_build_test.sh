#!/usr/bin/env bash
# The distributed build under a real mpirun (docs/distributed-build.md), as CI runs it:
#   1. mpirun -np 3 egdb-mpi builds up to 4 pieces in small units (chunks of 50000 positions,
#      several hundred units): the files are byte-identical to `egdb build --pieces 4`, and
#      `egdb verify` passes on them;
#   2. mpirun -np 4, every rank killed with SIGKILL part-way (as when nodes die), then the same
#      command again: it resumes from the units and slices on disk, to the same bytes.
# Usage: mpi_build_test.sh EGDB_MPI EGDB WORKDIR
set -euo pipefail
egdb_mpi=$1
egdb=$2
work=$3
# Open MPI refuses to start as root unless told that it is meant (CI containers run as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# No network: run over shared memory and loopback only.
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
rm -rf "$work"
mkdir -p "$work"

same_files() {
  local reference=$1 dir=$2 n=0
  for f in "$reference"/slice-*.egdb; do
    cmp -s "$f" "$dir/$(basename "$f")" || { echo "FAIL: $(basename "$f") differs in $dir"; exit 1; }
    n=$((n + 1))
  done
  [[ $n -eq 23 ]] || { echo "FAIL: $n slice files in $reference, expected 23"; exit 1; }
  [[ ! -e $dir/units ]] || { echo "FAIL: $dir/units left behind"; exit 1; }
  echo "ok: $n slice files identical to the single-process build ($dir)"
}

"$egdb" build --pieces 4 --out "$work/reference" --threads 2 --no-verify > /dev/null 2> "$work/reference.err"

mpirun --oversubscribe -np 3 "$egdb_mpi" build --pieces 4 --out "$work/np3" --chunk-positions 50000 --no-verify \
  > "$work/np3.out" 2> "$work/np3.err"
units=$(grep -c '^unit ' "$work/np3.err")
[[ $units -ge 300 ]] || { echo "FAIL: only $units units solved with chunks of 50000 positions"; exit 1; }
same_files "$work/reference" "$work/np3"
"$egdb" verify "$work/np3" > "$work/verify.out" || { cat "$work/verify.out"; echo "FAIL: egdb verify"; exit 1; }
echo "ok: egdb verify passes on the distributed build"

# Killed part-way: wait until some slices are finished and units of others are on disk.
mpirun --oversubscribe -np 4 "$egdb_mpi" build --pieces 4 --out "$work/np4" --chunk-positions 50000 --no-verify \
  > "$work/np4-killed.out" 2> "$work/np4-killed.err" &
launcher=$!
for _ in $(seq 1 600); do
  # (the directory appears only once the build has started)
  slices=$( (find "$work/np4" -maxdepth 1 -name 'slice-*.egdb' 2> /dev/null || true) | wc -l)
  [[ $slices -ge 12 ]] && break
  sleep 0.1
done
pkill -KILL -f "egdb-mpi build --pieces 4 --out $work/np4" || true
wait "$launcher" || true
slices=$(find "$work/np4" -maxdepth 1 -name 'slice-*.egdb' | wc -l)
[[ $slices -lt 23 ]] || { echo "FAIL: the build finished before it was killed; nothing was resumed"; exit 1; }
echo "killed with $slices of 23 slices finished"
mpirun --oversubscribe -np 4 "$egdb_mpi" build --pieces 4 --out "$work/np4" --chunk-positions 50000 --no-verify \
  > "$work/np4.out" 2> "$work/np4.err"
grep -q "slices finished" "$work/np4.err"
head -1 "$work/np4.err"
same_files "$work/reference" "$work/np4"
echo "mpi build test: ok"
