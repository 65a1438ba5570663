"""Expectimax over packed boards, compiled by numba with the GIL released.

The tree alternates the player's moves (max nodes: the best direction) and the game's spawns
(chance nodes: every empty cell, a 2 at probability 0.9 and a 4 at 0.1, averaged). ``depth``
counts the player moves below the root move: depth 0 judges each move by the evaluation of the
board it leaves (a greedy look-ahead); depth N searches N + 1 player moves, as the reference
programs count. A chance node is cut short, and the best reply is judged by the evaluation
directly, once the probability of reaching it drops below ``cprob_min``. A search of depth N
uses ``probability_cutoff(N)`` = 2**-(N + 4) (1/64 at d2, 1/128 at d3), the rule of
macroxue/2048-ai: it prunes the unlikely branches (4 spawns, spawns on one of many empty cells)
that dominate a deep tree, and with the learned network it measured both faster and stronger
than a fixed 1/10,000 (``docs/solver.md``).

Chance nodes are remembered in a transposition table (open addressing, always replace) keyed on
both board words and the depth left, so a position reached by different move orders is
searched once. Entries carry a *generation*: each search uses a fresh generation, so a table
can be reused by the next search on the same thread without clearing it, and one search never
sees another's values. The caller owns the table, which keeps concurrent searches apart.

A search given a ``deadline`` reads the clock every 1024 nodes and gives up once it has passed
(setting ``counters[ABORTED]``), which is how the time-budgeted search (see
:mod:`py2048.solver.hint`) always answers in time.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from py2048.engine.board import cell_exponent, move, row_index, transpose_hi, transpose_lo
from py2048.solver.clock import monotonic
from py2048.solver.evaluation import KERNEL_TYPE

NODES, ABORTED, TABLE_HITS, NEXT_CLOCK = 0, 1, 2, 3
"""Slots of the ``counters`` array shared by one search's kernels."""
COUNTER_SLOTS = 4
_CLOCK_EVERY = 4096
"""Nodes between two readings of the clock (tens of microseconds)."""

_DEAD = 0.0
_HASH = np.uint64(0x9E3779B97F4A7C15)
_U1 = np.uint64(1)
_U8 = np.uint64(8)
_U24 = np.uint64(24)
_U32 = np.uint64(32)
_DEPTH_MASK = np.uint64(0xFF)
_HI_MASK = np.uint64(0xFFFF)
_NIBBLE = np.uint64(0xF)

_CHANCE_SIGNATURE = types.float64(
    types.uint64,  # lo
    types.uint64,  # hi
    types.int64,  # depth: player moves still to search below this node
    types.float64,  # probability of reaching this node
    KERNEL_TYPE,
    types.boolean,  # lines: the evaluation is a sum of line scores, computed here
    types.float32[:, ::1],  # weights
    types.int64[:, ::1],  # layout
    types.float64,  # gain_weight
    types.float64,  # lost_penalty
    types.float64,  # cprob_min
    types.uint32[:, ::1],  # move tables
    types.uint64[::1],  # table keys (lo)
    types.uint64[::1],  # table meta: generation << 24 | hi << 8 | depth
    types.float64[::1],  # table values
    types.uint64,  # generation
    types.int64[::1],  # counters
    types.float64,  # deadline on the monotonic clock, 0.0 for none
)


@njit(cache=True, nogil=True, inline="always")
def _slot(lo: np.uint64, hi: np.uint64, size: int) -> int:
    h = (lo ^ (hi << _U32) ^ (hi >> _U8)) * _HASH
    return int(h >> _U32) & (size - 1)


@njit(cache=True, nogil=True, inline="always")
def _leaf(lo, hi, evaluate, lines, weights, layout, counters):
    counters[NODES] += 1
    if lines:
        t_lo = transpose_lo(lo)
        t_hi = transpose_hi(hi)
        total = 0.0
        for r in range(4):
            total += float(weights[0, row_index(lo, hi, r)])
            total += float(weights[0, row_index(t_lo, t_hi, r)])
        return total
    return evaluate(lo, hi, weights, layout)


