"""Opening, probing, verifying and building endgame databases."""

from __future__ import annotations

import enum
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Callable, Optional, TypeVar, Union

import numpy as np
import numpy.typing as npt

from . import _egdb
from ._errors import DatabaseError, MissingTableError
from .position import Color, Position, PositionLike, as_position

T = TypeVar("T")

ProgressCallback = Callable[[str, int, int], object]
"""``progress(what, done, total)``: called as a long job advances. Raise to cancel."""

StrPath = Union[str, "os.PathLike[str]"]


class Value(enum.IntEnum):
    """A game-theoretic value for the side to move. The numbers are the Kingsrow codes
    (``EGDB_WIN``, ``EGDB_LOSS``, ``EGDB_DRAW``), also used by the batch probes' arrays.

    Careful when porting python-chess code: there ``probe_wdl() > 0`` means a win, while here
    ``LOSS`` is 2. Use :attr:`wdl` (+1 win, 0 draw, -1 loss), :meth:`Database.probe_wdl` or
    :meth:`Database.probe_wdl_batch` for signed values.
    """

    WIN = 1
    LOSS = 2
    DRAW = 3

    def __neg__(self) -> Value:
        """The value for the other side."""
        return {Value.WIN: Value.LOSS, Value.LOSS: Value.WIN, Value.DRAW: Value.DRAW}[self]

    @property
    def wdl(self) -> int:
        """The signed value, python-chess's convention: +1 win, 0 draw, -1 loss for the side to
        move (``egdb_wdl``)."""
        return _WDL[self]

    def __str__(self) -> str:
        return self.name.lower()


_WDL = {Value.WIN: 1, Value.DRAW: 0, Value.LOSS: -1}


class DatabaseType(enum.IntEnum):
    """The format of a database (``egdb_identify``)."""

    WLD_RUNLEN = 0
    MTC_RUNLEN = 1
    WLD_HUFFMAN = 2
    WLD_TUN_V1 = 3
    WLD_TUN_V2 = 4
    DTW = 5
    NATIVE = 100


@dataclass(frozen=True)
class Probe:
    """Everything one probe tells about a position, for the side to move.

    ``dtw`` and ``mtc`` are plies (to the end of the game, to the next conversion), ``None`` for
    draws and when the database does not hold that kind of data. ``best_move`` (PDN) and
    ``best_move_hub`` (Hub notation, every captured square listed) are ``None`` when there is no
    legal move.
    """

    wld: Value
    dtw: Optional[int]
    mtc: Optional[int]
    best_move: Optional[str]
    best_move_hub: Optional[str] = None

    @property
    def wdl(self) -> int:
        """:attr:`Value.wdl` of :attr:`wld`: +1 win, 0 draw, -1 loss for the side to move."""
        return self.wld.wdl


@dataclass(frozen=True)
class MoveDistance:
    """A legal move ranked by a distance probe.

    ``wld`` is the value for the player making the move once it is played; ``distance`` is in
    plies (DTW: to the end of the game, counting this move; MTC: the successor's moves to
    conversion), ``None`` for moves that draw. ``move`` is PDN, ``hub`` the same move in Hub
    notation.
    """

    move: str
    distance: Optional[int]
    wld: Value
    position: Position
    hub: str = ""

    @property
    def wdl(self) -> int:
        """:attr:`Value.wdl` of :attr:`wld`, for the player making the move."""
        return self.wld.wdl


@dataclass(frozen=True)
class Stats:
    """Counters of an open database since it was opened."""

    lookups: int
    cache_hits: int
    cache_misses: int
    cache_bytes: int
    files: int


_KINDS = ("wld", "dtw", "mtc")


def _distance_kind(kind: str) -> int:
    try:
        return {"dtw": 0, "mtc": 1}[kind]
    except KeyError:
        raise ValueError(f"kind must be 'dtw' or 'mtc', not {kind!r}") from None


def _optional(value: int) -> Optional[int]:
    return None if value < 0 else value


