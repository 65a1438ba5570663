"""The API's request and response bodies, as pydantic models: they are the OpenAPI schema.

Request models are strict (no "2" for 2, no 1 for true) and refuse unknown fields, so a typo
is reported instead of ignored; like JSON Schema, they read 2.0 as the integer 2. They check
each field's shape; whether a save is consistent (score, win, game over, history) is the
engine's job (``Game.from_dict``), not repeated here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from py2048.engine import Game
from py2048.engine.direction import LETTERS
from py2048.engine.rng import SEED_LIMIT
from py2048.engine.save import LONG_MAX_MOVES, size_max_score
from py2048.engine.size import DEFAULT_SIZE, MAX_SIDE, MIN_SIDE, BoardSize
from py2048.solver.grades import DEFAULT_SETTING, GRADES, REVIEW_SETTINGS
from py2048.solver.mistakes import STRATEGY_MISTAKES
from py2048.solver.presets import DEFAULT_PRESET, PRESETS, describe_presets

DirectionName = Literal["up", "right", "down", "left"]
if TYPE_CHECKING:  # names read from the solver at run time: to a type checker, strings
    PresetName = str
    ReviewSettingName = str
    GradeName = str
    MistakeName = str
else:  # the API's schema lists each one
    PresetName = Literal[tuple(PRESETS)]  # the solver's presets
    ReviewSettingName = Literal[tuple(REVIEW_SETTINGS)]
    GradeName = Literal[GRADES]
    MistakeName = Literal[tuple(STRATEGY_MISTAKES)]

LARGEST = BoardSize(MAX_SIDE, MAX_SIDE)
"""The largest board: the bounds on a field's shape here; the engine checks each save's own."""
TILE_VALUES = [0, *(1 << e for e in range(1, LARGEST.max_exponent + 1))]


def _integral(value: object) -> object:
    """2.0 -> 2: JSON Schema's "integer" admits a number with no fractional part; true and
    false are not numbers (a Literal[1] would otherwise take true, which equals 1 in Python)."""
    if isinstance(value, bool):
        raise PydanticCustomError("int_type", "Input should be a valid integer")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Integral = BeforeValidator(_integral)
Seed = Annotated[int, Field(ge=0, lt=SEED_LIMIT), Integral]

_EXAMPLE_SEED = 2048
_EXAMPLE_SAVE: dict[str, Any] = Game(seed=_EXAMPLE_SEED).to_dict()
_EXAMPLE_HISTORY = "LDLDRD"
_EXAMPLE_PLAYED: dict[str, Any] = Game.replay(_EXAMPLE_SEED, _EXAMPLE_HISTORY).to_dict()
_EXAMPLE_WON_SAVE: dict[str, Any] = Game.from_board(
    [[2048, 8, 2, 0], [16, 4, 0, 0], [4, 0, 0, 0], [2, 0, 0, 0]], score=20_316, seed=_EXAMPLE_SEED
).to_dict()

Tile = Annotated[
    int,
    Field(
        ge=0,
        le=LARGEST.max_tile,
        description="0 for an empty cell, else a power of two from 2 to the size's largest "
        "(131072 on 4x4, 1024 on 3x3, 2**65 on 8x8)",
        json_schema_extra={"enum": TILE_VALUES},
    ),
    Integral,
]
Row = Annotated[list[Tile], Field(min_length=MIN_SIDE, max_length=MAX_SIDE)]
Index = Annotated[int, Field(ge=0, lt=MAX_SIDE)]
Cell = Annotated[
    tuple[Index, Index],
    Field(description="[row, col]: rows top to bottom, columns left to right, 0-based"),
]
Side = Annotated[int, Field(ge=MIN_SIDE, le=MAX_SIDE), Integral]
SizeField = Annotated[
    list[Side],
    Field(
        description=f"optional: the board's [rows, columns], each {MIN_SIDE} to {MAX_SIDE}; "
        "[4, 4] when absent",
        examples=[[5, 5]],
        min_length=2,
        max_length=2,
    ),
]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class Save(_Strict):
    """A game, as the engine saves it (``py2048.engine.save``): the browser keeps it."""

    format: Literal["py2048"]
    version: Annotated[Literal[1], Integral]
    board: Annotated[list[Row], Field(min_length=MIN_SIDE, max_length=MAX_SIDE)] = Field(
        description="the rows of tiles, top to bottom: 4 rows of 4 unless size says otherwise"
    )
    score: Annotated[int, Field(ge=0, le=size_max_score(LARGEST)), Integral] = Field(
        description="sum of all merges so far"
    )
    seed: Seed = Field(description="the seed every spawn follows from")
    moves: Annotated[int, Field(ge=0, le=LONG_MAX_MOVES), Integral] = Field(
        description="real moves made: at most 262144 on boards of 16 cells or fewer, "
        "4194304 on larger ones"
    )
    history: str = Field(
        max_length=LONG_MAX_MOVES,
        pattern=f"^[{LETTERS}]*$",
        description="the moves made, as U, R, D, L",
    )
    won: bool = Field(description="a 2048 (or more) is on the board")
    keep_going: bool = Field(description="the player chose to play on after winning")
    over: bool = Field(description="no move is left")
    practice: bool = Field(
        False,
        description="optional: Undo was used in this game, so it never sets the best score "
        "(saved only when true)",
    )
    size: SizeField | None = Field(
        None, description="optional: the board's [rows, columns] (saved only when not [4, 4])"
    )


class NewGameRequest(_Strict):
    """Start a game; the same seed always gives the same game."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"seed": _EXAMPLE_SEED}]})

    seed: Seed | None = Field(default=None, description="omit or null for a random game")
    size: SizeField | None = Field(
        None, description="the board's [rows, columns]; [4, 4] when absent"
    )


