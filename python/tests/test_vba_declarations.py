"""vba/egdb.bas declares the whole C interface, correctly, for 64-bit and 32-bit Office.

Every function of capi/egdb.h must be declared in both branches of the module (``#If Win64``
and ``#Else``) with the same name, the same number of arguments and VBA types that pass what the
C function expects; every declared function must be exported by the built library; the
constants must have the header's values; and the VBA types must have the C structs' sizes.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

import egdb

ROOT = Path(__file__).resolve().parents[2]
HEADER = ROOT / "capi" / "egdb.h"
BAS = ROOT / "vba" / "egdb.bas"


@dataclass(frozen=True)
class CParam:
    type: str  # normalised, e.g. "const char *", "int", "EgdbPosition *"
    name: str


@dataclass(frozen=True)
class CFunction:
    name: str
    result: str
    params: tuple[CParam, ...]


@dataclass(frozen=True)
class VbaParam:
    by_val: bool
    name: str
    type: str


@dataclass(frozen=True)
class VbaDeclare:
    name: str
    result: str  # "" for a Sub
    params: tuple[VbaParam, ...]
    ptr_safe: bool


def parse_header() -> dict[str, CFunction]:
    text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S)
    functions = {}
    for m in re.finditer(r"^EGDB_API\s+([^#;{]+?)\s*EGDB_CALL\s+(\w+)\s*\((.*?)\)\s*;", text, re.S | re.M):
        result, name, args = (" ".join(x.split()) for x in m.groups())
        params = []
        if args != "void":
            for arg in args.split(","):
                arg = " ".join(arg.split())
                pm = re.fullmatch(r"(.+?)\s*\b(\w+)((?:\[\w*\])*)", arg)
                assert pm, arg
                ctype, pname, dims = pm.groups()
                ctype = ctype.replace("*", " *").strip()
                ctype = " ".join(ctype.split())
                if dims:  # an array parameter is a pointer
                    ctype += " *"
                params.append(CParam(ctype.replace(" *", " *"), pname))
        functions[name] = CFunction(name, result, tuple(params))
    return functions


def header_constants() -> dict[str, int]:
    text = HEADER.read_text()
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"\b(EGDB_[A-Z0-9_]+)\s*=\s*(-?\d+)", text)}


def bas_lines() -> list[str]:
    """The module's logical lines (continuations joined, comments dropped)."""
    raw = BAS.read_text().replace("\r\n", "\n").split("\n")
    lines, current = [], ""
    for line in raw:
        if line.rstrip().endswith(" _"):
            current += line.rstrip()[:-1]
            continue
        lines.append((current + line).strip())
        current = ""
    return [line for line in lines if line and not line.startswith("'")]


def parse_bas() -> dict[str, dict[str, VbaDeclare]]:
    """Declares of Lib "egdb" by branch: "64" (#If Win64 Then) and "32" (#Else)."""
    branches: dict[str, dict[str, VbaDeclare]] = {"64": {}, "32": {}}
    branch = None
    for line in bas_lines():
        if re.match(r"#If Win64 Then", line, re.I):
            branch = "64"
        elif re.match(r"#Else\b", line, re.I):
            branch = "32"
        elif re.match(r"#End If", line, re.I):
            branch = None
        m = re.match(
            r'(?:Public |Private )?Declare (PtrSafe )?(Function|Sub) (\w+) Lib "(\w+)"(?: Alias "\w+")? \((.*)\)(?: As (\w+))?$',
            line,
        )
        if not m or m.group(4) != "egdb":
            continue
        assert branch, f"Declare outside #If Win64 / #Else: {line}"
        ptr_safe, kind, name, _, args, result = m.groups()
        params = []
        for arg in filter(None, (a.strip() for a in args.split(","))):
            pm = re.fullmatch(r"(ByVal|ByRef) (\w+) As (\w+)", arg)
            assert pm, f"{name}: every argument needs ByVal/ByRef and a type: {arg!r}"
            params.append(VbaParam(pm.group(1) == "ByVal", pm.group(2), pm.group(3)))
        assert (kind == "Sub") == (result is None), line
        assert name not in branches[branch], f"{name} declared twice"
        branches[branch][name] = VbaDeclare(name, result or "", tuple(params), bool(ptr_safe))
    return branches


STRUCTS = {"EgdbPosition": "Board", "EgdbProbe": "EgdbProbe", "EgdbMoveDistance": "EgdbMoveDistance", "EgdbStats": "EgdbStats"}


def expected_param(c: CParam, bits: str) -> tuple[bool, tuple[str, ...]]:
    """(ByVal?, allowed VBA types) for a C parameter."""
    pointer = "LongPtr" if bits == "64" else "Long"
    int64 = "LongLong" if bits == "64" else "Currency"
    t = c.type
    if t == "int":
        return True, ("Long",)
    if t == "int64_t":
        return True, (int64,)
    if t == "const char *":
        return True, ("String",)
    if t in ("char *",):
        return False, ("Byte",)
    if t in ("int *", "const int *"):
        return False, ("Long",)
    if t in ("egdb_progress_fn", "void *"):
        return True, (pointer,)
    base = t.replace("const ", "").replace(" *", "")
    if base in STRUCTS and t.endswith("*"):
        return False, (STRUCTS[base],)
    raise AssertionError(f"no VBA mapping for C type {t!r}")


def expected_result(c: str, bits: str) -> tuple[str, ...]:
    return {
        "int": ("Long",),
        "int16_t": ("Boolean", "Integer"),
        "int64_t": ("LongLong",) if bits == "64" else ("Currency",),
        "void": ("",),
        "const char *": ("LongPtr",) if bits == "64" else ("Long",),
    }[" ".join(c.replace("*", " *").split())]


