"""The Windows DLL (MinGW-w64 cross build) exports every function of egdb.h and of vba/egdb.bas.

Two levels:

* the C interface's translation unit, compiled by MinGW-w64 for x86-64 and i686: its export
  directives name every function of the header, and on i686 each is ``__stdcall`` with the
  argument bytes the header implies (``name@N``), as VBA on 32-bit Office requires;
* the whole DLL, linked and read back with ``objdump -p``. It needs zstd built for MinGW-w64,
  which Debian does not package, and core/ to build on Windows; the test says so when skipped.
  Point ``EGDB_MINGW_ZSTD_DIR`` (a prefix with include/zstd.h and lib/libzstd.a per target,
  ``<dir>/<triplet>``) at one to run it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from test_vba_declarations import DECLARES, HEADER_FUNCTIONS, ROOT

TARGETS = {"x86_64": "x86_64-w64-mingw32", "i686": "i686-w64-mingw32"}


def tool(triplet: str, name: str) -> str:
    for candidate in (f"{triplet}-{name}-posix", f"{triplet}-{name}"):
        path = shutil.which(candidate)
        if path:
            return path
    pytest.skip(f"{triplet}-{name} not found: install Debian's mingw-w64 (scripts/setup.sh does)")


def stdcall_bytes(name: str) -> int:
    """Bytes of arguments a __stdcall function pops on i686: 8 for int64_t, 4 for the rest."""
    return sum(8 if p.type == "int64_t" else 4 for p in HEADER_FUNCTIONS[name].params)


@pytest.mark.parametrize("arch", sorted(TARGETS))
def test_c_interface_object_exports_everything(arch: str, tmp_path: Path) -> None:
    triplet = TARGETS[arch]
    cxx = tool(triplet, "g++")
    objcopy = shutil.which(f"{triplet}-objcopy")
    if objcopy is None:
        pytest.skip(f"{triplet}-objcopy not found: install binutils-mingw-w64")
    obj = tmp_path / "egdb_capi.o"
    subprocess.run([cxx, "-std=c++20", "-O1", "-I", str(ROOT), "-c", str(ROOT / "capi" / "egdb_capi.cpp"), "-o", str(obj)],
                   check=True)
    # The linker's export directives of the object, e.g. -export:"egdb_open@16".
    section = tmp_path / "drectve.bin"
    subprocess.run([objcopy, "-O", "binary", "--only-section=.drectve", str(obj), str(section)], check=True)
    directives = section.read_bytes().decode("ascii", "replace")
    exports = dict(re.findall(r'-export:"?([A-Za-z_]\w*)(?:@(\d+))?"?', directives))
    assert set(exports) == set(HEADER_FUNCTIONS)
    for bits in ("64", "32"):
        assert set(DECLARES[bits]) <= set(exports)
    for name, decoration in exports.items():
        if arch == "i686":
            assert decoration and int(decoration) == stdcall_bytes(name), f"{name}@{decoration}: not __stdcall?"
        else:
            assert not decoration, name


@pytest.mark.parametrize("arch", sorted(TARGETS))
def test_linked_dll_exports_everything(arch: str, tmp_path: Path) -> None:
    triplet = TARGETS[arch]
    tool(triplet, "g++")
    zstd_root = Path(os.environ.get("EGDB_MINGW_ZSTD_DIR", f"/usr/{triplet}"))
    prefix = zstd_root / triplet if (zstd_root / triplet).is_dir() else zstd_root
    if not (prefix / "include" / "zstd.h").exists() or not (prefix / "lib" / "libzstd.a").exists():
        pytest.skip(
            f"no zstd for {triplet} (Debian has no MinGW zstd package; expected {prefix}/include/zstd.h and "
            f"{prefix}/lib/libzstd.a, set EGDB_MINGW_ZSTD_DIR); the DLL link also needs a Windows "
            "version of core/util/mapped_file.cpp and core/formats/native/slice_file_writer.cpp"
        )
    build = tmp_path / "build"
    toolchain = ROOT / "bindings" / "windows" / f"mingw-{arch}.cmake"
    subprocess.run(
        ["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja", f"-DCMAKE_TOOLCHAIN_FILE={toolchain}",
         f"-DCMAKE_PREFIX_PATH={prefix}", "-DEGDB_BUILD_TESTS=OFF", "-DEGDB_BUILD_BENCH=OFF", "-DEGDB_BUILD_JAVA=OFF",
         "-DEGDB_ARCH="],
        check=True,
    )
    subprocess.run(["cmake", "--build", str(build), "--target", "egdb_c", "-j2"], check=True)
    dll = next(build.rglob("*egdb*.dll"))
    dump = subprocess.run([f"{triplet}-objdump", "-p", str(dll)], check=True, capture_output=True, text=True).stdout
    table = dump.split("[Ordinal/Name Pointer] Table", 1)[1]
    exported = set(re.findall(r"\]\s+(\w+)\s*$", table, re.M))
    assert set(HEADER_FUNCTIONS) <= exported, sorted(set(HEADER_FUNCTIONS) - exported)
    for bits in ("64", "32"):
        assert set(DECLARES[bits]) <= exported
