#!/usr/bin/env bash
# The main job: builds egdb (Release) and exercises it end to end on this machine.
# Usage: scripts/run.sh   (after scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$jobs" --target egdb
egdb=build/cli/egdb

echo "== perft of the start position (depth, leaves, seconds)"
"$egdb" perft --threads "$jobs" 9

echo "== legal moves of a capture position"
"$egdb" moves 'W:WK46,28:B37,23,19'

echo "== Kingsrow slice index, and back"
printf '%s\n' 'B:W27,28,K50:B3,K7,12' 'B:W46,47,48,49:B41,42,43,44' | "$egdb" index | tee /dev/stderr | "$egdb" position

echo "== index speed"
"$egdb" bench index --seconds 1
