#!/usr/bin/env python3
"""Predicts a distributed 7- or 8-piece build (egdb-mpi, docs/distributed-build.md) from the real
unit graph and unit costs measured on smaller builds.

The unit graph is the one egdb-mpi schedules (core/workflow/build_engine.hpp):
  - canonical slices in build order (core/generate/build_driver.cpp); a slice's units wait for
    the slice files of every slice its captures and promotions reach (successor_slices);
  - a slice's advancement levels form a chain (level a reads level a + 1); a level is cut into
    chunks of about --chunk-positions positions in whole men configurations;
  - once all its units are done, an EncodePart task per range of about --chunk-positions
    positions (rounded up to whole pages, 16384 positions) of the slice, then one WriteSlice
    that concatenates the part files (I/O only: --assemble-mb-per-s over the file's bytes,
    --bytes-per-position of them).
Level sizes are counted exactly, by a dynamic program over the squares (the C++ code lists the
configurations, which at 8 pieces would be 2e10 of them).

Unit costs come from `egdb build` logs (its stderr): every line
  build SSSS: N positions in T s (...), solve X s, write Y s, ...
gives seconds per position per thread for solving and writing that slice. A least-squares fit
of that cost against (pieces, kings) extrapolates to larger slices; the fit and its residuals
are printed, since the extrapolation is the weakest part of the prediction.

The schedule is simulated as egdb-mpi runs it: one rank per core, rank 0 coordinating, a free
worker takes a ready WriteSlice first, then an EncodePart, else the largest ready unit.

usage: simulate_distributed.py --pieces 7 [--chunk-positions P] [--cores-per-node C]
                               [--nodes 16,64,256] LOG [LOG...]
"""
import argparse
import heapq
import math
import re
import sys
from functools import lru_cache

MAX_PER_SIDE = 5
ROWS = 10


def canonical(s):
    nbm, nbk, nwm, nwk = s
    nb, nw = nbm + nbk, nwm + nwk
    return nb > nw or (nb == nw and nbk >= nwk)


def reverse(s):
    return (s[2], s[3], s[0], s[1])


def canonical_slices(total):
    out = []
    for nb in range(1, MAX_PER_SIDE + 1):
        nw = total - nb
        if nw < 1 or nw > MAX_PER_SIDE:
            continue
        for nbm in range(nb + 1):
            for nwm in range(nw + 1):
                s = (nbm, nb - nbm, nwm, nw - nwm)
                if canonical(s):
                    out.append(s)
    return out


def build_order(max_pieces):
    order = []
    for total in range(2, max_pieces + 1):
        order += sorted(canonical_slices(total), key=lambda s: s[0] + s[2])
    return order


def successor_slices(s):
    out = []

    def add(t):
        if t[0] + t[1] == 0 or t[2] + t[3] == 0:
            return
        if not canonical(t):
            t = reverse(t)
        if t != s and t not in out:
            out.append(t)

    for black_moves in (True, False):
        v = s if black_moves else reverse(s)
        for promotes in (False, True):
            if promotes and v[0] == 0:
                continue
            p = 1 if promotes else 0
            for men in range(v[2] + 1):
                for kings in range(v[3] + 1):
                    if not promotes and men + kings == 0:
                        continue
                    t = (v[0] - p, v[1] + p, v[2] - men, v[3] - kings)
                    add(t if black_moves else reverse(t))
    return out


@lru_cache(maxsize=None)
def level_sizes(nbm, nwm):
    """{advancement: men configurations}: black men on squares 1-45 advance (s-1)//5 rows, white
    men on 6-50 advance 9 - (s-1)//5, at most one man a square."""
    table = {(0, 0, 0): 1}
    for square in range(1, 51):
        row = (square - 1) // 5
        nxt = {}
        for (b, w, a), n in table.items():
            nxt[(b, w, a)] = nxt.get((b, w, a), 0) + n
            if square <= 45 and b < nbm:
                k = (b + 1, w, a + row)
                nxt[k] = nxt.get(k, 0) + n
            if square >= 6 and w < nwm:
                k = (b, w + 1, a + ROWS - 1 - row)
                nxt[k] = nxt.get(k, 0) + n
        table = nxt
    return {a: n for (b, w, a), n in table.items() if b == nbm and w == nwm}


