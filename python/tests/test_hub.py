"""``egdb hub`` driven by a real Hub client: pydraughts' ``HubEngine`` (the client lidraughts-bot
uses), against itself and against dame-rs's ``dame hub``.

From random positions of up to 4 pieces every game must end with the result the database
predicts, and when both sides follow the database in exactly DTW plies; the score the client
reads must be that forced result. With ``--engine "dame hub"`` a whole game from the start position
is played to its end, dame moving outside the database and egdb inside it, without a protocol
error.

The ``egdb`` program is the CMake build's (``build/cli/egdb``, or the path in ``EGDB_CLI``); the
tests skip, saying why, without it or without pydraughts / dame-rs.
"""

from __future__ import annotations

import logging
import math
import os
import random
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import egdb
from egdb import Color, Position, Slice

ROOT = Path(__file__).resolve().parents[2]
# Slices of 4 pieces (and 3) with kings and men on both sides: wins that take many plies, wins by
# promotion, draws.
SLICES = [Slice(0, 3, 0, 1), Slice(0, 2, 0, 2), Slice(1, 2, 0, 1), Slice(0, 2, 1, 1), Slice(1, 1, 1, 1),
          Slice(2, 0, 1, 1), Slice(0, 1, 2, 1), Slice(0, 2, 0, 1), Slice(2, 0, 2, 0)]


def egdb_cli() -> Path:
    path = Path(os.environ.get("EGDB_CLI", ROOT / "build" / "cli" / "egdb"))
    if not path.is_file():
        reason = f"the egdb program is not built at {path} (cmake --build build, or set EGDB_CLI)"
        print(reason)
        pytest.skip(reason)
    return path


def dame_cli() -> str:
    found = shutil.which("dame") or str(Path(sys.executable).parent / "dame")
    if not Path(found).is_file():
        reason = "the dame program of dame-rs is not installed (pip install dame-rs)"
        print(reason)
        pytest.skip(reason)
    return found


@pytest.fixture(scope="module")
def db4_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A native database of every endgame with at most 4 pieces, WLD and DTW (about 20 s of CPU)."""
    directory = tmp_path_factory.mktemp("db4")
    egdb.build(directory, 4, threads=2, kinds=("wld", "dtw"), verify=False)
    return directory


@pytest.fixture(scope="module")
def db4(db4_dir: Path) -> Iterator[egdb.Database]:
    with egdb.open(db4_dir) as database:
        yield database


@pytest.fixture()
def protocol_warnings(caplog: pytest.LogCaptureFixture) -> Iterator[list[logging.LogRecord]]:
    """pydraughts logs every line it did not expect from an engine as a warning: none may come."""
    caplog.set_level(logging.WARNING, logger="pydraughts")
    records: list[logging.LogRecord] = caplog.records
    yield records
    assert not [r.getMessage() for r in records if r.name == "pydraughts"]


def start_hub(pydraughts: ModuleType, db_dir: Path, engine: str | None = None) -> Any:
    # HubEngine joins the command with spaces and runs it with a shell: the engine command is
    # quoted here as a user would type it.
    command = [str(egdb_cli()), "hub", "--db", str(db_dir)]
    if engine is not None:
        command += ["--engine", f'"{engine}"']
    client = pydraughts.engine.HubEngine(command)
    client.init()
    return client


def close(client: Any) -> None:
    """Ends an engine the way a GUI does: quit, then a kill only if it does not exit."""
    client.quit()
    try:
        client.p.wait(timeout=10)
    except Exception:  # noqa: BLE001 - subprocess.TimeoutExpired: it ignored quit
        client.kill_process()
        raise
    finally:
        client.p.stdin.close()  # HubEngine leaves its pipes open
        client.p.stdout.close()


def random_starts(db: egdb.Database, count: int, seed: int, want: str) -> list[Position]:
    """Random positions with a legal move whose value for the side to move is `want` ("decisive"
    or "draw")."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        s = SLICES[rng.randrange(len(SLICES))]
        p = Position.from_index(rng.randrange(s.size()), s, Color(rng.randrange(2)))
        if not p.legal_moves() or p.is_capture():
            continue
        value = db.probe_wdl(p)
        if (value != 0) == (want == "decisive"):
            out.append(p)
    return out


