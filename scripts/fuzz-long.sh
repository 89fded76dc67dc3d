#!/usr/bin/env bash
# The long fuzzing run: every harness for SECONDS seconds (default 600) at low priority, through
# scripts/fuzz.sh (same build, same corpora, which grow from run to run; FUZZ_JOBS harnesses at once).
# Usage: scripts/fuzz-long.sh [SECONDS] [HARNESS...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
exec nice -n 10 scripts/fuzz.sh "$seconds" "$@"
