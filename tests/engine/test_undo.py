"""Undo and practice games: the save's optional practice flag, strict replays of outside moves."""

from __future__ import annotations

import json

import pytest

from py2048 import Game, GameError, SaveError
from py2048.engine import game as game_module

MOVES = "LURDLLDRULDDLRUL"


def test_undo_takes_back_moves_and_the_same_tiles_come_again() -> None:
    game = Game.replay(12, MOVES)
    game.undo(3)
    assert game.to_dict() | {"practice": False} == Game.replay(12, MOVES[:-3]).to_dict() | {
        "practice": False
    }
    assert game.practice
    # The next moves bring the tiles they brought before: the spawns follow the seed.
    for letter in MOVES[-3:]:
        game.move(letter)
    assert (game.board, game.score) == (Game.replay(12, MOVES).board, Game.replay(12, MOVES).score)


def test_undo_replays_the_history_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the move cap a replay takes about a second: undo must not pay it twice."""
    game = Game.replay(12, MOVES)
    history = "".join(direction.letter for direction in game.history)
    play = game_module.play_checked
    calls: list[int] = []

    def counted(*args: object) -> object:
        calls.append(1)
        return play(*args)

    monkeypatch.setattr(game_module, "play_checked", counted)
    game.undo(3)
    assert len(calls) == len(history)
    assert game.to_dict() == Game.replay(12, history[:-3], practice=True).to_dict()


def test_undo_one_at_a_time_down_to_the_start() -> None:
    game = Game.replay(5, "LDRU")
    for left in (3, 2, 1, 0):
        game.undo()
        assert game.moves == left
    assert game.board == Game(5).board
    with pytest.raises(GameError, match="no move to undo"):
        game.undo()


def test_undo_refuses_more_steps_than_moves_and_bad_counts() -> None:
    game = Game.replay(5, "LD")
    with pytest.raises(GameError, match="only 2 moves"):
        game.undo(3)
    for steps in (0, -1, True, 1.0):
        with pytest.raises(ValueError):
            game.undo(steps)  # type: ignore[arg-type]
    assert game.moves == 2 and not game.practice


def test_undo_refuses_a_game_set_up_from_a_board_and_changes_nothing() -> None:
    game = Game.from_board([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4], seed=1)
    game.move("left")
    before = game.to_dict()
    with pytest.raises(GameError, match="set up from a board"):
        game.undo()
    assert game.to_dict() == before


def test_keep_going_survives_undo_only_while_the_game_is_still_won() -> None:
    from py2048.solver import best_move  # plays a game to its first 2048 (1060 moves)

    game = Game(seed=2)
    while not game.won:
        game.move(best_move(game.board, depth=0, tables=False).direction)
    game.keep_playing()
    game.move(game.legal_moves()[0])
    game.undo()  # still won: keep going stays
    assert game.won and game.keep_going and game.practice
    game.undo()  # back before the 2048 was made
    assert not game.won and not game.keep_going


def test_practice_is_saved_only_when_true_and_comes_back() -> None:
    plain = Game.replay(12, MOVES)
    assert "practice" not in plain.to_dict()
    assert "practice" not in json.loads(plain.to_json())
    plain.undo()
    saved = plain.to_dict()
    assert saved["practice"] is True
    assert Game.from_dict(saved).practice
    assert Game.from_json(plain.to_json()).practice


def test_a_save_without_practice_still_loads_as_a_normal_game() -> None:
    old = Game.replay(12, MOVES).to_dict()
    assert not Game.from_dict(old).practice
    assert not Game.from_dict(old | {"practice": False}).practice


@pytest.mark.parametrize("value", [1, 0, "true", None, [True]])
def test_practice_must_be_true_or_false(value: object) -> None:
    with pytest.raises(SaveError) as caught:
        Game.from_dict(Game.replay(12, MOVES).to_dict() | {"practice": value})
    assert caught.value.field == "practice"


def test_replay_can_mark_a_game_practice() -> None:
    assert Game.replay(12, MOVES, practice=True).practice
    assert not Game.replay(12, MOVES).practice


def test_a_strict_replay_names_the_move_that_is_not_a_direction() -> None:
    with pytest.raises(GameError, match=r"move 3 is 'X', not a move: moves are U, R, D and L"):
        Game.replay(12, "LUX", strict=True)
    with pytest.raises(GameError, match=r"move 2 is 'u', not a move"):
        Game.replay(12, "Lu", strict=True)  # a history holds capitals only, as saves do
    assert Game.replay(12, ["left", "up"], strict=True).moves == 2


def test_a_strict_replay_names_the_move_that_changes_nothing() -> None:
    # Seed 8 opens with two 2s at the left edge: left moves nothing there.
    assert Game(seed=8).board == [[0, 0, 0, 0], [2, 0, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0]]
    with pytest.raises(GameError, match=r"move 1 \(left\) changes nothing"):
        Game.replay(8, "LU", strict=True)
    with pytest.raises(GameError, match=r"move 2 \(left\) changes nothing"):
        Game.replay(8, "DLU", strict=True)  # down leaves a 2 on a 4 at the left edge
    # Without strict, the same moves are skipped as they are in play.
    assert Game.replay(8, "LU").history == Game.replay(8, "U").history
