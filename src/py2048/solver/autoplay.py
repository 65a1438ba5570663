"""Whole games played by the solver inside compiled code, for ``2048 bench`` and research.

A game runs start to finish in one call that releases the GIL: no Python runs between moves,
so a bench measures the search, not the interpreter. With the ``py2048`` generator a game is
exactly ``Game(seed)`` played with ``best_move`` at the same settings (the tests check this);
with ``c-rand`` the spawns follow :mod:`py2048.solver.crand`. A game can also start from a
given board (``Game.from_board(board, seed=seed)``, or ``srand(seed)`` then that board with
c-rand), which is how ``benchmarks/endgame.py`` plays late-game positions on.

A game on a board of another size (``size``, 3 to 8 rows and columns) is played by
:func:`play_grid_game` with the search of :mod:`py2048.solver.grid_search`: exactly
``Game(seed, size=size)`` played with ``best_move`` (c-rand reproduces another program's 4x4
games, so it is 4x4 only); on 3x3, where the perfect-play table is built, the table plays
(:func:`_autoplay_perfect`), as it answers hints. Good play on the largest boards does not end
for millions of moves: ``max_moves`` stops a game there, and its record says it was capped.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numba import njit, types

from py2048.engine import grid
from py2048.engine.board import ROW_TABLES, max_exponent, move, pack, play, start
from py2048.engine.integers import is_int
from py2048.engine.rng import seed_key, validate_seed
from py2048.engine.size import DEFAULT_SIZE, BoardSize, parse_size
from py2048.evaluation.contract import EVALUATION_DATA, KERNEL_TYPE, Evaluator
from py2048.evaluation.registry import get_evaluator
from py2048.solver import crand
from py2048.solver.endgame import ENDGAME_TABLES, NO_TABLES, TableSet, choose, endgame_tables
from py2048.solver.grid_search import GRID_RECORDS, GridRun, decide, scratch_boards
from py2048.solver.search import (
    COUNTER_SLOTS,
    NODES,
    SEARCH_PLAN,
    TRANSPOSITION_TABLE,
    Run,
    SearchPlan,
    transposition_table,
)
from py2048.solver.spawns import RNGS

_PY2048, _C_RAND = 0, 1

(
    FIGURE_SCORE,
    FIGURE_MOVES,
    FIGURE_MAX_EXPONENT,
    FIGURE_NODES,
    FIGURE_TABLE_MOVES,
    FIGURE_CAPPED,
) = range(6)
"""Slots of the figures array a compiled game fills (capped: 1 when ``max_moves`` stopped it)."""
FIGURES = 6
SEARCHED = np.uint64(2**64 - 1)
"""The chooser a trace row gives to a move the search chose (else the table's index)."""


class Opening(NamedTuple):
    """How a compiled game starts."""

    generator: int
    """The spawns: 0 py2048, 1 c-rand."""
    seed: np.uint64
    lo: np.uint64
    """The start board's ``lo`` (with ``from_board``)."""
    hi: np.uint64
    from_board: bool
    """Start from ``(lo, hi)``, not from the seed's opening."""
    max_moves: int = 0
    """Stop the game after this many moves (0: play until no move is left)."""


OPENING = types.NamedTuple(
    (types.int64, types.uint64, types.uint64, types.uint64, types.boolean, types.int64), Opening
)


@njit(
    types.void(
        OPENING,
        SEARCH_PLAN,
        KERNEL_TYPE,
        EVALUATION_DATA,
        TRANSPOSITION_TABLE,
        ENDGAME_TABLES,
        types.uint32[:, ::1],  # move tables
        types.int64[::1],  # figures: score, moves, max exponent, nodes, table moves
        types.uint64[:, ::1],  # trace: (chooser, lo, hi) of the first moves, as many as fit
    ),
    cache=True,
    nogil=True,
)
def play_game(opening, plan, evaluate, evaluation, table, endgame, tables, figures, trace):
    """Play one game with the solver until no move is left (or ``opening.max_moves`` were
    made); write its figures, and each move's chooser and board into ``trace`` while rows last
    (a bench passes none)."""
    generator, seed, lo, hi, from_board, max_moves = opening
    key = seed_key(seed)
    c_rand = crand.new_state()
    if generator == _C_RAND:
        crand.seed(seed, c_rand)
        if not from_board:
            lo, hi = crand.start(seed, c_rand)
    elif not from_board:
        lo, hi = start(key)
    counters = np.zeros(COUNTER_SLOTS, dtype=np.int64)
    out = np.empty(4, dtype=np.float64)
    score = 0
    moves = 0
    nodes = 0
    table_moves = 0
    generation = np.uint64(0)
    while True:
        generation += np.uint64(1)
        run = Run(tables, generation, counters, 0.0, 0.0, 0)
        answered, reached = choose(lo, hi, plan, evaluate, evaluation, table, run, endgame, out)
        if answered < 0 and reached < 0:
            break
        if max_moves > 0 and moves >= max_moves:
            figures[FIGURE_CAPPED] = 1
            break
        if moves < trace.shape[0]:
            trace[moves, 0] = np.uint64(answered) if answered >= 0 else SEARCHED
            trace[moves, 1] = lo
            trace[moves, 2] = hi
        if answered >= 0:
            table_moves += 1
        else:
            nodes += counters[NODES]
        best = 0
        for direction in range(1, 4):
            if out[direction] > out[best]:
                best = direction
        if generator == _C_RAND:
            lo, hi, gain = move(lo, hi, best, tables)
            lo, _, _ = crand.spawn(lo, hi, c_rand)
        else:
            lo, hi, gain, _, _ = play(lo, hi, best, key, moves + 2, tables)
        score += gain
        moves += 1
    figures[FIGURE_SCORE] = score
    figures[FIGURE_MOVES] = moves
    figures[FIGURE_MAX_EXPONENT] = max_exponent(lo, hi)
    figures[FIGURE_NODES] = nodes
    figures[FIGURE_TABLE_MOVES] = table_moves


@njit(
    types.void(
        types.uint64,  # seed
        types.uint8[::1],  # the board: the start board with from_board, then the game's
        types.boolean,  # from_board: start from ``cells``, not from the seed's opening
        types.int64,  # max_moves (0: none)
        SEARCH_PLAN,
        *GRID_RECORDS,
        types.int64[::1],  # figures: score, moves, max exponent, nodes, 0, capped
    ),
    cache=True,
    nogil=True,
)
def play_grid_game(seed, cells, from_board, max_moves, plan, weights, table, run, figures):
    """Play one game on a board of ``run.rows`` by ``run.cols`` with the solver until no move is
    left or ``max_moves`` were made; ``cells`` ends as the final board. A move whose merges
    reach a tile of 2**62 (only on boards of 61 cells or more) scores nothing here."""
    key = seed_key(seed)
    if not from_board:
        grid.start_into(key, cells)
    after = np.empty_like(cells)
    out = np.empty(4, dtype=np.float64)
    score = 0
    moves = 0
    nodes = 0
    generation = run.generation
    while True:
        generation += np.uint64(1)
        position = GridRun(run.rows, run.cols, run.boards, generation, run.counters, 0.0, 0.0, 0)
        reached = decide(cells, plan, weights, table, position, out)
        if reached < 0:
            break
        if max_moves > 0 and moves >= max_moves:
            figures[FIGURE_CAPPED] = 1
            break
        nodes += run.counters[NODES]
        best = 0
        for direction in range(1, 4):
            if out[direction] > out[best]:
                best = direction
        gain, _, _, _ = grid.play_into(cells, run.rows, run.cols, best, key, moves + 2, after)
        cells[:] = after
        if gain > 0:
            score += gain
        moves += 1
    top = 0
    for cell in range(cells.size):
        top = max(top, int(cells[cell]))
    figures[FIGURE_SCORE] = score
    figures[FIGURE_MOVES] = moves
    figures[FIGURE_MAX_EXPONENT] = top
    figures[FIGURE_NODES] = nodes


@dataclass(frozen=True)
class GameRecord:
    """One finished game, as ``2048 bench --json`` writes it."""

    seed: int
    score: int
    max_tile: int
    moves: int
    seconds: float
    nodes: int
    table_moves: int = 0
    """Moves the endgame tables chose (the others were searched)."""
    capped: bool = False
    """The game was stopped after ``max_moves`` moves, not played to its end."""


def autoplay(
    seed: int,
    plan: SearchPlan,
    *,
    rng: str = "py2048",
    evaluator: str | Evaluator | None = None,
    board: Sequence[Sequence[int]] | None = None,
    tables: bool | TableSet = True,
    trace: np.ndarray | None = None,
    size: BoardSize | tuple[int, int] | str | None = None,
    max_moves: int | None = None,
) -> GameRecord:
    """Play the game with this seed to the end with the solver and return its figures.

    With ``board``, the game starts from that board instead of the seed's opening (its spawns
    still come from the seed), and the record counts only the points and moves made from it.
    With ``tables`` (the default) the built endgame tables answer where they fit; False plays
    with the search alone, and a :class:`~py2048.solver.endgame.TableSet` with those tables.
    ``trace``, a (rows, 3) uint64 array, receives each of the first moves' chooser (the index
    of the table that chose it among the set's, or :data:`SEARCHED`) and the board it was
    played on (``lo``, ``hi``); ``GameRecord.moves`` says how many rows were filled, if fewer.

    ``size`` plays a board of another size (see the module docstring; ``board`` must then have
    that shape, ``evaluator`` may only be None or "heuristic", and ``trace`` does not apply);
    on 3x3 with ``tables`` True and the perfect-play table built, the table plays
    (``GameRecord.table_moves``). ``max_moves`` stops the game after that many moves
    (``GameRecord.capped``).
    """
    if rng not in RNGS:
        raise ValueError(f"unknown rng {rng!r}; choose one of {', '.join(RNGS)}")
    seed = validate_seed(seed)
    cap = _max_moves(max_moves)
    chosen = DEFAULT_SIZE if size is None else parse_size(size)
    if not chosen.classic:
        if rng != "py2048":
            raise ValueError(
                f"rng {rng!r} reproduces another program's 4x4 games; a {chosen} game "
                "spawns with py2048's own generator"
            )
        return _autoplay_grid(seed, plan, chosen, evaluator, board, cap, tables is True)
    if rng == "c-rand" and seed >= crand.SEED_LIMIT:
        raise ValueError(f"a c-rand seed must be below 2**32, got {seed}")
    lo, hi = pack(board) if board is not None else (0, 0)
    # Everything loaded or allocated once (the network, the tables, the transposition table) is
    # made ready before the game's clock starts: ``seconds`` times the moves alone.
    found = get_evaluator(evaluator)
    endgame = _table_set(tables).record
    table = transposition_table(plan.max_depth)
    figures = np.zeros(FIGURES, dtype=np.int64)
    started = time.perf_counter()
    opening = Opening(
        _C_RAND if rng == "c-rand" else _PY2048,
        np.uint64(seed),
        np.uint64(lo),
        np.uint64(hi),
        board is not None,
        cap,
    )
    play_game(
        opening,
        plan,
        found.kernel,
        found.data,
        table,
        endgame,
        ROW_TABLES,
        figures,
        trace if trace is not None else np.zeros((0, 3), dtype=np.uint64),
    )
    return _record(seed, figures, time.perf_counter() - started)


def _record(seed: int, figures: np.ndarray, seconds: float) -> GameRecord:
    """A game's record from the figures its compiled loop wrote (table moves: 0 off 4x4)."""
    exponent = int(figures[FIGURE_MAX_EXPONENT])
    return GameRecord(
        seed=seed,
        score=int(figures[FIGURE_SCORE]),
        max_tile=1 << exponent if exponent else 0,
        moves=int(figures[FIGURE_MOVES]),
        seconds=seconds,
        nodes=int(figures[FIGURE_NODES]),
        table_moves=int(figures[FIGURE_TABLE_MOVES]),
        capped=bool(figures[FIGURE_CAPPED]),
    )


def _max_moves(max_moves: int | None) -> int:
    if max_moves is None:
        return 0
    if not is_int(max_moves) or max_moves < 1:
        raise ValueError(f"max_moves must be 1 or more, got {max_moves!r}")
    return max_moves


def _autoplay_grid(
    seed: int,
    plan: SearchPlan,
    size: BoardSize,
    evaluator: str | Evaluator | None,
    board: Sequence[Sequence[int]] | None,
    max_moves: int,
    perfect: bool,
) -> GameRecord:
    from py2048.solver.hint import check_grid_evaluator, weights_for
    from py2048.solver.perfect import perfect_values

    check_grid_evaluator(evaluator, size)
    if perfect and perfect_values(size) is not None:
        return _autoplay_perfect(seed, plan, size, board, max_moves)
    cells = grid.new_cells(size)
    if board is not None:
        _, exponents = grid.read_board(board, size=size)
        cells[:] = exponents
    weights = weights_for(size)
    table = transposition_table(plan.max_depth)
    counters = np.zeros(COUNTER_SLOTS, dtype=np.int64)
    run = GridRun(
        size.rows, size.cols, scratch_boards(size.cells), np.uint64(0), counters, 0.0, 0.0
    )
    figures = np.zeros(FIGURES, dtype=np.int64)
    started = time.perf_counter()
    play_grid_game(
        np.uint64(seed), cells, board is not None, max_moves, plan, weights, table, run, figures
    )
    return _record(seed, figures, time.perf_counter() - started)


def _autoplay_perfect(
    seed: int,
    plan: SearchPlan,
    size: BoardSize,
    board: Sequence[Sequence[int]] | None,
    max_moves: int,
) -> GameRecord:
    """A game on a size with a perfect-play table (3x3, built), played as ``best_move`` plays
    it: the table's move, or the search's where the table does not hold the position (only on
    boards set up by hand). A few hundred moves, so Python drives it."""
    from py2048.engine.game import Game
    from py2048.solver.hint import perfect_hint, search_cells

    game = Game.from_board(board, seed=seed) if board is not None else Game(seed, size=size)
    started = time.perf_counter()
    moves = table_moves = nodes = 0
    capped = False
    while not game.over:
        if max_moves and moves >= max_moves:
            capped = True
            break
        hint = perfect_hint(size, game.exponents)
        if hint is None:
            hint = search_cells(size, np.array(game.exponents, dtype=np.uint8), plan)
            nodes += hint.nodes
        else:
            table_moves += 1
        assert hint.direction is not None  # the game is not over
        game.move(hint.direction)
        moves += 1
    return GameRecord(
        seed=seed,
        score=game.score,
        max_tile=game.max_tile,
        moves=moves,
        seconds=time.perf_counter() - started,
        nodes=nodes,
        table_moves=table_moves,
        capped=capped,
    )


def _table_set(tables: bool | TableSet) -> TableSet:
    if isinstance(tables, TableSet):
        return tables
    return endgame_tables() if tables else NO_TABLES
