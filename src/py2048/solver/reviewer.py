"""Game review: the solver grades every move of a finished (or unfinished) game.

(The module is ``reviewer`` so that ``py2048.solver.review`` stays the function.)

``review(seed, history)`` replays the game from its seed and asks the search, at one fixed
setting, what every direction was worth at every position::

    from py2048 import Game
    from py2048.solver import review

    game = Game.replay(7, "LDRDLDDLRD")
    graded = review(game.seed, game.history)
    graded.accuracy  # 0 to 100
    graded.counts  # {"best": ..., "good": ..., "inaccuracy": ..., "mistake": ..., "blunder": ...}
    for move in graded.costliest:  # the five moves that gave up the most points
        print(move.number, move.played, move.best, round(move.loss), move.grade)

**The setting.** The search looks a fixed number of moves ahead (:data:`REVIEW_SETTINGS`:
"quick" d1, "standard" d2, the default, and "deep" d3), with the shipped n-tuple network and
no endgame tables, so the same game always gets the same review on every machine, whatever
tables it has built (the tables answer with probabilities, not points). A direction's value is
then the points the game is expected to score from that move on (the move's own merges
included) if the solver played the rest; the game's score plus the best value is the final
score the position promises.

**Grades.** The *loss* of a move is the best direction's value minus the value of the move
played, in points; its *relative* loss is the loss divided by the best value (1 where nothing
was left to lose, at most 1). The grade follows the relative loss:

=============  ==============================================
best           the best move, or one worth exactly as much
good           gives up less than 1% (:data:`GOOD_LIMIT`)
inaccuracy     1% to 5% (:data:`INACCURACY_LIMIT`)
mistake        5% to 20% (:data:`MISTAKE_LIMIT`)
blunder        20% or more
=============  ==============================================

Measured with ``python benchmarks/review.py --players 30 --seed 5`` (30 games per player, at the
default setting): a player choosing directions at random gives up 1% or more on 46% of its
moves, 5% or more on 21% and 20% or more on 4.5%; a player always trying down, left, right, up
on 39%, 11% and 1.2%; one taking the move that scores most at once on 29%, 6.3% and 0.9%; the
solver at d1, over a 5,000-move game, on 0.16%, 0 and 0.

**Accuracy.** Each move scores ``100 * max(0, 1 - relative / 0.05)``: 100 for the best, 80 for
a move giving up 1%, 0 from 5% (:data:`ACCURACY_ZERO`: mistakes and blunders score 0). The
game's accuracy is the mean over its moves, leaving out forced moves (a single legal
direction). The same games: random 66, down-left-right-up 73, the greedy player 81, the solver
at d1 99.7.

**Other sizes.** ``review(seed, history, size=(5, 5))`` reviews a game of any size
(:mod:`py2048.engine.size`). On 3x3, where the perfect-play table is built
(:mod:`py2048.solver.perfect`), every move is graded against perfect play: a direction's value
is the optimal expected score still to come, so the grades are exact (``GameReview.graded_by``
is "perfect"). Elsewhere off 4x4 the search of :mod:`py2048.solver.grid_search` grades at the
setting's depth with the heuristic (``graded_by`` "heuristic"), whose values are not points: a
move's relative loss is then its loss over the worth of the whole board empty (each empty cell
counts in its row and in its column: :func:`heuristic_scale`), so a move that gives up one
empty cell of a 5x5 board is an inaccuracy (4%) and one that loses the game a blunder.

**The rule book's mistakes.** A move graded inaccuracy or worse is matched, in this order,
against the four mistakes the rule book warns of (:data:`STRATEGY_MISTAKES`, matched by
:mod:`py2048.solver.mistakes`): the largest tile
left its corner where the best move kept it there ("using all four directions"); a 2 or 4
ended walled in by tiles of 32 or more where the best move left none so ("a trapped small
tile"); the move scored more at once than the best move ("rushing at every merge"); 3 or fewer
cells were empty ("playing fast on a nearly full board").
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from py2048.engine import Direction, Game, GameError, grid
from py2048.engine.board import ROW_TABLES, unpack
from py2048.engine.size import DEFAULT_SIZE, BoardSize, parse_size
from py2048.evaluation.heuristic import HeuristicParams
from py2048.evaluation.registry import NETWORK_EVALUATOR, get_evaluator
from py2048.solver.grades import (
    ACCURACY_ZERO,
    COSTLIEST,
    DEFAULT_SETTING,
    GOOD_LIMIT,
    GRADES,
    INACCURACY_LIMIT,
    MISTAKE_LIMIT,
    REVIEW_SETTINGS,
    ReviewSetting,
    grade_of,
    relative_loss,
)
from py2048.solver.hint import resolve_plan, weights_for
from py2048.solver.mistakes import (
    NEARLY_FULL,
    STRATEGY_MISTAKES,
    TRAPPING_TILE,
    StrategyMistake,
    grid_strategy_mistake,
    strategy_mistake,
)
from py2048.solver.perfect import perfect_values
from py2048.solver.review_search import grade_positions
from py2048.solver.search import COUNTER_SLOTS, transposition_table

__all__ = [
    "ACCURACY_ZERO",
    "COSTLIEST",
    "DEFAULT_SETTING",
    "GOOD_LIMIT",
    "GRADES",
    "INACCURACY_LIMIT",
    "MISTAKE_LIMIT",
    "NEARLY_FULL",
    "REVIEW_SETTINGS",
    "STRATEGY_MISTAKES",
    "TRAPPING_TILE",
    "GameReview",
    "Grader",
    "GridGrader",
    "MoveReview",
    "ReviewError",
    "ReviewSetting",
    "StrategyMistake",
    "review",
]

_TARGET_CHUNK_SECONDS = 0.1
"""About how long the search runs between two progress reports."""
_LETTERS = frozenset(d.letter for d in Direction)


class ReviewError(ValueError):
    """A game that cannot be reviewed: ``field`` is "seed", "history" or "setting"."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class MoveReview:
    """One move of the game, graded."""

    number: int
    """1 for the game's first move."""
    board: tuple[tuple[int, ...], ...]
    """The position the move was played in: its rows of tiles (0 empty)."""
    score: int
    """The game's score in that position."""
    played: Direction
    best: Direction
    """The direction the search values most (the first of equals, in action order)."""
    values: dict[Direction, float]
    """Each legal direction's value: the points expected from that move on."""
    loss: float
    """Points given up: ``values[best] - values[played]`` (0 for the best move)."""
    relative: float
    """``loss`` as a share of the best value, 0 to 1."""
    grade: str
    """One of :data:`GRADES`."""
    forced: bool
    """Only one direction could move."""
    mistake: StrategyMistake | None
    """The rule book's mistake this move matches, if it is graded inaccuracy or worse."""

    @property
    def accuracy(self) -> float:
        """The move's accuracy, 0 to 100 (see the module docstring)."""
        return 100.0 * max(0.0, 1.0 - self.relative / ACCURACY_ZERO)

    def to_dict(self) -> dict[str, Any]:
        """The move as JSON (values and losses rounded to 0.01 points)."""
        return {
            "number": self.number,
            "board": [list(row) for row in self.board],
            "score": self.score,
            "played": str(self.played),
            "best": str(self.best),
            "values": {str(d): round(v, 2) for d, v in self.values.items()},
            "loss": round(self.loss, 2),
            "relative": round(self.relative, 6),
            "grade": self.grade,
            "forced": self.forced,
            "mistake": None
            if self.mistake is None
            else {
                "name": self.mistake.name,
                "rule": self.mistake.rule,
                "says": self.mistake.says,
                "link": self.mistake.link,
            },
        }


