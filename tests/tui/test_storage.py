"""Saves on disk: atomic writes, interrupted writes, corrupt files, the data directory."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048.engine import Direction, Game
from py2048.engine.save import MAX_SCORE
from py2048.tui import storage as storage_module
from py2048.tui.storage import (
    BEST_SCORE_FILE,
    DATA_DIR_ENV,
    GAME_FILE,
    Storage,
    default_data_dir,
)
from tests.tui.support import write_save


def leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**53 - 1),
    moves=st.lists(st.sampled_from(list(Direction)), max_size=80),
)
def test_a_saved_game_loads_back_exactly(seed: int, moves: list[Direction]) -> None:
    game = Game.replay(seed, moves)
    with tempfile.TemporaryDirectory() as directory:
        storage = Storage(Path(directory) / "nested" / "dir")
        storage.save_game(game)
        loaded, problem = storage.load_game()
    assert problem is None
    assert loaded is not None
    assert loaded.to_json() == game.to_json()


@settings(max_examples=40, deadline=None)
@given(best=st.integers(0, MAX_SCORE))
def test_the_best_score_loads_back_exactly(best: int) -> None:
    with tempfile.TemporaryDirectory() as directory:
        storage = Storage(Path(directory))
        storage.save_best_score(best)
        assert storage.load_best_score() == (best, None)


def test_nothing_saved_yet_is_not_a_problem(data_dir: Path) -> None:
    storage = Storage(data_dir)
    assert storage.load_game() == (None, None)
    assert storage.load_best_score() == (0, None)


def test_a_rename_that_fails_keeps_the_previous_save(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = Storage(data_dir)
    previous = Game.replay(3, "LURD")
    storage.save_game(previous)

    def power_cut(source: str, target: str) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", power_cut)
    with pytest.raises(OSError):
        storage.save_game(Game.replay(3, "LURDLU"))
    monkeypatch.undo()
    assert (data_dir / GAME_FILE).read_text() == previous.to_json()
    assert leftovers(data_dir) == []


def test_a_write_that_fails_midway_keeps_the_previous_save(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = Storage(data_dir)
    previous = Game.replay(3, "LURD")
    storage.save_game(previous)
    real_fdopen = os.fdopen

    class DiskFills:
        """A file that takes half of what is written, then reports a full disk."""

        def __init__(self, fd: int, *args: object, **kwargs: object) -> None:
            self.file = real_fdopen(fd, *args, **kwargs)

        def write(self, text: str) -> int:
            self.file.write(text[: len(text) // 2])
            self.file.flush()
            raise OSError(28, "No space left on device")

        def __enter__(self) -> DiskFills:
            return self

        def __exit__(self, *exc: object) -> None:
            self.file.close()

    monkeypatch.setattr(os, "fdopen", DiskFills)
    with pytest.raises(OSError, match="No space left"):
        storage.save_game(Game.replay(3, "LURDLU"))
    monkeypatch.undo()
    assert (data_dir / GAME_FILE).read_text() == previous.to_json()
    assert leftovers(data_dir) == []


def test_temporary_files_left_by_a_killed_program_are_removed_later(data_dir: Path) -> None:
    storage = Storage(data_dir)
    storage.save_game(Game(5))
    stale = data_dir / f".{GAME_FILE}.abc123.tmp"
    fresh = data_dir / f".{GAME_FILE}.def456.tmp"
    stale.write_text("{half a sa")
    fresh.write_text("{being writ")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    game, problem = storage.load_game()
    assert problem is None and game is not None
    assert not stale.exists()
    assert fresh.exists(), "a file another instance may be writing right now is left alone"


KILLED_MID_WRITE = """
import os, sys
from py2048.engine import Game
from py2048.tui.storage import Storage
storage = Storage(__import__("pathlib").Path(sys.argv[1]))
os.replace = lambda *args: os.kill(os.getpid(), 9)  # killed between the write and the rename
storage.save_game(Game(7))
"""


@pytest.mark.skipif(os.name != "posix", reason="a process killed by SIGKILL")
def test_the_next_start_removes_what_a_killed_write_left_at_once(data_dir: Path) -> None:
    storage = Storage(data_dir)
    storage.save_game(Game(5))
    for _ in range(3):
        killed = subprocess.run([sys.executable, "-c", KILLED_MID_WRITE, str(data_dir)])
        assert killed.returncode == -9
    assert len(leftovers(data_dir)) == 3
    ours = data_dir / f".{GAME_FILE}.{os.getpid()}.x1y2z3.tmp"  # a write of a running program
    ours.write_text("{being writ")
    game, problem = storage.load_game()
    assert problem is None and game is not None and game.to_json() == Game(5).to_json()
    assert leftovers(data_dir) == [ours.name]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
@pytest.mark.parametrize("name", [GAME_FILE, BEST_SCORE_FILE])
def test_a_named_pipe_in_place_of_a_save_is_moved_aside_without_waiting(
    data_dir: Path, name: str
) -> None:
    data_dir.mkdir()
    pipe = data_dir / name
    os.mkfifo(pipe)
    storage = Storage(data_dir)
    load = storage.load_game if name == GAME_FILE else storage.load_best_score
    answers: list[object] = []
    reader = threading.Thread(target=lambda: answers.append(load()), daemon=True)
    reader.start()
    reader.join(timeout=5)
    if reader.is_alive():  # the old behaviour: blocked in open(); let it go, then fail
        with open(os.open(pipe, os.O_WRONLY | os.O_NONBLOCK), "wb"):
            pass
        pytest.fail("loading a save waited on a named pipe")
    _, problem = answers[0]
    assert problem is not None and problem.backup is not None
    assert "it is a named pipe, not a regular file" in problem.message
    assert stat.S_ISFIFO(problem.backup.lstat().st_mode) and not pipe.exists()


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="a device file")
def test_a_device_in_place_of_a_save_is_refused(data_dir: Path) -> None:
    data_dir.mkdir()
    (data_dir / GAME_FILE).symlink_to("/dev/zero")
    game, problem = Storage(data_dir).load_game()
    assert game is None and problem is not None
    assert "a character device, not a regular file" in problem.reason


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"{not json", "not valid JSON"),
        (b"", "not valid JSON"),
        (b"\xff\xfe\x00garbage", "not valid JSON"),
        (b'{"format": "py2048", "version": 99}', "version"),
        (Game(1).to_json().replace('"score":0', '"score":999999').encode(), "score"),
    ],
)
def test_a_corrupt_save_is_moved_aside_with_its_bytes_and_the_reason_given(
    data_dir: Path, content: bytes, reason: str
) -> None:
    data_dir.mkdir()
    (data_dir / GAME_FILE).write_bytes(content)
    game, problem = Storage(data_dir).load_game()
    assert game is None
    assert problem is not None
    assert reason in problem.reason
    assert problem.backup is not None
    assert problem.backup.read_bytes() == content
    assert not (data_dir / GAME_FILE).exists()
    assert str(problem.backup) in problem.message


def test_an_oversized_save_is_moved_aside_without_being_read_whole(data_dir: Path) -> None:
    data_dir.mkdir()
    (data_dir / GAME_FILE).write_bytes(b" " * (storage_module.MAX_SAVE_BYTES + 10))
    game, problem = Storage(data_dir).load_game()
    assert game is None
    assert problem is not None and "larger than" in problem.reason


def test_backups_never_overwrite_each_other(data_dir: Path) -> None:
    storage = Storage(data_dir)
    backups = set()
    for content in (b"first", b"second", b"third"):
        data_dir.mkdir(exist_ok=True)
        (data_dir / GAME_FILE).write_bytes(content)
        _, problem = storage.load_game()
        assert problem is not None and problem.backup is not None
        backups.add(problem.backup)
    assert {b.read_bytes() for b in backups} == {b"first", b"second", b"third"}


@pytest.mark.parametrize(
    "content",
    [
        '{"best_score": -1}',
        '{"best_score": true}',
        '{"best": 5}',
        "[7]",
        "7x",
        '{"best_score": ' + "9" * 4000 + "}",
        '{"best_score": ' + str(MAX_SCORE + 1) + "}",
    ],
    ids=["negative", "boolean", "other key", "list", "not JSON", "4000 digits", "over the most"],
)
def test_a_corrupt_best_score_is_moved_aside(data_dir: Path, content: str) -> None:
    data_dir.mkdir()
    (data_dir / BEST_SCORE_FILE).write_text(content)
    best, problem = Storage(data_dir).load_best_score()
    assert best == 0
    assert problem is not None and problem.backup is not None
    assert problem.backup.read_text() == content


def test_a_valid_save_is_never_moved(data_dir: Path) -> None:
    path = write_save(data_dir, Game.replay(9, "LLUR"))
    game, problem = Storage(data_dir).load_game()
    assert problem is None and game is not None
    assert path.exists()
    assert sorted(p.name for p in data_dir.iterdir()) == [GAME_FILE]


def test_the_data_directory_can_be_set_by_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "elsewhere"))
    assert default_data_dir() == tmp_path / "elsewhere"
    monkeypatch.delenv(DATA_DIR_ENV)
    assert default_data_dir().name == "py2048"


def test_the_best_score_file_is_plain_json(data_dir: Path) -> None:
    Storage(data_dir).save_best_score(1234)
    assert json.loads((data_dir / BEST_SCORE_FILE).read_text()) == {"best_score": 1234}
