"""Lookups per second through Python (one call per position, and batches) against the same
lookups made by a C program through the same library (capi/egdb.h), on random positions.

Usage: python bench_probe.py [--db DIR] [--positions N]
Without --db a 3-piece database is built in a temporary folder first.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

import egdb

C_PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "capi/egdb.h"
/* argv: db, file of "black white king color" lines, repetitions. Prints lookups/s, single then batch. */
int main(int argc, char** argv) {
    FILE* f = fopen(argv[2], "r");
    int n = 0, cap = 1 << 16;
    EgdbPosition* p = malloc(sizeof *p * cap);
    int* c = malloc(sizeof *c * cap);
    unsigned long long b, w, k;
    int col;
    while (fscanf(f, "%llu %llu %llu %d", &b, &w, &k, &col) == 4) {
        if (n == cap) { cap *= 2; p = realloc(p, sizeof *p * cap); c = realloc(c, sizeof *c * cap); }
        p[n].black = b; p[n].white = w; p[n].king = k; c[n] = col; ++n;
    }
    int reps = atoi(argv[3]);
    int h = egdb_open("", 64, argv[1], "");
    int* r = malloc(sizeof *r * n);
    struct timespec t0, t1;
    long sink = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int rep = 0; rep < reps; ++rep)
        for (int i = 0; i < n; ++i) sink += egdb_lookup_with_search(h, &p[i], c[i]);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double single = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int rep = 0; rep < reps; ++rep) sink += egdb_lookup_batch(h, p, c, n, r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double batch = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("%.0f %.0f %ld\n", (double)n * reps / single, (double)n * reps / batch, sink);
    return 0;
}
"""


def random_positions(db: egdb.Database, count: int, seed: int = 1) -> list[egdb.Position]:
    rng = random.Random(seed)
    slices = [
        egdb.Slice(a, b, c, d)
        for a in range(4) for b in range(4) for c in range(4) for d in range(4)
        if 2 <= a + b + c + d <= db.max_pieces and a + b > 0 and c + d > 0
    ]  # fmt: skip
    out = []
    for _ in range(count):
        s = rng.choice(slices)
        out.append(egdb.Position.from_index(rng.randrange(s.size()), s, egdb.Color(rng.randrange(2))))
    return out


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def c_rates(db_dir: str, positions: list[egdb.Position], reps: int) -> tuple[float, float] | None:
    cc = shutil.which("cc") or shutil.which("gcc")
    library = Path(egdb.__file__).parent
    if cc is None or not (library / "libegdb.so").exists():
        return None
    root = Path(__file__).resolve().parents[2]
    with tempfile.TemporaryDirectory() as tmp:
        source, exe, data = Path(tmp, "bench.c"), Path(tmp, "bench"), Path(tmp, "positions.txt")
        source.write_text(C_PROGRAM)
        data.write_text("".join(f"{p.black} {p.white} {p.king} {int(p.turn)}\n" for p in positions))
        subprocess.run([cc, "-O2", "-I", str(root), str(source), "-o", str(exe), "-L", str(library), "-legdb",
                        f"-Wl,-rpath,{library}"], check=True)
        out = subprocess.run([str(exe), db_dir, str(data), str(reps)], check=True, capture_output=True, text=True)
        single, batch, _ = out.stdout.split()
        return float(single), float(batch)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", help="database folder (default: build 3 pieces in a temporary folder)")
    parser.add_argument("--positions", type=int, default=100_000)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        db_dir = args.db or tmp
        if not args.db:
            egdb.build(db_dir, 3)
        with egdb.open(db_dir) as db:
            max_pieces = db.max_pieces
            positions = random_positions(db, args.positions)
            boards = np.array([p.boards() for p in positions], dtype=np.uint64)
            colors = np.array([p.turn for p in positions], dtype=np.int32)
            db.probe_wld_batch(boards, colors)  # warm the cache: every run below reads memory only

            t = time.perf_counter()
            for _ in range(args.reps):
                for p in positions:
                    db.probe_wld(p)
            py_single = rate(len(positions) * args.reps, time.perf_counter() - t)

            t = time.perf_counter()
            for _ in range(args.reps):
                db.probe_wld_batch(boards, colors)
            py_batch = rate(len(positions) * args.reps, time.perf_counter() - t)

        c = c_rates(db_dir, positions, args.reps)

    print(f"{len(positions)} random positions of up to {max_pieces} pieces, "
          f"{args.reps} passes, WLD with search, one thread")
    print(f"{'interface':<32}{'lookups/s':>14}{'vs C':>8}")
    rows = [("Python probe_wld (one call each)", py_single), ("Python probe_wld_batch", py_batch)]
    if c:
        rows = [("C egdb_lookup_with_search", c[0]), ("C egdb_lookup_batch", c[1])] + rows
    for name, value in rows:
        ratio = f"{value / c[1]:.2f}" if c else "-"
        print(f"{name:<32}{value:>14,.0f}{ratio:>8}")


if __name__ == "__main__":
    main()
