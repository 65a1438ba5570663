"""A save that cannot be written names the path and what is wrong with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from py2048.engine import Game
from py2048.tui.records import Records
from py2048.tui.session import Session
from py2048.tui.storage import DATA_DIR_ENV, Storage, write_failure


def test_a_data_folder_that_is_a_file_is_named_with_what_is_wrong(tmp_path: Path) -> None:
    """The probe's case: the data folder itself is a file (it said "Not saved: File exists")."""
    a_file = tmp_path / "data"
    a_file.write_text("my notes")
    session = Session(Storage(a_file), Game(4), best_score=0, resumed=False)
    session.play(session.game.legal_moves()[0])
    assert session.save_problem == (
        f"Not saved: {a_file} is a file, not a folder, so nothing can be saved in {a_file}; "
        f"move the file, or set {DATA_DIR_ENV} to a folder"
    )
    assert a_file.read_text() == "my notes"
    assert session.game.moves == 1  # play goes on


def test_a_data_folder_that_is_a_file_holds_no_save_that_could_not_be_read(tmp_path: Path) -> None:
    """At the start there is nothing to report as unreadable (no save can be in a file): the
    first save names the problem instead."""
    a_file = tmp_path / "data"
    a_file.write_text("my notes")
    storage = Storage(a_file)
    assert storage.load_game() == (None, None)
    assert storage.load_best_score() == (0, None)
    records = Records(a_file)
    assert records.games() == []
    assert records.statistics().games.played == 0
    assert records.problems == []
    assert a_file.read_text() == "my notes"


def test_a_file_above_the_data_folder_is_named_too(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where a folder should be")
    session = Session(Storage(blocker / "py2048"), Game(4), best_score=0, resumed=False)
    session.play(session.game.legal_moves()[0])
    assert session.save_problem is not None
    assert session.save_problem.startswith(f"Not saved: {blocker} is a file, not a folder")


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (OSError(28, "No space left on device", "/data/game.json"),
         "No space left on device: /data/game.json"),
        (OSError(5, "Input/output error"), "Input/output error"),
    ],
)  # fmt: skip
def test_other_failures_say_the_systems_reason_and_the_file(
    tmp_path: Path, error: OSError, said: str
) -> None:
    assert write_failure(error, tmp_path) == said
