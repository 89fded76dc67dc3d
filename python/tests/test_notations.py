"""Notations of other draughts software and the signed WDL, without any other package:
FEN dialects, Hub positions and moves, duck-typed boards, and +1/0/-1 values."""

from __future__ import annotations

import random

import numpy as np
import pytest

import egdb
from egdb import Color, Position, Slice, Value, _egdb

START = Position.from_fen("W:W31-50:B1-20")
# protocol.txt's example (Scan's Hub protocol, "1) position").
START_HUB = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"
# Lidraughts' Forsyth.initial.
LIDRAUGHTS_INITIAL = (
    "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,"
    "19,20:H0:F1"
)


def test_fen_dialects_read_as_the_same_position() -> None:
    assert Position.from_fen(LIDRAUGHTS_INITIAL) == START
    assert Position.from_fen('[FEN "W:W31-50:B1-20"]') == START
    assert Position.from_fen('  [FEN "W:W31-50:B1-20:H3:F12"] ') == START


@pytest.mark.parametrize(
    ("bad", "token"),
    [
        ("W:W31-50:B1-20:H0:Fx", '"Fx" at byte 18'),
        ("W:W31-50:B1-20:F1:H0", '"H0" at byte 18'),
        ("W:W31-50:B1-20:H0:W32", '"W32" at byte 18'),
        ('[fen "W:W31-50:B1-20"]', '"fen" at byte 1'),
        ("W:W31,G32:B1-20", '"G32" at byte 6'),
    ],
)
def test_fen_dialect_errors_name_the_token(bad: str, token: str) -> None:
    with pytest.raises(egdb.FenError, match=token):
        Position.from_fen(bad)


def test_hub_positions() -> None:
    assert Position.from_hub(START_HUB) == START
    assert START.hub() == START_HUB
    assert egdb.Position.from_hub("B" + "e" * 50) == Position.from_fen("B:W:B")
    with pytest.raises(egdb.FenError, match='square 12 must be one of w b W B e .* at byte 12'):
        Position.from_hub("W" + "e" * 11 + "x" + "e" * 38)
    with pytest.raises(egdb.FenError, match="upper-case W or B"):
        Position.from_hub("w" + "e" * 50)


def random_positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    slices = [Slice(2, 1, 1, 2), Slice(0, 3, 0, 2), Slice(4, 0, 3, 1), Slice(5, 0, 5, 0), Slice(1, 1, 1, 1)]
    out = []
    for i in range(count):
        s = slices[i % len(slices)]
        turn = Color.WHITE if i % 2 else Color.BLACK
        out.append(Position.from_index(rng.randrange(s.size()), s, turn))
    return out


def test_hub_round_trips_and_agrees_with_fen() -> None:
    for p in random_positions(2000, 7):
        hub = p.hub()
        assert len(hub) == 51
        assert Position.from_hub(hub) == p
        # Built here square by square, independently of the C writer.
        squares = []
        for s in range(1, 51):
            bit = 1 << ((s - 1) + (s - 1) // 10)
            letter = "w" if p.white & bit else "b" if p.black & bit else "e"
            squares.append(letter.upper() if p.king & bit else letter)
        assert hub == ("W" if p.turn == Color.WHITE else "B") + "".join(squares)
        # A string in either notation is a position to every probe.
        assert egdb.position.as_position(hub) == egdb.position.as_position(p.fen()) == p


def test_moves_carry_their_hub_form_and_play_reads_both() -> None:
    # protocol.txt: after 32-28 19-23, White's only move is 28x19x23 (short PDN 28x19).
    p = START.play("32-28").play("19-23")
    assert [(m.pdn, m.hub) for m in p.moves()] == [("28x19", "28x19x23")]
    assert p.hub_moves() == ["28x19x23"]
    assert p.play("28x19x23") == p.play("28x19") == p.moves()[0].position
    king_line = Position.from_fen("W:WK46:B14,23,32,41")
    assert sorted(king_line.hub_moves()) == ["46x10x14x23x32x41", "46x5x14x23x32x41"]
    assert king_line.play("46x10x41x32x23x14") == Position.from_fen("B:WK10:B")
    with pytest.raises(egdb.FenError, match="legal moves for White"):
        p.play("28x19x24")
    with pytest.raises(ValueError):
        p.play("28-22")


def test_every_hub_move_plays_to_its_successor() -> None:
    rng = random.Random(11)
    checked = 0
    for p in random_positions(1500, 3):
        for m in p.moves():
            assert p.play(m.hub) == m.position
            assert p.play(m.pdn) == m.position
            captured = m.hub.split("x")[2:]
            if len(captured) > 1:
                rng.shuffle(captured)
                assert p.play("x".join(m.hub.split("x")[:2] + captured)) == m.position
                checked += 1
    assert checked > 50


class FenAttributeBoard:
    """A board that keeps its FEN as an attribute, like pydraughts' and py-draughts'."""

    def __init__(self, fen: str) -> None:
        self.fen = fen


class FenMethodBoard:
    """A board with a fen() method, like dame-rs's."""

    def __init__(self, fen: str) -> None:
        self._fen = fen

    def fen(self) -> str:
        return self._fen


def test_duck_typed_boards(db: egdb.Database) -> None:
    expected = db.probe_wld("W:W28:BK26")
    assert expected == Value.LOSS
    for board in (FenAttributeBoard("W:W28:BK26"), FenMethodBoard("W:W28:BK26"),
                  FenAttributeBoard('[FEN "W:W28:BK26"]'), FenMethodBoard("W:W28:BK26:H0:F1")):  # fmt: skip
        assert db.probe_wld(board) == expected
        assert db.probe_wdl(board) == -1
        assert db.probe(board).wld == expected
        assert db.best_moves(board)[0].move == "28-23"
        assert db.get_dtw(board) == 6
    hub = Position.from_fen("W:W28:BK26").hub()
    assert db.probe_wld(hub) == expected
    assert db.probe_wld(FenMethodBoard(hub)) == expected
    assert list(db.probe_wld_batch([FenMethodBoard("W:W28:BK26"), FenAttributeBoard("B:W28:BK26")])) == [2, 1]


def test_boards_of_other_variants_are_refused(db: egdb.Database) -> None:
    frisian = FenAttributeBoard("W:W28:BK26")
    frisian.variant = "frisian"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="international draughts"):
        db.probe_wld(frisian)
    typed = FenAttributeBoard("W:W28:BK26")
    typed.GAME_TYPE = 40  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="GameType 20"):
        db.probe_wld(typed)
    with pytest.raises(TypeError):
        db.probe_wld(object())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        db.probe_wld(FenAttributeBoard(42))  # type: ignore[arg-type]


