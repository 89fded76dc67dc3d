"""egdb.build: progress, cancellation, resumption, kinds."""

from __future__ import annotations

from pathlib import Path

import pytest

import egdb
from egdb import Value


def test_progress_is_reported(tmp_path: Path) -> None:
    calls: list[tuple[str, int, int]] = []
    egdb.build(tmp_path, 2, threads=1, progress=lambda what, done, total: calls.append((what, done, total)))
    assert calls
    dones = [done for _, done, _ in calls]
    assert dones == sorted(dones)
    assert calls[-1][1] == calls[-1][2]  # everything done at the end
    with egdb.open(tmp_path) as db:
        assert db.probe_wld("W:WK33:BK18") == Value.DRAW


class Stop(Exception):
    pass


def test_exception_in_callback_cancels_and_build_resumes(tmp_path: Path) -> None:
    def stop_after_first(what: str, done: int, total: int) -> None:
        raise Stop(what)

    with pytest.raises(Stop):
        egdb.build(tmp_path, 3, threads=1, progress=stop_after_first)
    egdb.build(tmp_path, 3, threads=1)  # resumes and finishes
    with egdb.open(tmp_path) as db:
        assert db.probe_wld("W:W28:BK26") == Value.LOSS


def test_wld_only(tmp_path: Path) -> None:
    egdb.build(tmp_path, 2, kinds=("wld",), verify=False)
    with egdb.open(tmp_path) as db:
        assert db.probe_wld("W:WK33:BK18") == Value.DRAW
        with pytest.raises(egdb.MissingTableError):
            db.pv("W:WK46:B5")
        assert db.get_dtw("W:WK46:B5", default=-1) == -1


def test_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        egdb.build(tmp_path, 3, kinds=("dtw",))
    with pytest.raises(ValueError):
        egdb.build(tmp_path, 3, kinds=("wld", "dtm"))
    with pytest.raises(ValueError):
        egdb.build(tmp_path, 1)
