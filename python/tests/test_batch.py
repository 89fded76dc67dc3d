"""Batch probes: numpy arrays and lists in one C call, equal to the single probes."""

from __future__ import annotations

import numpy as np
import pytest

import egdb
from egdb import Color, Position, Value

from test_database import sample_positions


def test_numpy_batch_equals_single_probes(db: egdb.Database) -> None:
    positions = sample_positions(2000, seed=21)
    boards = np.array([p.boards() for p in positions], dtype=np.uint64)
    colors = np.array([p.turn for p in positions], dtype=np.int32)
    results = db.probe_wld_batch(boards, colors)
    assert results.dtype == np.int32 and results.shape == (2000,)
    assert [Value(v) for v in results] == [db.probe_wld(p) for p in positions]


def test_list_inputs(db: egdb.Database) -> None:
    positions = sample_positions(50, seed=2)
    expected = [db.probe_wld(p) for p in positions]
    assert list(db.probe_wld_batch(positions)) == expected
    assert list(db.probe_wld_batch([p.fen() for p in positions])) == expected
    rows = [list(p.boards()) for p in positions]
    assert list(db.probe_wld_batch(rows, [p.turn for p in positions])) == expected


def test_single_color_for_all_and_other_dtypes(db: egdb.Database) -> None:
    positions = [p for p in sample_positions(100, seed=4)]
    boards = np.array([p.boards() for p in positions], dtype=np.int64)  # converted, not rejected
    white = db.probe_wld_batch(boards, Color.WHITE)
    assert list(white) == [db.probe_wld(Position(*p.boards(), Color.WHITE)) for p in positions]
    # A strided view (every other row) is copied into a contiguous array first.
    strided = np.array([p.boards() for p in positions], dtype=np.uint64)[::2]
    assert list(db.probe_wld_batch(strided, 1)) == list(white[::2])


def test_missing_tables_raise_or_take_the_default(db: egdb.Database) -> None:
    good = Position.from_fen("W:W28:BK26")
    four = Position.from_fen("W:W28,33:BK26,K5")
    with pytest.raises(egdb.MissingTableError, match="position 1"):
        db.probe_wld_batch([good, four])
    assert list(db.probe_wld_batch([good, four], default=0)) == [Value.LOSS, 0]


def test_shape_errors(db: egdb.Database) -> None:
    with pytest.raises(ValueError):
        db.probe_wld_batch(np.zeros((4, 2), dtype=np.uint64), 0)
    with pytest.raises(ValueError):
        db.probe_wld_batch(np.zeros((4, 3), dtype=np.uint64), [0, 1])
    with pytest.raises(ValueError):
        db.probe_wld_batch(np.zeros((4, 3), dtype=np.uint64))
    assert db.probe_wld_batch(np.zeros((0, 3), dtype=np.uint64), 0).shape == (0,)
