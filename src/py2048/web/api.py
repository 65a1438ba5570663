"""The JSON API: new game, move, keep going, undo, hint and review, all through the engine and
the solver, with no session.

The browser sends the whole game (the engine's save) with each request; the server validates
it with ``Game.from_dict``, acts, and sends the new save back. Moves run on the event loop
(they take microseconds); hints and reviews run on worker threads (see :mod:`py2048.web.hints`
and :mod:`py2048.web.reviews`), and so do undo and replay, which replay a game from its seed
(:class:`py2048.web.workers.ReplayThreads`). A review takes the game as its seed and moves, as a
review link holds it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from functools import partial
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Body, HTTPException, Request
from fastapi.responses import Response, StreamingResponse

from py2048.engine import Direction, Game, GameError, SaveError, trace
from py2048.engine.save import MAX_MOVES, max_moves_for
from py2048.engine.size import BoardSize
from py2048.solver.presets import DEFAULT_PRESET, PRESETS, QUICKEST_PRESET
from py2048.web.body import JSON_TYPES
from py2048.web.errors import save_error_detail
from py2048.web.hints import HintResult, HintsBusy, HintService, SolverRefused
from py2048.web.limits import BODY_TIMEOUT_S, LONG_MAX_BODY_BYTES, MAX_BODY_BYTES
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
    ReplayRequest,
    ReviewRequest,
    ReviewResponse,
    Save,
    UndoRequest,
    board_size,
)
from py2048.web.reviews import Progress, ReviewJob, ReviewsBusy, ReviewService
from py2048.web.workers import ReplaysBusy, ReplayThreads

T = TypeVar("T")

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
    413: {
        "model": ErrorResponse,
        "description": f"Request body over {MAX_BODY_BYTES} bytes, or over "
        f"{LONG_MAX_BODY_BYTES} bytes for a game of more than 16 cells",
    },
    415: {
        "model": ErrorResponse,
        "description": f"The body was not sent as JSON in UTF-8 (Content-Type: {JSON_TYPES})",
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
    """The game a validated-shape save describes; the engine checks that it is consistent
    (a board whose shape is not its size's, tiles past the size's largest, moves past its cap)."""
    data = state.model_dump()
    if data["size"] is None:  # absent: a 4x4 save, exactly as before sizes existed
        del data["size"]
    try:
        return Game.from_dict(data)
    except SaveError as exc:
        raise HTTPException(422, save_error_detail(exc)) from None


def hint_service(request: Request) -> HintService:
    hints: HintService = request.app.state.hints
    return hints


def review_service(request: Request) -> ReviewService:
    reviews: ReviewService = request.app.state.reviews
    return reviews


_GAME_ROUTE: dict[str, Any] = {"response_model_exclude_unset": True}
"""Routes answering a save leave out what the save leaves out (``practice`` when false), so the
state they answer is exactly the engine's save."""


@router.post("/new", summary="Start a new game", response_model=GameResponse, **_GAME_ROUTE)
async def new_game(body: Annotated[NewGameRequest | None, Body()] = None) -> dict[str, Any]:
    """A fresh game: two start tiles. Give a seed to get the same game every time, and a
    ``size`` ([rows, columns], each 3 to 8) for a board other than 4x4."""
    game = Game() if body is None else Game(seed=body.seed, size=board_size(body.size))
    return {"state": game.to_dict()}


