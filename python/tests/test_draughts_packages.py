"""egdb against the draughts packages its users hold: pydraughts (``draughts.Board``, the Hub
client of lidraughts-bot) and dame-rs (``dame.Board``), as installed from PyPI.

Every string here is the other package's own output: its FEN, its Hub position, its Hub and PDN
moves. egdb must read them as the positions and moves the other package means, and its own Hub
strings must be accepted back. Independent rules engines thus check egdb's notation, and a game
played out in dame-rs along egdb's best moves checks the signed values and the distances.

The packages are test dependencies only (scripts/test.sh installs them); a module that cannot be
imported skips its tests, saying why (the fixtures ``dame`` and ``pydraughts`` of conftest.py). pydraughts and py-draughts both install a module named
``draughts``; the pydraughts tests check which one they got.
"""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import pytest

import egdb
from egdb import Color, Position, Slice


def random_games(count: int, seed: int, plies: int) -> list[list[int]]:
    """Move choices (indices into the legal move list) of random games."""
    rng = random.Random(seed)
    return [[rng.randrange(1 << 30) for _ in range(plies)] for _ in range(count)]


def endgame_starts(count: int, seed: int) -> list[Position]:
    """Random positions with kings and men, where captures with several pieces and kings occur."""
    rng = random.Random(seed)
    slices = [Slice(3, 1, 3, 1), Slice(4, 0, 2, 2), Slice(2, 2, 5, 0), Slice(5, 0, 5, 0), Slice(1, 2, 1, 2)]
    out = []
    for i in range(count):
        s = slices[i % len(slices)]
        out.append(Position.from_index(rng.randrange(s.size()), s, Color(i % 2)))
    return out


# --- dame-rs -------------------------------------------------------------------------------------


def test_dame_fen_and_moves_agree_with_egdb(dame: ModuleType) -> None:
    """Random games in dame-rs: at every ply egdb reads dame's FEN as the same position, lists the
    same moves in Hub form, and plays dame's Hub and PDN strings to dame's next position."""
    starts = [Position.from_fen("W:W31-50:B1-20")] + endgame_starts(60, 1)
    plies = captures = multi = 0
    for start, choices in zip(starts, random_games(len(starts), 2, 80)):
        board = dame.Board(start.fen())
        for choice in choices:
            p = egdb.position.as_position(board)  # dame.Board.fen() is a method
            assert p == Position.from_fen(board.fen())
            assert Position.from_fen(p.fen()) == p
            moves = board.legal_moves
            if not moves:
                assert p.legal_moves() == []
                break
            assert sorted(m.hub() for m in moves) == sorted(p.hub_moves()), board.fen()
            move = moves[choice % len(moves)]
            ends = [(m.from_square, m.to_square) for m in moves]
            after_hub = p.play(move.hub())
            if ends.count((move.from_square, move.to_square)) == 1:
                assert p.play(str(move)) == after_hub  # dame's short PDN
            board.push(move)
            assert Position.from_fen(board.fen()) == after_hub
            plies += 1
            captures += move.is_capture
            multi += len(move.captured) > 1
            if board.is_game_over():
                break
    assert plies > 1000 and captures > 100 and multi > 10, (plies, captures, multi)


def test_dame_plays_egdb_hub_strings(dame: ModuleType) -> None:
    """egdb's own Hub strings, pushed into dame-rs, lead where egdb says."""
    for start, choices in zip(endgame_starts(40, 3), random_games(40, 4, 40)):
        board = dame.Board(start.fen())
        p = start
        for choice in choices:
            moves = p.moves()
            if not moves or board.is_game_over():
                break
            m = moves[choice % len(moves)]
            board.push(m.hub)
            p = m.position
            assert Position.from_fen(board.fen()) == p