class Database:
    """An open endgame database; use :func:`open` to get one.

    A context manager: ``with egdb.open(path) as db: ...`` closes it at the end. Every method is
    thread-safe and releases the GIL while the C library works, so several Python threads probe
    in parallel.

    Probes take a :class:`Position`, a FEN string (any dialect :meth:`Position.from_fen`
    reads) or a Hub position string, or a board of another package: anything with a ``fen``
    attribute or ``fen()`` method (pydraughts and py-draughts ``draughts.Board``, dame-rs
    ``dame.Board``). The ``probe_*`` methods raise
    :class:`MissingTableError` when the database cannot answer (too many pieces, a missing slice,
    no data of the kind asked for); the ``get_*`` methods return a default instead.
    """

    def __init__(self, handle: int, directory: str) -> None:
        """Wraps an open C handle; use :func:`open` instead."""
        self._handle = handle
        self._directory = directory

    # --- life cycle -------------------------------------------------------------------------

    def close(self) -> None:
        """Closes the database; further probes raise :class:`DatabaseError`. Idempotent."""
        if self._handle >= 0:
            handle, self._handle = self._handle, -1
            _egdb.close(handle)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._handle < 0

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __del__(self) -> None:
        # A handle that is never closed would keep the files mapped until the process ends.
        # The C library never reuses a handle number, so closing late is always safe.
        if getattr(self, "_handle", -1) >= 0:
            try:
                self.close()
            except Exception:
                pass

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"{self.type.name}, {self.max_pieces} pieces"
        return f"<egdb.Database {self._directory!r} ({state})>"

    def _h(self) -> int:
        if self._handle < 0:
            raise DatabaseError(f"the database {self._directory!r} is closed")
        return self._handle

    # --- what it is -------------------------------------------------------------------------

    @property
    def directory(self) -> str:
        """The folder the database was opened from."""
        return self._directory

    @property
    def type(self) -> DatabaseType:
        """The format of its WLD data (else of its distance data)."""
        return DatabaseType(_egdb.type(self._h()))

    @property
    def max_pieces(self) -> int:
        """The largest number of pieces it covers."""
        return _egdb.max_pieces(self._h())

    # --- probes -----------------------------------------------------------------------------

    def probe_wld(self, position: PositionLike) -> Value:
        """The win/loss/draw value for the side to move, exact for every position with at most
        :attr:`max_pieces` pieces (captures and positions the format leaves out are resolved by
        search)."""
        p = as_position(position)
        return Value(_egdb.lookup_with_search(self._h(), p.black, p.white, p.king, p.turn))

    def probe_wdl(self, position: PositionLike) -> int:
        """The signed value for the side to move, as python-chess's ``probe_wdl``: +1 win,
        0 draw, -1 loss (:meth:`probe_wld` gives the :class:`Value`)."""
        return self.probe_wld(position).wdl

    def probe(self, position: PositionLike) -> Probe:
        """WLD, DTW, MTC and the best move (PDN and Hub) in one call (``egdb_probe``)."""
        p = as_position(position)
        wld, dtw, mtc, best = _egdb.probe(self._h(), p.black, p.white, p.king, p.turn)
        return Probe(Value(wld), _optional(dtw), _optional(mtc), best or None, _hub_of(p, best) if best else None)

    def probe_dtw(self, position: PositionLike) -> Optional[int]:
        """Distance to win: plies to the end of the game with best play, counted for the side to
        move whose result :meth:`probe_wld` gives; ``None`` for a draw.

        Raises :class:`MissingTableError` if the database holds no DTW data for the position.
        """
        return self._distance(position, "dtw")

    def probe_mtc(self, position: PositionLike) -> Optional[int]:
        """Moves to conversion: plies to the next capture or man move with best play (the
        Kingsrow MTC databases store values of 10 plies and more, even, rounded up); ``None``
        for a draw.

        Raises :class:`MissingTableError` if the database holds no MTC data for the position.
        """
        return self._distance(position, "mtc")

    def _distance(self, position: PositionLike, kind: str) -> Optional[int]:
        result = self.probe(position)
        if result.wld == Value.DRAW:
            return None
        value = result.dtw if kind == "dtw" else result.mtc
        if value is None:
            error = MissingTableError(f"no {kind.upper()} data for {as_position(position).fen()} in {self._directory}")
            error.code = _egdb.LOOKUP_NOT_POSSIBLE
            raise error
        return value

    def get_wld(self, position: PositionLike, default: T = None) -> Union[Value, T]:  # type: ignore[assignment]
        """:meth:`probe_wld`, or ``default`` when the database cannot answer."""
        return self._get(self.probe_wld, position, default)

    def get_wdl(self, position: PositionLike, default: T = None) -> Union[int, T]:  # type: ignore[assignment]
        """:meth:`probe_wdl`, or ``default`` when the database cannot answer."""
        return self._get(self.probe_wdl, position, default)

    def get_dtw(self, position: PositionLike, default: T = None) -> Union[int, None, T]:  # type: ignore[assignment]
        """:meth:`probe_dtw`, or ``default`` when the database cannot answer."""
        return self._get(self.probe_dtw, position, default)

    def get_mtc(self, position: PositionLike, default: T = None) -> Union[int, None, T]:  # type: ignore[assignment]
        """:meth:`probe_mtc`, or ``default`` when the database cannot answer."""
        return self._get(self.probe_mtc, position, default)

    @staticmethod
    def _get(probe: Callable[[PositionLike], object], position: PositionLike, default: object) -> object:
        try:
            return probe(position)
        except MissingTableError:
            return default

    def best_moves(self, position: PositionLike, kind: str = "dtw") -> list[MoveDistance]:
        """Every legal move with its value and distance, best first.

        ``kind`` is ``"dtw"`` (distances to the end of the game) or ``"mtc"`` (moves to
        conversion). Winning moves come first, fastest first; then drawing moves; then losing
        moves, slowest first.
        """
        p = as_position(position)
        nxt = p.turn.opponent
        hub = {m.position: m.hub for m in reversed(p.moves())}  # the first move to a position wins
        result = []
        for move, distance, wld, b, w, k in _egdb.best_moves(self._h(), p.fen(), _distance_kind(kind)):
            after = Position(b, w, k, nxt)
            result.append(MoveDistance(move, _optional(distance), Value(wld), after, hub[after]))
        return result

    def pv(self, position: PositionLike, *, notation: str = "pdn") -> list[str]:
        """The principal variation to the end of the game (DTW), as PDN moves, or with
        ``notation="hub"`` as Hub moves (every captured square listed, as engines print it).

        Raises :class:`MissingTableError` for a draw or without DTW data.
        """
        if notation not in ("pdn", "hub"):
            raise ValueError(f"notation must be 'pdn' or 'hub', not {notation!r}")
        p = as_position(position)
        moves = _egdb.pv(self._h(), p.fen()).split()
        if notation == "pdn":
            return moves
        hub_moves = []
        for move in moves:
            hub_moves.append(_hub_of(p, move))
            p = p.play(move)
        return hub_moves

    def is_sharp_win(self, position: PositionLike) -> Optional[Position]:
        """The position after the only winning move when the side to move wins and exactly one
        move wins; else ``None``."""
        p = as_position(position)
        after = _egdb.is_sharp_win(self._h(), p.black, p.white, p.king, p.turn)
        return None if after is None else Position(*after, p.turn.opponent)

    def lookup(self, position: PositionLike, *, conditional: bool = False) -> int:
        """The raw stored value, as the Kingsrow driver returns it (``egdb_lookup``): a Kingsrow
        code, 0 (unknown) for positions the format does not store, -2 for a slice that is not
        there, -1 with ``conditional`` when the data is not in memory. Prefer :meth:`probe_wld`.
        """
        p = as_position(position)
        return _egdb.lookup(self._h(), p.black, p.white, p.king, p.turn, conditional)

    # --- batches ----------------------------------------------------------------------------

    def probe_wld_batch(
        self,
        positions: npt.ArrayLike | Iterable[PositionLike],
        colors: npt.ArrayLike | Color | int | None = None,
        *,
        default: Optional[int] = None,
    ) -> npt.NDArray[np.int32]:
        """Win/loss/draw of many positions in one call into the C library.

        ``positions`` is an ``(N, 3)`` array of ``(black, white, king)`` bitboards (any integer
        dtype; ``uint64`` C-contiguous arrays are passed without a copy) with ``colors`` an
        ``(N,)`` array or one value for all (0 = black, 1 = white to move); or a sequence of
        :class:`Position` objects or FEN strings, whose own sides to move are used.

        Returns an ``int32`` array of :class:`Value` codes (1 win, 2 loss, 3 draw). A position
        the database cannot answer raises :class:`MissingTableError`, or gets ``default`` when
        it is given.
        """
        boards, sides = _batch_arrays(positions, colors)
        results = _egdb.lookup_batch(self._h(), boards, sides)
        bad = results < 0
        if bad.any():
            if default is None:
                first = int(np.flatnonzero(bad)[0])
                fen = Position(*(int(x) for x in boards[first]), Color(int(sides[first]))).fen()
                error = MissingTableError(f"position {first} ({fen}) cannot be probed: code {int(results[first])}")
                error.code = int(results[first])
                raise error
            results[bad] = default
        return results

    def probe_wdl_batch(
        self,
        positions: npt.ArrayLike | Iterable[PositionLike],
        colors: npt.ArrayLike | Color | int | None = None,
        *,
        default: Optional[int] = None,
    ) -> npt.NDArray[np.int8]:
        """:meth:`probe_wld_batch` with signed values: an ``int8`` array of +1 (win), 0 (draw),
        -1 (loss) for the side to move. ``default`` (for positions the database cannot answer)
        must then be a value outside -1..1 to stay recognisable, e.g. -2."""
        if default is not None and not -128 <= default <= 127:
            raise ValueError(f"default must fit an int8, not {default}")
        # -1 is no Kingsrow code, so it marks the positions that got the default.
        codes = self.probe_wld_batch(positions, colors, default=None if default is None else -1)
        signed = np.zeros(codes.shape, dtype=np.int8)
        signed[codes == Value.WIN] = 1
        signed[codes == Value.LOSS] = -1
        if default is not None:
            signed[codes == -1] = default
        return signed

    # --- maintenance ------------------------------------------------------------------------

    def stats(self) -> Stats:
        """Lookups and cache counters since the database was opened."""
        return Stats(*_egdb.stats(self._h()))

    def verify(self, progress: Optional[ProgressCallback] = None) -> None:
        """Checks every file (Kingsrow sets against their published CRCs; native databases page
        CRCs and one-ply consistency). Raises :class:`DatabaseError` naming the first problems.
        """
        problems = _egdb.verify(self._h(), progress)
        if problems:
            details = _egdb.last_error(self._h()).strip()
            raise DatabaseError(f"{problems} problem(s) in {self._directory}:\n{details}")


