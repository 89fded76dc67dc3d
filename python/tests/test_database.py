"""Database probes on a real 3-piece database, checked against the rules themselves."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

import egdb
from egdb import Color, Position, Value


def negamax(db: egdb.Database, p: Position) -> Value:
    """The value of p from the database values of its successors (no moves: a loss)."""
    successors = p.successors()
    if not successors:
        return Value.LOSS
    values = {-db.probe_wld(q) for q in successors}
    return Value.WIN if Value.WIN in values else Value.DRAW if Value.DRAW in values else Value.LOSS


def sample_positions(count: int, seed: int = 7) -> list[Position]:
    rng = random.Random(seed)
    slices = [(1, 0, 1, 0), (0, 1, 0, 1), (1, 1, 1, 0), (2, 0, 0, 1), (0, 1, 1, 1), (1, 0, 2, 0), (0, 0, 1, 2)]
    out = []
    for _ in range(count):
        s = rng.choice(slices)
        out.append(Position.from_index(rng.randrange(egdb.slice_size(*s)), s, Color(rng.randrange(2))))
    return out


def test_known_values(db: egdb.Database) -> None:
    # White's man cannot outrun the black king: lost in 6 plies (see `egdb probe` in README.md).
    assert db.probe_wld("W:W28:BK26") == Value.LOSS
    assert db.probe_dtw("W:W28:BK26") == 6
    assert db.probe_wld("B:W28:BK26") == Value.WIN
    assert db.probe_wld(Position.from_fen("W:WK33:BK18")) == Value.DRAW
    assert db.probe_dtw("W:WK33:BK18") is None
    assert db.max_pieces == 3
    assert db.type == egdb.DatabaseType.NATIVE


def test_wld_agrees_with_one_ply_search(db: egdb.Database) -> None:
    for p in sample_positions(300):
        assert db.probe_wld(p) == negamax(db, p), p.fen()


def test_fen_and_position_probes_agree(db: egdb.Database) -> None:
    for p in sample_positions(100, seed=3):
        assert db.probe_wld(p.fen()) == db.probe_wld(p)


def test_dtw_best_moves_and_pv(db: egdb.Database) -> None:
    checked = 0
    for p in sample_positions(200, seed=11):
        probe = db.probe(p)
        if probe.wld == Value.DRAW:
            assert probe.dtw is None and db.probe_dtw(p) is None
            continue
        moves = db.best_moves(p)
        if not moves:  # the side to move has no move: lost at once
            assert probe.wld == Value.LOSS and probe.dtw == 0
            continue
        best = moves[0]
        assert best.move == probe.best_move
        assert best.distance == probe.dtw == db.probe_dtw(p)
        # DTW counts the move: the successor is one ply closer to the end.
        assert db.probe_dtw(best.position) == best.distance - 1
        assert best.wld == probe.wld
        pv = db.pv(p)
        assert len(pv) == probe.dtw
        assert pv[0] == best.move
        checked += 1
    assert checked > 50


def test_mtc(db: egdb.Database) -> None:
    assert db.probe_mtc("W:W28:BK26") == 2
    moves = db.best_moves("W:W28:BK26", kind="mtc")
    assert {m.move for m in moves} == set(Position.from_fen("W:W28:BK26").legal_moves())
    with pytest.raises(ValueError):
        db.best_moves("W:W28:BK26", kind="dtm")


def test_too_many_pieces(db: egdb.Database) -> None:
    four = "W:W28,33:BK26,K5"
    with pytest.raises(egdb.MissingTableError) as info:
        db.probe_wld(four)
    assert isinstance(info.value, KeyError)
    assert info.value.code == -109
    assert db.get_wld(four) is None
    assert db.get_wld(four, default=Value.DRAW) == Value.DRAW
    assert db.get_dtw(four, -1) == -1
    assert db.get_mtc(four) is None
    assert db.get_wld("W:W28:BK26") == Value.LOSS


def test_maxpieces_option(db_dir: Path) -> None:
    with egdb.open(db_dir, maxpieces=2) as db:
        assert db.max_pieces == 2
        assert db.probe_wld("W:WK33:BK18") == Value.DRAW
        with pytest.raises(egdb.MissingTableError):
            db.probe_wld("W:W28,33:BK26")


def test_closed_database(db_dir: Path) -> None:
    db = egdb.open(db_dir)
    db.close()
    db.close()
    assert db.closed
    with pytest.raises(egdb.DatabaseError):
        db.probe_wld("W:W28:BK26")


def test_open_errors(tmp_path: Path) -> None:
    with pytest.raises(egdb.DatabaseError) as info:
        egdb.open(tmp_path / "nothing-here")
    assert isinstance(info.value, OSError)
    assert str(info.value)
    with pytest.raises(egdb.DatabaseError):
        egdb.identify(tmp_path)


def test_identify(db_dir: Path) -> None:
    assert egdb.identify(db_dir) == (egdb.DatabaseType.NATIVE, 3)


def test_sharp_win(db: egdb.Database) -> None:
    for p in sample_positions(150, seed=5):
        winning = [q for q in p.successors() if db.probe_wld(q) == Value.LOSS]
        expected = winning[0] if db.probe_wld(p) == Value.WIN and len(winning) == 1 else None
        assert db.is_sharp_win(p) == expected


def test_raw_lookup(db: egdb.Database) -> None:
    code = db.lookup("W:WK33:BK18")
    assert code in (0, 3)  # a native database stores this position (3) or leaves it to search (0)
    assert db.lookup("W:W28,33:BK26,K5") == -2


def test_stats_and_verify(db: egdb.Database) -> None:
    db.probe_wld("W:W28:BK26")
    stats = db.stats()
    assert stats.files > 0
    assert stats.cache_hits + stats.cache_misses > 0
    calls: list[tuple[str, int, int]] = []
    db.verify(progress=lambda what, done, total: calls.append((what, done, total)))
    assert calls


def test_verify_finds_damage(db_dir: Path, tmp_path: Path) -> None:
    copy = tmp_path / "damaged"
    shutil.copytree(db_dir, copy)
    victim = max(copy.iterdir(), key=lambda f: f.stat().st_size)
    data = bytearray(victim.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 64] = bytes(b ^ 0xFF for b in data[middle : middle + 64])
    victim.write_bytes(bytes(data))
    try:
        db = egdb.open(copy)
    except egdb.DatabaseError:
        return  # refusing to open a damaged file is as good as reporting it
    with db, pytest.raises(egdb.DatabaseError):
        db.verify()


def test_context_manager_and_repr(db_dir: Path) -> None:
    with egdb.open(db_dir) as db:
        assert "NATIVE" in repr(db)
    assert db.closed
    assert "closed" in repr(db)
    assert egdb.version().count(".") == 2
