"""``best_move``: the solver's answer for one board, safe to call from many threads at once.

Each thread keeps its own transposition table (see :mod:`py2048.solver.search`), so concurrent
calls share nothing mutable; the compiled search releases the GIL, so they run in parallel.

A 4x4 board is searched packed, with the evaluation asked for and the endgame tables; a board
of any other size (3 to 8 rows and columns) by :mod:`py2048.solver.grid_search` with the
heuristic (:mod:`py2048.evaluation.lines`), and a 3x3 board by the perfect-play table where it
is built (:mod:`py2048.solver.perfect`).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from py2048.engine import grid
from py2048.engine.board import ROW_TABLES, pack
from py2048.engine.direction import Direction
from py2048.engine.integers import is_integer
from py2048.engine.size import BoardSize
from py2048.evaluation.contract import Evaluator
from py2048.evaluation.line_terms import LineWeights
from py2048.evaluation.lines import NAME as LINES_NAME
from py2048.evaluation.lines import line_weights
from py2048.evaluation.registry import get_evaluator
from py2048.solver.endgame import NO_TABLES, TableSet, choose, endgame_tables
from py2048.solver.grid_search import GridRun, decide, scratch_boards
from py2048.solver.perfect import perfect_values
from py2048.solver.presets import BUDGETS, DEFAULT_PRESET, PRESETS
from py2048.solver.search import (
    COUNTER_SLOTS,
    MAX_DEPTH,
    NODES,
    Run,
    SearchPlan,
    transposition_table,
)


@dataclass(frozen=True)
class Hint:
    """The advised move and why: the value of every direction it considered.

    ``source`` says who answered. ``"search"``: ``values`` are the search's expected
    evaluations (with the default evaluation, the points still to come after the move, less
    the price it puts on breaking the endgame formation: :mod:`py2048.evaluation.snake`).
    ``"table"``: the board fits the formation of the endgame table named ``table``, and
    ``values`` are the probabilities (0 to 1) that best play builds its target tile
    (``table_target``) after each direction that keeps the formation. ``"perfect"``: a 3x3
    board answered by the perfect-play table (:mod:`py2048.solver.perfect`), and ``values``
    are each direction's optimal expected score still to come, the move's own points included.
    Off 4x4 the search's ``values`` are the heuristic's (:mod:`py2048.evaluation.lines`).
    """

    direction: Direction | None
    """The best direction; None only when no direction moves (the game is over)."""
    values: dict[Direction, float]
    """Each considered direction's value (higher is better), in action order."""
    depth: int
    """Depth of the search that answered (dN = N + 1 player moves); -1 when no move exists,
    0 when a table answered."""
    elapsed_ms: float
    nodes: int
    """Positions the search visited (chance nodes and evaluations); 0 when a table answered."""
    evaluator: str
    source: str = "search"
    """``"search"``, ``"table"`` or ``"perfect"``."""
    table: str | None = None
    """The endgame table that answered, if one did."""
    table_target: int | None = None
    """The tile that table's probabilities are about."""


def resolve_plan(
    depth: int | None = None,
    time_ms: float | None = None,
    preset: str | None = None,
    budget: str = "time",
    *,
    classic: bool = True,
) -> SearchPlan:
    """Check the caller's settings (at most one of the three) and turn them into a plan.

    ``budget`` says how a preset caps each move: ``"time"`` (its ``time_ms``) or ``"nodes"``
    (its budget in positions, :attr:`~py2048.solver.presets.Preset.nodes`, which plays the
    same on any machine); it is for presets only. ``classic`` says whether the plan is for a
    4x4 board or another size, which has a preset depth range of its own
    (:meth:`~py2048.solver.presets.Preset.depths`).
    """
    if budget not in BUDGETS:
        raise ValueError(f"unknown budget {budget!r}; choose one of {', '.join(BUDGETS)}")
    if budget != "time" and (depth is not None or time_ms is not None):
        raise ValueError(f"a budget in {budget} is for presets; it cannot go with depth or time_ms")
    given = [
        name
        for name, v in (("depth", depth), ("time_ms", time_ms), ("preset", preset))
        if v is not None
    ]
    if len(given) > 1:
        raise ValueError(f"give at most one of depth, time_ms and preset, got {given}")
    if depth is not None:
        if not is_integer(depth):
            raise ValueError(f"depth must be an integer, got {depth!r}")
        if not 0 <= depth <= MAX_DEPTH:
            raise ValueError(f"depth must be between 0 and {MAX_DEPTH}, got {depth}")
        return SearchPlan(int(depth), int(depth), 0.0, adaptive=False)
    if time_ms is not None:
        if isinstance(time_ms, bool) or not isinstance(time_ms, (int, float, np.number)):
            raise ValueError(f"time_ms must be a number of milliseconds, got {time_ms!r}")
        if not math.isfinite(time_ms) or time_ms <= 0:
            raise ValueError(f"time_ms must be a positive number of milliseconds, got {time_ms}")
        return SearchPlan(0, MAX_DEPTH, float(time_ms) / 1000.0, adaptive=False)
    name = DEFAULT_PRESET if preset is None else preset
    found = PRESETS.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
    low, high = found.depths(classic=classic)
    if budget == "nodes":
        return SearchPlan(low, high, 0.0, adaptive=True, nodes=found.nodes)
    return SearchPlan(low, high, found.time_ms / 1000.0, adaptive=True)


