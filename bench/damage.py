#!/usr/bin/env python3
"""Damaged databases: how egdb reports them (a benchmark of robustness, not a timed test).

Builds 3- and 4-piece databases in every format `egdb build` writes (native, and the Kingsrow
sets kingsrow-v2, kingsrow-v1, kingsrow-runlen, each with its MTC and DTW files), then for each
kind of damage and each format makes many damaged copies and looks at what egdb says about them:

  flip      1..8 random bytes of one file XORed with random non-zero values
  truncate  one file cut to a random shorter length
  zero      a random range of 1..4096 bytes of one file set to zero
  delete    one file removed
  garbage   one line of a Kingsrow text index replaced by garbage, a garbage line inserted, or
            one number of a line changed (text indexes only: not applicable to native data)

Each copy is probed (`egdb probe`, a fixed set of positions, in chunks so that one error does not
hide the other answers) and verified (`egdb verify`). A trial counts as

  crash       a run ended by a signal (segmentation fault, abort)
  hang        a run still going after HANG_SECONDS (killed)
  sanitizer   a run printed an AddressSanitizer / UndefinedBehaviorSanitizer report (run the
              benchmark with the binary of an EGDB_SANITIZE=ON build to see them)
  wrong       a probe exited 0 with an answer that differs from the undamaged copy's (silent)
  error       a probe or the verification failed with a message (exit code 1 or 2)
  harmless    every answer as before and the verification passed

and the table also shows how often `egdb verify` flagged the copy, how many copies whose file bytes
changed it passed, and of the copies where a file that carries a checksum was changed (every native
slice file: CRC-32C on header, page tables and pages; in a Kingsrow set written by egdb the
identifying index file, whose CRC-32 is forced to the published value) how many it passed. For
upstream Kingsrow sets every file with a published CRC-32 would count; none is available here.

Usage: bench/damage.py --egdb build-asan/cli/egdb [--build-egdb build/cli/egdb] [--trials 12]
       [--pieces 3,4] [--formats native,kingsrow-v2,...] [--work DIR] [--jobs 2]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

FORMATS = ["native", "kingsrow-v2", "kingsrow-v1", "kingsrow-runlen"]
DAMAGES = ["flip", "truncate", "zero", "delete", "garbage"]
TEXT_INDEX_SUFFIXES = (".idx", ".idx1", ".idx_mtc")
OUTCOMES = ["crash", "hang", "sanitizer", "wrong", "error", "harmless"]
HANG_SECONDS = 120  # a probe of 25-200 positions or a verification of 3-4 pieces takes seconds
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer", "SUMMARY: UndefinedBehaviorSanitizer")
PROBE_CHUNKS = 8


def square_bit_ok(square: int, colour: str, king: bool) -> bool:
    """Men never stand on their own promotion row (black 46-50, white 1-5)."""
    if king:
        return True
    return not (colour == "B" and square >= 46) and not (colour == "W" and square <= 5)


def probe_positions(pieces: int, count: int, seed: int) -> list[str]:
    """A fixed set of FENs with 2..pieces pieces, both colours present, legal placements."""
    rng = random.Random(seed)
    fens = []
    while len(fens) < count:
        n = rng.randint(2, pieces)
        black = rng.randint(1, n - 1)
        squares = rng.sample(range(1, 51), n)
        items = {"W": [], "B": []}
        ok = True
        for i, s in enumerate(squares):
            colour = "B" if i < black else "W"
            king = rng.random() < 0.4
            if not square_bit_ok(s, colour, king):
                ok = False
                break
            items[colour].append(("K" if king else "") + str(s))
        if not ok:
            continue
        side = rng.choice("WB")
        fens.append(f"{side}:W{','.join(items['W'])}:B{','.join(items['B'])}")
    return fens


@dataclass
class RunOutput:
    returncode: int
    stdout: str
    stderr: str
    hung: bool = False  # killed after HANG_SECONDS

    @property
    def signalled(self) -> bool:
        return self.returncode < 0 or self.returncode >= 128

    @property
    def sanitizer(self) -> bool:
        return any(mark in self.stderr for mark in SANITIZER_MARKS)


def run(cmd: list[str], stdin: str | None = None, timeout: int = HANG_SECONDS) -> RunOutput:
    env = dict(os.environ)
    # Leak reports are about the process's exit, not about reading damaged data.
    env.setdefault("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=0")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout, env=env, errors="replace")
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return RunOutput(0, out, f"killed after {timeout} s", hung=True)
    return RunOutput(p.returncode, p.stdout, p.stderr)


def probe_chunks(egdb: str, db: Path, fens: list[str]) -> list[RunOutput]:
    size = (len(fens) + PROBE_CHUNKS - 1) // PROBE_CHUNKS
    return [
        run([egdb, "probe", "--db", str(db), "--pv", "-"], "\n".join(fens[i : i + size]) + "\n")
        for i in range(0, len(fens), size)
    ]


def verify(egdb: str, db: Path, fmt: str) -> RunOutput:
    cmd = [egdb, "verify", str(db), "--threads", "1"]
    if fmt != "native":
        cmd += ["--sample", "500"]
    return run(cmd)


def checksummed_files(db: Path, fmt: str) -> set[str]:
    """Files whose damage a checksum can reveal: every native slice file (CRC-32C on the header,
    the page tables and every page) and the manifest (its last line, and it lists the CRC-32C of
    every slice file: deleting one is flagged; deleting the manifest itself is only noted); in a Kingsrow set written by egdb the identifying index
    file, whose CRC-32 egdb forces to the published identification value with a trailer
    ("\n#egdb " near its end). Kingsrow sets from upstream would have a published CRC-32 for most
    files (egdb verify checks them), but none is available here."""
    if fmt == "native":
        return {p.name for p in db.iterdir() if p.suffix == ".egdb" or p.name == "egdb-manifest.txt"}
    return {p.name for p in db.iterdir() if p.is_file() and b"\n#egdb " in p.read_bytes()[-16:]}


def damage(rng: random.Random, db: Path, kind: str) -> tuple[str, str, bool]:
    """Damages one file of db; returns (file name, description, whether file bytes changed)."""
    files = sorted(p for p in db.iterdir() if p.is_file())
    if kind == "garbage":
        files = [p for p in files if p.name.endswith(TEXT_INDEX_SUFFIXES)]
    target = rng.choice(files)
    data = bytearray(target.read_bytes())
    before = bytes(data)
    if kind == "flip":
        for _ in range(rng.randint(1, 8)):
            if data:
                data[rng.randrange(len(data))] ^= rng.randint(1, 255)
        what = f"flip {target.name}"
    elif kind == "truncate":
        data = data[: rng.randrange(len(data))] if data else data
        what = f"truncate {target.name} to {len(data)}"
    elif kind == "zero":
        start = rng.randrange(max(1, len(data)))
        length = rng.randint(1, min(4096, max(1, len(data) - start)))
        data[start : start + length] = bytes(len(data[start : start + length]))
        what = f"zero {target.name} [{start}, {start + length})"
    elif kind == "delete":
        target.unlink()
        return target.name, f"delete {target.name}", True
    else:
        lines = data.decode("latin-1").split("\n")
        i = rng.randrange(len(lines))
        choice = rng.randrange(3)
        alphabet = "BSFI0123456789:/,#- abcx\t"
        garbage = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40)))
        if choice == 0:
            lines[i] = garbage
        elif choice == 1:
            lines.insert(i, garbage)
        else:
            tokens = lines[i].split(",")
            j = rng.randrange(len(tokens))
            digits = [k for k, c in enumerate(tokens[j]) if c.isdigit()]
            if digits:
                k = rng.choice(digits)
                tokens[j] = tokens[j][:k] + str((int(tokens[j][k]) + rng.randint(1, 9)) % 10) + tokens[j][k + 1 :]
            else:
                tokens[j] += str(rng.randint(0, 9))
            lines[i] = ",".join(tokens)
        data = bytearray("\n".join(lines).encode("latin-1"))
        what = f"garbage line {i + 1} of {target.name}"
    target.write_bytes(bytes(data))
    return target.name, what, bytes(data) != before


@dataclass
class Trial:
    outcome: str
    verify_flagged: bool
    changed: bool
    what: str
    detail: str = ""
    checksummed: bool = False  # a file with a checksum changed (not deleted)


def run_trial(egdb: str, reference: Path, fmt: str, kind: str, seed: int, fens: list[str], expected: list[str],
              work: Path, checksummed: set[str]) -> Trial:
    trial = classify(egdb, reference, fmt, kind, seed, fens, expected, work)
    trial.checksummed = trial.changed and kind != "delete" and trial.what.rsplit("(", 1)[-1].rstrip(")") in checksummed
    return trial


def classify(egdb: str, reference: Path, fmt: str, kind: str, seed: int, fens: list[str], expected: list[str],
             work: Path) -> Trial:
    rng = random.Random(seed)
    copy = work / f"trial-{seed}"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(reference, copy)
    try:
        name, what, changed = damage(rng, copy, kind)
        what = f"{what} ({name})"
        outputs = probe_chunks(egdb, copy, fens)
        checked = verify(egdb, copy, fmt)
        every = outputs + [checked]
        flagged = checked.returncode != 0
        if any(o.signalled for o in every):
            bad = next(o for o in every if o.signalled)
            return Trial("crash", flagged, changed, what, f"exit {bad.returncode}: {bad.stderr[-400:]}")
        if any(o.hung for o in every):
            return Trial("hang", flagged, changed, what, "a run did not end within HANG_SECONDS")
        if any(o.sanitizer for o in every):
            bad = next(o for o in every if o.sanitizer)
            return Trial("sanitizer", flagged, changed, what, bad.stderr[-800:])
        for o, e in zip(outputs, expected):
            if o.returncode == 0 and o.stdout != e:
                diff = next((f"{a!r} != {b!r}" for a, b in zip(o.stdout.splitlines(), e.splitlines()) if a != b), "")
                return Trial("wrong", flagged, changed, what, diff)
        if any(o.returncode != 0 for o in every):
            return Trial("error", flagged, changed, what)
        return Trial("harmless", flagged, changed, what)
    finally:
        shutil.rmtree(copy, ignore_errors=True)


@dataclass
class Row:
    trials: int = 0
    outcomes: dict[str, int] = field(default_factory=lambda: {o: 0 for o in OUTCOMES})
    flagged: int = 0
    changed: int = 0
    missed: int = 0  # file bytes changed, verify passed
    checksummed: int = 0  # a file with a checksum changed
    checksum_missed: int = 0  # ... and verify passed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--egdb", required=True, help="egdb program that probes and verifies (an ASan build's)")
    parser.add_argument("--build-egdb", help="egdb program that builds the references (default: --egdb)")
    parser.add_argument("--trials", type=int, default=12, help="trials per (pieces, format, damage)")
    parser.add_argument("--pieces", default="3,4")
    parser.add_argument("--formats", default=",".join(FORMATS))
    parser.add_argument("--positions", type=int, default=160, help="positions probed per trial")
    parser.add_argument("--work", type=Path, help="scratch folder (default: a temporary one)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=3, help="examples printed per bad outcome")
    args = parser.parse_args()
    builder = args.build_egdb or args.egdb
    work = args.work or Path(tempfile.mkdtemp(prefix="egdb_damage_"))
    work.mkdir(parents=True, exist_ok=True)
    rows: dict[tuple[int, str, str], Row] = {}
    examples: dict[str, list[str]] = {o: [] for o in OUTCOMES}
    missed_examples: list[str] = []
    for pieces in [int(p) for p in args.pieces.split(",")]:
        fens = probe_positions(pieces, args.positions, args.seed + pieces)
        for fmt in args.formats.split(","):
            reference = work / f"ref-{fmt}-{pieces}"
            if not reference.exists():
                out = run([builder, "build", "--pieces", str(pieces), "--out", str(reference), "--format", fmt,
                           "--threads", "2"])
                if out.returncode != 0:
                    print(f"cannot build {fmt} {pieces}: {out.stderr[-500:]}", file=sys.stderr)
                    return 1
            expected_runs = probe_chunks(args.egdb, reference, fens)
            if any(o.returncode != 0 for o in expected_runs) or verify(args.egdb, reference, fmt).returncode != 0:
                print(f"the undamaged {fmt} {pieces}-piece database does not probe or verify", file=sys.stderr)
                return 1
            expected = [o.stdout for o in expected_runs]
            kinds = [k for k in DAMAGES if not (k == "garbage" and fmt == "native")]
            checksummed = checksummed_files(reference, fmt)
            jobs = []
            with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
                for kind in kinds:
                    for t in range(args.trials):
                        seed = args.seed * 1_000_003 + pieces * 10_007 + FORMATS.index(fmt) * 1009 + DAMAGES.index(kind) * 101 + t
                        jobs.append((kind, pool.submit(run_trial, args.egdb, reference, fmt, kind, seed, fens, expected, work,
                                                       checksummed)))
                for kind, job in jobs:
                    trial = job.result()
                    row = rows.setdefault((pieces, fmt, kind), Row())
                    row.trials += 1
                    row.outcomes[trial.outcome] += 1
                    row.flagged += trial.verify_flagged
                    row.changed += trial.changed
                    row.checksummed += trial.checksummed
                    row.checksum_missed += trial.checksummed and not trial.verify_flagged
                    if trial.changed and not trial.verify_flagged:
                        row.missed += 1
                        if len(missed_examples) < args.show * 4:
                            missed_examples.append(f"{pieces}p {fmt}: {trial.what} ({trial.outcome})")
                    if trial.outcome in ("crash", "hang", "sanitizer", "wrong") and len(examples[trial.outcome]) < args.show * 4:
                        examples[trial.outcome].append(f"{pieces}p {fmt}: {trial.what}: {trial.detail}")
            print(f"done: {pieces} pieces, {fmt}", file=sys.stderr, flush=True)

    header = ["pieces", "format", "damage", "trials", "clear errors", "crashes", "hangs", "sanitizer", "silent wrong",
              "harmless", "verify flagged", "changed, not flagged", "checksummed file changed", "of those not flagged"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    totals = Row()
    for (pieces, fmt, kind), row in rows.items():
        o = row.outcomes
        print(f"| {pieces} | {fmt} | {kind} | {row.trials} | {o['error']} | {o['crash']} | {o['hang']} | {o['sanitizer']} | "
              f"{o['wrong']} | {o['harmless']} | {row.flagged} | {row.missed} | {row.checksummed} | {row.checksum_missed} |")
        totals.trials += row.trials
        for k in OUTCOMES:
            totals.outcomes[k] += o[k]
        totals.flagged += row.flagged
        totals.missed += row.missed
        totals.checksummed += row.checksummed
        totals.checksum_missed += row.checksum_missed
    o = totals.outcomes
    print(f"| all | all | all | {totals.trials} | {o['error']} | {o['crash']} | {o['hang']} | {o['sanitizer']} | {o['wrong']} | "
          f"{o['harmless']} | {totals.flagged} | {totals.missed} | {totals.checksummed} | {totals.checksum_missed} |")
    for outcome in ("crash", "hang", "sanitizer", "wrong"):
        for line in examples[outcome]:
            print(f"{outcome}: {line}")
    for line in missed_examples:
        print(f"not flagged by verify: {line}")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
