"""Shared fixtures: one real database of every endgame up to 3 pieces, built once per run."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

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