@router.post(
    "/move",
    summary="Play one move",
    response_model=MoveResponse,
    **_GAME_ROUTE,
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
    motions = trace(game.exponents, direction, game.size)
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


@router.post("/check", summary="Check a saved game", response_model=GameResponse, **_GAME_ROUTE)
async def check(body: CheckRequest) -> dict[str, Any]:
    """Validate a saved game before resuming it: the same checks as every other route, with
    nothing played. A 422 names what is wrong, so the page can back the save up and start anew."""
    return {"state": load_game(body.state).to_dict()}


@router.post(
    "/keep-going",
    summary="Play on after the win",
    response_model=GameResponse,
    **_GAME_ROUTE,
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


_REPLAY_BUSY: dict[int | str, dict[str, Any]] = {
    429: {"model": ErrorResponse, "description": "Too many replays at once; retry"}
}


@router.post(
    "/undo",
    summary="Take moves back (practice mode)",
    response_model=GameResponse,
    responses={
        400: {
            "model": ErrorResponse,
            "description": "Not that many moves to take back, or a game set up from a board "
            "(its moves do not rebuild it from its seed)",
        },
        **_REPLAY_BUSY,
    },
    **_GAME_ROUTE,
)
async def undo(body: UndoRequest, request: Request) -> dict[str, Any]:
    """The game without its last ``steps`` moves: the seed replayed with the rest of its moves,
    so the same tiles come again. The answer is marked ``practice``: a game in which Undo was
    used never sets the best score. The replay runs off the event loop."""
    game = load_game(body.state)
    try:
        await _replayed(request, partial(game.undo, body.steps))
    except GameError as exc:
        raise HTTPException(400, f"state.history: {exc}") from None
    return {"state": game.to_dict()}


@router.post(
    "/replay",
    summary="Replay a game from its seed and moves",
    responses=_REPLAY_BUSY,
    **_GAME_ROUTE,
)
async def replay(body: ReplayRequest, request: Request) -> GameResponse:
    """The game ``seed`` becomes after ``history``: what a review link or an imported file
    holds. A move that is not U, R, D or L, or that changes nothing where it comes, is refused
    with 422 naming its number. ``size`` is the board's ([4, 4] when absent). The replay runs
    off the event loop."""
    size = fitting_size(body)
    call = partial(
        Game.replay, body.seed, body.history, strict=True, practice=body.practice, size=size
    )
    try:
        game = await _replayed(request, call)
    except GameError as exc:
        raise HTTPException(422, f"history: {exc}") from None
    return GameResponse.model_validate({"state": game.to_dict()})


def fitting_size(body: ReplayRequest) -> BoardSize:
    """The request's board size, once its history is known to fit a game of that size."""
    size = board_size(body.size)
    most = max_moves_for(size)
    if len(body.history) > most:
        raise HTTPException(
            422, f"history: {len(body.history)} moves; a {size} game holds at most {most}"
        )
    return size


async def _replayed(request: Request, call: Callable[[], T]) -> T:
    """``call()`` on the replay threads (a save at the move cap takes a second to replay)."""
    replays: ReplayThreads = request.app.state.replays
    try:
        return await replays.run(call)
    except ReplaysBusy:
        raise HTTPException(429, "too many games are being replayed; try again shortly") from None


_REVIEW_ERRORS: dict[int | str, dict[str, Any]] = {
    422: {
        "model": ErrorResponse,
        "description": "A field is missing or malformed, or a move is not U, R, D or L or "
        "changes nothing where it comes (the message names the move's number)",
    },
    429: {"model": ErrorResponse, "description": "Too many reviews at once; retry"},
}


async def _started_review(body: ReviewRequest, request: Request) -> tuple[ReviewJob, Progress]:
    """Queue the review and wait until its moves are checked (its first progress report)."""
    size = fitting_size(body)
    try:
        job = review_service(request).start(
            body.seed, body.history, body.setting, body.practice, size
        )
    except ReviewsBusy:
        raise HTTPException(429, "too many reviews are running; try again shortly") from None
    try:
        first = await job.next_event()
    except ValueError as exc:  # a ReviewError: the seed, a move or the setting
        raise HTTPException(422, f"{getattr(exc, 'field', 'history')}: {exc}") from None
    except BaseException:
        job.cancel()
        raise
    assert isinstance(first, Progress)
    return job, first


@router.post(
    "/review",
    summary="Review a game: the solver grades every move",
    response_model=ReviewResponse,
    responses=_REVIEW_ERRORS,
    **_GAME_ROUTE,
)
async def review(body: ReviewRequest, request: Request) -> dict[str, Any] | Response:
    """Every move of the game ``seed`` + ``history`` graded at ``setting`` (see
    ``docs/review.md``): each move's value against the best move's, the loss in points and
    relative to the best, its grade and the rule book's mistake it matches; the accuracy, the
    grades' counts and the costliest moves. ``state`` is the game after the moves. The same game
    always gets the same review. A request that goes away stops its review."""
    job, _ = await _started_review(body, request)
    outcome = asyncio.ensure_future(_review_outcome(job))
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait({outcome, gone}, return_when=asyncio.FIRST_COMPLETED)
        if outcome.done():
            return outcome.result()
        return Response(status_code=CLIENT_GONE)  # nobody reads it; the access log shows it
    finally:
        job.cancel()
        for task in (outcome, gone):
            task.cancel()
        await asyncio.gather(outcome, gone, return_exceptions=True)


CLIENT_GONE = 499
"""What /api/review answers (to nobody) when its client left before the review was done: the
status nginx logs for a client that closed its request."""


async def _review_outcome(job: ReviewJob) -> dict[str, Any]:
    """The review's result, past its progress reports."""
    while True:
        event = await job.next_event()
        if not isinstance(event, Progress):
            return event


async def _disconnected(request: Request) -> None:
    """Return when the client goes away (its body has been read whole before the route runs,
    so all that can come now is the disconnect)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


@router.post(
    "/review/stream",
    summary="Review a game, with progress",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": 'Lines of JSON (NDJSON): {"progress": {"graded": n, '
            '"total": N}} as the search goes, then the same object as /api/review answers, '
            'or {"error": "..."} if the review failed after it began',
            "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
        },
        **_REVIEW_ERRORS,
    },
)
async def review_stream(body: ReviewRequest, request: Request) -> StreamingResponse:
    """/api/review, answered as it goes: the page shows the progress, and closing the request
    stops the review. A bad game is refused before the stream starts, as /api/review does."""
    job, first = await _started_review(body, request)

    async def lines() -> AsyncIterator[bytes]:
        try:
            event: Progress | dict[str, Any] = first
            while isinstance(event, Progress):
                yield _line({"progress": {"graded": event.graded, "total": event.total}})
                try:
                    event = await job.next_event()
                except Exception as exc:
                    yield _line({"error": f"the review failed: {exc}"})
                    return
            yield _line(event)
        finally:
            job.cancel()

    return StreamingResponse(lines(), media_type="application/x-ndjson")


def _line(obj: dict[str, Any]) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode() + b"\n"


@router.post(
    "/hint",
    summary="Ask the solver for the best move",
    response_model=HintResponse,
    responses={429: {"model": ErrorResponse, "description": "Too many hints at once; retry"}},
)
async def hint(body: HintRequest, request: Request) -> HintResult:
    """The direction the solver advises and the expected value of every legal direction.
    The search runs off the event loop and takes at most the preset's time budget. On 3x3 the
    solved game may answer (``source`` "perfect"). A size the solver does not advise on gets
    422 naming ``state.size``."""
    game = load_game(body.state)
    try:
        return await hint_service(request).advise(game, body.preset)
    except HintsBusy:
        raise HTTPException(429, "too many hints are being searched; try again shortly") from None
    except SolverRefused as exc:
        raise HTTPException(422, f"state.size: {exc}") from None


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
