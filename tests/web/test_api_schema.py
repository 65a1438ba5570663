"""A property-based fuzz of the whole API from its own OpenAPI schema (schemathesis).

Every operation gets requests generated from the schema, valid and invalid, sent over HTTP to
the served app; every response must be documented (status, content type, body schema), and
none may be a server error.

A save is consistent or not in ways a JSON Schema cannot say (the score the tiles allow, won
exactly when a 2048 is on the board, over exactly when no move is left), so a save generated
from the schema is made consistent before it is sent as valid data: the generated board,
score and seed go through ``Game.from_board``, and Keep going gets a won game (its refusal of
a game not won is tested in test_api_errors). Invalid data is sent as generated.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from py2048 import Game
from py2048.engine.save import max_score

MAX_EXAMPLES = 40


def consistent_save(state: dict[str, Any], *, won: bool) -> dict[str, Any]:
    """The generated save made a real game with its board, seed and (capped) score.

    With ``won``, a 2048 replaces the first cell if the board holds none (Keep going needs it).
    """
    board = [[int(value) for value in row] for row in state["board"]]  # 2.0 is a valid 2
    if won and max(max(row) for row in board) < 2048:
        board[0][0] = 2048
    seen_max = False
    for row in board:  # a game can make only one 131072
        for col, value in enumerate(row):
            if value == 131072:
                row[col] = 0 if seen_max else value
                seen_max = True
    exponents = [value.bit_length() - 1 if value else 0 for row in board for value in row]
    score = min(int(state["score"]), max_score(exponents))
    game = Game.from_board(board, score=score, seed=int(state["seed"]))
    if game.won and state["keep_going"]:
        game.keep_playing()
    return game.to_dict()


@pytest.fixture
def api_schema(server_url: str) -> schemathesis.BaseSchema:
    schema = schemathesis.openapi.from_url(f"{server_url}/openapi.json")

    @schema.hook
    def map_case(context: schemathesis.HookContext, case: schemathesis.Case) -> schemathesis.Case:
        body = case.body
        print(
            "HOOK",
            case.operation.path,
            case.meta and case.meta.generation.mode,
            case.meta and case.meta.phase.name,
            flush=True,
        )
        if (
            case.meta is not None
            and case.meta.generation.mode.is_positive
            and isinstance(body, dict)
            and isinstance(body.get("state"), dict)
        ):
            won = case.operation.path == "/api/keep-going"
            case.body = {**body, "state": consistent_save(body["state"], won=won)}
        return case

    return schema


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.mark.slow
@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_as_documented_and_never_fails(case: schemathesis.Case) -> None:
    case.call_and_validate()