@njit(_CHANCE_SIGNATURE, cache=True, nogil=True)
def chance_value(
    lo,
    hi,
    depth,
    cprob,
    evaluate,
    lines,
    weights,
    layout,
    gain_weight,
    lost_penalty,
    cprob_min,
    tables,
    keys,
    meta,
    values,
    generation,
    counters,
    deadline,
):
    """Expected value of the afterstate ``(lo, hi)`` over the next spawn and the best replies.

    Only called with ``depth >= 1`` and ``cprob >= cprob_min``; the leaves below are evaluated
    in place, which saves a call per leaf.
    """
    if counters[ABORTED]:
        return _DEAD
    counters[NODES] += 1
    if deadline > 0.0 and counters[NODES] >= counters[NEXT_CLOCK]:
        counters[NEXT_CLOCK] = counters[NODES] + _CLOCK_EVERY
        if monotonic() > deadline:
            counters[ABORTED] = 1
            return _DEAD
    slot = _slot(lo, hi, keys.shape[0])
    stamp = (generation << _U24) | ((hi & _HI_MASK) << _U8)
    entry = meta[slot]
    if keys[slot] == lo and (entry & ~_DEPTH_MASK) == stamp and int(entry & _DEPTH_MASK) >= depth:
        counters[TABLE_HITS] += 1
        return values[slot]
    free = np.uint64(0)  # bit c set when cell c is empty
    empty = 0
    for cell in range(16):
        if (lo >> np.uint64(4 * cell)) & _NIBBLE == 0 and (hi >> np.uint64(cell)) & _U1 == 0:
            free |= _U1 << np.uint64(cell)
            empty += 1
    share = cprob / empty
    total = 0.0
    for cell in range(16):
        if (free >> np.uint64(cell)) & _U1 == 0:
            continue
        shift = np.uint64(4 * cell)
        for exponent, p in ((1, 0.9), (2, 0.1)):
            board = lo | (np.uint64(exponent) << shift)
            child_cprob = share * p
            at_leaf = depth <= 1 or child_cprob < cprob_min
            best = -np.inf
            for direction in range(4):
                new_lo, new_hi, gain = move(board, hi, direction, tables)
                if new_lo == board and new_hi == hi:
                    continue
                if at_leaf:
                    value = _leaf(new_lo, new_hi, evaluate, lines, weights, layout, counters)
                else:
                    value = chance_value(
                        new_lo,
                        new_hi,
                        depth - 1,
                        child_cprob,
                        evaluate,
                        lines,
                        weights,
                        layout,
                        gain_weight,
                        lost_penalty,
                        cprob_min,
                        tables,
                        keys,
                        meta,
                        values,
                        generation,
                        counters,
                        deadline,
                    )
                value += gain_weight * gain
                if value > best:
                    best = value
            if best == -np.inf:  # the game is lost after this spawn
                best = _DEAD
                if lost_penalty > 0.0:
                    best = _leaf(board, hi, evaluate, lines, weights, layout, counters)
                    best -= lost_penalty
            total += p * best
    result = total / empty
    if counters[ABORTED] == 0:
        keys[slot] = lo
        meta[slot] = stamp | np.uint64(depth)
        values[slot] = result
    return result


@njit(
    types.void(
        types.uint64,
        types.uint64,
        types.int64,
        KERNEL_TYPE,
        types.boolean,
        types.float32[:, ::1],
        types.int64[:, ::1],
        types.float64,
        types.float64,
        types.float64,
        types.uint32[:, ::1],
        types.uint64[::1],
        types.uint64[::1],
        types.float64[::1],
        types.uint64,
        types.int64[::1],
        types.float64,
        types.float64[::1],
    ),
    cache=True,
    nogil=True,
)
def search_root(
    lo,
    hi,
    depth,
    evaluate,
    lines,
    weights,
    layout,
    gain_weight,
    lost_penalty,
    cprob_min,
    tables,
    keys,
    meta,
    values,
    generation,
    counters,
    deadline,
    out,
):
    """Write each direction's value at ``depth`` into ``out`` (-inf where it is not a move)."""
    for direction in range(4):
        new_lo, new_hi, gain = move(lo, hi, direction, tables)
        if new_lo == lo and new_hi == hi:
            out[direction] = -np.inf
            continue
        if depth == 0:
            out[direction] = gain_weight * gain + _leaf(
                new_lo, new_hi, evaluate, lines, weights, layout, counters
            )
            continue
        out[direction] = gain_weight * gain + chance_value(
            new_lo,
            new_hi,
            depth,
            1.0,
            evaluate,
            lines,
            weights,
            layout,
            gain_weight,
            lost_penalty,
            cprob_min,
            tables,
            keys,
            meta,
            values,
            generation,
            counters,
            deadline,
        )


