"""Solver hints, run on worker threads so a search never holds up anyone's move.

The solver's kernels release the GIL, so a search on a worker thread leaves the event loop free
to answer moves. At most ``workers`` searches run at once (one core is left for the event
loop); a few more may wait their turn, and beyond that a hint is refused with 429 rather than
queued without bound. Each search is capped by its preset's time budget (500 ms at most).
The threads run at a lower scheduling priority (:mod:`py2048.web.workers`), so on a busy
machine a move never waits for a search.

The solver is imported on first use (and warmed up in the background when the server starts),
so the server answers moves at once while the solver's tables and kernels load.
"""

from __future__ import annotations

import asyncio
import math
import os
from dataclasses import dataclass, field
from functools import partial

from py2048.engine import Direction, Game
from py2048.engine.size import DEFAULT_SIZE, BoardSize
from py2048.solver.grades import grade_values
from py2048.web.workers import SearchThreads

DEFAULT_WORKERS = max(1, (os.cpu_count() or 2) - 1)
DEFAULT_WAITING = 8


class HintsBusy(Exception):
    """Too many hints are running or waiting already."""


class SolverRefused(Exception):
    """The solver gives no advice on boards of this size: the page tells the player so."""


@dataclass(frozen=True, slots=True)
class HintResult:
    """A hint as ``/api/hint`` answers it (see ``HintResponse``): directions by name."""

    direction: str | None
    values: dict[str, float]
    depth: int
    elapsed_ms: float
    source: str = "search"
    """"search" (values: points still to come), "table" (values: chances of table_target) or
    "perfect" (the solved 3x3 game: values are the exact points still to come)."""
    table_target: int | None = None
    grades: dict[str, str] = field(default_factory=dict)
    """Each legal direction's grade in the review's words (best ... blunder), by its value;
    made from ``values`` when not given."""

    evaluator: str = "ntuple-snake"
    """The evaluation the search judged positions with: "heuristic" off 4x4, whose values are
    its own figures rather than points (see ``HintResponse``)."""

    def __post_init__(self) -> None:
        if not self.grades and self.values:
            object.__setattr__(self, "grades", grade_values(self.values))


def search(board: list[list[int]], preset: str, size: BoardSize = DEFAULT_SIZE) -> HintResult:
    """One solver search, on the calling thread; the board's shape is its size. Raises
    SolverRefused when the solver does not take boards of ``size`` (the engine has checked the
    board, so a ValueError from the solver on another size is about the size)."""
    from py2048.solver import best_move

    try:
        hint = best_move(board, preset=preset)
    except ValueError as exc:
        if size.classic:
            raise
        raise SolverRefused(f"the solver gives no advice on {size} boards ({exc})") from None
    values = {str(Direction(d)): float(v) for d, v in hint.values.items() if math.isfinite(v)}
    direction = None if hint.direction is None else str(Direction(hint.direction))
    return HintResult(
        direction,
        values,
        int(hint.depth),
        float(hint.elapsed_ms),
        source=hint.source,
        table_target=hint.table_target,
        evaluator=hint.evaluator,
    )


class HintService(SearchThreads):
    """Runs hint searches on a bounded set of low-priority worker threads."""

    def __init__(self, workers: int = DEFAULT_WORKERS, waiting: int = DEFAULT_WAITING) -> None:
        super().__init__(workers, waiting, "hint")

    async def advise(self, game: Game, preset: str) -> HintResult:
        """The solver's advice for ``game``; raises HintsBusy when the queue is full."""
        if self.full:
            raise HintsBusy
        self.pending += 1
        try:
            loop = asyncio.get_running_loop()
            call = partial(search, game.board, preset, game.size)
            return await loop.run_in_executor(self.executor, call)
        finally:
            self.pending -= 1
