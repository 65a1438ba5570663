"""Expectimax on a board of any size (3 to 8 rows and columns), compiled by numba.

The same search as :mod:`py2048.solver.search`, on the engine's grid board
(:mod:`py2048.engine.grid`: a 1-D ``uint8`` array of exponents, row-major, with ``rows`` and
``cols`` beside it) and with the heuristic of :mod:`py2048.evaluation.lines`: max nodes over
the four directions, chance nodes over every empty cell with a 2 at 0.9 and a 4 at 0.1
(:data:`~py2048.engine.rng.SPAWN_ODDS`), ``depth`` N searching N + 1 player moves, chance
nodes less likely than ``probability_cutoff(N)`` = 2**-(N + 4) answered by the best reply's
evaluation, a lost position worth its evaluation less the price of losing, and the same
deepening rules for a time or position budget (:func:`decide`). 4x4 keeps the packed search;
this one serves every other size.

A grid board does not fit in a word, so the transposition table (the same
:data:`~py2048.solver.search.TABLE_ENTRY` entries) is keyed on a 64-bit hash of the afterstate
and checked against 16 bits of a second, independent hash; two boards that agree on all 80 bits
would share a value, which at the table's million entries is a chance of about one in 10**18 a
search. A search makes its child boards in the rows of one scratch array, a row per level, so
no node allocates memory.

The kernels take a few records, as :mod:`py2048.solver.search`'s do: the weights
(:class:`~py2048.evaluation.line_terms.LineWeights`), the transposition table and the
:class:`GridRun` (the size, the scratch boards, generation, counters, deadline, node limit and
probability cutoff); :func:`decide` also takes the :class:`~py2048.solver.search.SearchPlan`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, types

from py2048._uncounted import njit_uncounted
from py2048.engine import grid
from py2048.engine.rng import SPAWN_ODDS
from py2048.evaluation.line_terms import LINE_WEIGHTS
from py2048.evaluation.lines import evaluate
from py2048.solver.search import (
    ABORTED,
    LEAF_SLOTS,
    MAX_DEPTH,
    NODES,
    SEARCH_PLAN,
    TABLE_HITS,
    TRANSPOSITION_TABLE,
    chance_slots,
    depth_done,
    depth_for,
    depth_reached,
    next_depth,
    node_entered,
    probability_cutoff,
    start_deepening,
)

_DEAD = 0.0
_U8 = np.uint64(8)
_U24 = np.uint64(24)
_U32 = np.uint64(32)
_DEPTH_MASK = np.uint64(0xFF)
_CHECK_MASK = np.uint64(0xFFFF)
_K1 = np.uint64(0x9E3779B97F4A7C15)
_K2 = np.uint64(0xC2B2AE3D27D4EB4F)
_K3 = np.uint64(0xFF51AFD7ED558CCD)

LEVELS = 2 * (MAX_DEPTH + 2)
"""Rows of the scratch array: one board per chance node on the deepest path, with room."""


class GridRun(NamedTuple):
    """What one search iteration shares with every node besides the weights and the table."""

    rows: int
    cols: int
    boards: np.ndarray
    """(LEVELS, cells) uint8 scratch: the child boards of each level of the search."""
    generation: np.uint64
    counters: np.ndarray
    """int64 slots NODES, ABORTED, TABLE_HITS, NEXT_CLOCK (those of ``search``)."""
    deadline: float
    cprob_min: float
    node_limit: int = 0


GRID_RUN = types.NamedTuple(
    (
        types.int64,
        types.int64,
        types.uint8[:, ::1],
        types.uint64,
        types.int64[::1],
        types.float64,
        types.float64,
        types.int64,
    ),
    GridRun,
)
GRID_RECORDS = (LINE_WEIGHTS, TRANSPOSITION_TABLE, GRID_RUN)
"""The numba types of the records every kernel here takes, in this order."""


def scratch_boards(cells: int) -> np.ndarray:
    """A search's scratch array for boards of ``cells`` cells."""
    return np.zeros((LEVELS, cells), dtype=np.uint8)


@njit(cache=True, nogil=True, inline="always")
def _hashes(cells):
    """Two independent 64-bit hashes of a board."""
    a = np.uint64(0x243F6A8885A308D3)
    b = np.uint64(0x13198A2E03707344)
    for cell in range(cells.size):
        e = np.uint64(cells[cell]) + np.uint64(1)
        a = (a ^ e) * _K1
        a ^= a >> _U32
        b = (b + e) * _K2
        b ^= b >> np.uint64(29)
    b *= _K3
    b ^= b >> _U32
    return a, b


@njit(cache=True, nogil=True, inline="always")
def _leaf(cells, weights, table, run):
    """The evaluation of a leaf, read from the table's leaf entries where this search (this
    generation) has met the board before (as on 4x4, :data:`~py2048.solver.search.LEAF_SLOTS`);
    counted as a position either way."""
    run.counters[NODES] += 1
    size = table.shape[0]
    chance = chance_slots(size)
    if chance == size:
        return evaluate(cells, run.rows, run.cols, weights)
    key, check = _hashes(cells)
    entry = table[chance + (int(key) & (LEAF_SLOTS - 1))]
    stamp = (run.generation << _U24) | ((check & _CHECK_MASK) << _U8)
    if entry.key == key and entry.meta == stamp:
        return entry.value
    value = evaluate(cells, run.rows, run.cols, weights)
    entry.key = key
    entry.meta = stamp
    entry.value = value
    return value