class _Workspace(threading.local):
    """One thread's transposition table and scratch arrays, reused call after call."""

    def __init__(self) -> None:
        self.depth = -1
        self.table = transposition_table(0)
        self.generation = 0
        self.counters = np.zeros(COUNTER_SLOTS, dtype=np.int64)
        self.out = np.zeros(4, dtype=np.float64)

    def reserve(self, depth: int) -> None:
        """Grow the table for a search of this depth."""
        if depth > self.depth:
            self.depth = depth
            self.table = transposition_table(depth)

    def begin(self, plan: SearchPlan, started: float) -> SearchPlan:
        """Make ready for a search as ``plan`` says, which the caller began at ``started``
        (``time.perf_counter``): a table deep enough and a fresh generation; the plan with
        its time budget less the time spent so far."""
        self.reserve(plan.max_depth)
        self.generation += 1
        if plan.seconds > 0.0:
            spent = time.perf_counter() - started
            plan = plan._replace(seconds=max(plan.seconds - spent, 1e-6))
        return plan


_workspace = _Workspace()


def search_packed(
    lo: int, hi: int, plan: SearchPlan, evaluator: Evaluator, tables: TableSet = NO_TABLES
) -> Hint:
    """Advise on a packed board (already validated) with a resolved plan: a table of ``tables``
    where one fits, the search elsewhere."""
    started = time.perf_counter()
    work = _workspace
    plan = work.begin(plan, started)
    run = Run(ROW_TABLES, np.uint64(work.generation), work.counters, 0.0, 0.0)
    answered, reached = choose(
        np.uint64(lo),
        np.uint64(hi),
        plan,
        evaluator.kernel,
        evaluator.data,
        work.table,
        run,
        tables.record,
        work.out,
    )
    if answered >= 0:
        values = {d: float(work.out[d]) for d in Direction if work.out[d] >= 0.0}
        best: Direction | None = max(values, key=values.__getitem__)
        name = tables.names[answered]
        target = tables.targets[answered]
        elapsed = _ms_since(started)
        return Hint(best, values, 0, elapsed, 0, evaluator.name, "table", name, target)
    shift = evaluator.baseline(lo, hi) if evaluator.baseline else 0.0
    values = {d: float(work.out[d]) - shift for d in Direction if work.out[d] > -math.inf}
    best = max(values, key=values.__getitem__) if values else None
    nodes = int(work.counters[NODES])
    return Hint(best, values, int(reached), _ms_since(started), nodes, evaluator.name)


def _ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0


