"""Positions of international draughts: FEN, Hub strings, legal moves, the Kingsrow slice index,
and the board objects of other draughts packages."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple, Protocol, Union

from . import _egdb
from ._errors import FenError

# Square s (1..50) is bit (s - 1) + (s - 1) // 10 of a bitboard (docs/kingsrow.md §1).
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
    """A legal move: its PDN string, the position after it, and its Hub string.

    ``pdn`` is the short form (``28x19``, the full path only where two captures share their
    start and end squares); ``hub`` is the Hub protocol's form with every captured square
    (``28x19x23``), which engines, pydraughts (``Move(board, hub_move=...)``) and dame-rs
    (``Board.push``) read without ambiguity.
    """

    pdn: str
    position: Position
    hub: str


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
        """Parses a FEN such as ``"W:W31-50:B1-20"``; raises :class:`FenError` if malformed.

        Also accepted: Lidraughts' suffixes ``"W:W31-50:B1-20:H0:F1"`` (halfmove clock and
        fullmove number, ignored), the PDN tag ``'[FEN "W:W31-50:B1-20"]'`` and squares in any
        order. The message of a :class:`FenError` names the offending token and its offset.
        """
        if not isinstance(fen, str):
            raise TypeError(f"FEN must be a str, not {type(fen).__name__}")
        black, white, king, color = _egdb.fen_to_position(fen)
        return cls(black, white, king, Color(color))

    @classmethod
    def from_hub(cls, hub: str) -> Position:
        """Parses a Hub protocol position (Scan's ``protocol.txt``): the side to move ``W`` or
        ``B``, then one of ``w b W B e`` (white man, black man, white king, black king, empty)
        for each square 1..50, e.g. ``"Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww"``.
        Raises :class:`FenError` naming the offending character."""
        if not isinstance(hub, str):
            raise TypeError(f"Hub position must be a str, not {type(hub).__name__}")
        black, white, king, color = _egdb.hub_to_position(hub)
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

    def hub(self) -> str:
        """The Hub protocol position string (51 characters), as ``pos pos=...`` sends it."""
        return _egdb.position_to_hub(self.black, self.white, self.king, self.turn)

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
            Move(pdn, Position(b, w, k, nxt), hub)
            for pdn, hub, b, w, k in _egdb.legal_moves(self.black, self.white, self.king, self.turn)
        ]

    def legal_moves(self) -> list[str]:
        """The legal moves as PDN strings, in the generator's order."""
        return [m.pdn for m in self.moves()]

    def successors(self) -> list[Position]:
        """The positions after each legal move, in the generator's order (``get_movelist``)."""
        return [m.position for m in self.moves()]

    def hub_moves(self) -> list[str]:
        """The legal moves as Hub strings (every captured square listed), in the generator's
        order."""
        return [m.hub for m in self.moves()]

    def play(self, move: str) -> Position:
        """The position after the legal move ``move``, in PDN (``32-28``, ``28x19``, a full path
        ``26x37x48``) or in Hub notation (``28x19x23``, captured squares in any order).

        Raises :class:`FenError` (a :class:`ValueError`) naming the problem if the text is
        malformed or no legal move matches; the message lists the legal moves."""
        if not isinstance(move, str):
            raise TypeError(f"move must be a str, not {type(move).__name__}")
        b, w, k = _egdb.parse_move(self.black, self.white, self.king, self.turn, move)
        return Position(b, w, k, self.turn.opponent)

    def is_capture(self) -> bool:
        """Whether the side to move must capture."""
        return _egdb.is_capture(self.black, self.white, self.king, self.turn)

    @property
    def slice(self) -> Slice:
        """The piece counts of this position."""
        men = ~self.king
        return Slice(
            _popcount(self.black & men),
            _popcount(self.black & self.king),
            _popcount(self.white & men),
            _popcount(self.white & self.king),
        )

    @property
    def piece_count(self) -> int:
        """Number of pieces on the board."""
        return _popcount(self.black | self.white)

    def index(self) -> int:
        """The Kingsrow index of this position inside its own slice (``positiontoindex``).

        The side to move is not part of the index; no colour reversal is applied.
        """
        return _egdb.position_to_index(self.black, self.white, self.king, *self.slice)

    def boards(self) -> tuple[int, int, int]:
        """``(black, white, king)``: one row of the arrays that batch probes take."""
        return (self.black, self.white, self.king)


class HasFenAttribute(Protocol):
    """A board whose ``fen`` is an attribute or property: pydraughts' and py-draughts'
    ``draughts.Board``."""

    @property
    def fen(self) -> str: ...


class HasFenMethod(Protocol):
    """A board whose ``fen()`` is a method: dame-rs's ``dame.Board`` (and :class:`Position`)."""

    def fen(self) -> str: ...


PositionLike = Union[Position, str, HasFenAttribute, HasFenMethod]
"""What every probe takes: a :class:`Position`; a string, FEN in any dialect
:meth:`Position.from_fen` reads or a Hub position (:meth:`Position.from_hub`); or a board object
of another package, anything with a ``fen`` attribute or ``fen()`` method returning such a string
(pydraughts and py-draughts ``draughts.Board``, dame-rs ``dame.Board``)."""

# PDN's GameType of international draughts (py-draughts boards carry it as GAME_TYPE), and
# pydraughts' name of the variant (Board.variant).
_INTERNATIONAL_GAME_TYPE = 20
_INTERNATIONAL_VARIANTS = ("standard", "international")


def _popcount(bits: int) -> int:
    """The number of set bits of a non-negative int (int.bit_count is Python 3.10+)."""
    return bin(bits).count("1")


def _is_hub_text(text: str) -> bool:
    # A FEN always has ':' right after its side letter; a Hub position has no ':' at all and a
    # square letter where FEN has it. Anything else goes to the FEN parser for its message.
    body = text.strip()
    return ":" not in body and len(body) >= 2 and body[0] in "WBwb" and body[1] in "wbWBe"


def _from_text(text: str) -> Position:
    return Position.from_hub(text) if _is_hub_text(text) else Position.from_fen(text)


def _check_variant(board: object) -> None:
    """Refuses a board of another variant: its FEN would read as an international position
    (Frisian is 10x10 too) and get the wrong answers."""
    variant = getattr(board, "variant", None)
    if isinstance(variant, str) and variant.lower() not in _INTERNATIONAL_VARIANTS:
        raise ValueError(f"egdb covers international draughts; this {type(board).__name__} plays {variant!r}")
    game_type = getattr(board, "GAME_TYPE", None)
    if isinstance(game_type, int) and not isinstance(game_type, bool) and game_type != _INTERNATIONAL_GAME_TYPE:
        name = getattr(board, "VARIANT_NAME", game_type)
        raise ValueError(
            f"egdb covers international draughts (PDN GameType {_INTERNATIONAL_GAME_TYPE}); "
            f"this {type(board).__name__} plays {name!r}"
        )


def as_position(position: PositionLike) -> Position:
    """``position`` itself, the position of a string (FEN in any accepted dialect, or a Hub
    position), or the position of a board object with a ``fen`` attribute or ``fen()`` method.

    Raises :class:`FenError` for malformed text, :class:`ValueError` for a board of another
    variant, :class:`TypeError` for anything else."""
    if isinstance(position, Position):
        return position
    if isinstance(position, str):
        return _from_text(position)
    fen = getattr(position, "fen", None)
    if fen is None:
        raise TypeError(
            f"expected a Position, a FEN or Hub string, or a board with a fen attribute or fen() method, "
            f"not {type(position).__name__}"
        )
    _check_variant(position)
    text = fen() if callable(fen) else fen
    if not isinstance(text, str):
        raise TypeError(f"{type(position).__name__}.fen gave {type(text).__name__}, not a FEN string")
    return _from_text(text)


__all__ = [
    "Color",
    "FenError",
    "HasFenAttribute",
    "HasFenMethod",
    "Move",
    "Position",
    "PositionLike",
    "Slice",
    "as_position",
    "slice_size",
]
