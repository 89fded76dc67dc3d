"""Position: FEN, legal moves, captures, and the Kingsrow slice index through the C ABI."""

from __future__ import annotations

import pytest

import egdb
from egdb import Color, Position, Slice

START = "W:W31-50:B1-20"


def test_fen_round_trip_is_canonical() -> None:
    p = Position.from_fen(' "B:W28,27,K50:B12,K7,3." ')
    assert p.fen() == "B:W27,28,K50:B3,K7,12"
    assert p.turn == Color.BLACK
    assert Position.from_fen(p.fen()) == p
    assert str(Position.from_fen(START)) == START


@pytest.mark.parametrize("bad", ["", "X:W1:B2", "W:W51:B1", "W:W5,5:B1", "W:W1-3:B5:W3", "W:W28 :B1"])
def test_bad_fen_raises_fen_error(bad: str) -> None:
    with pytest.raises(egdb.FenError) as info:
        Position.from_fen(bad)
    assert isinstance(info.value, ValueError)
    assert str(info.value)  # the C library's message, naming the problem
    assert info.value.code == -106


def test_start_position_moves() -> None:
    p = Position.from_fen(START)
    moves = p.legal_moves()
    assert len(moves) == 9
    assert moves[0].count("-") == 1
    assert not p.is_capture()
    after = p.successors()
    assert all(q.turn == Color.BLACK for q in after)
    assert sum(len(q.legal_moves()) for q in after) == 81  # perft 2


def test_capture_moves_and_play() -> None:
    p = Position.from_fen("W:W28:B23")
    assert p.is_capture()
    assert p.legal_moves() == ["28x19"]
    assert p.play("28x19") == Position.from_fen("B:W19:B")
    with pytest.raises(ValueError):
        p.play("28-22")


def test_king_capture_paths() -> None:
    p = Position.from_fen("W:WK46,28:B37,23,19")
    moves = p.moves()
    assert moves and all("x" in m.pdn for m in moves)
    assert [m.position for m in moves] == p.successors()


def test_slice_and_index_round_trip_over_a_whole_slice() -> None:
    s = Slice(1, 0, 1, 1)
    size = s.size()
    assert size == egdb.slice_size(1, 0, 1, 1) > 0
    seen = set()
    for index in range(size):
        p = Position.from_index(index, s)
        assert p.slice == s
        assert p.index() == index
        seen.add(p)
    assert len(seen) == size


def test_index_of_a_known_position() -> None:
    # The same numbers as the CLI example in README.md (`egdb index`).
    p = Position.from_fen("B:W27,28,K50:B3,K7,12")
    assert p.slice == (2, 1, 2, 1)
    assert p.index() == 134409509
    assert Position.from_index(134409509, p.slice, Color.BLACK) == p


def test_index_errors() -> None:
    with pytest.raises(ValueError):
        Position.from_index(egdb.slice_size(1, 0, 1, 0), (1, 0, 1, 0))
    with pytest.raises(ValueError):
        egdb.slice_size(6, 0, 0, 0)


def test_from_squares_and_validation() -> None:
    p = Position.from_squares(white=[28], black_kings=[26], turn=Color.WHITE)
    assert p.fen() == "W:W28:BK26"
    assert p.piece_count == 2
    with pytest.raises(ValueError):
        Position(1, 1, 0)
    with pytest.raises(ValueError):
        Position(0, 0, 1)
    with pytest.raises(ValueError):
        Position(1 << 10, 0, 0)  # bit 10 is not a square
    with pytest.raises(ValueError):
        Position.from_squares(white=[51])


def test_positions_are_hashable_values() -> None:
    a = Position.from_fen("W:W28:BK26")
    b = Position.from_squares(white=[28], black_kings=[26])
    assert a == b and hash(a) == hash(b)
    assert repr(a) == "Position('W:W28:BK26')"