@njit_uncounted(
    types.float64(types.uint8[::1], types.int64, types.int64, types.float64, *GRID_RECORDS),
    cache=True,
    nogil=True,
)
def chance_value(board, level, depth, cprob, weights, table, run):
    """Expected value of the afterstate ``board`` over the next spawn and the best replies.

    Only called with ``depth >= 1``; ``board`` is restored before returning (spawns are tried
    in place), and the replies are made in ``run.boards[level]``.
    """
    counters = run.counters
    if not node_entered(counters, run.deadline, run.node_limit):
        return _DEAD
    key, check = _hashes(board)
    entry = table[int(key >> _U32) & (chance_slots(table.shape[0]) - 1)]
    stamp = (run.generation << _U24) | ((check & _CHECK_MASK) << _U8)
    if (
        entry.key == key
        and (entry.meta & ~_DEPTH_MASK) == stamp
        and int(entry.meta & _DEPTH_MASK) >= depth
    ):
        counters[TABLE_HITS] += 1
        return entry.value
    rows = run.rows
    cols = run.cols
    reply = run.boards[level]
    empty = grid.count_empty(board)
    share = cprob / empty
    total = 0.0
    for cell in range(board.size):
        if board[cell] != 0:
            continue
        for exponent, p in SPAWN_ODDS:
            board[cell] = exponent
            child_cprob = share * p
            at_leaf = depth <= 1 or child_cprob < run.cprob_min
            best = -np.inf
            for direction in range(4):
                _, moved = grid.slide_into(board, rows, cols, direction, reply)
                if not moved:
                    continue
                if at_leaf:
                    value = _leaf(reply, weights, table, run)
                else:
                    value = chance_value(
                        reply, level + 1, depth - 1, child_cprob, weights, table, run
                    )
                if value > best:
                    best = value
            if best == -np.inf:  # the game is lost after this spawn
                best = _leaf(board, weights, table, run) - weights.lost_penalty
            total += p * best
        board[cell] = 0
    result = total / empty
    if counters[ABORTED] == 0:
        entry.key = key
        entry.meta = stamp | np.uint64(depth)
        entry.value = result
    return result


@njit_uncounted(
    types.void(types.uint8[::1], types.int64, *GRID_RECORDS, types.float64[::1]),
    cache=True,
    nogil=True,
)
def search_root(cells, depth, weights, table, run, out):
    """Write each direction's value at ``depth`` into ``out`` (-inf where it is not a move).

    ``run.boards[0]`` holds each root move's afterstate; deeper levels the rest.
    """
    after = run.boards[0]
    for direction in range(4):
        _, moved = grid.slide_into(cells, run.rows, run.cols, direction, after)
        if not moved:
            out[direction] = -np.inf
            continue
        if depth == 0:
            out[direction] = _leaf(after, weights, table, run)
        else:
            out[direction] = chance_value(after, 1, depth, 1.0, weights, table, run)


@njit(types.int64(types.uint8[::1], types.int64, types.int64), cache=True, nogil=True)
def adaptive_depth(cells, min_depth, max_depth):
    """The packed search's rule on any size: one extra level for every two distinct tiles
    beyond seven, and one more when at most three cells are empty."""
    seen = np.zeros(128, dtype=np.bool_)
    distinct = 0
    empty = 0
    for cell in range(cells.size):
        e = cells[cell]
        if e == 0:
            empty += 1
        elif not seen[e]:
            seen[e] = True
            distinct += 1
    return depth_for(distinct, empty, min_depth, max_depth)


@njit(
    types.int64(types.uint8[::1], SEARCH_PLAN, *GRID_RECORDS, types.float64[::1]),
    cache=True,
    nogil=True,
)
def decide(cells, plan, weights, table, run, out):
    """Search one position as planned; return the depth that answered (-1: no move exists).

    The rules of :func:`py2048.solver.search.decide`: one search at the target depth without a
    budget; with one, iterative deepening from depth 0, each deeper search started only if the
    last one's cost times its growth still fits, and thrown away if the budget stops it, the
    searches up to ``plan.min_depth`` always finishing; a single legal move answered at depth 0
    under a budget or a preset.
    """
    mask = grid.legal_mask(cells, run.rows, run.cols)
    legal = 0
    for direction in range(4):
        legal += (mask >> direction) & 1
    adaptive = adaptive_depth(cells, plan.min_depth, plan.max_depth) if plan.adaptive else 0
    first, target, floor, state = start_deepening(plan, legal, adaptive, run.counters, out)
    values = np.empty(4, dtype=np.float64)
    for depth in range(first, target + 1):
        go, deadline, node_limit = next_depth(plan, state, depth, floor, run.counters)
        if not go:
            break
        iteration = GridRun(
            run.rows,
            run.cols,
            run.boards,
            run.generation,
            run.counters,
            deadline,
            probability_cutoff(depth),
            node_limit,
        )
        search_root(cells, depth, weights, table, iteration, values)
        if not depth_done(state, depth, run.counters, values, out):
            break
    return depth_reached(state)


@njit(
    types.void(
        types.uint8[:, ::1],  # positions, one board a row
        SEARCH_PLAN,
        *GRID_RECORDS,
        types.float64[:, ::1],  # out: (positions, 4) values, -inf where a direction is no move
        types.int64[::1],  # out: the depth that answered each position (-1: no move)
    ),
    cache=True,
    nogil=True,
)
def grade_positions(boards, plan, weights, table, run, values, depths):
    """Search every position of ``boards`` as ``plan`` says, with no time limit, each with a
    generation of its own (``run.generation`` plus its index), so that no position's values
    depend on which were searched before it."""
    out = np.empty(4, dtype=np.float64)
    for i in range(boards.shape[0]):
        position = GridRun(
            run.rows,
            run.cols,
            run.boards,
            run.generation + np.uint64(i),
            run.counters,
            0.0,
            0.0,
            0,
        )
        depths[i] = decide(boards[i], plan, weights, table, position, out)
        for direction in range(4):
            values[i, direction] = out[direction]
