#!/usr/bin/env bash
# Load benchmark of `egdb serve` beside `egdb probe --json --moves`, for random positions of one
# size class: `egdb bench serve` (1, 8 and 64 keep-alive clients on loopback, each row bounded in
# requests and seconds; an offline row of the same reports in one thread), then the program
# `egdb probe --json --moves` over the same positions read from stdin, whole process included.
# The database is only read.
# Usage: bench/serve_load.sh EGDB_PROGRAM DB_DIR PIECES [POSITIONS] [SECONDS_PER_ROW]
set -euo pipefail
if (($# < 3)); then
  sed -n '2,7p' "$0" >&2
  exit 2
fi
egdb=$1 db=$2 pieces=$3 positions=${4:-2000} seconds=${5:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$egdb" bench serve --db "$db" --pieces "$pieces" --positions "$positions" --requests 20000 --seconds "$seconds" \
  --fens-out "$work/fens.txt"
start=$(date +%s.%N)
"$egdb" probe --db "$db" --json --moves - <"$work/fens.txt" >"$work/reports.jsonl"
end=$(date +%s.%N)
lines=$(wc -l <"$work/reports.jsonl")
awk -v s="$start" -v e="$end" -v n="$lines" 'BEGIN {
  printf "%-34s %7d %9d %10.0f  (%.0f us per position, the process and opening the database included)\n",
    "egdb probe --json --moves - (stdin)", 1, n, n / (e - s), 1e6 * (e - s) / n }'
