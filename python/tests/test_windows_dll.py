"""egdb.dll, cross-compiled with MinGW-w64, exports exactly the C interface, as VBA needs it.

For x86-64 and i686 the test builds the real DLL (the ``egdb_c`` target with the toolchain files
of bindings/windows, into ``build-mingw-<arch>`` of the source tree, so that a second run only
relinks what changed) and reads its export table back with ``objdump -p``:

* the DLL exports every function of capi/egdb.h and every ``Declare`` of vba/egdb.bas (both
  branches), under its plain name, and nothing else;
* on i686 each function is ``__stdcall`` with the argument bytes the header implies (``name@N``
  in the object that was linked), as VBA on 32-bit Office requires, and the DLL exports it
  undecorated (``--kill-at``), as the Kingsrow DLL does;
* the DLL depends on system DLLs only (its C++ runtime is linked in), so Excel loads it without
  MinGW's DLLs beside it.

It needs zstd built for MinGW-w64, which scripts/setup.sh makes in build/deps/<triplet> (the
environment variable ``EGDB_MINGW_DEPS`` names another folder of ``<triplet>`` prefixes). Only a missing MinGW-w64
compiler skips the test; missing zstd is a failure that says to run the setup script.
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
# What a DLL built with -static may import: Windows itself and the C runtime every Windows has.
SYSTEM_DLLS = {"kernel32.dll", "msvcrt.dll"}


def mingw_tool(triplet: str, name: str) -> str:
    for candidate in (f"{triplet}-{name}-posix", f"{triplet}-{name}"):
        path = shutil.which(candidate)
        if path:
            return path
    pytest.skip(f"{triplet}-{name} not found: install Debian's mingw-w64 (scripts/setup.sh does)")


def zstd_prefix(triplet: str) -> Path:
    root = Path(os.environ.get("EGDB_MINGW_DEPS", ROOT / "build" / "deps"))
    prefix = root / triplet
    if not (prefix / "lib" / "cmake" / "zstd" / "zstdConfig.cmake").exists():
        pytest.fail(f"no zstd for {triplet} in {prefix}: run scripts/setup.sh, which builds it from Debian's source package")
    return prefix


@pytest.fixture(scope="module", params=sorted(TARGETS))
def windows_build(request: pytest.FixtureRequest) -> tuple[str, Path]:
    """(arch, build folder) of the cross build of the egdb_c target."""
    arch = request.param
    triplet = TARGETS[arch]
    mingw_tool(triplet, "g++")
    mingw_tool(triplet, "gcc")
    prefix = zstd_prefix(triplet)
    build = ROOT / f"build-mingw-{arch}"
    launcher = []
    env = dict(os.environ)
    if shutil.which("ccache"):
        launcher = ["-DCMAKE_C_COMPILER_LAUNCHER=ccache", "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
        # Paths relative to the source tree in ccache's keys: another clone or worktree of the
        # same sources reuses the objects (the build has no debug information naming paths).
        env["CCACHE_BASEDIR"] = str(ROOT)
    # A portable DLL (EGDB_ARCH empty): it is copied to other people's machines.
    subprocess.run(
        ["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
         f"-DCMAKE_TOOLCHAIN_FILE={ROOT / 'bindings' / 'windows' / f'mingw-{arch}.cmake'}",
         f"-DEGDB_MINGW_PREFIX={prefix}", "-DEGDB_BUILD_TESTS=OFF", "-DEGDB_BUILD_BENCH=OFF",
         "-DEGDB_BUILD_JAVA=ON", "-DEGDB_ARCH=", *launcher],
        check=True, stdout=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    subprocess.run(["cmake", "--build", str(build), "--target", "egdb_c", "-j", "2"], check=True,
                   stdout=subprocess.DEVNULL, env=env)
    return arch, build


def objdump_private_headers(triplet: str, dll: Path) -> str:
    return subprocess.run([mingw_tool(triplet, "objdump"), "-p", str(dll)], check=True, capture_output=True,
                          text=True).stdout


def export_table(dump: str) -> list[str]:
    """The names of the export directory, from objdump's "[Ordinal/Name Pointer] Table"."""
    table = dump.split("[Ordinal/Name Pointer] Table", 1)
    assert len(table) == 2, "the DLL has no export table"
    names = []
    for line in table[1].splitlines()[1:]:
        m = re.fullmatch(r"\s*\[\s*\d+\]\s+(\S+)\s*", line)
        if not m:
            break
        names.append(m.group(1))
    return names


def test_the_dll_exports_exactly_the_c_interface(windows_build: tuple[str, Path]) -> None:
    arch, build = windows_build
    dll = build / "capi" / "egdb.dll"
    assert dll.exists(), f"{dll} was not built (the DLL must be called egdb.dll: Lib \"egdb\" in vba/egdb.bas)"
    exported = export_table(objdump_private_headers(TARGETS[arch], dll))
    assert len(exported) == len(set(exported))
    assert set(exported) == set(HEADER_FUNCTIONS), (
        f"missing: {sorted(set(HEADER_FUNCTIONS) - set(exported))}, extra: {sorted(set(exported) - set(HEADER_FUNCTIONS))}"
    )
    for bits in ("64", "32"):
        assert set(DECLARES[bits]) == set(exported), f"vba/egdb.bas ({bits}-bit branch) against the DLL"


def test_the_dll_needs_only_system_dlls(windows_build: tuple[str, Path]) -> None:
    arch, build = windows_build
    dump = objdump_private_headers(TARGETS[arch], build / "capi" / "egdb.dll")
    imported = {name.lower() for name in re.findall(r"^\s*DLL Name: (\S+)", dump, re.M)}
    assert "kernel32.dll" in imported
    assert imported <= SYSTEM_DLLS, f"imports {sorted(imported - SYSTEM_DLLS)}: the C++ runtime must be linked in"


def stdcall_bytes(name: str) -> int:
    """Bytes of arguments a __stdcall function pops on i686: 8 for int64_t, 4 for the rest."""
    return sum(8 if p.type == "int64_t" else 4 for p in HEADER_FUNCTIONS[name].params)


def test_the_calling_convention_is_the_kingsrow_one(windows_build: tuple[str, Path]) -> None:
    arch, build = windows_build
    triplet = TARGETS[arch]
    # The one object of the egdb_c target (egdb_capi.cpp alone, or its unity batch of one).
    objects = list((build / "capi" / "CMakeFiles" / "egdb_c.dir").rglob("*.obj"))
    assert len(objects) == 1, objects
    nm = subprocess.run([mingw_tool(triplet, "nm"), "--defined-only", str(objects[0])], check=True,
                        capture_output=True, text=True).stdout
    # i686 C symbols carry a leading underscore; __stdcall adds @<bytes of arguments>.
    prefix = "_" if arch == "i686" else ""
    defined = {}
    for m in re.finditer(rf"^\S+ T {prefix}([A-Za-z]\w*?)(?:@(\d+))?$", nm, re.M):
        if m.group(1) in HEADER_FUNCTIONS:
            defined[m.group(1)] = m.group(2)
    assert set(defined) == set(HEADER_FUNCTIONS)
    for name, decoration in sorted(defined.items()):
        if arch == "i686":
            assert decoration is not None and int(decoration) == stdcall_bytes(name), f"{name}@{decoration}: not __stdcall?"
        else:
            assert decoration is None, f"{name}@{decoration}: x86-64 has one calling convention and no decoration"
