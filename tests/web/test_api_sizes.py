"""The API on every board size, over real HTTP: games of 3x3 to 8x8 (rectangles too) start,
move, replay, undo and load as the engine plays them; the size travels in the save (absent on
4x4, so 4x4 saves are what they always were); bad sizes get a 422 naming the field; request
limits follow the size."""

from __future__ import annotations

import inspect
import json

import httpx
import pytest

from py2048 import Game
from py2048.engine.save import MAX_MOVES
from py2048.engine.size import BoardSize
from py2048.solver import review
from py2048.web.limits import LONG_MAX_BODY_BYTES, MAX_BODY_BYTES

JSON = {"Content-Type": "application/json"}
SIZES = [(3, 3), (5, 5), (8, 8), (4, 6), (7, 3)]
MOVES = "LDRDLULDRDLDDLUR"


def played(seed: int, size: tuple[int, int], count: int = 12) -> Game:
    """Seed's game on ``size``, played left, down, right, up first for ``count`` moves."""
    game = Game(seed, size=size)
    while game.moves < count and not game.over:
        legal = {d.letter for d in game.legal_moves()}
        game.move(next(letter for letter in "LDRU" if letter in legal))
    return game


def assert_refused(response: httpx.Response, status: int, *fragments: str) -> str:
    assert response.status_code == status, response.text[:300]
    detail: str = response.json()["detail"]
    for fragment in fragments:
        assert fragment in detail, detail
    return detail


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_new_game_of_any_size_is_the_engines_and_carries_its_size(
    http: httpx.Client, size: tuple[int, int]
) -> None:
    state = http.post("/api/new", json={"seed": 77, "size": list(size)}).json()["state"]
    assert state == Game(77, size=size).to_dict()
    assert state["size"] == list(size)
    assert [len(row) for row in state["board"]] == [size[1]] * size[0]


def test_a_4x4_game_is_saved_exactly_as_before_sizes(http: httpx.Client) -> None:
    for body in ({"seed": 5}, {"seed": 5, "size": [4, 4]}):
        state = http.post("/api/new", json=body).json()["state"]
        assert "size" not in state
        assert state == Game(5).to_dict()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_moves_on_any_size_are_the_engines_and_their_motions_rebuild_the_board(
    http: httpx.Client, size: tuple[int, int]
) -> None:
    game = played(31, size, 6)
    state = game.to_dict()
    for direction in ("left", "up", "right", "down"):
        before = game.board
        answer = http.post("/api/move", json={"state": state, "direction": direction}).json()
        result = game.step(direction)
        assert answer["state"] == game.to_dict()
        assert (answer["moved"], answer["gain"]) == (result.moved, result.gain)
        rebuilt = [[0] * size[1] for _ in range(size[0])]
        for motion in answer["motions"]:
            (r0, c0), (r1, c1) = motion["from"], motion["to"]
            assert before[r0][c0] == motion["value"]
            rebuilt[r1][c1] += motion["value"]
        if answer["spawned"]:
            spawned = answer["spawned"]
            assert (spawned["row"], spawned["col"], spawned["value"]) == result.spawned
            rebuilt[spawned["row"]][spawned["col"]] += spawned["value"]
        assert rebuilt == game.board
        state = answer["state"]


def test_replay_undo_and_check_keep_the_size(http: httpx.Client) -> None:
    game = played(12, (5, 6), 20)
    history = "".join(d.letter for d in game.history)
    replayed = http.post("/api/replay", json={"seed": 12, "history": history, "size": [5, 6]})
    assert replayed.json()["state"] == game.to_dict()
    undone = http.post("/api/undo", json={"state": game.to_dict(), "steps": 3}).json()["state"]
    assert undone == Game.replay(12, history[:-3], size=(5, 6), practice=True).to_dict()
    assert http.post("/api/check", json={"state": undone}).json()["state"] == undone


def test_keep_going_after_a_win_on_a_larger_board(http: httpx.Client) -> None:
    board = [[2048, 2, 0, 0, 0], [4, 0, 0, 0, 0], [0] * 5, [0] * 5, [0] * 5]
    state = Game.from_board(board, score=20_000, seed=1).to_dict()
    answer = http.post("/api/keep-going", json={"state": state})
    assert answer.status_code == 200
    assert answer.json()["state"]["keep_going"] is True
    assert answer.json()["state"]["size"] == [5, 5]


def test_an_old_4x4_save_still_loads_and_plays(http: httpx.Client) -> None:
    """A save written before sizes existed: no size field, 4 rows of 4."""
    old = {
        "format": "py2048",
        "version": 1,
        "board": [[2, 0, 0, 0], [0, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]],
        "score": 0,
        "seed": 42,
        "moves": 1,
        "history": "L",
        "won": False,
        "keep_going": False,
        "over": False,
    }
    checked = http.post("/api/check", json={"state": old})
    assert checked.status_code == 200 and checked.json()["state"] == old
    moved = http.post("/api/move", json={"state": old, "direction": "right"})
    assert moved.status_code == 200 and "size" not in moved.json()["state"]


BAD_SIZES = {
    "too many rows": ([9, 4], "size[0]", "less than or equal to 8"),
    "too few columns": ([4, 2], "size[1]", "greater than or equal to 3"),
    "one side": ([5], "size", "at least 2"),
    "three sides": ([5, 5, 5], "size", "at most 2"),
    "written as text": ("5x5", "size", "valid list"),
    "a side that is not whole": ([5, 4.5], "size[1]", "integer"),
}


