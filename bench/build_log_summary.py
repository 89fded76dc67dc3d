#!/usr/bin/env python3
"""Where an `egdb build` went: a table per slice from the logs of its segments.

A whole 6-piece build runs for hours and is resumed across processes (docs/architecture.md, the build pipeline), so its
numbers are spread over several logs. This reads them in order and prints, for every slice solved
in them, its positions, the seconds of its solve and write, and the seconds spent bringing back
the slices it reads (restores, "resumed from ... for S"); then the totals, the in-build check and
the closing verification.

  python3 bench/build_log_summary.py [--pieces N] LOG [LOG...]

A slice whose levels were solved in two segments has its slice line only in the second; its
solve there counts the levels of that segment only, so such slices are marked "resumed" and their
level times from every segment are summed instead.
"""

import argparse
import re
import sys
from collections import defaultdict

SLICE_LINE = re.compile(
    r"^build (\d{4}): (\d+) positions in ([\d.]+) s \(.*\), solve ([\d.]+) s, write ([\d.]+) s")
LEVEL_LINE = re.compile(r"^build (\d{4}) a(\d+)(?:\.\d+)?: (\d+) positions in ([\d.]+) s")
RESTORE_LINE = re.compile(r"^build (\d{4}): (\d+) positions in ([\d.]+) s .*resumed from (\S+) .*for (\d{4})")
CHECK_LINE = re.compile(r"^checked in the build: (\d+) slices, .* ([\d.]+) s of the solve")
VERIFY_LINE = re.compile(r"^verify (/\S+|\S+): .* ([\d.]+) s \(decoding")


def pieces(slice_name):
    return sum(int(c) for c in slice_name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pieces", type=int, default=6, help="list slices of this many pieces (default 6)")
    parser.add_argument("logs", nargs="+")
    args = parser.parse_args()

    solved = {}                       # slice -> (positions, solve, write), from its slice line
    level_seconds = defaultdict(float)  # slice -> sum of its level lines over every log
    segments_with_levels = defaultdict(set)
    restores = defaultdict(float)     # reader slice -> seconds of restores before it
    restore_count = defaultdict(int)
    check_seconds = 0.0
    check_slices = 0
    verify_seconds = 0.0
    order = []
    for number, path in enumerate(args.logs):
        with open(path, encoding="utf-8", errors="replace") as log:
            for line in log:
                if m := SLICE_LINE.match(line):
                    name = m.group(1)
                    solved[name] = (int(m.group(2)), float(m.group(4)), float(m.group(5)))
                    if name not in order:
                        order.append(name)
                elif m := LEVEL_LINE.match(line):
                    level_seconds[m.group(1)] += float(m.group(4))
                    segments_with_levels[m.group(1)].add(number)
                elif m := RESTORE_LINE.match(line):
                    restores[m.group(5)] += float(m.group(3))
                    restore_count[m.group(5)] += 1
                elif m := CHECK_LINE.match(line):
                    check_slices += int(m.group(1))
                    check_seconds += float(m.group(2))
                elif m := VERIFY_LINE.match(line):
                    verify_seconds += float(m.group(2))

    rows = [name for name in order if pieces(name) == args.pieces]
    if not rows:
        sys.exit(f"no {args.pieces}-piece slice line in {', '.join(args.logs)}")
    print(f"| slice | positions | solve s | write s | restores before it (s, count) | note |")
    print("|---|---|---|---|---|---|")
    total_solve = total_write = total_restore = 0.0
    for name in rows:
        positions, solve, write = solved[name]
        note = ""
        if len(segments_with_levels[name]) > 1:
            note = f"resumed: levels in {len(segments_with_levels[name])} logs, summed"
            solve = level_seconds[name]
        total_solve += solve
        total_write += write
        total_restore += restores[name]
        print(f"| {name} | {positions:,} | {solve:.1f} | {write:.1f} | {restores[name]:.1f} ({restore_count[name]}) | {note} |")
    print()
    print(f"{len(rows)} slices of {args.pieces} pieces: solve {total_solve:,.1f} s, write {total_write:,.1f} s, "
          f"together {total_solve + total_write:,.1f} s; restores before them {total_restore:,.1f} s")
    print(f"in-build check: {check_seconds:,.1f} s of the solve over {check_slices} slices "
          f"(only the segments that reached their summary line)")
    print(f"closing verification lines: {verify_seconds:,.1f} s")


if __name__ == "__main__":
    main()