def play(pydraughts: ModuleType, board: Any, players: dict[int, Any], limits: dict[int, Any], max_plies: int,
         current_only: frozenset[int] = frozenset()) -> tuple[int, list[dict[str, Any]]]:
    """Plays until the side to move has no legal move or max_plies; returns the plies played and
    the info each engine reported for its moves. The draw rules of the game (the 25-move rule,
    the 16- and 5-move rules of few pieces), which the databases do not know, are not applied;
    the sides in `current_only` are sent the current position without the moves before it, since
    dame applies those rules to the moves it is sent and refuses to go on after a draw."""
    infos: list[dict[str, Any]] = []
    plies = 0
    while plies < max_plies and board.legal_moves():
        asked = pydraughts.Board(fen=board.fen) if board.turn in current_only else board
        result = players[board.turn].play(asked, limits[board.turn], False)
        legal = {m.hub_move for m in board.legal_moves()}
        assert result.move.hub_move in legal, (board.fen, result.move.hub_move)
        infos.append(dict(result.info))
        board.push(pydraughts.Move(board, hub_move=result.move.hub_move))
        plies += 1
    return plies, infos


def expect_forced_score(info: dict[str, Any], plies: int) -> None:
    """pydraughts turns a score above 90 into {"win": moves}: plies 10000 - 100 * score, signed."""
    assert info["score"] == {"win": math.ceil(plies / 2)}, info


def test_self_play_ends_in_exactly_dtw_plies(pydraughts: ModuleType, db4_dir: Path, db4: egdb.Database,
                                            protocol_warnings: list[logging.LogRecord]) -> None:
    hub = start_hub(pydraughts, db4_dir)
    try:
        limit = pydraughts.engine.Limit(movetime=1)
        for start in random_starts(db4, 12, 1, "decisive"):
            dtw = db4.probe_dtw(start)
            wdl = db4.probe_wdl(start)
            board = pydraughts.Board(fen=start.fen())
            mover = board.turn
            plies, infos = play(pydraughts, board, {pydraughts.WHITE: hub, pydraughts.BLACK: hub},
                                {pydraughts.WHITE: limit, pydraughts.BLACK: limit}, dtw + 2)
            assert plies == dtw, (start.fen(), plies, dtw)
            assert not board.legal_moves(), start.fen()
            # The side without a move lost: the winner is the side that moved last.
            winner = mover if plies % 2 == 1 else 3 - mover
            assert (winner == mover) == (wdl > 0), start.fen()
            # Every score read by the client is the forced result, counting down to the end.
            for ply, info in enumerate(infos):
                remaining = dtw - ply
                expect_forced_score(info, remaining if (ply % 2 == 0) == (wdl > 0) else -remaining)
                assert info["wld"] == ("win" if (ply % 2 == 0) == (wdl > 0) else "loss")
        for start in random_starts(db4, 6, 2, "draw"):
            board = pydraughts.Board(fen=start.fen())
            plies, infos = play(pydraughts, board, {pydraughts.WHITE: hub, pydraughts.BLACK: hub},
                                {pydraughts.WHITE: limit, pydraughts.BLACK: limit}, 30)
            # Both keep the draw: the game goes on, and the position is still drawn.
            assert plies == 30, start.fen()
            assert db4.probe_wdl(board) == 0, (start.fen(), board.fen)
            assert all(info["score"] == {"cp": 0} and info["wld"] == "draw" for info in infos)
    finally:
        close(hub)


