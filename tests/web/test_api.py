"""The game API over real HTTP: it plays exactly as the engine does and tells the page enough to
animate every move."""

from __future__ import annotations

import json
from dataclasses import asdict

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from py2048 import Game
from py2048.solver import DEFAULT_PRESET, PRESETS

DIRECTIONS = ["up", "right", "down", "left"]
WON_BOARD = [[1024, 1024, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 2]]


def move(http: httpx.Client, state: dict, direction: str) -> dict:
    response = http.post("/api/move", json={"state": state, "direction": direction})
    assert response.status_code == 200, response.text
    return response.json()


def test_new_game_with_a_seed_is_the_engines_game(http: httpx.Client) -> None:
    response = http.post("/api/new", json={"seed": 2048})
    assert response.status_code == 200
    assert response.json() == {"state": Game(seed=2048).to_dict()}


def test_new_game_without_a_body_or_seed_is_a_fresh_random_game(http: httpx.Client) -> None:
    first = http.post("/api/new").json()["state"]
    second = http.post("/api/new", json={"seed": None}).json()["state"]
    for state in (first, second):
        assert Game.from_dict(state).to_dict() == state
        assert state["moves"] == 0 and state["score"] == 0
        assert sum(tile > 0 for row in state["board"] for tile in row) == 2
    assert first["seed"] != second["seed"]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seed=st.integers(0, 2**53 - 1),
    moves=st.lists(st.sampled_from(DIRECTIONS), max_size=60),
    direction=st.sampled_from(DIRECTIONS),
)
def test_a_move_is_the_engines_move_and_its_motions_rebuild_both_boards(
    http: httpx.Client, seed: int, moves: list[str], direction: str
) -> None:
    game = Game.replay(seed, moves)
    before = game.board
    answer = move(http, game.to_dict(), direction)
    result = game.step(direction)

    assert answer["state"] == game.to_dict()
    assert answer["moved"] == result.moved
    assert answer["gain"] == result.gain
    assert answer["won_now"] == result.won
    assert answer["over"] == game.over

    tiles_before = {(r, c): v for r, row in enumerate(before) for c, v in enumerate(row) if v}
    assert {tuple(m["from"]): m["value"] for m in answer["motions"]} == tiles_before

    rebuilt = [[0] * 4 for _ in range(4)]
    for motion in answer["motions"]:
        row, col = motion["to"]
        rebuilt[row][col] += motion["value"]
    if result.moved:
        spawned = answer["spawned"]
        assert spawned == dict(zip(("row", "col", "value"), result.spawned, strict=True))
        assert rebuilt[spawned["row"]][spawned["col"]] == 0
        rebuilt[spawned["row"]][spawned["col"]] = spawned["value"]
        assert rebuilt == answer["state"]["board"]
    else:
        assert answer["spawned"] is None
        assert rebuilt == before == answer["state"]["board"]
        assert all(m["from"] == m["to"] and not m["merged"] for m in answer["motions"])


def test_merging_tiles_are_marked_and_meet_in_one_cell(http: httpx.Client) -> None:
    state = Game.from_board([[2, 2, 4, 4], [0] * 4, [0] * 4, [0] * 4], seed=7).to_dict()
    answer = move(http, state, "left")
    merged = sorted(
        (tuple(m["to"]), m["value"], tuple(m["from"])) for m in answer["motions"] if m["merged"]
    )
    assert merged == [
        ((0, 0), 2, (0, 0)),
        ((0, 0), 2, (0, 1)),
        ((0, 1), 4, (0, 2)),
        ((0, 1), 4, (0, 3)),
    ]
    assert answer["gain"] == 4 + 8


def test_a_direction_that_changes_nothing_leaves_the_state_as_it_was(http: httpx.Client) -> None:
    state = Game.from_board([[2, 0, 0, 0], [4, 0, 0, 0], [0] * 4, [0] * 4], seed=3).to_dict()
    answer = move(http, state, "left")
    assert answer["moved"] is False
    assert answer["state"] == state
    assert answer["gain"] == 0 and answer["spawned"] is None


