"""When the game and the best score are saved, and what a failed save does to play."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from py2048.engine import Direction, Game
from py2048.engine.save import MAX_MOVES
from py2048.tui.session import Session
from py2048.tui.storage import Storage
from tests.tui.support import LOST_ON_LEFT, write_save


def test_a_new_game_leaves_the_save_alone_until_its_first_move(data_dir: Path) -> None:
    saved = Game.replay(11, "LURDLURD")
    path = write_save(data_dir, saved)
    session = Session(Storage(data_dir), Game(12), best_score=0, resumed=False)
    assert path.read_text() == saved.to_json()
    assert session.play(session.game.legal_moves()[0]).moved
    assert Game.from_json(path.read_text()).to_json() == session.game.to_json()


def test_a_direction_that_moves_nothing_writes_nothing(data_dir: Path) -> None:
    game = Game.from_board([[2, 0, 0, 0], [4, 0, 0, 0], [0] * 4, [0] * 4], seed=1)
    session = Session(Storage(data_dir), game, best_score=0, resumed=False)
    assert not session.play(Direction.LEFT).moved
    assert not data_dir.exists()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), moves=st.lists(st.sampled_from(list(Direction)), max_size=60))
def test_after_every_move_the_save_is_the_game_and_the_best_score_is_kept(
    seed: int, moves: list[Direction]
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        storage = Storage(Path(directory))
        session = Session(storage, Game(seed), best_score=0, resumed=False)
        for direction in moves:
            if session.play(direction).moved:
                loaded, _ = storage.load_game()
                assert loaded is not None and loaded.to_json() == session.game.to_json()
        assert session.best_score == session.game.score
        assert storage.load_best_score()[0] == session.game.score


def test_the_best_score_survives_a_worse_new_game(data_dir: Path) -> None:
    storage = Storage(data_dir)
    storage.save_best_score(5000)
    session = Session(storage, Game(3), best_score=5000, resumed=False)
    session.play(session.game.legal_moves()[0])
    assert session.best_score == 5000
    assert storage.load_best_score() == (5000, None)


def test_a_failed_save_is_reported_play_goes_on_and_the_next_save_catches_up(
    tmp_path: Path,
) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the data directory should be")
    storage = Storage(blocker / "py2048")
    session = Session(storage, Game(4), best_score=0, resumed=False)
    session.play(session.game.legal_moves()[0])
    assert session.save_problem is not None and session.save_problem.startswith("Not saved")
    assert session.game.moves == 1

    blocker.unlink()
    session.play(session.game.legal_moves()[0])
    assert session.save_problem is None
    loaded, _ = storage.load_game()
    assert loaded is not None and loaded.moves == 2
    assert storage.load_best_score()[0] == session.game.score


def test_keep_going_and_new_game_are_saved_at_once(data_dir: Path) -> None:
    storage = Storage(data_dir)
    won = Game.from_board([[2048, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4], seed=8)
    session = Session(storage, won, best_score=0, resumed=False)
    assert session.awaits_win_choice
    session.keep_going()
    loaded, _ = storage.load_game()
    assert loaded is not None and loaded.keep_going
    session.new_game()
    loaded, _ = storage.load_game()
    assert loaded is not None and loaded.moves == 0 and not loaded.won


def test_a_game_is_in_progress_from_its_first_move_until_it_is_over(data_dir: Path) -> None:
    session = Session(Storage(data_dir), Game(2), best_score=0, resumed=False)
    assert not session.in_progress
    session.play(session.game.legal_moves()[0])
    assert session.in_progress
    ending = Session(Storage(data_dir), Game.from_board(LOST_ON_LEFT), best_score=0, resumed=False)
    ending.play(Direction.LEFT)
    assert ending.game.over
    assert not ending.in_progress


def test_new_game_before_the_first_move_of_a_fresh_session_keeps_the_save(
    data_dir: Path,
) -> None:
    saved = Game.replay(11, "LURDLURD")
    path = write_save(data_dir, saved)
    session = Session(Storage(data_dir), Game(12), best_score=0, resumed=False)
    session.new_game()
    assert path.read_text() == saved.to_json()


def test_new_game_in_a_resumed_session_replaces_the_save_at_once(data_dir: Path) -> None:
    saved = Game.replay(11, "LURDLURD")
    path = write_save(data_dir, saved)
    session = Session(Storage(data_dir), saved, best_score=0, resumed=True)
    session.new_game()
    assert Game.from_json(path.read_text()).moves == 0


def capped_game() -> Game:
    """A game (made by hand) at the move cap whose board can still move."""
    board = [[131072, 131072, 131072, 131072], [65536, 0, 0, 0], [0] * 4, [0] * 4]
    state = Game.from_board(board, seed=2).to_dict()
    return Game.from_dict(state | {"moves": MAX_MOVES, "history": "L" * MAX_MOVES})


def test_a_game_at_the_move_cap_does_not_move_and_says_why(data_dir: Path) -> None:
    session = Session(Storage(data_dir), capped_game(), best_score=0, resumed=True)
    result = session.play(Direction.DOWN)
    assert not result.moved and session.game.moves == MAX_MOVES
    assert session.save_problem is not None and f"{MAX_MOVES} moves" in session.save_problem
    session.new_game()
    assert session.save_problem is None and session.game.moves == 0