def test_egdb_beats_dame_in_at_most_dtw_plies_and_holds_draws(
        pydraughts: ModuleType, db4_dir: Path, db4: egdb.Database, protocol_warnings: list[logging.LogRecord]) -> None:
    hub = start_hub(pydraughts, db4_dir)
    dame = pydraughts.engine.HubEngine([dame_cli(), "hub"])
    dame.init()
    try:
        for start in random_starts(db4, 8, 3, "decisive") + random_starts(db4, 4, 4, "draw"):
            board = pydraughts.Board(fen=start.fen())
            wdl = db4.probe_wdl(start)
            # egdb plays the side the database favours (either side of a draw); dame the other,
            # at a depth where it defends well and fast.
            egdb_side = board.turn if wdl >= 0 else 3 - board.turn
            players = {egdb_side: hub, 3 - egdb_side: dame}
            limits = {egdb_side: pydraughts.engine.Limit(movetime=1),
                      3 - egdb_side: pydraughts.engine.Limit(depth=6)}
            if wdl != 0:
                dtw = db4.probe_dtw(start)
                plies, _ = play(pydraughts, board, players, limits, dtw + 2, frozenset({3 - egdb_side}))
                assert not board.legal_moves() and board.turn != egdb_side, (start.fen(), plies)
                assert plies <= dtw, (start.fen(), plies, dtw)
            else:
                plies, _ = play(pydraughts, board, players, limits, 24, frozenset({3 - egdb_side}))
                if board.legal_moves():
                    side_value = db4.probe_wdl(board) * (1 if board.turn == egdb_side else -1)
                    assert side_value >= 0, (start.fen(), board.fen)
                else:
                    assert board.turn != egdb_side, (start.fen(), board.fen)  # dame lost a drawn game
    finally:
        close(hub)
        close(dame)


def play_wrapped(pydraughts: ModuleType, wrapped: Any, board: Any, db4: egdb.Database) -> int:
    """Plays `board` to its end by the game's rules (pydraughts' is_over: no move, or a draw rule)
    with the wrapped engine on both sides; returns the moves the database answered."""
    limit = pydraughts.engine.Limit(depth=4)
    from_database = 0
    while not board.is_over() and board.legal_moves():
        pieces = egdb.position.as_position(board).piece_count
        # The moves so far go along (pydraughts' HubEngine sends them), as in a real game.
        result = wrapped.play(board, limit, False)
        assert result.move.hub_move in {m.hub_move for m in board.legal_moves()}, board.fen
        if pieces <= 4:
            # The database's answer: its own info fields, and a move that keeps the value.
            assert result.info.get("wld") in {"win", "loss", "draw"}, (board.fen, result.info)
            from_database += 1
            before = db4.probe_wdl(board)
            board.push(result.move)
            if board.legal_moves():
                assert -db4.probe_wdl(board) == before, board.fen
        else:
            assert "wld" not in result.info, (board.fen, result.info)  # dame's search
            board.push(result.move)
        assert len(board.move_stack) < 600, "the game does not end"
    return from_database


def test_wrapped_dame_plays_a_whole_game_from_the_start(
        pydraughts: ModuleType, db4_dir: Path, db4: egdb.Database, protocol_warnings: list[logging.LogRecord]) -> None:
    dame = dame_cli()
    wrapped = start_hub(pydraughts, db4_dir, engine=f"{dame} hub")
    assert wrapped.id["name"] == '"egdb + dame"'
    assert "hash" in wrapped.options  # dame's parameters reach the client
    wrapped.setoption("hash", 16)
    wrapped.ping()
    try:
        board = pydraughts.Board()
        play_wrapped(pydraughts, wrapped, board, db4)
        assert len(board.move_stack) > 20 and (board.is_over() or not board.legal_moves())
        print(f"game from the start: {len(board.move_stack)} plies, result {board.winner()}")
        # Games from positions of 6 pieces cross from dame's search into the database.
        from_database = 0
        rng = random.Random(9)
        for _ in range(3):
            s = Slice(2, 1, 2, 1)
            start = Position.from_index(rng.randrange(s.size()), s, Color(rng.randrange(2)))
            board = pydraughts.Board(fen=start.fen())
            wrapped.send("new-game")
            from_database += play_wrapped(pydraughts, wrapped, board, db4)
        assert from_database > 0
        print(f"games from 6 pieces: {from_database} moves from the database")
        wrapped.ping()
    finally:
        close(wrapped)