@dataclass(frozen=True)
class GameReview:
    """A whole game graded: every move, and the summary."""

    seed: int
    history: str
    """The moves reviewed, as the letters U, R, D, L."""
    setting: ReviewSetting
    moves: tuple[MoveReview, ...]
    final_board: tuple[tuple[int, ...], ...]
    final_score: int
    accuracy: float
    """0 to 100: the mean accuracy of the moves that were not forced (100 with none)."""
    counts: dict[str, int]
    """How many moves got each grade, in the order of :data:`GRADES`."""
    costliest: tuple[MoveReview, ...]
    """The moves that gave up the most points (at most :data:`COSTLIEST`), costliest first."""
    seconds: float = field(default=0.0, compare=False)
    """How long the review took."""
    size: BoardSize = DEFAULT_SIZE
    graded_by: str = "search"
    """What the values are: "search" (the network's points, 4x4), "perfect" (the 3x3
    perfect-play table's points) or "heuristic" (the search with the heuristic, other sizes)."""

    @property
    def max_tile(self) -> int:
        return max(max(row) for row in self.final_board)

    def to_dict(self) -> dict[str, Any]:
        """The review as JSON: what ``2048 review --json`` prints and ``/api/review`` answers."""
        return {
            "seed": self.seed,
            "history": self.history,
            "setting": {"name": self.setting.name, "depth": self.setting.depth},
            "final_board": [list(row) for row in self.final_board],
            "final_score": self.final_score,
            "max_tile": self.max_tile,
            "accuracy": round(self.accuracy, 2),
            "counts": dict(self.counts),
            "costliest": [move.number for move in self.costliest],
            "moves": [move.to_dict() for move in self.moves],
        } | ({} if self.size.classic else {"size": list(self.size), "graded_by": self.graded_by})


