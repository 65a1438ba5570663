"""The JSON save format (version 1) and the validation of untrusted saves.

A save is one JSON object::

    {"format": "py2048", "version": 1,
     "board": [[0, 2, 0, 0], [0, 0, 0, 0], [0, 0, 4, 0], [0, 0, 0, 0]],
     "score": 0, "seed": 42, "moves": 0, "history": "",
     "won": false, "keep_going": false, "over": false}

- ``board``: 4 rows of 4 tiles, top to bottom; 0 is empty, tiles are powers of two 2..131072;
  at least two tiles (a game starts with two, and every move leaves at least two).
- ``score``: the sum of all merges so far; at most what the tiles on the board could have
  produced (a tile 2**k holds at most (k-1) * 2**k points of merges).
- ``seed``: the game's seed (0 <= seed < 2**53); ``moves``: real moves made, at most
  ``max_moves_for(size)`` and at most what the tiles allow: they add up to at least 4 at the
  start and every move spawns a 2 or a 4, so ``sum of tiles >= 4 + 2 * moves``; ``history``: those
  moves as letters U, R, D, L. Spawn number ``moves + 2`` comes next (see py2048.engine.rng), so
  ``Game.replay(seed, history)`` rebuilds a game that started from its seed.
- ``won``: a 2048 has been made (true exactly when a tile of 2048 or more is on the board);
  ``keep_going``: the player chose to play on after winning; ``over``: no move is left.
- ``practice`` (optional, false when absent): Undo was used in this game, so it never sets the
  best score. It is written only when true, so a game played without Undo is saved exactly as
  before the field existed, and older readers load it.
- ``size`` (optional, ``[4, 4]`` when absent): the board's ``[rows, cols]``, each 3 to 8 (see
  py2048.engine.size). It is written only for boards other than 4x4, so every 4x4 save is
  exactly what it was before sizes existed; ``board`` must then have that shape, and its tiles
  go up to the size's largest (``2 ** (rows * cols + 1)``).

Every field but ``practice`` is required, and every field is checked; anything wrong raises
:class:`SaveError` naming the field.
The rules are closed under play: any move from a save they accept gives a save they accept
(the game refuses a move past ``max_moves_for(size)``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from py2048.engine import grid
from py2048.engine.board import (
    MAX_EXPONENT,
    ROW_TABLES,
    SIZE,
    BoardError,
    can_move,
    exponents_from_board,
    pack_exponents,
)
from py2048.engine.direction import HISTORY_LETTERS
from py2048.engine.integers import is_int
from py2048.engine.rng import validate_seed
from py2048.engine.size import DEFAULT_SIZE, BoardSize, parse_size

FORMAT = "py2048"
VERSION = 1
MAX_SAVE_BYTES = 1 << 20
MAX_MOVES = 1 << 18
"""No 4x4 game can last longer: the tiles' sum grows by 2 or 4 a move and stays below 2**19.
Boards of 16 cells or fewer keep this limit; larger ones have :data:`LONG_MAX_MOVES`."""
LONG_MAX_MOVES = 1 << 22
"""The most moves a save holds on a board of more than 16 cells, where a game can last far
longer than on 4x4: a 4x4 game's tiles cannot add up to 2**19, an 8x8 game's can add up to
far more, and an 8x8 game that plays on for a few hours of autoplay passes 2**18 moves."""
LONG_MAX_SAVE_BYTES = 5 << 20
"""The largest save of a board of more than 16 cells (its history at one byte a move)."""


def max_moves_for(size: BoardSize) -> int:
    """The most moves a save of this size holds."""
    return MAX_MOVES if size.cells <= 16 else LONG_MAX_MOVES


def max_save_bytes_for(size: BoardSize) -> int:
    """The largest save text of this size."""
    return MAX_SAVE_BYTES if size.cells <= 16 else LONG_MAX_SAVE_BYTES


WIN_EXPONENT = 11
START_SUM = 4
"""The least the tiles of a game add up to: two tiles of 2 (a game never holds fewer tiles)."""
MIN_TILES = 2


def too_few_tiles(exponents: Sequence[int]) -> str:
    """Why a board with fewer than two tiles is no game's board; "" when it has enough."""
    tiles = sum(1 for e in exponents if e)
    if tiles >= MIN_TILES:
        return ""
    return (
        f"holds {tiles} tile{'' if tiles == 1 else 's'}; a game always has at least "
        f"{MIN_TILES} (it starts with two, and every move spawns one)"
    )


