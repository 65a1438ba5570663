"""The JSON save format: exact round trips, and a clear error naming the field for bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from py2048 import Direction, Game, GameError, SaveError
from py2048.engine.board import exponents_from_board
from py2048.engine.save import LONG_MAX_SAVE_BYTES, MAX_MOVES, MAX_SAVE_BYTES, max_score


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
WON = [[2048, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4]


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
        (corrupt(board=STUCK, score=0, moves=0, history=""), "over", "no move is left"),
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
        (" " * (LONG_MAX_SAVE_BYTES + 1), "the limit is"),
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


def test_a_save_with_a_field_given_twice_is_refused_naming_it() -> None:
    text = played_game().to_json()
    twice = text.replace('"score":', '"score":0,"score":', 1)
    with pytest.raises(SaveError, match="more than once") as caught:
        Game.from_json(twice)
    assert caught.value.field == "score"


def test_a_save_is_utf_8_text() -> None:
    text = played_game().to_json()
    with pytest.raises(SaveError, match="not UTF-8"):
        Game.from_json(text.encode("utf-16"))
    assert Game.from_json(text.encode("utf-8")).to_json() == text


# --- the rules are closed under play ---------------------------------------------------------


@pytest.mark.parametrize(
    "board",
    [[[0] * 4] * 4, [[0, 0, 0, 0], [0, 0, 2048, 0], [0] * 4, [0] * 4]],
    ids=["empty", "one tile"],
)
def test_a_board_with_fewer_than_two_tiles_is_not_a_game(board: list[list[int]]) -> None:
    save = corrupt(board=board, score=0, moves=0, history="", won=any(map(any, board)))
    with pytest.raises(SaveError, match="at least 2") as caught:
        Game.from_dict(save)
    assert caught.value.field == "board"
    with pytest.raises(SaveError, match="at least 2"):
        Game.from_board(board)


def test_moves_are_checked_against_the_tiles_on_the_board() -> None:
    # Every move spawns a 2 or a 4 and merges keep the sum, so 2 + 2 + 4 = 8 allows 2 moves.
    board = [[2, 2, 4, 0], [0] * 4, [0] * 4, [0] * 4]
    assert Game.from_dict(corrupt(board=board, score=0, moves=2, history="LR")).moves == 2
    with pytest.raises(SaveError, match="at most 2 moves") as caught:
        Game.from_dict(corrupt(board=board, score=0, moves=3, history="LRL"))
    assert caught.value.field == "moves" and "add up to 8" in str(caught.value)


def capped_save() -> dict[str, Any]:
    """A game at the move cap whose board can still move (its tiles allow that many moves)."""
    board = [[131072, 131072, 131072, 131072], [65536, 0, 0, 0], [0] * 4, [0] * 4]
    won = Game.from_board(board, seed=5).to_dict()
    return won | {"moves": MAX_MOVES, "history": "L" * MAX_MOVES}


def test_a_game_at_the_move_cap_loads_but_cannot_move_and_says_why() -> None:
    game = Game.from_dict(capped_save())
    assert game.moves == MAX_MOVES and not game.over
    before = game.to_json()
    with pytest.raises(GameError, match=f"{MAX_MOVES} moves, the most a 4x4 game can hold"):
        game.move("down")
    assert not game.move("up"), "a direction that changes nothing still just does nothing"
    assert game.to_json() == before


boards = st.lists(
    st.lists(
        st.sampled_from([0, 0, 0, 2, 4, 8, 1024, 2048, 32768, 65536, 131072]),
        min_size=4,
        max_size=4,
    ),
    min_size=4,
    max_size=4,
).filter(lambda board: sum(1 for row in board for v in row if v) >= 2)


@st.composite
def valid_saves(draw: st.DrawFn) -> dict[str, Any]:
    """Any save the rules accept: a board, a score and moves up to what its tiles allow."""
    board = draw(boards)
    exponents = exponents_from_board(board)
    score = draw(st.integers(0, max_score(exponents)))
    # The tiles add up to 4 or more at the start and each move spawns a 2 or a 4.
    most = min(MAX_MOVES, (sum(map(sum, board)) - 4) // 2)
    moves = draw(st.one_of(st.integers(0, min(most, 40)), st.integers(max(0, most - 3), most)))
    letter = draw(st.sampled_from("URDL"))
    state = Game.from_board(board, score=score, seed=draw(st.integers(0, 2**53 - 1))).to_dict()
    won = state["won"]
    keep_going = won and draw(st.booleans())
    return state | {"moves": moves, "history": letter * moves, "keep_going": keep_going}


@settings(max_examples=300, deadline=None)
@given(valid_saves(), st.lists(st.sampled_from(list(Direction)), max_size=30))
def test_any_moves_from_any_valid_save_give_a_valid_save(
    save: dict[str, Any], directions: list[Direction]
) -> None:
    game = Game.from_dict(save)
    for direction in directions:
        try:
            game.move(direction)
        except GameError:
            assert game.moves == MAX_MOVES
        again = Game.from_json(game.to_json())
        assert again.to_dict() == game.to_dict()


def test_a_4x4_save_longer_than_its_limit_is_refused_after_reading() -> None:
    text = Game(5).to_json() + " " * MAX_SAVE_BYTES
    with pytest.raises(SaveError, match="the limit for 4x4 is"):
        Game.from_json(text)