Progress = Callable[[int, int], None]
"""Called as ``progress(graded, total)`` before the search starts and after each part of it;
an exception raised there stops the review and propagates."""


def review(
    seed: int,
    history: str | Iterable[Direction | str | int],
    *,
    setting: str | ReviewSetting = DEFAULT_SETTING,
    progress: Progress | None = None,
    size: BoardSize | tuple[int, int] | str | None = None,
) -> GameReview:
    """Grade every move of the game ``Game.replay(seed, history)`` (see the module docstring).

    ``history`` is the moves as letters ("LDRU...") or directions; every one must move the
    board where it comes. ``setting`` names one of :data:`REVIEW_SETTINGS`. ``progress``, if
    given, hears how far the search has got (and may raise
    :class:`~py2048.solver.grades.ReviewCancelled` to stop it, which goes through). ``size`` is
    the game's board size (4x4 when None; see "Other sizes" in the module docstring). Raises
    ReviewError (a ValueError) naming the seed, the setting, the size, or the number of the
    first bad move.
    """
    started = time.perf_counter()
    chosen = _setting(setting)
    moves = _moves(history)
    try:
        board_size = DEFAULT_SIZE if size is None else parse_size(size)
    except ValueError as exc:
        raise ReviewError(str(exc), "size") from None
    if not board_size.classic:
        return _review_grid(seed, moves, chosen, board_size, progress, started)
    try:
        Game.replay(seed, moves, strict=True)
    except GameError as exc:
        raise ReviewError(str(exc), "history") from None
    except ValueError as exc:
        raise ReviewError(str(exc), "seed") from None
    game = Game(seed)
    count = len(moves)
    los = np.empty(count, dtype=np.uint64)
    his = np.empty(count, dtype=np.uint64)
    scores = []
    for index, direction in enumerate(moves):
        los[index], his[index] = game.packed
        scores.append(game.score)
        game.move(direction)
    values = Grader(chosen.depth).values(los, his, progress)
    records = tuple(
        _grade_move(index + 1, int(los[index]), int(his[index]), scores[index], direction, row)
        for index, (direction, row) in enumerate(zip(moves, values, strict=True))
    )
    return _summary(game, moves, chosen, records, started, "search")


def _review_grid(
    seed: int,
    moves: list[Direction],
    chosen: ReviewSetting,
    size: BoardSize,
    progress: Progress | None,
    started: float,
) -> GameReview:
    """:func:`review` of a game on a board other than 4x4."""
    try:
        Game.replay(seed, moves, strict=True, size=size)
    except GameError as exc:
        raise ReviewError(str(exc), "history") from None
    except ValueError as exc:
        raise ReviewError(str(exc), "seed") from None
    game = Game(seed, size=size)
    boards = np.empty((len(moves), size.cells), dtype=np.uint8)
    scores = []
    for index, direction in enumerate(moves):
        boards[index] = game.exponents
        scores.append(game.score)
        game.move(direction)
    values = _perfect_values(size, boards, progress)
    graded_by = "perfect"
    if values is None:
        values = GridGrader(size, chosen.depth).values(boards, progress)
        graded_by = "heuristic"
    scale = heuristic_scale(size) if graded_by == "heuristic" else None
    records = tuple(
        _grade_grid_move(
            index + 1, size, boards[index].tolist(), scores[index], direction, row, scale
        )
        for index, (direction, row) in enumerate(zip(moves, values, strict=True))
    )
    return _summary(game, moves, chosen, records, started, graded_by)