def _hub_of(position: Position, move: str) -> str:
    """The Hub form of a legal move given in PDN: the move leading to the same position."""
    after = position.play(move)
    for m in position.moves():
        if m.position == after:
            return m.hub
    raise AssertionError(f"{move} is legal in {position.fen()} but not in its move list")  # pragma: no cover


def _batch_arrays(
    positions: npt.ArrayLike | Iterable[PositionLike], colors: npt.ArrayLike | Color | int | None
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int32]]:
    if isinstance(positions, np.ndarray):
        boards = np.ascontiguousarray(positions, dtype=np.uint64)
    else:
        items = list(positions)  # type: ignore[arg-type]
        if items and (isinstance(items[0], (Position, str)) or hasattr(items[0], "fen")):
            parsed = [as_position(x) for x in items]  # type: ignore[arg-type]
            boards = np.array([p.boards() for p in parsed], dtype=np.uint64).reshape(-1, 3)
            if colors is None:
                colors = np.array([p.turn for p in parsed], dtype=np.int32)
        else:
            boards = np.array(items, dtype=np.uint64).reshape(-1, 3)
    if boards.ndim != 2 or boards.shape[1] != 3:
        raise ValueError(f"positions must have shape (N, 3), not {boards.shape}")
    if colors is None:
        raise ValueError("colors are required with bitboard arrays (0 = black, 1 = white to move)")
    if np.isscalar(colors) or isinstance(colors, Color):
        sides = np.full(len(boards), int(colors), dtype=np.int32)  # type: ignore[arg-type]
    else:
        sides = np.ascontiguousarray(colors, dtype=np.int32)
    if sides.shape != (len(boards),):
        raise ValueError(f"colors must have shape ({len(boards)},), not {sides.shape}")
    return boards, sides