HEADER_FUNCTIONS = parse_header()
DECLARES = parse_bas()


def test_the_header_parses_into_the_whole_interface() -> None:
    # The 17 functions of the Kingsrow DLL and egdb's additions.
    kingsrow = {
        "egdb_open", "egdb_close", "egdb_identify", "egdb_lookup", "egdb_lookup_fen", "egdb_lookup_fen_with_search",
        "egdb_lookup_with_search", "egdb_lookup_distance", "get_movelist", "is_capture", "getdatabasesize_slice",
        "indextoposition", "positiontoindex", "is_sharp_win", "move_string", "positiontofen", "fentoposition",
    }  # fmt: skip
    assert kingsrow <= set(HEADER_FUNCTIONS)
    assert len(HEADER_FUNCTIONS) >= len(kingsrow) + 12  # egdb adds 12 (version ... build)


@pytest.mark.parametrize("bits", ["64", "32"])
def test_every_function_is_declared(bits: str) -> None:
    assert set(DECLARES[bits]) == set(HEADER_FUNCTIONS)


@pytest.mark.parametrize("bits", ["64", "32"])
@pytest.mark.parametrize("name", sorted(HEADER_FUNCTIONS))
def test_declaration_matches_the_header(bits: str, name: str) -> None:
    c = HEADER_FUNCTIONS[name]
    vba = DECLARES[bits][name]
    assert vba.ptr_safe == (bits == "64"), "PtrSafe in the 64-bit branch only (VBA6 has no PtrSafe)"
    assert len(vba.params) == len(c.params), f"{name}: {len(vba.params)} arguments, C has {len(c.params)}"
    for cp, vp in zip(c.params, vba.params):
        by_val, types = expected_param(cp, bits)
        assert vp.by_val == by_val, f"{name}({cp.name}): {'ByVal' if by_val else 'ByRef'} expected for {cp.type}"
        assert vp.type in types, f"{name}({cp.name}): VBA {vp.type} for C {cp.type}, expected {types}"
    assert vba.result in expected_result(c.result, bits), f"{name}: returns {vba.result} for C {c.result}"


def test_constants_have_the_header_values() -> None:
    text = "\n".join(bas_lines())
    vba = {m.group(1): int(m.group(2)) for m in re.finditer(r"Const (EGDB_\w+) As Long = (-?\d+)", text)}
    for name, value in header_constants().items():
        assert vba.get(name) == value, name


def vba_type_sizes(bits: str) -> dict[str, int]:
    """Byte sizes of the Types of one branch (fields: Long 4, LongLong/Currency 8, Byte arrays)."""
    sizes: dict[str, int] = {}
    branch, current = None, None
    for line in bas_lines():
        if re.match(r"#If Win64 Then", line):
            branch = "64"
        elif line.startswith("#Else"):
            branch = "32"
        elif line.startswith("#End If"):
            branch = None
        if branch != bits:
            continue
        m = re.match(r"Public Type (\w+)", line)
        if m:
            current = m.group(1)
            sizes[current] = 0
            continue
        if line == "End Type":
            current = None
            continue
        if current:
            fm = re.fullmatch(r"(\w+)(?:\((\d+) To (\d+)\))? As (\w+)", line)
            assert fm, line
            count = int(fm.group(3)) - int(fm.group(2)) + 1 if fm.group(2) else 1
            size = {"Long": 4, "LongLong": 8, "Currency": 8, "Byte": 1, "Integer": 2}.get(fm.group(4))
            if size is None:
                size = sizes[fm.group(4)]
            sizes[current] += count * size
    return sizes


def c_struct_sizes(tmp_path: Path) -> dict[str, int]:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to measure the C structs")
    source = tmp_path / "sizes.c"
    source.write_text(
        '#include <stdio.h>\n#include "capi/egdb.h"\nint main(void) {\n'
        + "".join(f'printf("{s} %zu\\n", sizeof({s}));\n' for s in STRUCTS)
        + "return 0; }\n"
    )
    exe = tmp_path / "sizes"
    subprocess.run([cc, "-I", str(ROOT), str(source), "-o", str(exe)], check=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    return {name: int(size) for name, size in (line.split() for line in out.splitlines())}


@pytest.mark.parametrize("bits", ["64", "32"])
def test_types_have_the_c_layout(bits: str, tmp_path: Path) -> None:
    c = c_struct_sizes(tmp_path)
    vba = vba_type_sizes(bits)
    for cname, vname in STRUCTS.items():
        assert vba[vname] == c[cname], f"{vname} is {vba[vname]} bytes in the {bits}-bit branch, C {cname} {c[cname]}"


def exported_symbols(library: Path) -> set[str]:
    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("nm (binutils) is not installed")
    out = subprocess.run([nm, "-D", "--defined-only", str(library)], check=True, capture_output=True, text=True).stdout
    return {parts[2] for parts in (line.split() for line in out.splitlines()) if len(parts) == 3 and parts[1] == "T"}


def test_every_declared_function_is_exported_by_the_library() -> None:
    # The library installed with this package is the one the build made from capi/.
    library = Path(egdb.__file__).parent / "libegdb.so"
    if not library.exists():
        pytest.skip(f"{library} not found (not a Linux build)")
    exported = exported_symbols(library)
    for bits in ("64", "32"):
        missing = set(DECLARES[bits]) - exported
        assert not missing, f"declared in the {bits}-bit branch but not exported: {sorted(missing)}"
    # And the library exports nothing beyond the header: the C interface is the whole surface.
    assert {s for s in exported if not s.startswith("_")} == set(HEADER_FUNCTIONS)