def _summary(
    game: Game,
    moves: list[Direction],
    chosen: ReviewSetting,
    records: tuple[MoveReview, ...],
    started: float,
    graded_by: str,
) -> GameReview:
    free = [record for record in records if not record.forced]
    accuracy = sum(r.accuracy for r in free) / len(free) if free else 100.0
    counts = {grade: 0 for grade in GRADES}
    for record in records:
        counts[record.grade] += 1
    costly = sorted((r for r in records if r.loss > 0), key=lambda r: (-r.loss, r.number))
    return GameReview(
        seed=game.seed,
        history="".join(d.letter for d in moves),
        setting=chosen,
        moves=records,
        final_board=tuple(tuple(row) for row in game.board),
        final_score=game.score,
        accuracy=accuracy,
        counts=counts,
        costliest=tuple(costly[:COSTLIEST]),
        seconds=time.perf_counter() - started,
        size=game.size,
        graded_by=graded_by,
    )


def heuristic_scale(size: BoardSize) -> float:
    """What a heuristic review's relative losses are shares of: the heuristic's worth of every
    cell of ``size`` empty (each counts in its row and its column)."""
    return 2.0 * HeuristicParams().empty * size.cells


def _perfect_values(
    size: BoardSize, boards: np.ndarray, progress: Progress | None
) -> np.ndarray | None:
    """Each position's values from the perfect-play table, or None (no table, or a position
    it does not hold)."""
    table = perfect_values(size)
    if table is None:
        return None
    count = boards.shape[0]
    values = np.full((count, 4), -math.inf, dtype=np.float64)
    if progress is not None:
        progress(0, count)
    for index in range(count):
        try:
            found = table.move_values(boards[index].tolist())
        except KeyError:
            return None
        for direction, value in enumerate(found):
            if value is not None:
                values[index, direction] = value
    if progress is not None:
        progress(count, count)
    return values


def _setting(setting: str | ReviewSetting) -> ReviewSetting:
    if isinstance(setting, ReviewSetting):
        return setting
    found = REVIEW_SETTINGS.get(setting) if isinstance(setting, str) else None
    if found is None:
        names = ", ".join(REVIEW_SETTINGS)
        raise ReviewError(f"unknown review setting {setting!r}; choose one of {names}", "setting")
    return found


def _moves(history: str | Iterable[Direction | str | int]) -> list[Direction]:
    """The moves as directions; a value that is no direction is named by its move number."""
    found = []
    letters_only = isinstance(history, str)  # a history: only the letters U, R, D and L
    for number, value in enumerate(history, 1):
        try:
            if letters_only and value not in _LETTERS:
                raise ValueError(value)
            found.append(Direction.parse(value))
        except ValueError:
            raise ReviewError(
                f"move {number} is {value!r}, not a move: moves are U, R, D and L", "history"
            ) from None
    return found


class Grader:
    """The search at one depth, with its own transposition table: every direction's value at
    any number of positions, the same whatever was searched before (see
    :mod:`py2048.solver.review_search`)."""

    def __init__(self, depth: int) -> None:
        self.evaluator = get_evaluator(NETWORK_EVALUATOR)
        self.plan = resolve_plan(depth=depth)
        self.table = transposition_table(depth)
        self.searched = 0

    def values(
        self, los: np.ndarray, his: np.ndarray, progress: Progress | None = None
    ) -> np.ndarray:
        """(positions, 4) values, -inf where a direction does not move; searched in parts of
        about 0.1 s, after each of which ``progress`` hears how far it got."""

        def grade(done: int, stop: int, values: np.ndarray, depths: np.ndarray) -> None:
            grade_positions(
                los[done:stop],
                his[done:stop],
                self.plan,
                self.evaluator.kernel,
                self.evaluator.data,
                self.table,
                ROW_TABLES,
                self.searched,
                values,
                depths,
            )
            self.searched += stop - done

        return _graded_in_parts(los.shape[0], grade, progress)

    def best(self, game: Game) -> Direction | None:
        """The direction a review rates best in this game's position (None: no move left)."""
        lo, hi = game.packed
        row = self.values(np.array([lo], dtype=np.uint64), np.array([hi], dtype=np.uint64))[0]
        legal = {d: float(row[d]) for d in Direction if row[d] > -math.inf}
        return max(legal, key=legal.__getitem__) if legal else None


