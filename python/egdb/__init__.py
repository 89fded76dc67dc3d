"""egdb: endgame databases of international draughts (10x10), compatible with Kingsrow.

Open a database and probe it::

    import egdb

    egdb.build("db3", 3)                       # every endgame of up to 3 pieces, in a second
    with egdb.open("db3") as db:
        print(db.probe_wld("W:W28:BK26"))      # Value.LOSS
        print(db.probe_dtw("W:W28:BK26"))      # 6 plies
        print(db.pv("W:W28:BK26"))             # ['28-23', '26-31', ...]
        print(db.probe_wdl("W:W28:BK26"))      # -1: signed, as python-chess (+1 win, -1 loss)

Probes also take Hub position strings and any board with a ``fen`` attribute or ``fen()``
method (pydraughts' and py-draughts' ``draughts.Board``, dame-rs's ``dame.Board``).

Everything here calls the C library of egdb through its flat interface (``egdb.h``).
"""

from ._errors import CancelledError, DatabaseError, EgdbError, FenError, MissingTableError
from .database import (
    Database,
    DatabaseType,
    MoveDistance,
    Probe,
    ProgressCallback,
    Stats,
    Value,
    build,
    identify,
    open,
    version,
)
from .position import Color, HasFenAttribute, HasFenMethod, Move, Position, PositionLike, Slice, slice_size

__version__ = "0.1.0"

__all__ = [
    "CancelledError",
    "Color",
    "Database",
    "DatabaseError",
    "DatabaseType",
    "EgdbError",
    "FenError",
    "HasFenAttribute",
    "HasFenMethod",
    "MissingTableError",
    "Move",
    "MoveDistance",
    "Position",
    "PositionLike",
    "Probe",
    "ProgressCallback",
    "Slice",
    "Stats",
    "Value",
    "build",
    "identify",
    "open",
    "slice_size",
    "version",
]