def best_move(
    board: Sequence[Sequence[int]],
    *,
    depth: int | None = None,
    time_ms: float | None = None,
    preset: str | None = None,
    evaluator: str | Evaluator | None = None,
    tables: bool = True,
    budget: str = "time",
) -> Hint:
    """The solver's advice for a board of tile values (0 = empty), 4x4 or any other size.

    Give at most one of ``depth`` (a fixed depth: dN searches N + 1 player moves), ``time_ms``
    (iterative deepening that answers within the budget) or ``preset`` ("fast", "balanced",
    "strong"); with none, the "balanced" preset. ``evaluator`` names the board evaluation:
    "ntuple-snake" (the default: the shipped learned network, pulled toward the endgame
    tables' formation), "ntuple" (the network alone) or "heuristic" (hand-made terms, no
    268 MB tables to load). Where the board fits a built endgame table (``2048 tables
    build``), the table answers (``Hint.source`` says so) unless ``tables`` is False. Raises
    ValueError for an impossible board or bad settings. ``budget="nodes"`` caps a preset's
    search in positions instead of milliseconds, so the advice is the same on any machine.

    A board of another size (3 to 8 rows of 3 to 8 tiles, its shape is its size) is searched
    with the heuristic, the only evaluation that judges every size (``evaluator`` may be None
    or "heuristic"); on 3x3, where the perfect-play table is built and ``tables`` is True, the
    table answers (``Hint.source`` "perfect").

    The first search in a process loads the network (about 1 s) and the first search on a
    thread allocates that thread's transposition table (24 MB for d3 and deeper, tens of
    milliseconds), so those calls may run past a time budget; later calls reuse both.
    """
    classic = _is_classic(board)
    plan = resolve_plan(depth, time_ms, preset, budget, classic=classic)
    if classic:
        lo, hi = pack(board)
        found = get_evaluator(evaluator)
        return search_packed(lo, hi, plan, found, endgame_tables() if tables else NO_TABLES)
    size, exponents = grid.read_board(board)
    check_grid_evaluator(evaluator, size)
    if tables:
        answer = perfect_hint(size, exponents)
        if answer is not None:
            return answer
    return search_cells(size, np.array(exponents, dtype=np.uint8), plan)


def _is_classic(board: object) -> bool:
    """True for a 4x4 board, and for anything too odd to have a size (pack then says why)."""
    try:
        rows = list(board)  # type: ignore[call-overload]
        return len(rows) == 4 and all(len(row) == 4 for row in rows)
    except TypeError:
        return True


def check_grid_evaluator(evaluator: str | Evaluator | None, size: BoardSize) -> None:
    """ValueError unless ``evaluator`` can judge boards of ``size`` (off 4x4: the heuristic)."""
    name = evaluator.name if isinstance(evaluator, Evaluator) else evaluator
    if name not in (None, LINES_NAME):
        raise ValueError(
            f"evaluator {name!r} judges 4x4 boards only; a {size} board is searched with "
            f"the {LINES_NAME!r} evaluation"
        )


class _GridWorkspace(_Workspace):
    """One thread's records for searches off 4x4: a table of its own, and scratch boards by
    size."""

    def __init__(self) -> None:
        super().__init__()
        self.boards: dict[BoardSize, np.ndarray] = {}

    def scratch(self, size: BoardSize) -> np.ndarray:
        boards = self.boards.get(size)
        if boards is None:
            boards = self.boards[size] = scratch_boards(size.cells)
        return boards


_grid_workspace = _GridWorkspace()


def search_cells(size: BoardSize, cells: np.ndarray, plan: SearchPlan) -> Hint:
    """Search a board of ``size`` (row-major exponents, uint8, already validated) with the
    heuristic and a resolved plan."""
    started = time.perf_counter()
    work = _grid_workspace
    plan = work.begin(plan, started)
    run = GridRun(
        size.rows,
        size.cols,
        work.scratch(size),
        np.uint64(work.generation),
        work.counters,
        0.0,
        0.0,
    )
    reached = decide(cells, plan, weights_for(size), work.table, run, work.out)
    values = {d: float(work.out[d]) for d in Direction if work.out[d] > -math.inf}
    best = max(values, key=values.__getitem__) if values else None
    nodes = int(work.counters[NODES])
    return Hint(best, values, int(reached), _ms_since(started), nodes, LINES_NAME)


_weights: dict[BoardSize, LineWeights] = {}


def weights_for(size: BoardSize) -> LineWeights:
    """The heuristic's weights for ``size``, made once a process."""
    found = _weights.get(size)
    if found is None:
        found = _weights[size] = line_weights(size)
    return found


def perfect_hint(size: BoardSize, exponents: Sequence[int]) -> Hint | None:
    """The perfect-play table's advice, or None where no table is built for ``size`` (or the
    table does not hold the position, which no game reaches)."""
    started = time.perf_counter()
    table = perfect_values(size)
    if table is None:
        return None
    try:
        found = table.move_values(list(exponents))
    except KeyError:  # a position set up by hand that no game reaches: the search answers
        return None
    values = {d: float(v) for d, v in zip(Direction, found, strict=True) if v is not None}
    best = max(values, key=values.__getitem__) if values else None
    return Hint(best, values, 0 if values else -1, _ms_since(started), 0, "perfect", "perfect")