def test_dame_game_follows_the_database_to_its_result(dame: ModuleType, db_dir: Path) -> None:
    """Won 3-piece positions played out in dame-rs along egdb's best moves (given to dame as Hub
    strings) for both sides: dame's rules must end the game with the winner egdb's signed WDL
    names, after exactly DTW plies. dame-rs applies the FMJD draw rules (a lone king against
    three pieces or fewer), which a database ignores: games it stops as draws are counted."""
    rng = random.Random(5)
    finished = drawn_by_rule = 0
    with egdb.open(db_dir) as db:
        for _ in range(300):
            s = rng.choice([Slice(1, 0, 1, 1), Slice(0, 1, 2, 0), Slice(2, 0, 0, 1), Slice(1, 0, 2, 0)])
            p = Position.from_index(rng.randrange(s.size()), s, Color(rng.randrange(2)))
            board = dame.Board(p.fen())
            if board.is_game_over() or db.probe_wdl(board) == 0:
                continue
            winner = board.turn if db.probe_wdl(board) > 0 else ~board.turn
            dtw = db.probe_dtw(board)
            plies = 0
            while not board.is_game_over():
                best = db.probe(board).best_move_hub
                assert best is not None
                board.push(best)
                plies += 1
            outcome = board.outcome()
            if outcome.termination != dame.Termination.NO_MOVES:
                drawn_by_rule += 1
                continue
            assert outcome.winner == winner, p.fen()
            assert plies == dtw, p.fen()
            finished += 1
    print(f"{finished} games ended as the database said, {drawn_by_rule} stopped by a draw rule")
    assert finished > 50, (finished, drawn_by_rule)


# --- pydraughts ----------------------------------------------------------------------------------


def test_pydraughts_fen_and_hub_position_agree_with_egdb(pydraughts: ModuleType) -> None:
    """pydraughts' FEN (squares sorted as text) and the Hub position its HubEngine sends
    (``pos pos=...``) read in egdb as the position pydraughts holds; egdb writes the same Hub
    string."""
    for p in [Position.from_fen("W:W31-50:B1-20")] + endgame_starts(200, 6):
        board = pydraughts.Board(fen=p.fen())
        assert egdb.position.as_position(board) == p  # pydraughts' Board.fen is a property
        # The Lidraughts form pydraughts writes for lidraughts-bot (its Forsyth.scala dialect).
        assert Position.from_fen(board._game.get_li_fen()) == p
        hub = board._game.get_fen()  # what HubEngine.go sends after pos=
        assert Position.from_hub(hub) == p
        assert p.hub() == hub
        assert Position.from_hub(board._game.initial_hub_fen) == p


def test_pydraughts_moves_agree_with_egdb(pydraughts: ModuleType) -> None:
    """Random games in pydraughts: its Hub moves are egdb's, and both play to the same position."""
    starts = [Position.from_fen("W:W31-50:B1-20")] + endgame_starts(30, 7)
    plies = captures = 0
    for start, choices in zip(starts, random_games(len(starts), 8, 40)):
        board = pydraughts.Board(fen=start.fen())
        for choice in choices:
            p = egdb.position.as_position(board)
            moves = board.legal_moves()
            if not moves or board.is_over():
                break
            # pydraughts lists a capture once per route (a king may land on several squares
            # between two pieces); egdb once per move. The moves themselves are the same.
            assert {m.hub_move for m in moves} == set(p.hub_moves()), board.fen
            move = moves[choice % len(moves)]
            after = p.play(move.hub_move)
            # Back into pydraughts: egdb's Hub string of the same move plays to the same position.
            egdb_hub = next(m.hub for m in p.moves() if m.position == after)
            copy = board.copy()
            copy.push(pydraughts.Move(copy, hub_move=egdb_hub))
            board.push(move)
            assert egdb.position.as_position(board) == after == egdb.position.as_position(copy)
            plies += 1
            captures += "x" in move.hub_move
    assert plies > 400 and captures > 30, (plies, captures)


