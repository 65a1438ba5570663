"""A property-based fuzz of the whole API from its own OpenAPI schema (schemathesis).

Every operation gets requests generated from the schema, valid and invalid, sent over HTTP to
the served app (through schemathesis's Python API and Hypothesis, not its pytest plugin);
every response must be documented (status, content type, body schema), and none may be a
server error.

A save is consistent or not in ways a JSON Schema cannot say (the score the tiles allow, won
exactly when a 2048 is on the board, over exactly when no move is left), so a save generated
from the schema is made consistent before it is sent as valid data: the generated board,
score and seed go through ``Game.from_board`` (the board laid out in the generated size, 4x4
without one, its tiles capped at the size's largest), and Keep going gets a won 4x4 game (its
refusal of a game not won is tested in test_api_errors). Likewise a generated move list
becomes moves that move the board (replay and review, in the generated size), and Undo gets a
game played from its seed with at least as many moves as it takes back (their refusals are
tested in test_api_review). Invalid data is sent as generated; one too large for the body limit
is refused with 413 before anyone reads it, so whether its content was invalid is not asked
then.
"""

from __future__ import annotations

import inspect
from functools import partial
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import negative_data_rejection

from py2048 import Game
from py2048.engine.save import max_score
from py2048.engine.size import DEFAULT_SIZE, BoardSize
from py2048.solver import review
from py2048.web import create_app

REAL_MOVES = 40
"""The longest move list a valid generated review or replay is given (reviews stay quick)."""

MAX_EXAMPLES = 40


def made_consistent(case: schemathesis.Case, *, won: bool) -> schemathesis.Case:
    """A generated valid request whose save is made a real game (see the module docstring)."""
    if not isinstance(case.body, dict):
        return case
    if case.path == "/api/undo":
        seed = int(case.body["state"]["seed"])
        game = Game.replay(seed, real_moves(seed, REAL_MOVES))
        steps = min(int(case.body.get("steps", 1)), game.moves)
        case.body = {**case.body, "state": game.to_dict(), "steps": steps}
    elif isinstance(case.body.get("state"), dict):
        case.body = {**case.body, "state": consistent_save(case.body["state"], won=won)}
    elif isinstance(case.body.get("history"), str):
        if case.path.startswith("/api/review") and not reviews_every_size():
            case.body = {key: value for key, value in case.body.items() if key != "size"}
        seed = int(case.body["seed"])
        size = generated_size(case.body)
        history = real_moves(seed, min(len(case.body["history"]), REAL_MOVES), size)
        case.body = {**case.body, "history": history}
    return case


def reviews_every_size() -> bool:
    """Whether the solver's review takes a size; until it does, a review of another size is
    refused with 422 naming ``size`` (test_api_sizes), so valid reviews are made 4x4 ones."""
    return "size" in inspect.signature(review).parameters


def generated_size(body: dict[str, Any]) -> BoardSize:
    """The size a generated request names ([rows, cols]), 4x4 when it names none."""
    size = body.get("size")
    return DEFAULT_SIZE if size is None else BoardSize(*(int(side) for side in size))


def real_moves(seed: int, count: int, size: BoardSize = DEFAULT_SIZE) -> str:
    """The first ``count`` moves (fewer if it ends) of seed's game played down, left, right, up
    first: each of them moves the board."""
    game = Game(seed, size=size)
    order = ("D", "L", "R", "U")
    while game.moves < count and not game.over:
        legal = {d.letter for d in game.legal_moves()}
        game.move(next(letter for letter in order if letter in legal))
    return "".join(d.letter for d in game.history)


def consistent_save(state: dict[str, Any], *, won: bool) -> dict[str, Any]:
    """The generated save made a real game with its board, seed and (capped) score.

    With ``won``, a 2048 replaces the first cell if the board holds none (Keep going needs it).
    A game holds at least two tiles: 2s fill the first empty cells of a board with fewer.
    """
    size = DEFAULT_SIZE if won else generated_size(state)
    values = [min(int(value), size.max_tile) for row in state["board"] for value in row]
    values += [0] * size.cells  # 2.0 is a valid 2; a board too small for its size is padded
    rows, cols = size
    board = [values[r * cols : (r + 1) * cols] for r in range(rows)]
    if won and max(max(row) for row in board) < 2048:
        board[0][0] = 2048
    empty = [(r, c) for r in range(rows) for c in range(cols) if not board[r][c]]
    for r, c in empty[: max(0, len(empty) - (size.cells - 2))]:
        board[r][c] = 2
    exponents = [value.bit_length() - 1 if value else 0 for row in board for value in row]
    score = min(int(state["score"]), max_score(exponents))
    game = Game.from_board(board, score=score, seed=int(state["seed"]))
    if game.won and state["keep_going"]:
        game.keep_playing()
    return game.to_dict()


def _operations() -> list[Any]:
    """Every operation the app documents, with valid requests and, where it takes input,
    invalid ones; read from the app itself when the tests are collected."""
    found = []
    for path, methods in create_app().openapi()["paths"].items():
        for method, spec in methods.items():
            modes = [GenerationMode.POSITIVE]
            if "requestBody" in spec or spec.get("parameters"):
                modes.append(GenerationMode.NEGATIVE)
            for mode in modes:
                request = f"{method.upper()} {path}"
                found.append(pytest.param(method.upper(), path, mode, id=f"{request} {mode}"))
    return found


@pytest.fixture(scope="module")
def api_schema(server_url: str) -> schemathesis.BaseSchema:
    """The schema as any client sees it: fetched over HTTP from the served app."""
    return schemathesis.openapi.from_url(f"{server_url}/openapi.json")


@pytest.mark.slow
@pytest.mark.parametrize(("method", "path", "mode"), _operations())
def test_every_operation_answers_as_documented_and_never_fails(
    api_schema: schemathesis.BaseSchema,
    server_url: str,
    method: str,
    path: str,
    mode: GenerationMode,
) -> None:
    operation = api_schema[path][method]
    cases = operation.as_strategy(generation_mode=mode)
    if mode.is_positive:
        cases = cases.map(partial(made_consistent, won=path == "/api/keep-going"))

    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(cases)
    def answers_as_documented(case: schemathesis.Case) -> None:
        response = case.call(base_url=server_url)
        too_large = [negative_data_rejection] if response.status_code == 413 else []
        case.validate_response(response, excluded_checks=too_large)

    answers_as_documented()
