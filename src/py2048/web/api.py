"""The JSON API: new game, move, keep going and hint, all through the engine, with no session.

The browser sends the whole game (the engine's save) with each request; the server validates
it with ``Game.from_dict``, acts, and sends the new save back. Moves run on the event loop
(they take microseconds); hints run on worker threads (see :mod:`py2048.web.hints`).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, HTTPException, Request

from py2048.engine import Direction, Game, GameError, SaveError, trace
from py2048.engine.save import MAX_MOVES
from py2048.solver.presets import DEFAULT_PRESET, PRESETS, QUICKEST_PRESET
from py2048.web.errors import save_error_detail
from py2048.web.hints import Advice, HintsBusy, HintService
from py2048.web.limits import BODY_TIMEOUT_S, MAX_BODY_BYTES
from py2048.web.models import (
    CheckRequest,
    ErrorResponse,
    GameResponse,
    Health,
    HintRequest,
    HintResponse,
    KeepGoingRequest,
    MoveRequest,
    MoveResponse,
    NewGameRequest,
    PresetInfo,
    PresetsResponse,
    Save,
)

_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {
        "model": ErrorResponse,
        "description": "Malformed JSON, not UTF-8, or more lists, objects or items than any "
        "request holds",
    },
    408: {
        "model": ErrorResponse,
        "description": f"The body did not arrive within {BODY_TIMEOUT_S:g} s",
    },
    413: {"model": ErrorResponse, "description": f"Request body over {MAX_BODY_BYTES} bytes"},
    415: {
        "model": ErrorResponse,
        "description": "The body was not sent as Content-Type: application/json in UTF-8",
    },
    422: {
        "model": ErrorResponse,
        "description": "A field is missing, malformed or given twice, or the save is "
        "inconsistent (the message names the field)",
    },
}

router = APIRouter(prefix="/api", tags=["game"], responses=_ERRORS)
health_router = APIRouter(tags=["service"])


def load_game(state: Save) -> Game:
    """The game a validated-shape save describes; the engine checks that it is consistent."""
    try:
        return Game.from_dict(state.model_dump())
    except SaveError as exc:
        raise HTTPException(422, save_error_detail(exc)) from None


def hint_service(request: Request) -> HintService:
    return request.app.state.hints


@router.post("/new", summary="Start a new game", response_model=GameResponse)
async def new_game(body: Annotated[NewGameRequest | None, Body()] = None) -> dict[str, Any]:
    """A fresh game: two start tiles. Give a seed to get the same game every time."""
    game = Game(seed=None if body is None else body.seed)
    return {"state": game.to_dict()}


@router.post(
    "/move",
    summary="Play one move",
    response_model=MoveResponse,
    responses={
        400: {
            "model": ErrorResponse,
            "description": "Malformed JSON, not UTF-8, or more lists, objects or items than any "
            f"request holds; or the game has made {MAX_MOVES} moves, the most a save can hold",
        }
    },
)
async def move(body: MoveRequest) -> dict[str, Any]:
    """Play ``direction`` on ``state``. ``motions`` lists every tile of the board before the
    move with the cell it slides to, so the page can animate the move; then ``spawned`` appears.
    A direction that changes nothing returns ``moved: false`` and the state unchanged."""
    game = load_game(body.state)
    direction = Direction.parse(body.direction)
    motions = trace(game.exponents, direction)
    try:
        result = game.step(direction)
    except GameError as exc:  # the game has made as many moves as a save can hold
        raise HTTPException(400, f"state.moves: {exc}") from None
    spawned = None
    if result.spawned is not None:
        row, col, value = result.spawned
        spawned = {"row": row, "col": col, "value": value}
    return {
        "state": game.to_dict(),
        "moved": result.moved,
        "gain": result.gain,
        "motions": [
            {"value": m.value, "from": m.from_cell, "to": m.to_cell, "merged": m.merged}
            for m in motions
        ],
        "spawned": spawned,
        "won_now": result.won,
        "over": game.over,
    }


@router.post("/check", summary="Check a saved game", response_model=GameResponse)
async def check(body: CheckRequest) -> dict[str, Any]:
    """Validate a saved game before resuming it: the same checks as every other route, with
    nothing played. A 422 names what is wrong, so the page can back the save up and start anew."""
    return {"state": load_game(body.state).to_dict()}


@router.post(
    "/keep-going",
    summary="Play on after the win",
    response_model=GameResponse,
    responses={400: {"model": ErrorResponse, "description": "The game has not been won"}},
)
async def keep_going(body: KeepGoingRequest) -> dict[str, Any]:
    """The player chose Keep going: the save remembers it, so the win banner stays away."""
    game = load_game(body.state)
    try:
        game.keep_playing()
    except GameError as exc:
        raise HTTPException(400, f"state.won: {exc}") from None
    return {"state": game.to_dict()}


@router.post(
    "/hint",
    summary="Ask the solver for the best move",
    response_model=HintResponse,
    responses={429: {"model": ErrorResponse, "description": "Too many hints at once; retry"}},
)
async def hint(body: HintRequest, request: Request) -> Advice:
    """The direction the solver advises and the expected value of every legal direction.
    The search runs off the event loop and takes at most the preset's time budget."""
    game = load_game(body.state)
    try:
        return await hint_service(request).advise(game, body.preset)
    except HintsBusy:
        raise HTTPException(429, "too many hints are being searched; try again shortly") from None


@router.get("/presets", summary="The solver's presets", response_model=PresetsResponse)
async def presets() -> PresetsResponse:
    """The presets ``/api/hint`` takes, quickest first, with their depths and time limits; the
    page asks for them here rather than naming them itself."""
    return PresetsResponse(
        presets=[
            PresetInfo.model_validate(preset, from_attributes=True) for preset in PRESETS.values()
        ],
        default=DEFAULT_PRESET,
        quickest=QUICKEST_PRESET,
    )


@health_router.get("/healthz", summary="Is the server up?")
async def healthz() -> Health:
    return Health(status="ok")
