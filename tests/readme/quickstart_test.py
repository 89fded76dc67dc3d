#!/usr/bin/env python3
"""Runs the quick start of README.md as written, the way a new user follows it.

Every code block of the "## Quick start" section, in order, in one empty folder that holds only
`dist/` (the packages of scripts/package.sh): a block whose first line is a comment naming a file
(`/* probe.c */`, `// src/main/java/Example.java`, `<!-- pom.xml -->`, `# example.py`) is written
to that file; the ```sh blocks are run, in order, as one bash script (set -euo pipefail), so that
what one block installs the next one uses. The folder also holds what the text says the user has:
"Kingsrow International", a Kingsrow installation's top folder (wld_database, mtc_database,
dtw_database), laid out from a Kingsrow-format set that `--egdb` builds.

Then checks what the blocks printed against what the README says they print.

Usage: quickstart_test.py --readme README.md --dist dist --egdb build/cli/egdb --work DIR
Prints one line per check and "N passed, M failed"; exit code 0 when all passed.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

FILE_COMMENT = re.compile(r"^(?:/\*\s*(\S+)\s*\*/|//\s*(\S+)|<!--\s*(\S+)\s*-->|#\s*(\S+\.\w+))\s*$")

# What each part of the quick start must print (its comments say so to the reader).
EXPECTED = [
    ("the egdb program: build and probe", "B:W28:BK26 wld=win dtw=5 mtc=3 best=26-31 pv=26-31,"),
    ("the egdb program: --json", '{"category":"loss","dtw_plies":8,"mtc_plies":2,"fen":"W:W28,33:BK5,K26","best":"28-22"}'),
    ("Python example", "loss 6"),
    ("Python example: batch", "[1 1]"),
    ("C program against the unpacked prefix", "win in 5 plies, best move 26-31"),
    ("C program: too many pieces", "\n-109\n"),
    ("Java example run with plain java -cp", "LOSS\n6\n28-23 6\n"),
    ("Kingsrow owners: info on the installation's top folder", "WLD yes, MTC yes, DTW yes"),
    ("Kingsrow owners: probe, MTC below 10 shown as -", "W:W28:BK26 wld=loss dtw=6 mtc=- best=28-23"),
    ("Kingsrow owners: verify", "consistency Kingsrow International/wld_database:"),
]


def quick_start(readme: Path) -> str:
    text = readme.read_text(encoding="utf-8")
    section = re.search(r"^## Quick start\n(.*?)(?=^## )", text, re.S | re.M)
    if not section:
        sys.exit("README.md has no '## Quick start' section")
    return section.group(1)


def blocks(section: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in re.finditer(r"^```(\w+)\n(.*?)^```$", section, re.S | re.M)]


def lay_out_installation(egdb: Path, work: Path) -> None:
    """A Kingsrow installation as its owner has one: three folders below a top folder."""
    built = work.parent / "kingsrow-set"
    shutil.rmtree(built, ignore_errors=True)
    made = subprocess.run([str(egdb), "build", "--pieces", "3", "--threads", "2", "--format", "kingsrow-v2", "--out",
                           str(built)], capture_output=True, text=True)
    if made.returncode != 0:
        sys.exit(f"quickstart: {egdb} could not build the Kingsrow set: {made.stderr.strip()[-2000:]}")
    top = work / "Kingsrow International"
    for entry in sorted(built.iterdir()):
        kind = "mtc" if entry.suffix.endswith("_mtc") else "dtw" if entry.suffix.endswith("_dtw") else "wld"
        folder = top / f"{kind}_database"
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy2(entry, folder / entry.name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readme", type=Path, required=True)
    parser.add_argument("--dist", type=Path, required=True)
    parser.add_argument("--egdb", type=Path, required=True, help="an egdb program that writes the Kingsrow set")
    parser.add_argument("--work", type=Path, required=True)
    args = parser.parse_args()

    work = args.work.resolve() / "user"
    shutil.rmtree(work.parent, ignore_errors=True)
    work.mkdir(parents=True)
    (work / "dist").symlink_to(args.dist.resolve(), target_is_directory=True)
    lay_out_installation(args.egdb.resolve(), work)

    script = ["set -euo pipefail"]
    for language, body in blocks(quick_start(args.readme)):
        first = body.splitlines()[0] if body else ""
        named = FILE_COMMENT.match(first)
        if language == "sh":
            script.append(body)
        elif named:
            path = work / next(g for g in named.groups() if g)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(body, encoding="utf-8")
            print(f"quickstart: wrote {path.relative_to(work)} ({language})")
    (work.parent / "quickstart.sh").write_text("\n".join(script) + "\n", encoding="utf-8")
    done = subprocess.run(["bash", str(work.parent / "quickstart.sh")], cwd=work, capture_output=True, text=True,
                          timeout=1200)
    output = done.stdout + done.stderr
    (work.parent / "quickstart.log").write_text(output, encoding="utf-8")
    passed = failed = 0
    if done.returncode != 0:
        print(f"FAIL: the quick start's commands exited with {done.returncode}; the last lines:")
        print("\n".join(output.splitlines()[-25:]))
        failed += 1
    for name, expected in EXPECTED:
        if expected in output:
            print(f"ok: {name}")
            passed += 1
        else:
            print(f"FAIL: {name}: {expected!r} not in the output ({work.parent / 'quickstart.log'})")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
