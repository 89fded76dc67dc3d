#!/usr/bin/env bash
# The main job: builds egdb (Release), solves every endgame of up to 4 pieces into a native
# database, verifies it, and probes it. Usage: scripts/run.sh [PIECES]   (after scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
pieces=${1:-4}
db=out/db${pieces}

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs" --target egdb
egdb=build/cli/egdb

echo "== building every endgame of up to ${pieces} pieces into ${db} (resumes if interrupted)"
"$egdb" build --pieces "$pieces" --out "$db" --threads "$jobs"

echo "== what was built"
"$egdb" info --db "$db"

echo "== probing (values for the side to move, distances in plies, best move, principal variation)"
"$egdb" probe --db "$db" --pv 'W:W28:BK26' 'B:W28:BK26' 'W:WK46:B37,23,19' 'B:WK2:B15,30' 'W:W31:B13,K28'
echo "== the same as JSON"
"$egdb" probe --db "$db" --json 'W:WK46,28:B37,23'

echo "== perft of the start position (depth, leaves, seconds)"
"$egdb" perft --threads "$jobs" 9
