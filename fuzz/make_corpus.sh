#!/usr/bin/env bash
# Writes the seed corpora of the harnesses into fuzz/corpus/<harness>/ (committed; run again only
# when a format changes). The database seeds are the files of 2-piece databases that `egdb build`
# writes here, the text seeds are written out below. Usage: fuzz/make_corpus.sh EGDB_PROGRAM
set -euo pipefail
egdb=${1:?usage: make_corpus.sh path/to/egdb}
here="$(cd "$(dirname "$0")" && pwd)"
corpus=$here/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$corpus"
mkdir -p "$corpus"/{fuzz_fen,fuzz_move,fuzz_kingsrow_index,fuzz_native_slice,fuzz_capi}
for f in native kingsrow-runlen kingsrow-v1 kingsrow-v2; do
  "$egdb" build --pieces 2 --out "$work/$f" --format "$f" --threads 1 >/dev/null 2>&1
done

n=0
seed() {  # seed HARNESS TEXT: one file with TEXT exactly (printf escapes allowed)
  n=$((n + 1))
  printf "$2" >"$corpus/$1/seed-$n"
}
for fen in 'W:W31-50:B1-20' 'B:W28:BK26' 'W:WK3,K9,49:B2,7,13,37.' '"B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"' \
  'W:W31-50:B1-20:H0:F1' '[FEN "W:W31-50:B1-20"]' 'b:wk46:b5' 'W:B1-5:W' 'W:W31-50:B1-20:G12' \
  'Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww' 'BeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeWeeeeeeB'; do
  seed fuzz_fen "$fen"
done
for line in 'W:W31-50:B1-20\n32-28' 'W:W28:B23\n28x19' 'W:W28:B23\n28x19x23' 'B:W28:BK26\n26-31' \
  'W:WK46:B41,32,23,14\n46x10' 'W:WK46:B41,32,23,14\n46x10x41x32x23x14' 'W:WK46:B41,32,23,14\n46x37x28x19x10' \
  'Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\n32-28'; do
  seed fuzz_move "$line"
done
# Index files: the grammar byte (0 RUNLEN, 1 TUN_V1, 2 TUN_V2, 3 MTC, 4 DTW) then the file.
{ printf '\0'; cat "$work/kingsrow-runlen/db2.idx"; } >"$corpus/fuzz_kingsrow_index/runlen"
{ printf '\1'; cat "$work/kingsrow-v1/db2.idx"; } >"$corpus/fuzz_kingsrow_index/tun_v1"
{ printf '\2'; cat "$work/kingsrow-v2/db2.idx1"; } >"$corpus/fuzz_kingsrow_index/tun_v2"
{ printf '\3'; cat "$work/kingsrow-runlen/db2.idx_mtc"; } >"$corpus/fuzz_kingsrow_index/mtc"
{ printf '\4'; cat "$work/kingsrow-runlen/db2.idx_dtw"; } >"$corpus/fuzz_kingsrow_index/dtw"
for codec in "runlen kingsrow-runlen/db2.cpr" "tun_v1 kingsrow-v1/db2.cpr" "tun_v2 kingsrow-v2/db2.cpr1" \
  "mtc kingsrow-runlen/db2.cpr_mtc" "dtw kingsrow-runlen/db2.cpr_dtw"; do
  set -- $codec
  mkdir -p "$corpus/fuzz_kingsrow_$1"
  cp "$work/$2" "$corpus/fuzz_kingsrow_$1/reference"
done
# Native: the mode byte (even: as is, odd: checksums repaired) then the slice file.
for mode in 0 1; do
  { printf "\\$mode"; cat "$work/native/slice-1010.egdb"; } >"$corpus/fuzz_native_slice/slice-1010-mode$mode"
done
# C ABI: selector 0 (strings: FEN NUL move NUL size), 1 (positions), 2 (options NUL cache).
seed fuzz_capi '\0W:W31-50:B1-20\00032-28\000\100'
seed fuzz_capi '\0B:W28:BK26\00026-31\000\377'
seed fuzz_capi '\0Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\00032-28\000\001'
seed fuzz_capi '\1\001\000\000\000\000\000\000\000\000\000\020\000\000\000\000\000\000\000\000\000\000\000\000\000\001\001\000\001\000\000\000\000\000\000\000\000\000\000\000\002'
seed fuzz_capi '\2maxpieces=2\000\020\000'
seed fuzz_capi '\2maxpieces=99;cache=1\000\377\377'
echo "seed corpora written to $corpus: $(find "$corpus" -type f | wc -l) files, $(du -sk "$corpus" | cut -f1) KiB"