_FIELDS = (
    "format",
    "version",
    "board",
    "score",
    "seed",
    "moves",
    "history",
    "won",
    "keep_going",
    "over",
)
_OPTIONAL_FIELDS = ("practice", "size")
"""Fields a save may leave out (each has a default)."""


class SaveError(ValueError):
    """An unreadable or inconsistent save. ``field`` names the culprit (None for the whole)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(f"save field {field!r}: {message}" if field else message)
        self.field = field


@dataclass(frozen=True, slots=True)
class SaveState:
    """A validated game state: what a save holds."""

    exponents: tuple[int, ...]
    score: int
    seed: int
    history: str
    won: bool
    keep_going: bool
    over: bool
    practice: bool = False
    """Undo was used in this game (see the module docstring)."""
    size: BoardSize = DEFAULT_SIZE
    """The board's shape; ``exponents`` holds its cells row-major."""


def max_score(exponents: tuple[int, ...] | list[int]) -> int:
    """The most points the merges behind these tiles can have scored (all spawns being 2s)."""
    return sum((e - 1) << e for e in exponents if e > 1)


MAX_SCORE = max_score([MAX_EXPONENT] * SIZE * SIZE)
"""No 4x4 board carries more points than sixteen 131072 tiles: the bound on any 4x4 score."""


def size_max_score(size: BoardSize) -> int:
    """The bound on any score on ``size``: every cell holding the size's largest tile."""
    return max_score([size.max_exponent] * size.cells)


def can_move_exponents(exponents: Sequence[int], size: BoardSize) -> bool:
    """Whether a board given as row-major exponents has a move left, on any size."""
    if size.classic:
        lo, hi = pack_exponents(exponents)
        return bool(can_move(lo, hi, ROW_TABLES))  # type: ignore[arg-type]  # u8: see board.py
    return bool(grid.can_move(np.array(exponents, dtype=np.uint8), *size))


