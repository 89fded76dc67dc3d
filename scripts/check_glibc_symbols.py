#!/usr/bin/env python3
"""Fails when an ELF file needs a newer glibc than a manylinux tag promises.

For every shared object and program given (or found inside the wheels given), reads the symbol
versions it requires (`readelf --version-info`, which reads ELF files of any processor) and the
libraries it needs (`readelf --dynamic`), and fails on:
  - a GLIBC_x.y version newer than --glibc (default 2.17, manylinux2014);
  - a library outside the manylinux policy's system set (libc, libm, libpthread, libdl, librt,
    the dynamic loader) and egdb's own libegdb.so: a libstdc++ or libzstd would have to be on the
    user's machine in a version nobody checked.
Prints one line per file with the newest glibc version it needs.

Usage: check_glibc_symbols.py [--glibc 2.17] FILE_OR_WHEEL...
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

SYSTEM_LIBRARIES = re.compile(
    r"^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|ld-linux-x86-64\.so\.2|"
    r"ld-linux-aarch64\.so\.1|libegdb\.so)$"
)


def version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def check(path: Path, label: str, limit: tuple[int, ...]) -> list[str]:
    readelf = subprocess.run(["readelf", "--version-info", "--dynamic", "-W", str(path)],
                             capture_output=True, text=True, check=True).stdout
    versions = {m for m in re.findall(r"Name: GLIBC_([0-9.]+)", readelf)}
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", readelf)
    problems = [f"{label}: needs GLIBC_{v}, newer than {'.'.join(map(str, limit))}"
                for v in sorted(versions, key=version_tuple) if version_tuple(v) > limit]
    problems += [f"{label}: needs {library}, which the manylinux policy does not provide"
                 for library in needed if not SYSTEM_LIBRARIES.match(library)]
    newest = max(versions, key=version_tuple) if versions else "none"
    print(f"{'FAIL' if problems else 'ok'}: {label}: newest glibc symbol GLIBC_{newest}; needs {' '.join(needed)}")
    return problems


def is_elf(path: Path) -> bool:
    with path.open("rb") as f:
        return f.read(4) == b"\x7fELF"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--glibc", default="2.17")
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    limit = version_tuple(args.glibc)
    problems: list[str] = []
    checked = 0
    for given in args.files:
        if given.suffix == ".whl":
            with tempfile.TemporaryDirectory() as folder, zipfile.ZipFile(given) as wheel:
                wheel.extractall(folder)
                for member in sorted(Path(folder).rglob("*")):
                    if member.is_file() and is_elf(member):
                        problems += check(member, f"{given.name}:{member.relative_to(folder)}", limit)
                        checked += 1
        else:
            problems += check(given, str(given), limit)
            checked += 1
    if checked == 0:
        problems.append("no ELF file to check")
    for problem in problems:
        print(f"FAIL: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