@njit("f8(i8)", cache=True, nogil=True)
def probability_cutoff(depth):
    """The ``cprob_min`` of a search of this depth: 2**-(depth + 4)."""
    return 2.0 ** -(depth + 4)


@njit("i8(u8, u8, i8, i8)", cache=True, nogil=True)
def adaptive_depth(lo, hi, min_depth, max_depth):
    """Deeper on harder boards: more distinct tiles and fewer empty cells mean fewer safe moves.

    One extra level for every two distinct tiles beyond seven, and one more when at most three
    cells are empty, between ``min_depth`` and ``max_depth``.
    """
    seen = 0
    empty = 0
    for cell in range(16):
        e = cell_exponent(lo, hi, cell)
        if e == 0:
            empty += 1
        else:
            seen |= 1 << e
    distinct = 0
    while seen:
        seen &= seen - 1
        distinct += 1
    extra = max(0, distinct - 7) // 2 + (1 if empty <= 3 else 0)
    return max(min_depth, min(max_depth, min_depth + extra))


@njit(
    types.int64(
        types.uint64,  # lo
        types.uint64,  # hi
        types.int64,  # min_depth
        types.int64,  # max_depth
        types.boolean,  # adaptive: pick the depth from the board, between min and max
        types.float64,  # budget in seconds, 0.0 for none
        KERNEL_TYPE,
        types.boolean,
        types.float32[:, ::1],
        types.int64[:, ::1],
        types.float64,  # gain_weight
        types.float64,  # lost_penalty
        types.uint32[:, ::1],
        types.uint64[::1],
        types.uint64[::1],
        types.float64[::1],
        types.uint64,  # generation
        types.int64[::1],  # counters
        types.float64[::1],  # out: each direction's value, -inf where it is not a move
    ),
    cache=True,
    nogil=True,
)
def decide(
    lo,
    hi,
    min_depth,
    max_depth,
    adaptive,
    budget,
    evaluate,
    lines,
    weights,
    layout,
    gain_weight,
    lost_penalty,
    tables,
    keys,
    meta,
    values,
    generation,
    counters,
    out,
):
    """Search one position as planned; return the depth that answered (-1: no move exists).

    Without a budget, one search at the target depth. With a budget, iterative deepening from
    depth 0: each deeper search starts only if the last one's time times its growth factor
    still fits, runs against the deadline, and is thrown away if the deadline stops it. A
    board with a single move is answered at depth 0.
    """
    started = monotonic()
    deadline = started + budget if budget > 0.0 else 0.0
    legal = 0
    for direction in range(4):
        new_lo, new_hi, _ = move(lo, hi, direction, tables)
        if new_lo != lo or new_hi != hi:
            legal += 1
    counters[NODES] = 0
    counters[ABORTED] = 0
    counters[TABLE_HITS] = 0
    counters[NEXT_CLOCK] = _CLOCK_EVERY
    if legal == 0:
        for direction in range(4):
            out[direction] = -np.inf
        return -1
    target = adaptive_depth(lo, hi, min_depth, max_depth) if adaptive else max_depth
    if legal == 1:
        target = 0
    first = 0 if budget > 0.0 else target
    scratch = np.empty(4, dtype=np.float64)
    reached = -1
    previous_nodes = 0
    last_seconds = 0.0
    growth = 1.0
    for depth in range(first, target + 1):
        iteration_started = monotonic()
        if reached >= 0 and last_seconds * growth > deadline - iteration_started:
            break
        before = counters[NODES]
        search_root(
            lo,
            hi,
            depth,
            evaluate,
            lines,
            weights,
            layout,
            gain_weight,
            lost_penalty,
            probability_cutoff(depth),
            tables,
            keys,
            meta,
            values,
            generation,
            counters,
            deadline if reached >= 0 else 0.0,
            scratch,
        )
        if counters[ABORTED]:
            break
        for direction in range(4):
            out[direction] = scratch[direction]
        reached = depth
        iteration_nodes = counters[NODES] - before
        last_seconds = monotonic() - iteration_started
        growth = iteration_nodes / previous_nodes if previous_nodes > 0 else 1.0
        previous_nodes = iteration_nodes
    return reached
