"""Probes from many Python threads at once give the same answers as one thread."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

import egdb

from test_database import sample_positions


def test_parallel_single_and_batch_probes(db: egdb.Database) -> None:
    positions = sample_positions(400, seed=9)
    expected = [db.probe_wld(p) for p in positions]
    boards = np.array([p.boards() for p in positions], dtype=np.uint64)
    colors = np.array([p.turn for p in positions], dtype=np.int32)

    def single(chunk: int) -> bool:
        return all(db.probe_wld(positions[i]) == expected[i] for i in range(chunk, len(positions), 8))

    def batch(_: int) -> bool:
        return list(db.probe_wld_batch(boards, colors)) == expected

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert all(pool.map(single, range(8)))
        assert all(pool.map(batch, range(16)))
