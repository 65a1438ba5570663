"""The JSON save format: exact round trips, and a clear error naming the field for bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest

from py2048 import Game, SaveError
from py2048.engine.save import MAX_SAVE_BYTES


def played_game() -> Game:
    game = Game(seed=12)
    for direction in "LURDLLDRUL" * 3:
        game.move(direction)
    return game


def good_save() -> dict[str, Any]:
    return json.loads(played_game().to_json())


def test_the_documented_fields_are_saved() -> None:
    game = played_game()
    saved = json.loads(game.to_json())
    assert saved["format"] == "py2048" and saved["version"] == 1
    assert saved["board"] == game.board
    assert (saved["score"], saved["seed"], saved["moves"]) == (game.score, 12, game.moves)
    assert saved["history"] == "".join(d.letter for d in game.history)
    assert (saved["won"], saved["keep_going"], saved["over"]) == (False, False, False)


def test_round_trip_restores_the_game_and_its_future() -> None:
    game = played_game()
    restored = Game.from_json(game.to_json())
    assert restored.to_json() == game.to_json()
    for direction in "DRULDDRL":
        assert restored.step(direction) == game.step(direction)
    assert restored.board == game.board


def test_round_trip_keeps_a_win_and_keep_going() -> None:
    game = Game.from_board([[1024, 1024, 0, 0], [0] * 4, [0] * 4, [0] * 4], seed=3)
    game.move("left")
    won = Game.from_json(game.to_json())
    assert won.won and not won.keep_going
    game.keep_playing()
    kept = Game.from_json(game.to_json())
    assert kept.won and kept.keep_going


def test_bytes_and_dicts_load_too() -> None:
    game = played_game()
    assert Game.from_json(game.to_json().encode()).board == game.board
    assert Game.from_dict(game.to_dict()).board == game.board


def corrupt(**changes: Any) -> dict[str, Any]:
    save = good_save()
    for key, value in changes.items():
        if value is KeyError:
            del save[key]
        else:
            save[key] = value
    return save


STUCK = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
WON = [[2048, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]


@pytest.mark.parametrize(
    ("save", "field", "message"),
    [
        (corrupt(format="other"), "format", "not a py2048 save"),
        (corrupt(format=KeyError), "format", "not a py2048 save"),
        (corrupt(version=2), "version", "unsupported version 2"),
        (corrupt(version=True), "version", "unsupported version"),
        (corrupt(board=KeyError), "board", "missing"),
        (corrupt(score=KeyError), "score", "missing"),
        (corrupt(extra=1), "extra", "unknown field"),
        (corrupt(board=[[0] * 4] * 3), "board", "4 rows"),
        (corrupt(board=[[0] * 3] * 4), "board", r"board\[0\] must have 4 tiles"),
        (corrupt(board="2048"), "board", "4x4 list"),
        (corrupt(board=[[3, 0, 0, 0]] + [[0] * 4] * 3), "board", r"board\[0\]\[0\] = 3"),
        (corrupt(board=[[0, 262144, 0, 0]] + [[0] * 4] * 3), "board", r"\[0\]\[1\] = 262144"),
        (corrupt(board=[[0, 0, 0, 0]] * 3 + [[0, 0, 0, -2]]), "board", r"\[3\]\[3\] = -2"),
        (corrupt(board=[[None, 0, 0, 0]] + [[0] * 4] * 3), "board", "integer tile"),
        (corrupt(score=-4), "score", "negative"),
        (corrupt(score=10**9), "score", "more than the tiles on the board"),
        (corrupt(score=1.5), "score", "integer"),
        (corrupt(score="12"), "score", "integer"),
        (corrupt(seed=-1), "seed", "between 0 and 2"),
        (corrupt(seed=2**64), "seed", "between 0 and 2"),
        (corrupt(seed="12"), "seed", "integer"),
        (corrupt(moves=-1), "moves", "between 0"),
        (corrupt(moves=10**9), "moves", "between 0"),
        (corrupt(history="LRX"), "history", "only the letters"),
        (corrupt(history=["L"]), "history", "string"),
        (corrupt(history="L"), "history", "holds 1 moves"),
        (corrupt(won=1), "won", "true or false"),
        (corrupt(won=True), "won", "no tile of 2048"),
        (corrupt(board=WON, score=20480), "won", "tile of 2048 or more is on the board"),
        (corrupt(keep_going=True), "keep_going", "not been won"),
        (corrupt(over=True), "over", "moves are still possible"),
        (corrupt(board=STUCK, score=0), "over", "no move is left"),
        (corrupt(over="no"), "over", "true or false"),
    ],
)
def test_each_kind_of_corrupt_save_names_its_field(
    save: dict[str, Any], field: str, message: str
) -> None:
    with pytest.raises(SaveError, match=message) as caught:
        Game.from_json(json.dumps(save))
    assert caught.value.field == field
    assert field in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("[1, 2]", "a JSON object, not list"),
        ("null", "a JSON object, not NoneType"),
        ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
        ("1" * 5000, "not valid JSON"),
        (" " * (MAX_SAVE_BYTES + 1), "the limit is"),
    ],
)
def test_unreadable_saves_get_a_clear_error(text: str, message: str) -> None:
    with pytest.raises(SaveError, match=message):
        Game.from_json(text)


def test_a_save_that_is_not_text_is_refused() -> None:
    with pytest.raises(SaveError, match="JSON text"):
        Game.from_json(42)  # type: ignore[arg-type]


def test_a_won_and_finished_game_loads() -> None:
    board = [[2048, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
    save = corrupt(board=board, score=20480, won=True, keep_going=True, over=True)
    game = Game.from_json(json.dumps(save))
    assert game.won and game.keep_going and game.over
