#!/usr/bin/env python3
"""Assembles the egdb wheels of one processor from a CMake build with EGDB_PYTHON_ABIS.

One wheel per CPython version found in the build (bindings/python/cp3XY/_egdb.cpython-3XY-*.so),
each holding the pure-Python package of python/egdb, that version's extension, the one libegdb.so
(the C ABI the extension links through its $ORIGIN run path) and, when the build made it, the
egdb program as the wheel's script (pip puts it on the environment's PATH).

The tag is manylinux_2_17 (alias manylinux2014): the build targets glibc 2.17 (Zig,
cmake/toolchains/zig-linux.cmake). scripts/check_glibc_symbols.py and `auditwheel show` confirm
it for every wheel in scripts/test_packaging.sh.

Usage: make_wheels.py --build DIR --arch x86_64|aarch64 --out DIST [--program FILE]
Wheels are written by the standard library's zipfile with a RECORD of SHA-256 digests (PEP 427).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import re
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "egdb"
PYPROJECT = ROOT / "python" / "pyproject.toml"
README = ROOT / "python" / "README.md"
GLIBC = "2_17"


def metadata(project: dict) -> str:
    """The METADATA file (core metadata 2.1) from pyproject.toml's [project] table."""
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
    ]
    lines += [f"Classifier: {c}" for c in project.get("classifiers", [])]
    lines += [f"Requires-Dist: {d}" for d in project.get("dependencies", [])]
    for extra, requirements in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in requirements]
    lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + README.read_text(encoding="utf-8")


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def write_wheel(path: Path, files: dict[str, tuple[bytes, int]], dist_info: str) -> None:
    """files: archive name -> (bytes, Unix mode). RECORD is added last, listing itself unhashed."""
    record = [record_line(name, data) for name, (data, _) in files.items()]
    record.append(f"{dist_info}/RECORD,,")
    files = dict(files)
    files[f"{dist_info}/RECORD"] = ("\n".join(record).encode() + b"\n", 0o644)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, (data, mode) in files.items():
            # A fixed date: the same inputs give the same wheel, byte for byte.
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", type=Path, required=True, help="the CMake build folder")
    parser.add_argument("--arch", choices=("x86_64", "aarch64"), required=True)
    parser.add_argument("--out", type=Path, required=True, help="where the wheels go")
    parser.add_argument("--program", type=Path, help="the egdb program to ship as the wheel's script")
    args = parser.parse_args()

    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    name, version = project["name"], project["version"]
    library = args.build / "capi" / "libegdb.so"
    extensions = sorted((args.build / "bindings" / "python").glob(f"cp3*/_egdb.cpython-3*-{args.arch}-linux-gnu.so"))
    if not library.is_file() or not extensions:
        print(f"make_wheels: no libegdb.so or no extension in {args.build}", file=sys.stderr)
        return 1
    common: dict[str, tuple[bytes, int]] = {}
    for source in sorted(PACKAGE.iterdir()):
        if source.is_file() and source.suffix in (".py", ".pyi", ".typed"):
            common[f"egdb/{source.name}"] = (source.read_bytes(), 0o644)
    common["egdb/libegdb.so"] = (library.read_bytes(), 0o755)
    dist_info = f"{name}-{version}.dist-info"
    if args.program:
        common[f"{name}-{version}.data/scripts/egdb"] = (args.program.read_bytes(), 0o755)
    platform = f"manylinux_{GLIBC}_{args.arch}.manylinux2014_{args.arch}"
    args.out.mkdir(parents=True, exist_ok=True)
    for extension in extensions:
        python_tag = re.fullmatch(r"_egdb\.cpython-(3\d+)-.*\.so", extension.name)
        assert python_tag, extension
        tag = f"cp{python_tag.group(1)}"
        files = dict(common)
        files[f"egdb/{extension.name}"] = (extension.read_bytes(), 0o755)
        files[f"{dist_info}/METADATA"] = (metadata(project).encode(), 0o644)
        wheel_file = "\n".join(["Wheel-Version: 1.0", "Generator: egdb scripts/make_wheels.py",
                                "Root-Is-Purelib: false", f"Tag: {tag}-{tag}-manylinux_{GLIBC}_{args.arch}",
                                f"Tag: {tag}-{tag}-manylinux2014_{args.arch}"]) + "\n"
        files[f"{dist_info}/WHEEL"] = (wheel_file.encode(), 0o644)
        path = args.out / f"{name}-{version}-{tag}-{tag}-{platform}.whl"
        write_wheel(path, files, dist_info)
        print(f"make_wheels: {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