def block_size(s):
    men = s[0] + s[2]
    return math.comb(50 - men, s[1]) * math.comb(50 - men - s[1], s[3])


# --- unit costs --------------------------------------------------------------------------------

LINE = re.compile(r"^build (\d{4}): (\d+) positions in [\d.]+ s .*solve ([\d.]+) s, write ([\d.]+) s")


def read_costs(paths, threads):
    rows = []
    for path in paths:
        for line in open(path, encoding="utf-8", errors="replace"):
            m = LINE.match(line)
            if not m:
                continue
            s = tuple(int(c) for c in m.group(1))
            positions = int(m.group(2))
            solve, write = float(m.group(3)), float(m.group(4))
            if positions < 1_000_000 or solve <= 0:
                continue  # too small to time
            rows.append((s, positions, solve * threads / positions, write * threads / positions))
    return rows


def fit(rows, column):
    """Least squares of log(cost) = c0 + c1 * pieces + c2 * kings."""
    xs = [(1.0, sum(r[0]), r[0][1] + r[0][3]) for r in rows]
    ys = [math.log(r[column]) for r in rows]
    # Normal equations, 3x3, by Gaussian elimination.
    a = [[sum(x[i] * x[j] for x in xs) for j in range(3)] + [sum(x[i] * y for x, y in zip(xs, ys))] for i in range(3)]
    for i in range(3):
        p = max(range(i, 3), key=lambda r: abs(a[r][i]))
        a[i], a[p] = a[p], a[i]
        for r in range(3):
            if r != i and a[i][i] != 0:
                f = a[r][i] / a[i][i]
                a[r] = [v - f * w for v, w in zip(a[r], a[i])]
    c = [a[i][3] / a[i][i] for i in range(3)]
    residuals = [y - (c[0] + c[1] * x[1] + c[2] * x[2]) for x, y in zip(xs, ys)]
    return c, residuals


def cost(c, s):
    return math.exp(c[0] + c[1] * sum(s) + c[2] * (s[1] + s[3]))


# --- simulation --------------------------------------------------------------------------------

PAGE_RUN = 16384  # positions: whole WLD pages (16384) and distance pages (4096)


