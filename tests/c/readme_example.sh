#!/usr/bin/env bash
# Compiles and runs the C example of README.md as written, against the built library, and checks
# what it prints. INCLUDE_DIR holds egdb/egdb.h (the build tree's <build>/include).
# Usage: readme_example.sh README.md CC INCLUDE_DIR LIBRARY_DIR WORK_DIR
set -euo pipefail
readme=$1 cc=$2 include_dir=$3 library_dir=$(cd "$4" && pwd) work=$5
rm -rf "$work" && mkdir -p "$work"
awk '/^```c$/ {inside = 1; next} /^```$/ {inside = 0} inside' "$readme" > "$work/example.c"
[[ -s $work/example.c ]] || { echo "no C example in $readme"; echo "0 passed, 1 failed"; exit 1; }
"$cc" -std=c11 -Wall -Werror -I "$include_dir" "$work/example.c" -L "$library_dir" -legdb \
  -Wl,-rpath,"$library_dir" -o "$work/example"
output=$(cd "$work" && ./example)
echo "$output"
if grep -q "win in 5 plies, best move 26-31" <<<"$output" && grep -qx -- "-109" <<<"$output"; then
  echo "1 passed, 0 failed"
else
  echo "unexpected output"
  echo "0 passed, 1 failed"
  exit 1
fi
