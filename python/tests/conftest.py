"""Shared fixtures: one real database of every endgame up to 3 pieces, built once per run, and
the draughts packages from PyPI that the interoperability tests use (skipped, saying why, when
they cannot be imported)."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import egdb


@pytest.fixture(scope="session")
def db_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A native database (WLD, DTW, MTC) of every endgame with at most 3 pieces."""
    directory = tmp_path_factory.mktemp("db3")
    egdb.build(directory, 3, threads=2)
    return directory


@pytest.fixture()
def db(db_dir: Path) -> Iterator[egdb.Database]:
    """The 3-piece database, opened for one test."""
    with egdb.open(db_dir) as database:
        yield database


def import_or_skip(module: str, distribution: str, check: str) -> ModuleType:
    """The module, or a skip that says why it cannot be used (printed with pytest -rs)."""
    try:
        mod = importlib.import_module(module)
    except Exception as e:  # noqa: BLE001 - any import failure is a reason to skip
        reason = f"{distribution} ({module}) cannot be imported: {type(e).__name__}: {e}"
        print(reason)
        pytest.skip(reason)
    if not hasattr(mod, check):
        reason = f"the module {module} is not {distribution} (no {check}; another package with the same name?)"
        print(reason)
        pytest.skip(reason)
    return mod


@pytest.fixture(scope="session")
def dame() -> ModuleType:
    return import_or_skip("dame", "dame-rs", "Board")


@pytest.fixture(scope="session")
def pydraughts() -> ModuleType:
    mod = import_or_skip("draughts", "pydraughts", "Board")
    if not hasattr(mod.Board(), "variant") or not hasattr(mod.Board()._game, "get_fen"):
        reason = "the module draughts is not pydraughts (py-draughts installs a module of the same name)"
        print(reason)
        pytest.skip(reason)
    importlib.import_module("draughts.engine")  # HubEngine and Limit: not imported by the package itself
    return mod