def test_hub_without_engine_answers_uncovered_positions_with_an_error(pydraughts: ModuleType, db4_dir: Path) -> None:
    """pydraughts waits for `done`; the error line is what it receives (and logs) instead."""
    hub = start_hub(pydraughts, db4_dir)
    try:
        hub.send("pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww")
        hub.send("go think")
        command, arg = hub.recv_hub()
        assert command == "error"
        assert "40 pieces" in arg and "--engine" in arg
        hub.ping()
    finally:
        close(hub)


@pytest.fixture(scope="module")
def kingsrow_installation(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """A Kingsrow-format set of up to 3 pieces written by egdb, its WLD, MTC and DTW files moved
    into the three folders of a Kingsrow installation."""
    import subprocess

    root = tmp_path_factory.mktemp("kingsrow")
    subprocess.run([str(egdb_cli()), "build", "--pieces", "3", "--threads", "2", "--format", "kingsrow-v2",
                    "--no-verify", "--out", str(root / "set")], check=True, capture_output=True)
    folders = [root / "wld_database", root / "mtc_database", root / "dtw_database"]
    for folder in folders:
        folder.mkdir()
    for f in (root / "set").iterdir():
        kind = "dtw" if f.suffix.endswith("_dtw") else "mtc" if f.suffix.endswith("_mtc") else "wld"
        f.rename(root / f"{kind}_database" / f.name)
    return folders


def test_kingsrow_folders_open_as_one_database(kingsrow_installation: list[Path]) -> None:
    wld_dir, mtc_dir, dtw_dir = kingsrow_installation
    with egdb.open(wld_dir) as alone:
        assert alone.get_dtw("B:W28:BK26", default="none") == "none"
    with egdb.open([wld_dir, mtc_dir, dtw_dir]) as db:
        assert db.probe_wdl("B:W28:BK26") == 1
        assert db.probe_dtw("B:W28:BK26") == 5
        assert db.pv("B:W28:BK26") == ["26-31", "28-23", "31-13", "23-19", "13x24"]
    with egdb.open(f"{wld_dir};{dtw_dir}") as db:
        assert db.probe_dtw("W:W28:BK26") == 6
    with pytest.raises(ValueError, match="at least one folder"):
        egdb.open([])
    with pytest.raises(egdb.DatabaseError):
        egdb.open([wld_dir, wld_dir.parent / "missing"])


def test_hub_plays_from_kingsrow_folders(pydraughts: ModuleType, kingsrow_installation: list[Path],
                                         protocol_warnings: list[logging.LogRecord]) -> None:
    wld_dir, _, dtw_dir = kingsrow_installation
    command = [str(egdb_cli()), "hub", "--db", str(wld_dir), "--db", str(dtw_dir)]
    hub = pydraughts.engine.HubEngine(command)
    hub.init()
    try:
        board = pydraughts.Board(fen="B:W28:BK26")
        limit = pydraughts.engine.Limit(movetime=1)
        plies, infos = play(pydraughts, board, {pydraughts.WHITE: hub, pydraughts.BLACK: hub},
                            {pydraughts.WHITE: limit, pydraughts.BLACK: limit}, 10)
        assert plies == 5 and not board.legal_moves()
        expect_forced_score(infos[0], 5)
        assert [m.hub_move for m in board.move_stack][-1] == "13x24x19"
    finally:
        close(hub)


def test_readme_pydraughts_example_runs(pydraughts: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pydraughts example of README.md's "Hub engine" section, as written, with the built
    egdb first on PATH."""
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^### Hub engine: `egdb hub`\n(.*?)(?=^##|\Z)", text, re.S | re.M)
    assert section, "README.md has no '### Hub engine' section"
    block = re.search(r"```python\n(.*?)```", section.group(1), re.S)
    assert block, "the Hub engine section of README.md has no ```python example"
    monkeypatch.setenv("PATH", f"{egdb_cli().parent}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.chdir(tmp_path)
    exec(compile(block.group(1), "README.md (Hub engine example)", "exec"), {"__name__": "__readme__"})
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["28-23 {'win': -3}", "26-31 {'win': 3}", "23-19 {'win': -2}", "31-9 {'win': 2}",
                     "19-14 {'win': -1}", "9x20x14 {'win': 1}"]