def parts_of(s, chunk_positions):
    """The sizes of the part files of slice s, as the C++ part_positions() cuts them."""
    n = slice_size(s)
    per = n if not chunk_positions else min(n, -(-chunk_positions // PAGE_RUN) * PAGE_RUN)
    return [min(per, n - first) for first in range(0, n, per)]


def simulate(order, chunk_positions, workers, solve_c, write_c, assemble_s):
    """Returns (wall seconds, critical path seconds, (largest unit seconds, its slice), peak bytes
    per rank for a unit, unit count)."""
    index = {s: i for i, s in enumerate(order)}
    reads = [[index[t] for t in successor_slices(s) if t in index] for s in order]
    readers_waiting = [len(r) for r in reads]
    readers_of = [[] for _ in order]
    for i, r in enumerate(reads):
        for k in r:
            readers_of[k].append(i)
    # Per slice: levels most advanced first, each a list of chunk costs.
    levels = []
    unit_count = 0
    peak_rank_bytes = 0
    for s in order:
        block = block_size(s)
        per = cost(solve_c, s)
        chain = []
        sizes = level_sizes(s[0], s[2])
        for a in sorted(sizes, reverse=True):
            configs = sizes[a]
            step = max(1, chunk_positions // block) if chunk_positions else configs
            chunks = []
            for first in range(0, configs, step):
                n = min(step, configs - first)
                chunks.append(n * block * per)
            unit_count += len(chunks)
            above = sizes.get(a + 1, 0) * block
            unit_positions = min(step, configs) * block
            # The level above (4 bytes a position), the unit, the block workspace (16 bytes an entry).
            peak_rank_bytes = max(peak_rank_bytes, 4 * above + 4 * unit_positions + 16 * block)
            chain.append((a, chunks))
        levels.append(chain)
    # Writing a slice: its parts (encoded in parallel), then their concatenation.
    parts = [[cost(write_c, s) * n for n in parts_of(s, chunk_positions)] for s in order]
    write_path = [max(parts[i]) + assemble_s(s) for i, s in enumerate(order)]
    unit_count += sum(len(p) + 1 for p in parts)
    # Critical path: per slice, the sum over levels of the longest chunk, plus its longest part
    # and the assembly, after the latest of the slices it reads.
    finish_cp = [0.0] * len(order)
    came_from = [-1] * len(order)
    for i, s in enumerate(order):
        start, came_from[i] = max(((finish_cp[k], k) for k in reads[i]), default=(0.0, -1))
        finish_cp[i] = start + sum(max(ch) for _, ch in levels[i]) + write_path[i]
    critical = max(finish_cp)
    # The chain of slices on the critical path, last first: (slice, levels' longest units, write).
    path = []
    i = max(range(len(order)), key=lambda k: finish_cp[k])
    while i >= 0:
        path.append((order[i], sum(max(ch) for _, ch in levels[i]), max(max(ch) for _, ch in levels[i]), write_path[i]))
        i = came_from[i]

    # List scheduling.
    time = 0.0
    free = workers
    events = []  # (time, kind, slice, level index)
    ready = []   # max-heap by cost: (-cost, seq, slice, level index, chunk cost)
    seq = 0
    pending_chunks = [None] * len(order)
    level_pos = [0] * len(order)
    writes_ready = []  # slices whose parts are all encoded
    parts_ready = []   # (slice, part cost)
    parts_pending = [0] * len(order)

    def release_level(i):
        nonlocal seq
        a, chunks = levels[i][level_pos[i]]
        pending_chunks[i] = len(chunks)
        for c in chunks:
            heapq.heappush(ready, (-c, seq, i, c))
            seq += 1

    for i in range(len(order)):
        if readers_waiting[i] == 0:
            release_level(i)
    done = 0
    busiest = (0.0, None)
    while done < len(order):
        while free > 0 and (writes_ready or parts_ready or ready):
            if writes_ready:
                i = writes_ready.pop()
                heapq.heappush(events, (time + assemble_s(order[i]), 1, i))
            elif parts_ready:
                i, c = parts_ready.pop()
                heapq.heappush(events, (time + c, 2, i))
            else:
                c, _, i, cc = heapq.heappop(ready)
                busiest = max(busiest, (cc, order[i]))
                heapq.heappush(events, (time + cc, 0, i))
            free -= 1
        time, kind, i = heapq.heappop(events)
        free += 1
        if kind == 2:
            parts_pending[i] -= 1
            if parts_pending[i] == 0:
                writes_ready.append(i)
            continue
        if kind == 1:
            done += 1
            for r in readers_of[i]:
                readers_waiting[r] -= 1
                if readers_waiting[r] == 0:
                    release_level(r)
            continue
        pending_chunks[i] -= 1
        if pending_chunks[i] == 0:
            level_pos[i] += 1
            if level_pos[i] == len(levels[i]):
                parts_pending[i] = len(parts[i])
                parts_ready.extend((i, c) for c in reversed(parts[i]))
            else:
                release_level(i)
    return time, critical, busiest, peak_rank_bytes, unit_count, path


def slice_size(s):
    return sum(level_sizes(s[0], s[2]).values()) * block_size(s)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pieces", type=int, required=True)
    ap.add_argument("--chunk-positions", type=int, default=1 << 24)
    ap.add_argument("--cores-per-node", type=int, default=32)
    ap.add_argument("--nodes", default="16,64,256")
    ap.add_argument("--log-threads", type=int, default=2, help="threads of the builds that wrote the logs")
    ap.add_argument("--bytes-per-position", type=float, default=0.17,
                    help="slice file bytes per position (WLD + DTW + MTC, both sides; 6-piece files measured here)")
    ap.add_argument("--assemble-mb-per-s", type=float, default=200,
                    help="rate at which one rank reads part files and writes the slice file on the shared filesystem")
    ap.add_argument("logs", nargs="+")
    args = ap.parse_args()

    rows = read_costs(args.logs, args.log_threads)
    if len(rows) < 4 or len({sum(r[0]) for r in rows}) < 2 or len({r[0][1] + r[0][3] for r in rows}) < 2:
        sys.exit("the logs need at least 4 timed slices, of at least two piece counts and two king counts")
    solve_c, solve_res = fit(rows, 2)
    write_c, write_res = fit(rows, 3)
    print(f"cost model from {len(rows)} slices: solve {math.exp(solve_c[0]) * 1e9:.1f} ns/position * "
          f"{math.exp(solve_c[1]):.2f}^pieces * {math.exp(solve_c[2]):.2f}^kings (per thread); "
          f"residuals within x{math.exp(max(abs(r) for r in solve_res)):.2f}")
    print(f"                      write {math.exp(write_c[0]) * 1e9:.1f} ns/position * "
          f"{math.exp(write_c[1]):.2f}^pieces * {math.exp(write_c[2]):.2f}^kings; "
          f"residuals within x{math.exp(max(abs(r) for r in write_res)):.2f}")

    def assemble_s(s):
        return slice_size(s) * args.bytes_per_position / (args.assemble_mb_per_s * 1e6)

    order = build_order(args.pieces)
    total = sum(slice_size(s) for s in order)
    core_seconds = sum(cost(solve_c, s) * slice_size(s) + cost(write_c, s) * slice_size(s) for s in order)
    largest = max(order, key=slice_size)
    print(f"{args.pieces} pieces: {len(order)} slices, {total:.3e} positions per side to move, "
          f"largest {''.join(map(str, largest))} ({slice_size(largest):.3e}); "
          f"{core_seconds / 3600:.0f} core-hours predicted")
    # What a worker reads for a unit besides its chunk: the level above (its unit files, about
    # 0.4 bytes a position measured at 6 pieces) and the slices its moves reach (4 bytes a
    # position decoded, read once per worker and slice while they fit in its memory).
    above = max(max((level_sizes(s[0], s[2]).get(a + 1, 0) for a in level_sizes(s[0], s[2])), default=0) * block_size(s)
                for s in order)
    successors = max((sum(slice_size(t) for t in successor_slices(s)), s) for s in order)
    print(f"inputs: the largest level read by a unit {above:.3e} positions (~{0.4 * above / 2**30:.1f} GiB of unit files); "
          f"the most successor data of a slice {successors[0]:.3e} positions ({''.join(map(str, successors[1]))}, "
          f"{4 * successors[0] / 2**30:.0f} GiB decoded)")
    print()
    print("| nodes | ranks | wall (h) | critical path (h) | efficiency | units | largest unit (h, slice) | "
          "peak per rank (GiB) |")
    print("|---|---|---|---|---|---|---|---|")
    for nodes in (int(n) for n in args.nodes.split(",")):
        ranks = nodes * args.cores_per_node
        wall, critical, busiest, peak, units, path = simulate(order, args.chunk_positions, ranks - 1, solve_c, write_c, assemble_s)
        efficiency = core_seconds / (wall * (ranks - 1))
        print(f"| {nodes} | {ranks} | {wall / 3600:.2f} | {critical / 3600:.2f} | {efficiency:.0%} | {units} | "
              f"{busiest[0] / 3600:.3f}, {''.join(map(str, busiest[1]))} | {peak / 2**30:.2f} |")
    print()
    print("critical path (the same for every node count), first slice first:")
    print("| slice | its level chain (h) | its largest unit (h) | its write: longest part + assembly (h) |")
    print("|---|---|---|---|")
    for s, chain, largest_unit, write in reversed(path):
        print(f"| {''.join(map(str, s))} | {chain / 3600:.2f} | {largest_unit / 3600:.2f} | {write / 3600:.2f} |")


if __name__ == "__main__":
    main()