def test_the_winning_move_says_won_now_once_and_keep_going_is_remembered(
    http: httpx.Client,
) -> None:
    state = Game.from_board(WON_BOARD, seed=11).to_dict()
    answer = move(http, state, "left")
    assert answer["won_now"] is True
    assert answer["state"]["won"] is True and answer["state"]["keep_going"] is False

    kept = http.post("/api/keep-going", json={"state": answer["state"]})
    assert kept.status_code == 200
    kept_state = kept.json()["state"]
    assert kept_state["keep_going"] is True
    assert {**kept_state, "keep_going": False} == answer["state"]

    later = move(http, kept_state, "right")
    assert later["won_now"] is False
    assert later["state"]["won"] is True and later["state"]["keep_going"] is True


def test_the_last_possible_move_reports_game_over(http: httpx.Client) -> None:
    # Left merges the two 2s; whatever spawns in the freed cell, no move is left after it.
    board = [[2, 2, 8, 16], [32, 64, 128, 256], [8, 16, 32, 64], [128, 256, 512, 1024]]
    answer = move(http, Game.from_board(board, seed=1).to_dict(), "left")
    assert answer["moved"] is True
    assert answer["over"] is True and answer["state"]["over"] is True
    follow_up = move(http, answer["state"], "right")
    assert follow_up["moved"] is False and follow_up["over"] is True


def test_hint_advises_a_legal_move_and_explains_it(http: httpx.Client) -> None:
    game = Game.replay(5, "LDLDRDLD")
    response = http.post("/api/hint", json={"state": game.to_dict(), "preset": "fast"})
    assert response.status_code == 200, response.text
    hint = response.json()
    legal = {str(d) for d in game.legal_moves()}
    assert hint["direction"] in legal
    assert set(hint["values"]) == legal
    assert hint["values"][hint["direction"]] == max(hint["values"].values())
    assert hint["depth"] >= 0 and hint["elapsed_ms"] >= 0


def test_hint_on_a_finished_game_has_no_direction(http: httpx.Client) -> None:
    board = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]
    state = Game.from_board(board, seed=1).to_dict()
    hint = http.post("/api/hint", json={"state": state}).json()
    assert hint["direction"] is None and hint["values"] == {}


def test_the_presets_are_the_solvers_quickest_first(http: httpx.Client) -> None:
    answer = http.get("/api/presets").json()
    assert [preset["name"] for preset in answer["presets"]] == list(PRESETS)
    for preset in answer["presets"]:
        assert preset == json.loads(json.dumps(asdict(PRESETS[preset["name"]])))
    limits = [preset["time_ms"] for preset in answer["presets"]]
    assert limits == sorted(limits)
    assert answer["default"] == DEFAULT_PRESET
    assert answer["quickest"] == answer["presets"][0]["name"]


def test_every_preset_answers_a_hint_and_no_other_name_does(http: httpx.Client) -> None:
    state = Game.replay(5, "LDLD").to_dict()
    for name in PRESETS:
        response = http.post("/api/hint", json={"state": state, "preset": name})
        assert response.status_code == 200, response.text
    response = http.post("/api/hint", json={"state": state, "preset": "insane"})
    assert response.status_code == 422
    assert "preset" in response.json()["detail"]


def test_health(http: httpx.Client) -> None:
    assert http.get("/healthz").json() == {"status": "ok"}


def test_check_returns_a_good_save_unchanged(http: httpx.Client) -> None:
    state = Game.replay(5, "LURDLLRD").to_dict()
    response = http.post("/api/check", json={"state": state})
    assert response.status_code == 200
    assert response.json() == {"state": state}


def test_check_names_what_is_wrong_with_a_bad_save(http: httpx.Client) -> None:
    state = Game.replay(5, "LURD").to_dict()
    response = http.post("/api/check", json={"state": {**state, "keep_going": True}})
    assert response.status_code == 422
    assert "keep_going" in response.json()["detail"]
