"""Positions of international draughts: FEN, legal moves, and the Kingsrow slice index."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple, Union

from . import _egdb
from ._errors import FenError

# Square s (1..50) is bit (s - 1) + (s - 1) // 10 of a bitboard (kingsrow-format.md 1.2).
_SQUARE_BITS = tuple((s - 1) + (s - 1) // 10 for s in range(1, 51))
_BOARD_MASK = sum(1 << b for b in _SQUARE_BITS)


class Color(enum.IntEnum):
    """The side to move, with the C interface's numbering (``EGDB_BLACK``, ``EGDB_WHITE``)."""

    BLACK = 0
    WHITE = 1

    @property
    def opponent(self) -> Color:
        """The other side."""
        return Color(1 - self)


class Slice(NamedTuple):
    """Piece counts of a material class: black men, black kings, white men, white kings."""

    nbm: int
    nbk: int
    nwm: int
    nwk: int

    @property
    def pieces(self) -> int:
        """Total number of pieces."""
        return self.nbm + self.nbk + self.nwm + self.nwk

    def size(self) -> int:
        """Number of positions in this slice (Kingsrow indexing)."""
        return slice_size(*self)


def slice_size(nbm: int, nbk: int, nwm: int, nwk: int) -> int:
    """Number of positions of a slice in the Kingsrow indexing (``getdatabasesize_slice``).

    Raises :class:`ValueError` for counts the index does not cover (more than 5 pieces a side).
    """
    return _egdb.slice_size(nbm, nbk, nwm, nwk)


class Move(NamedTuple):
    """A legal move: its PDN string and the position after it."""

    pdn: str
    position: Position


@dataclass(frozen=True)
class Position:
    """A draughts position: three bitboards in the Kingsrow layout and the side to move.

    Positions are immutable and hashable. Build them from FEN (:meth:`from_fen`), from a slice
    index (:meth:`from_index`), or from bitboards directly.

    >>> Position.from_fen("W:W28:B23").legal_moves()
    ['28x19']
    """

    black: int
    white: int
    king: int
    turn: Color = Color.WHITE

    def __post_init__(self) -> None:
        for name in ("black", "white", "king"):
            value = getattr(self, name)
            if value & ~_BOARD_MASK or value < 0:
                raise ValueError(f"{name} has bits outside the 50 squares: {value:#x}")
        if self.black & self.white:
            raise ValueError("a square holds both a black and a white piece")
        if self.king & ~(self.black | self.white):
            raise ValueError("a king bit is set on an empty square")
        object.__setattr__(self, "turn", Color(self.turn))

    @classmethod
    def from_fen(cls, fen: str) -> Position:
        """Parses a FEN such as ``"W:W31-50:B1-20"``; raises :class:`FenError` if malformed."""
        if not isinstance(fen, str):
            raise TypeError(f"FEN must be a str, not {type(fen).__name__}")
        black, white, king, color = _egdb.fen_to_position(fen)
        return cls(black, white, king, Color(color))

    @classmethod
    def from_squares(
        cls,
        *,
        white: tuple[int, ...] | list[int] = (),
        black: tuple[int, ...] | list[int] = (),
        white_kings: tuple[int, ...] | list[int] = (),
        black_kings: tuple[int, ...] | list[int] = (),
        turn: Color = Color.WHITE,
    ) -> Position:
        """A position from square numbers (1..50) of men and kings."""

        def bits(squares: tuple[int, ...] | list[int]) -> int:
            value = 0
            for s in squares:
                if not 1 <= s <= 50:
                    raise ValueError(f"square {s} is outside 1..50")
                value |= 1 << _SQUARE_BITS[s - 1]
            return value

        kings = bits(white_kings) | bits(black_kings)
        return cls(bits(black) | bits(black_kings), bits(white) | bits(white_kings), kings, turn)

    @classmethod
    def from_index(cls, index: int, slice: Slice | tuple[int, int, int, int], turn: Color = Color.WHITE) -> Position:
        """The position with Kingsrow index ``index`` in ``slice`` (``indextoposition``).

        Raises :class:`ValueError` if the index is outside ``0 .. slice_size(*slice) - 1``.
        """
        nbm, nbk, nwm, nwk = slice
        try:
            black, white, king = _egdb.index_to_position(index, nbm, nbk, nwm, nwk)
        except ValueError as e:
            raise ValueError(f"index {index} is not a position of slice {tuple(slice)}: {e}") from None
        return cls(black, white, king, turn)

    def fen(self) -> str:
        """The canonical FEN, e.g. ``"B:W27,28,K50:B3,K7,12"``."""
        return _egdb.position_to_fen(self.black, self.white, self.king, self.turn)

    def __str__(self) -> str:
        return self.fen()

    def __repr__(self) -> str:
        return f"Position({self.fen()!r})"

    def moves(self) -> list[Move]:
        """The legal moves in the Kingsrow generator's order, with the positions after them.

        A capture path is written in full (``26x37x48``) only where two captures share their
        start and end squares.
        """
        nxt = self.turn.opponent
        return [
            Move(pdn, Position(b, w, k, nxt))
            for pdn, b, w, k in _egdb.legal_moves(self.black, self.white, self.king, self.turn)
        ]

    def legal_moves(self) -> list[str]:
        """The legal moves as PDN strings, in the generator's order."""
        return [m.pdn for m in self.moves()]

    def successors(self) -> list[Position]:
        """The positions after each legal move, in the generator's order (``get_movelist``)."""
        return [m.position for m in self.moves()]

    def play(self, move: str) -> Position:
        """The position after the legal move ``move`` (PDN); raises :class:`ValueError` if the
        move is not legal here."""
        for m in self.moves():
            if m.pdn == move:
                return m.position
        raise ValueError(f"{move!r} is not a legal move in {self.fen()}")

    def is_capture(self) -> bool:
        """Whether the side to move must capture."""
        return _egdb.is_capture(self.black, self.white, self.king, self.turn)

    @property
    def slice(self) -> Slice:
        """The piece counts of this position."""
        men = ~self.king
        return Slice(
            (self.black & men).bit_count(),
            (self.black & self.king).bit_count(),
            (self.white & men).bit_count(),
            (self.white & self.king).bit_count(),
        )

    @property
    def piece_count(self) -> int:
        """Number of pieces on the board."""
        return (self.black | self.white).bit_count()

    def index(self) -> int:
        """The Kingsrow index of this position inside its own slice (``positiontoindex``).

        The side to move is not part of the index; no colour reversal is applied.
        """
        return _egdb.position_to_index(self.black, self.white, self.king, *self.slice)

    def boards(self) -> tuple[int, int, int]:
        """``(black, white, king)``: one row of the arrays that batch probes take."""
        return (self.black, self.white, self.king)


PositionLike = Union[Position, str]
"""A :class:`Position` or a FEN string."""


def as_position(position: PositionLike) -> Position:
    """``position`` itself, or the position of a FEN string."""
    if isinstance(position, Position):
        return position
    if isinstance(position, str):
        return Position.from_fen(position)
    raise TypeError(f"expected a Position or a FEN string, not {type(position).__name__}")


__all__ = ["Color", "FenError", "Move", "Position", "PositionLike", "Slice", "as_position", "slice_size"]