class StateRequest(_Strict):
    """A request about one game."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"state": _EXAMPLE_SAVE}]})

    state: Save


class CheckRequest(StateRequest):
    """A saved game to check before resuming it."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"state": _EXAMPLE_SAVE}]})


class KeepGoingRequest(StateRequest):
    """Play on after the win (the game must have been won)."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"state": _EXAMPLE_WON_SAVE}]})


class MoveRequest(StateRequest):
    """Play one move."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"state": _EXAMPLE_SAVE, "direction": "left"}]}
    )

    direction: DirectionName


class HintRequest(StateRequest):
    """Ask the solver for the best move."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"state": _EXAMPLE_SAVE, "preset": DEFAULT_PRESET}]}
    )

    preset: PresetName = Field(
        default=DEFAULT_PRESET, description=f"search effort: {describe_presets()} at most"
    )


class UndoRequest(StateRequest):
    """Take back the last moves (practice mode)."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"state": _EXAMPLE_PLAYED, "steps": 1}]}
    )

    steps: Annotated[int, Field(ge=1, le=LONG_MAX_MOVES), Integral] = Field(
        1, description="how many moves to take back"
    )


_HISTORY = Field(
    max_length=LONG_MAX_MOVES,
    description="the game's moves in order, as the letters U, R, D and L: at most 262144 on "
    "boards of 16 cells or fewer, 4194304 on larger ones",
)


def board_size(size: list[int] | None) -> BoardSize:
    """A request's size field as a BoardSize: 4x4 when absent."""
    return DEFAULT_SIZE if size is None else BoardSize(*size)


class ReplayRequest(_Strict):
    """A game given by its seed and its moves."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"seed": _EXAMPLE_SEED, "history": _EXAMPLE_HISTORY}]}
    )

    seed: Seed = Field(description="the seed the game started from")
    history: str = _HISTORY
    practice: bool = Field(False, description="Undo was used in this game")
    size: SizeField | None = Field(
        None, description="the board's [rows, columns]; [4, 4] when absent"
    )


class ReviewRequest(ReplayRequest):
    """A game to review: its seed, its moves and the setting to grade them at."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"seed": _EXAMPLE_SEED, "history": _EXAMPLE_HISTORY, "setting": DEFAULT_SETTING}
            ]
        }
    )

    setting: ReviewSettingName = Field(
        default=DEFAULT_SETTING,
        description="how deep the solver searches each position: "
        + "; ".join(f"{s.name}: {s.summary}" for s in REVIEW_SETTINGS.values()),
    )


class GameResponse(BaseModel):
    """A game's state."""

    state: Save


class Motion(BaseModel):
    """Where one tile of the board before the move goes (tiles that stay are included)."""

    model_config = ConfigDict(populate_by_name=True)

    value: int = Field(description="the tile's value before the move")
    from_cell: Cell = Field(alias="from")
    to_cell: Cell = Field(alias="to")
    merged: bool = Field(description="two motions with the same 'to' and merged=true merge there")


class Spawn(BaseModel):
    """The tile that appeared after the move."""

    row: int = Field(ge=0, lt=MAX_SIDE)
    col: int = Field(ge=0, lt=MAX_SIDE)
    value: Literal[2, 4]


class MoveResponse(BaseModel):
    """The game after the move, and what the page needs to animate it."""

    state: Save
    moved: bool = Field(description="false: the direction changed nothing; state is unchanged")
    gain: int = Field(ge=0, description="points scored by this move")
    motions: list[Motion]
    spawned: Spawn | None
    won_now: bool = Field(description="this move made the game's first 2048: show the win banner")
    over: bool = Field(description="no move is left")