class GridGrader:
    """:class:`Grader` on a board of any other size: the search of
    :mod:`py2048.solver.grid_search` at one depth, with the heuristic."""

    def __init__(self, size: BoardSize, depth: int) -> None:
        from py2048.solver.grid_search import GridRun, scratch_boards

        self.size = size
        self.plan = resolve_plan(depth=depth)
        self.table = transposition_table(depth)
        self.weights = weights_for(size)
        self.run = GridRun(
            size.rows,
            size.cols,
            scratch_boards(size.cells),
            np.uint64(1),
            np.zeros(COUNTER_SLOTS, dtype=np.int64),
            0.0,
            0.0,
        )
        self.searched = 0

    def values(self, boards: np.ndarray, progress: Progress | None = None) -> np.ndarray:
        """(positions, 4) values of ``boards`` (one row of exponents a position), -inf where
        a direction does not move; searched in parts of about 0.1 s, after each of which
        ``progress`` hears how far it got."""
        from py2048.solver.grid_search import grade_positions as grade_grid

        def grade(done: int, stop: int, values: np.ndarray, depths: np.ndarray) -> None:
            run = self.run._replace(generation=np.uint64(self.searched + 1))
            grade_grid(
                np.ascontiguousarray(boards[done:stop]),
                self.plan,
                self.weights,
                self.table,
                run,
                values,
                depths,
            )
            self.searched += stop - done

        return _graded_in_parts(boards.shape[0], grade, progress)


def _graded_in_parts(
    count: int,
    grade: Callable[[int, int, np.ndarray, np.ndarray], None],
    progress: Progress | None,
) -> np.ndarray:
    """(count, 4) values, from ``grade(done, stop, values, depths)`` called on parts of about
    0.1 s each (the part's size follows the last one's time), ``progress`` told after each."""
    values = np.empty((count, 4), dtype=np.float64)
    depths = np.empty(count, dtype=np.int64)
    done = 0
    part = 16
    if progress is not None:
        progress(0, count)
    while done < count:
        stop = min(count, done + part)
        started = time.perf_counter()
        grade(done, stop, values[done:stop], depths[done:stop])
        spent = time.perf_counter() - started
        part = max(16, min(4096, int((stop - done) * _TARGET_CHUNK_SECONDS / max(spent, 1e-4))))
        done = stop
        if progress is not None:
            progress(done, count)
    return values


def _grade_grid_move(
    number: int,
    size: BoardSize,
    exponents: list[int],
    score: int,
    played: Direction,
    row: np.ndarray,
    scale: float | None,
) -> MoveReview:
    """One move off 4x4; ``scale`` (heuristic values) is what relative losses are shares of,
    None for values in points."""

    def losses(best_value: float, played_value: float) -> tuple[float, float]:
        loss, relative = relative_loss(best_value, played_value)
        return (loss, relative) if scale is None else (loss, min(1.0, loss / scale))

    return _reviewed(
        number,
        grid.tiles(exponents, size),
        score,
        played,
        row,
        losses,
        lambda best: grid_strategy_mistake(exponents, size, played, best),
    )


def _grade_move(
    number: int, lo: int, hi: int, score: int, played: Direction, row: np.ndarray
) -> MoveReview:
    return _reviewed(
        number,
        unpack(lo, hi),
        score,
        played,
        row,
        relative_loss,
        lambda best: strategy_mistake(lo, hi, played, best),
    )


def _reviewed(
    number: int,
    tiles: Iterable[Iterable[int]],
    score: int,
    played: Direction,
    row: np.ndarray,
    losses: Callable[[float, float], tuple[float, float]],
    mistake_of: Callable[[Direction], StrategyMistake | None],
) -> MoveReview:
    """The review of the move ``played`` from a position whose directions' values are ``row``
    (-inf where a direction does not move): ``losses(best, played)`` gives its loss and
    relative loss, and an inaccuracy or worse is named by ``mistake_of(best)``."""
    values = {d: float(row[d]) for d in Direction if row[d] > -math.inf}
    best = max(values, key=values.__getitem__)
    loss, relative = losses(values[best], values[played])
    grade = grade_of(loss, relative)
    mistake = None
    if GRADES.index(grade) >= GRADES.index("inaccuracy"):
        mistake = mistake_of(best)
    return MoveReview(
        number=number,
        board=tuple(tuple(r) for r in tiles),
        score=score,
        played=played,
        best=best,
        values=values,
        loss=loss,
        relative=relative,
        grade=grade,
        forced=len(values) == 1,
        mistake=mistake,
    )