def open(
    directory: Union[StrPath, Sequence[StrPath]], *, maxpieces: Optional[int] = None, cache_mb: int = 64
) -> Database:
    """Opens the database in ``directory``: a Kingsrow set of any type, an egdb native
    database, or a folder holding several kinds (e.g. WLD + DTW + MTC).

    ``directory`` may also be a list of folders (or one string of folders separated by ``;``),
    opened as one database: each kind of data (WLD, MTC, DTW) comes from the first folder that
    holds it, as a Kingsrow installation keeps ``wld_database``, ``mtc_database`` and
    ``dtw_database`` apart.

    ``maxpieces`` limits the pieces loaded (as Kingsrow's ``maxpieces=`` option); ``cache_mb``
    bounds the handle's one cache of decompressed pages, which every kind and folder it opens
    shares. Raises :class:`DatabaseError` if nothing can be opened.
    """
    if isinstance(directory, (str, bytes, os.PathLike)):
        path = os.fsdecode(directory)
    else:
        folders = [os.fsdecode(d) for d in directory]
        if not folders or any(";" in f for f in folders):
            raise ValueError(f"directory must name at least one folder, none with a ';' in it, not {folders}")
        path = ";".join(folders)
    options = "" if maxpieces is None else f"maxpieces={int(maxpieces)}"
    handle = _egdb.open(options, int(cache_mb), path)
    return Database(handle, path)