def test_signed_wdl_of_values() -> None:
    assert (Value.WIN.wdl, Value.DRAW.wdl, Value.LOSS.wdl) == (1, 0, -1)
    for v in Value:
        assert v.wdl == _egdb.wdl(int(v))
        assert (-v).wdl == -v.wdl
    with pytest.raises(ValueError):
        _egdb.wdl(0)


SMALL_SLICES = [Slice(1, 0, 1, 1), Slice(0, 1, 1, 1), Slice(1, 1, 0, 1), Slice(2, 0, 1, 0), Slice(0, 1, 0, 2),
                Slice(1, 0, 2, 0), Slice(0, 1, 0, 1), Slice(1, 0, 1, 0)]  # fmt: skip


def small_positions(step: int) -> list[Position]:
    """Positions of at most 3 pieces, the whole range of each slice sampled every `step`."""
    return [
        Position.from_index(i, s, Color(i % 2)) for s in SMALL_SLICES for i in range(0, s.size(), step)
    ]


def test_signed_wdl_follows_negamax(db: egdb.Database) -> None:
    # python-chess's convention: a position is won (> 0) when some move leaves the opponent lost
    # (< 0), lost when every move leaves the opponent winning. A sign error would break this.
    signs = {1: 0, 0: 0, -1: 0}
    for p in small_positions(29):
        wdl = db.probe_wdl(p)
        # The side to move after capturing the last piece has lost: +1 for the mover.
        values = [-db.probe_wdl(q) if q.black and q.white else 1 for q in p.successors()]
        assert wdl == (max(values) if values else -1), p
        signs[wdl] += 1
    assert all(n > 10 for n in signs.values()), signs


def test_wdl_beside_every_value(db: egdb.Database) -> None:
    p = Position.from_fen("B:W28:BK26")
    probe = db.probe(p)
    assert probe.wld == Value.WIN and probe.wdl == 1
    assert probe.best_move == "26-31" and probe.best_move_hub == "26-31"
    assert db.get_wdl("W:W28,33:BK26,K5") is None  # 4 pieces
    assert db.get_wdl("W:W28,33:BK26,K5", default=9) == 9
    for m in db.best_moves(p):
        assert m.wdl == m.wld.wdl
        assert p.play(m.hub) == m.position
    positions = small_positions(53) + p.successors()
    codes = db.probe_wld_batch(positions)
    signed = db.probe_wdl_batch(positions)
    assert signed.dtype == np.int8
    assert list(signed) == [Value(int(c)).wdl for c in codes]
    assert list(db.probe_wdl_batch(["W:W28,33:BK26,K5", p], default=-2)) == [-2, 1]


@pytest.mark.parametrize("fen", ["W:W28,K45:B23", "B:W28:BK26", "W:W28:BK26", "W:WK46:B32,K5"])
def test_pv_in_hub_notation(db: egdb.Database, fen: str) -> None:
    start = Position.from_fen(fen)
    pdn = db.pv(start)
    hub = db.pv(start, notation="hub")
    assert len(pdn) == len(hub) == db.probe_dtw(start)
    p = q = start
    for a, b in zip(pdn, hub):
        assert ("x" in a) == ("x" in b) and a.split("x")[0] == b.split("x")[0]
        p, q = p.play(a), q.play(b)
        assert p == q
    assert not p.legal_moves()


def test_pv_hub_lists_the_captured_square(db: egdb.Database) -> None:
    # White's man on 28 must take 23: PDN 28x19, Hub 28x19x23.
    assert db.pv("W:W28,K45:B23") == ["28x19"]
    assert db.pv("W:W28,K45:B23", notation="hub") == ["28x19x23"]
    with pytest.raises(ValueError):
        db.pv("W:W28,K45:B23", notation="uci")
