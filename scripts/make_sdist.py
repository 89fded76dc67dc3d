#!/usr/bin/env python3
"""Writes the source distribution of the Python package: dist/egdb-<version>.tar.gz.

The extension is built from the whole C++ project, so the sdist holds every file git tracks
(`git ls-files`, with the working tree's contents) under egdb-<version>/, plus what makes it a
Python sdist: PKG-INFO (the wheels' metadata) and a pyproject.toml at its top, which is
python/pyproject.toml with its paths taken from the top instead of from python/.
`pip install egdb-<version>.tar.gz` then builds the package with scikit-build-core (CMake, a C++20
compiler and zstd needed), for the machine it runs on. scripts/test_packaging.sh builds a wheel
from it.

Usage: make_sdist.py --out DIST
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_wheels import PYPROJECT, ROOT, metadata  # noqa: E402

# python/pyproject.toml's paths, seen from python/, and the same seen from the sdist's top.
FROM_THE_TOP = {
    'cmake.source-dir = ".."': 'cmake.source-dir = "."',
    'build-dir = "../build/python-{wheel_tag}"': 'build-dir = "build/python-{wheel_tag}"',
    'wheel.packages = ["egdb"]': 'wheel.packages = ["python/egdb"]',
    'readme = "README.md"': 'readme = "python/README.md"',
    'testpaths = ["tests"]': 'testpaths = ["python/tests"]',
}


def top_pyproject() -> str:
    text = PYPROJECT.read_text(encoding="utf-8")
    for old, new in FROM_THE_TOP.items():
        if old not in text:
            sys.exit(f"make_sdist: python/pyproject.toml no longer has {old!r}: update FROM_THE_TOP")
        text = text.replace(old, new)
    return text


def add_bytes(archive: tarfile.TarFile, name: str, data: bytes, mode: int = 0o644) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = mode
    info.mtime = 1577836800  # a fixed date: the same sources give the same archive
    archive.addfile(info, io.BytesIO(data))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    top = f"{project['name']}-{project['version']}"
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    files = sorted(name for name in listed.decode().split("\0") if name and (ROOT / name).is_file())
    if "pyproject.toml" in files:
        sys.exit("make_sdist: the repository has a pyproject.toml at its top; the sdist would have two")
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"{top}.tar.gz"
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as archive:
        add_bytes(archive, f"{top}/PKG-INFO", metadata(project).encode())
        add_bytes(archive, f"{top}/pyproject.toml", top_pyproject().encode())
        for name in files:
            source = ROOT / name
            add_bytes(archive, f"{top}/{name}", source.read_bytes(), 0o755 if source.stat().st_mode & 0o111 else 0o644)
    print(f"make_sdist: {path.name} ({len(files)} files of the repository)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