def identify(directory: StrPath) -> tuple[DatabaseType, int]:
    """The type and piece limit of the database in ``directory``, without opening it for probes.
    Raises :class:`DatabaseError` if no database is recognised."""
    db_type, pieces = _egdb.identify(os.fspath(directory))
    return DatabaseType(db_type), pieces


def build(
    directory: StrPath,
    pieces: int,
    *,
    threads: Optional[int] = None,
    kinds: Sequence[str] = _KINDS,
    verify: bool = True,
    progress: Optional[ProgressCallback] = None,
) -> None:
    """Solves every endgame with at most ``pieces`` pieces into a native database in
    ``directory``, resuming an interrupted build, and verifies it unless ``verify`` is false.

    ``kinds`` is a subset of ``("wld", "dtw", "mtc")`` and must contain ``"wld"``. ``threads``
    defaults to every core. ``progress(what, done, total)`` is called after each slice (``what``
    names it, ``done`` and ``total`` count positions); an exception raised there, or Ctrl-C,
    cancels the build and is raised again (a later call resumes). Build failures raise
    :class:`DatabaseError`.
    """
    unknown = [k for k in kinds if k not in _KINDS]
    if unknown or "wld" not in kinds:
        raise ValueError(f"kinds must be a subset of {_KINDS} containing 'wld', not {tuple(kinds)}")
    _egdb.build(os.fspath(directory), int(pieces), int(threads or 0), ",".join(kinds), bool(verify), progress)


def version() -> str:
    """The version of the C library."""
    return _egdb.version()