@pytest.mark.parametrize(("size", "field", "fragment"), BAD_SIZES.values(), ids=list(BAD_SIZES))
def test_a_bad_size_is_refused_naming_the_field(
    http: httpx.Client, size: object, field: str, fragment: str
) -> None:
    assert_refused(http.post("/api/new", json={"seed": 1, "size": size}), 422, field, fragment)
    replay = {"seed": 1, "history": "", "size": size}
    assert_refused(http.post("/api/replay", json=replay), 422, field, fragment)
    state = Game(1).to_dict() | {"size": size}
    assert_refused(http.post("/api/check", json={"state": state}), 422, f"state.{field}")


def test_a_board_whose_shape_is_not_its_size_is_refused_naming_the_board(
    http: httpx.Client,
) -> None:
    three = Game(4, size=(3, 3)).to_dict()
    assert_refused(
        http.post("/api/check", json={"state": three | {"size": [4, 3]}}),
        422,
        "state.board",
        "4x3",
    )
    without_size = {key: value for key, value in three.items() if key != "size"}
    assert_refused(http.post("/api/check", json={"state": without_size}), 422, "state.board")
    ragged = Game(4, size=(5, 5)).to_dict()
    ragged["board"] = [*ragged["board"][:4], [0, 0, 0, 0]]
    assert_refused(http.post("/api/move", json={"state": ragged, "direction": "up"}), 422, "board")


def test_a_tile_past_the_sizes_largest_is_refused(http: httpx.Client) -> None:
    state = Game(4, size=(3, 3)).to_dict()
    state["board"][1][1] = 2048  # 3x3 stops at 1024
    state["won"] = True
    assert_refused(http.post("/api/check", json={"state": state}), 422, "state.board")


def test_the_move_cap_follows_the_size(http: httpx.Client) -> None:
    too_long = "U" * (MAX_MOVES + 1)
    assert_refused(
        http.post("/api/replay", json={"seed": 8, "history": too_long}),
        422,
        "history",
        f"a 4x4 game holds at most {MAX_MOVES}",
    )
    # The same history fits a 5x5 game's cap: it is replayed, and refused at its first
    # move that changes nothing.
    assert_refused(
        http.post("/api/replay", json={"seed": 8, "history": too_long, "size": [5, 5]}),
        422,
        "history",
        "changes nothing",
    )


def long_body(size: list[int] | None, length: int) -> bytes:
    body: dict[str, object] = {"seed": 8, "history": "U" * length}
    if size is not None:
        body["size"] = size
    return json.dumps(body).encode()


def test_a_body_over_the_4x4_limit_is_read_only_for_a_board_of_more_than_16_cells(
    http: httpx.Client,
) -> None:
    length = MAX_BODY_BYTES + 1000
    for size in (None, [4, 4], [3, 5]):
        assert_refused(
            http.post("/api/replay", content=long_body(size, length), headers=JSON),
            413,
            "larger than the limit",
            str(MAX_BODY_BYTES),
        )
    answer = http.post("/api/replay", content=long_body([6, 6], length), headers=JSON)
    assert_refused(answer, 422, "history", "changes nothing")
    too_large = long_body([8, 8], LONG_MAX_BODY_BYTES)
    assert_refused(
        http.post("/api/replay", content=too_large, headers=JSON), 413, "larger than the limit"
    )


def test_an_8x8_request_passes_the_shape_limits(http: httpx.Client) -> None:
    """The largest board's request holds more items than a 4x4 one, and is still read."""
    state = played(3, (8, 8), 30).to_dict() | {"practice": True}
    body = json.dumps({"state": state, "preset": "fast"}, indent=4)
    assert http.post("/api/check", content=body, headers=JSON).status_code == 422  # preset
    answer = http.post("/api/move", json={"state": state, "direction": "up"})
    assert answer.status_code == 200, answer.text


def test_a_review_carries_the_size_or_says_the_solver_does_not_review_it(
    http: httpx.Client,
) -> None:
    game = played(21, (3, 3), 10)
    history = "".join(d.letter for d in game.history)
    body = {"seed": 21, "history": history, "size": [3, 3], "setting": "quick"}
    response = http.post("/api/review", json=body, timeout=60)
    if "size" in inspect.signature(review).parameters:
        assert response.status_code == 200, response.text[:300]
        assert response.json()["review"]["size"] == [3, 3]
        assert response.json()["review"]["graded_by"] in ("perfect", "heuristic")
        assert response.json()["state"] == game.to_dict()
    else:
        assert_refused(response, 422, "size: ", "3x3")


def test_a_hint_on_a_small_board_is_advice_or_a_clear_refusal(http: httpx.Client) -> None:
    state = played(5, (3, 3), 4).to_dict()
    response = http.post("/api/hint", json={"state": state, "preset": "fast"}, timeout=60)
    if response.status_code == 200:
        advice = response.json()
        legal = {str(d) for d in Game.from_dict(state).legal_moves()}
        assert advice["direction"] in legal and set(advice["values"]) <= legal
        assert advice["source"] in ("search", "perfect")
        if advice["source"] == "search":  # the heuristic's figures: the page shows them as such
            assert advice["evaluator"] == "heuristic"
    else:
        assert_refused(response, 422, "state.size: ", "3x3")


def test_a_size_is_read_as_rows_then_columns(http: httpx.Client) -> None:
    state = http.post("/api/new", json={"seed": 2, "size": [3, 7]}).json()["state"]
    assert len(state["board"]) == 3 and len(state["board"][0]) == 7
    assert BoardSize(*state["size"]) == BoardSize(3, 7)


def test_a_hint_on_4x4_says_its_values_are_the_networks_points(http: httpx.Client) -> None:
    state = played(5, (4, 4), 4).to_dict()
    advice = http.post("/api/hint", json={"state": state, "preset": "fast"}, timeout=60).json()
    assert advice["evaluator"] == "ntuple-snake" and advice["source"] == "search"