class HintResponse(BaseModel):
    """The solver's advice, and why: the expected value of each legal direction."""

    direction: DirectionName | None = Field(description="null only when no move is left")
    values: dict[DirectionName, float] = Field(description="expected value of each legal move")
    depth: int = Field(
        ge=-1, description="depth searched (dN looks N+1 player moves ahead); -1: no move left"
    )
    elapsed_ms: float = Field(ge=0, description="time the search took")
    source: Literal["search", "table", "perfect"] = Field(
        "search",
        description='"search": values are the points still to come after each move; "table": '
        "an endgame table answered, and values are the chances (0 to 1) of making table_target; "
        '"perfect": the solved 3x3 game answered, and values are the exact points still to come',
    )
    table_target: int | None = Field(None, description="the tile a table's chances are about")
    evaluator: str = Field(
        "ntuple-snake",
        description='how the search judged positions: "ntuple-snake" (4x4: values are the '
        'points still to come), "heuristic" (every other size: values are the heuristic\'s own '
        'figures, higher being better, not points), "perfect" with source "perfect"',
    )
    grades: dict[DirectionName, GradeName] = Field(
        default_factory=dict,
        description="each legal move graded as a review grades it (best, good, inaccuracy, "
        "mistake, blunder), by how much of the best move's value it gives up",
    )


class StrategyMistakeInfo(BaseModel):
    """The rule book's mistake a poor move matches, and where the strategy page explains it."""

    name: MistakeName
    rule: str = Field(description="the mistake as the rule book lists it")
    says: str = Field(description="what the move did that matches it")
    link: str = Field(description="the paragraph of the 2048 strategy page about it")


class ReviewedMove(BaseModel):
    """One move of the game, graded."""

    number: int = Field(ge=1, description="1 for the game's first move")
    board: list[list[int]] = Field(description="the position the move was played in")
    score: int = Field(ge=0, description="the game's score in that position")
    played: DirectionName
    best: DirectionName = Field(description="the move the solver values most")
    values: dict[DirectionName, float] = Field(
        description="each legal move's value: the points expected from that move on"
    )
    loss: float = Field(ge=0, description="points given up against the best move")
    relative: float = Field(ge=0, le=1, description="the loss as a share of the best value")
    grade: GradeName
    forced: bool = Field(description="only one move was possible")
    mistake: StrategyMistakeInfo | None


class ReviewSettingInfo(BaseModel):
    name: ReviewSettingName
    depth: int = Field(ge=0, description="dN looks N + 1 moves ahead")


class GameReviewBody(BaseModel):
    """Every move graded, and the summary."""

    seed: int
    history: str
    size: SizeField | None = Field(None, description="the board's [rows, columns]; absent on 4x4")
    graded_by: Literal["search", "perfect", "heuristic"] | None = Field(
        None,
        description='absent on 4x4 (the search: values are points); "perfect": 3x3 graded '
        'against perfect play (values are points, exact); "heuristic": values are the '
        "heuristic's figures, not points",
    )
    setting: ReviewSettingInfo
    final_board: list[list[int]]
    final_score: int = Field(ge=0)
    max_tile: int = Field(ge=0)
    accuracy: float = Field(ge=0, le=100, description="0 to 100: 100 when every move is best")
    counts: dict[GradeName, int] = Field(description="moves of each grade")
    costliest: list[int] = Field(description="the numbers of the costliest moves, costliest first")
    moves: list[ReviewedMove]


class ReviewResponse(BaseModel):
    """The review, and the game after its moves (the save to export)."""

    review: GameReviewBody
    state: Save


class PresetInfo(BaseModel):
    """One of the solver's named search settings."""

    name: PresetName
    min_depth: int = Field(ge=0, description="the shallowest depth searched on 4x4")
    max_depth: int = Field(ge=0, description="the deepest depth searched on 4x4, on hard boards")
    time_ms: float = Field(gt=0, description="the search never takes longer than this")
    summary: str
    grid_depths: tuple[int, int] = Field(
        description="the shallowest and deepest depths searched on boards other than 4x4"
    )


class PresetsResponse(BaseModel):
    """The presets a hint can ask for, quickest first."""

    presets: list[PresetInfo]
    default: PresetName = Field(description="what a hint without a preset uses")
    quickest: PresetName = Field(description="the preset with the shortest time limit")


class Health(BaseModel):
    status: Literal["ok"]


class ErrorResponse(BaseModel):
    """Every error: a 4xx status and a message naming the field at fault."""

    detail: str = Field(examples=["state.score: must not be negative, got -4"])