def test_pydraughts_board_probes(pydraughts: ModuleType, db: egdb.Database) -> None:
    board = pydraughts.Board(fen="W:W28:BK26")
    assert db.probe_wld(board) == egdb.Value.LOSS
    assert db.probe_wdl(board) == -1
    best = db.probe(board).best_move_hub
    board.push(pydraughts.Move(board, hub_move=best))
    assert db.probe_wdl(board) == 1
    other = pydraughts.Board("frisian", fen="W:W28:BK26")
    with pytest.raises(ValueError, match="international"):
        db.probe_wld(other)


# --- py-draughts ---------------------------------------------------------------------------------

# py-draughts installs a module named ``draughts``, as pydraughts does, so it lives in a folder of
# its own (scripts/setup.sh: build/py-draughts, or the folder in EGDB_PY_DRAUGHTS) and runs in a
# separate interpreter: this script prints its FEN and move strings.
PY_DRAUGHTS_GAMES = r"""
import random, sys
import draughts
assert hasattr(draughts, "StandardBoard"), "not py-draughts"
rng = random.Random(int(sys.argv[1]))
for start in sys.stdin.read().split("\n"):
    if not start:
        continue
    board = draughts.StandardBoard.from_fen(start)
    for _ in range(40):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = moves[rng.randrange(len(moves))]
        print(board.fen + "\t" + str(move))
        board.push(move)
    print(board.fen + "\t-")
"""

PY_DRAUGHTS_READ = r"""
import sys
import draughts
for fen in sys.stdin.read().split("\n"):
    if fen:
        print(draughts.StandardBoard.from_fen(fen).fen)
"""


def run_py_draughts(script: str, lines: list[str], *args: str) -> list[str]:
    import os
    import subprocess
    import sys

    folder = Path(os.environ.get("EGDB_PY_DRAUGHTS", Path(__file__).resolve().parents[2] / "build" / "py-draughts"))
    if not (folder / "draughts").is_dir():
        reason = f"py-draughts is not installed in {folder} (scripts/setup.sh installs it there)"
        print(reason)
        pytest.skip(reason)
    env = dict(os.environ, PYTHONPATH=str(folder))
    # The folder is installed for one CPython (build/venv's); the wheel checks of other versions
    # (scripts/test_packaging.sh) cannot import its compiled dependencies (numpy).
    probe = subprocess.run([sys.executable, "-c", "import draughts"], capture_output=True, text=True, env=env, timeout=60)
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["?"])[-1]
        reason = f"py-draughts in {folder} does not import in Python {sys.version.split()[0]} (installed for another version?): {last}"
        print(reason)
        pytest.skip(reason)
    done = subprocess.run([sys.executable, "-c", script, *args], input="\n".join(lines), capture_output=True,
                          text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_py_draughts_fen_and_moves_round_trip() -> None:
    """Random games in py-draughts: its FEN (the PDN tag ``[FEN "..."]``) reads in egdb as the
    position its move leads to; egdb's own FEN reads back in py-draughts as the same position."""
    starts = [Position.from_fen("W:W31-50:B1-20")] + endgame_starts(30, 12)
    rows = [line.split("\t") for line in run_py_draughts(PY_DRAUGHTS_GAMES, [p.fen() for p in starts], "13")]
    assert rows and all(len(r) == 2 for r in rows)
    assert rows[0][0].startswith('[FEN "W:W')  # py-draughts' own form, the PDN tag
    plies = captures = 0
    for (fen, move), (next_fen, _) in zip(rows, rows[1:]):
        if move == "-":
            continue  # the game ended; the next row starts another
        p = Position.from_fen(fen)
        assert p.play(move) == Position.from_fen(next_fen), (fen, move)
        plies += 1
        captures += "x" in move
    assert plies > 400 and captures > 30, (plies, captures)
    # egdb's FEN of every position, read back by py-draughts, is the position py-draughts wrote.
    positions = [Position.from_fen(fen) for fen, _ in rows]
    back = run_py_draughts(PY_DRAUGHTS_READ, [p.fen() for p in positions])
    assert [Position.from_fen(f) for f in back] == positions