def max_moves(exponents: tuple[int, ...] | list[int], size: BoardSize = DEFAULT_SIZE) -> int:
    """The most real moves a game can have made to reach these tiles.

    A game starts with tiles adding up to 4 or more, and each move spawns a 2 or a 4 (merges
    keep the sum), so after ``m`` moves the tiles add up to at least ``4 + 2 * m``.
    """
    total = sum(1 << e for e in exponents if e)
    return min(max_moves_for(size), max(0, (total - START_SUM) // 2))


def encode(state: SaveState) -> dict[str, Any]:
    """The save object for ``state`` (ready for json.dumps)."""
    encoded: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "board": grid.tiles(state.exponents, state.size),
        "score": state.score,
        "seed": state.seed,
        "moves": len(state.history),
        "history": state.history,
        "won": state.won,
        "keep_going": state.keep_going,
        "over": state.over,
    }
    if state.practice:
        encoded["practice"] = True
    if not state.size.classic:
        encoded["size"] = list(state.size)
    return encoded


def dumps(state: SaveState) -> str:
    """The save as compact JSON text."""
    return json.dumps(encode(state), separators=(",", ":"))


def loads(text: str | bytes) -> SaveState:
    """Parse and validate JSON save text."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise SaveError(f"a save is JSON text, not {type(text).__name__}")
    if len(text) > LONG_MAX_SAVE_BYTES:
        raise SaveError(f"save is {len(text)} bytes; the limit is {LONG_MAX_SAVE_BYTES}")
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise SaveError("save is not valid JSON: it is not UTF-8 text") from None
    try:
        obj = json.loads(text, object_pairs_hook=_object_of_unique_keys)
    except _DuplicateKey as exc:
        raise SaveError("appears more than once; each field is given once", exc.key) from None
    except (ValueError, RecursionError) as exc:
        raise SaveError(f"save is not valid JSON: {exc}") from None
    state = decode(obj)
    limit = max_save_bytes_for(state.size)
    if len(text) > limit:
        raise SaveError(f"save is {len(text)} bytes; the limit for {state.size} is {limit}")
    return state


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _object_of_unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return obj


def decode(obj: object) -> SaveState:
    """Validate a parsed save object; raise SaveError naming the first bad field."""
    if not isinstance(obj, dict):
        raise SaveError(f"a save is a JSON object, not {type(obj).__name__}")
    if obj.get("format") != FORMAT:
        raise SaveError('not a py2048 save (expected "format": "py2048")', "format")
    version = obj.get("version")
    if version != VERSION or isinstance(version, bool):
        raise SaveError(f"unsupported version {version!r}; this py2048 reads version 1", "version")
    missing = [f for f in _FIELDS if f not in obj]
    if missing:
        raise SaveError("missing", missing[0])
    unknown = sorted(set(obj) - set(_FIELDS) - set(_OPTIONAL_FIELDS))
    if unknown:
        raise SaveError("unknown field", unknown[0])

    size = _size(obj)
    try:
        if size.classic:
            exponents = tuple(exponents_from_board(obj["board"], name="board"))
        else:
            exponents = tuple(grid.read_board(obj["board"], "board", size)[1])
    except BoardError as exc:
        raise SaveError(str(exc), "board") from None
    too_few = too_few_tiles(exponents)
    if too_few:
        raise SaveError(too_few, "board")

    score = _integer(obj, "score")
    if score < 0:
        raise SaveError(f"must not be negative, got {score}", "score")
    if score > max_score(exponents):
        raise SaveError(
            f"{score} is more than the tiles on the board can have scored "
            f"(at most {max_score(exponents)})",
            "score",
        )

    try:
        seed = validate_seed(obj["seed"])
    except ValueError as exc:
        raise SaveError(str(exc), "seed") from None

    moves = _integer(obj, "moves")
    most = max_moves_for(size)
    if not 0 <= moves <= most:
        raise SaveError(f"must be between 0 and {most}, got {moves}", "moves")
    history = obj["history"]
    if not isinstance(history, str):
        raise SaveError("must be a string of the letters U, R, D and L", "history")
    if not HISTORY_LETTERS.issuperset(history):
        raise SaveError("must contain only the letters U, R, D and L", "history")
    if len(history) != moves:
        raise SaveError(f"holds {len(history)} moves but 'moves' says {moves}", "history")
    if moves > max_moves(exponents, size):
        total = sum(1 << e for e in exponents if e)
        raise SaveError(
            f"{moves} is more than the board allows: its tiles add up to {total}, and a game's "
            f"tiles add up to at least {START_SUM} + 2 per move (at most "
            f"{max_moves(exponents, size)} moves)",
            "moves",
        )

    won, keep_going, over = (_boolean(obj, f) for f in ("won", "keep_going", "over"))
    reached_2048 = max(exponents) >= WIN_EXPONENT
    if won != reached_2048:
        reason = "a tile of 2048 or more is on the board" if reached_2048 else "no tile of 2048"
        raise SaveError(f"is {str(won).lower()} but {reason}", "won")
    if keep_going and not won:
        raise SaveError("is true but the game has not been won", "keep_going")
    stuck = not can_move_exponents(exponents, size)
    if over != stuck:
        reason = "no move is left" if stuck else "moves are still possible"
        raise SaveError(f"is {str(over).lower()} but {reason}", "over")
    practice = _boolean(obj, "practice") if "practice" in obj else False
    return SaveState(exponents, score, seed, history, won, keep_going, over, practice, size)


def _size(obj: dict[str, Any]) -> BoardSize:
    if "size" not in obj:
        return DEFAULT_SIZE
    value = obj["size"]
    if not (isinstance(value, list) and len(value) == 2 and all(is_int(v) for v in value)):
        raise SaveError(f"must be [rows, columns], two whole numbers, got {value!r}", "size")
    try:
        return parse_size(tuple(value), "size")
    except ValueError as exc:
        raise SaveError(str(exc), "size") from None


def _integer(obj: dict[str, Any], field: str) -> int:
    value = obj[field]
    if not is_int(value):
        raise SaveError(f"must be an integer, got {value!r}", field)
    return value


def _boolean(obj: dict[str, Any], field: str) -> bool:
    value = obj[field]
    if not isinstance(value, bool):
        raise SaveError(f"must be true or false, got {value!r}", field)
    return value
