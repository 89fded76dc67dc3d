"""The exceptions of egdb. Every failure of the C library arrives as one of these."""

from __future__ import annotations


class EgdbError(Exception):
    """Base class of egdb's own exceptions.

    ``code`` is the negative error code of the C interface (``egdb.h``), or 0 when the error
    was detected in Python.
    """

    code: int = 0


class MissingTableError(EgdbError, KeyError):
    """The database cannot answer: too many pieces, a missing slice, or no data of the kind
    asked for (e.g. DTW in a WLD-only database). A :class:`KeyError`, as in python-chess."""

    def __str__(self) -> str:
        # KeyError quotes its argument; a message reads better plain.
        return str(self.args[0]) if self.args else ""


class FenError(EgdbError, ValueError):
    """A malformed FEN string; the message names the offending token."""


class DatabaseError(EgdbError, OSError):
    """The database cannot be opened, is closed, fails verification, or an I/O error occurred."""


class CancelledError(EgdbError):
    """A build or verification was cancelled (Ctrl-C during the progress callback)."""
