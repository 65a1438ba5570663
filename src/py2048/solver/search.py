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
than a fixed 1/10,000 (``docs/solver-reference.md``, "How it works").

Below the root, a reply that takes the board's largest tile out of its corner is judged by
the evaluation of the board it leaves instead of being searched: such a move is almost never the
best one, and searching it was a sixth of a d2 tree and a third of a d3 one. Measured with no
loss at 32768 over 200 whole games at d2 and the late-game sets (``docs/results.md``, "Replies
that leave the corner"). The root's own moves are all searched.

Chance nodes are remembered in a transposition table (open addressing, always replace) keyed on
both board words and the depth left, so a position reached by different move orders is
searched once. The table's last :data:`LEAF_SLOTS` entries remember leaf evaluations the same
way (a leaf board recurs often within one search: the same afterstate follows different spawns
and moves), which spares a network evaluation without changing any value, position count or
move. Entries carry a *generation*: each search uses a fresh generation, so a table
can be reused by the next search on the same thread without clearing it, and one search never
sees another's values. The caller owns the table, which keeps concurrent searches apart.

A search given a ``deadline`` reads the clock every 4096 nodes and gives up once it has passed
(setting ``counters[ABORTED]``), which is how the time-budgeted search (see
:mod:`py2048.solver.hint`) always answers in time. A search given a ``node_limit`` gives up at
the first of those checkpoints past it instead: a budget in positions, which stops every search
at the same node on any machine under any load, so that its games do not depend on the clock.

:func:`chance_value` and :func:`search_root` are compiled without numba's reference counting
(:func:`~py2048._uncounted.njit_uncounted`): with it, every node counted the arrays of the
records it reads (the run's counters, the evaluation's weights) up and down with atomic
instructions, a third of a d2 search's compiled time under ``perf``. Without it the search is
15% faster on the same nodes (``benchmarks/search_time.py``).

The kernels take a few records instead of long argument lists (their numba types are written
once, in :data:`SEARCH_RECORDS`): the evaluation (its kernel and its
:class:`~py2048.evaluation.contract.EvaluationData`), the transposition table (one structured
array of :data:`TABLE_ENTRY`), and the :class:`Run` (move tables, generation, counters,
deadline and probability cutoff). :func:`decide` also takes the :class:`SearchPlan`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import from_dtype, njit, types

from py2048._uncounted import njit_uncounted
from py2048.engine.board import cell_exponent, move, row_index, transpose_hi, transpose_lo
from py2048.engine.rng import SPAWN_ODDS
from py2048.evaluation.contract import EVALUATION_DATA, KERNEL_TYPE
from py2048.solver.clock import monotonic

NODES, ABORTED, TABLE_HITS, NEXT_CLOCK = 0, 1, 2, 3
"""Slots of the ``counters`` array shared by one search's kernels."""
COUNTER_SLOTS = 4
CLOCK_EVERY = 4096
"""Nodes between two readings of the clock (tens of microseconds), in every search kernel."""

_DEAD = 0.0
_HASH = np.uint64(0x9E3779B97F4A7C15)
_U1 = np.uint64(1)
_U8 = np.uint64(8)
_U24 = np.uint64(24)
_U32 = np.uint64(32)
_DEPTH_MASK = np.uint64(0xFF)
_HI_MASK = np.uint64(0xFFFF)
_NIBBLE = np.uint64(0xF)

MAX_DEPTH = 12
"""Deepest search anyone can ask for (d12 = 13 player moves, already far beyond any budget)."""

TABLE_ENTRY = np.dtype([("key", np.uint64), ("meta", np.uint64), ("value", np.float64)])
"""One transposition-table entry: the board's ``lo``, then ``generation << 24 | hi << 8 |
depth``, then the chance node's value."""


class Run(NamedTuple):
    """What one search iteration shares with every node besides the evaluation and the table."""

    tables: np.ndarray
    """The engine's move tables (``engine.board.ROW_TABLES``)."""
    generation: np.uint64
    """This search's stamp on the table entries it writes (see the module docstring)."""
    counters: np.ndarray
    """int64 slots NODES, ABORTED, TABLE_HITS, NEXT_CLOCK, shared by the whole search."""
    deadline: float
    """On the monotonic clock; 0.0 for none."""
    cprob_min: float
    """Chance nodes less likely than this are cut short (see the module docstring)."""
    node_limit: int = 0
    """Give up once ``counters[NODES]`` passes this (checked every 4096 nodes); 0 for none."""


class SearchPlan(NamedTuple):
    """How deep and how long to search one position (see :func:`decide`)."""

    min_depth: int
    max_depth: int
    seconds: float
    """The time budget per move; 0.0 for none (one search at ``max_depth``)."""
    adaptive: bool
    """Pick the depth from the board, between ``min_depth`` and ``max_depth``."""
    nodes: int = 0
    """The budget per move in positions searched (``counters[NODES]``); 0 for none. Like
    ``seconds`` it makes :func:`decide` deepen step by step, but the steps it takes depend on
    the board alone, not on the machine's speed."""

    @property
    def time_ms(self) -> float | None:
        return self.seconds * 1000.0 if self.seconds > 0.0 else None


RUN = types.NamedTuple(
    (
        types.uint32[:, ::1],
        types.uint64,
        types.int64[::1],
        types.float64,
        types.float64,
        types.int64,
    ),
    Run,
)
SEARCH_PLAN = types.NamedTuple(
    (types.int64, types.int64, types.float64, types.boolean, types.int64), SearchPlan
)
TRANSPOSITION_TABLE = from_dtype(TABLE_ENTRY)[::1]
SEARCH_RECORDS = (KERNEL_TYPE, EVALUATION_DATA, TRANSPOSITION_TABLE, RUN)
"""The numba types of the records every search kernel takes, in this order: the evaluation's
kernel and data, the transposition table, the run."""


LEAF_SLOTS = 1 << 14
"""Entries at the end of a table from :func:`transposition_table` that remember the search's
leaf evaluations (384 KB, so they stay in the processor's second-level cache)."""


@njit(cache=True, nogil=True, inline="always")
def chance_slots(size: int) -> int:
    """How many of a transposition table's ``size`` entries hold chance nodes: a power of two,
    the first entries; the :data:`LEAF_SLOTS` after them hold leaves. A table whose size is a
    power of two holds chance nodes only (its searches evaluate every leaf afresh)."""
    return size - LEAF_SLOTS if size & (size - 1) else size


def transposition_table(depth: int) -> np.ndarray:
    """A transposition table for searches up to ``depth``: 2**12 entries for chance nodes at
    d0, up to 2**20, then :data:`LEAF_SLOTS` for leaves.

    np.zeros on a fresh array, then a write of every entry, so that no timed search pays for
    first touches of its pages.
    """
    table = np.zeros((1 << min(20, 12 + 3 * depth)) + LEAF_SLOTS, dtype=TABLE_ENTRY)
    table["meta"] = 0
    return table


@njit(cache=True, nogil=True, inline="always")
def _slot(lo: np.uint64, hi: np.uint64, size: int) -> int:
    h = (lo ^ (hi << _U32) ^ (hi >> _U8)) * _HASH
    return int(h >> _U32) & (size - 1)


@njit(cache=True, nogil=True, inline="always")
def _stamp(generation: np.uint64, hi: np.uint64) -> np.uint64:
    """An entry's ``meta`` less its depth: the search's generation and the board's ``hi``."""
    return (generation << _U24) | ((hi & _HI_MASK) << _U8)


@njit(cache=True, nogil=True, inline="always")
def _leaf(lo, hi, evaluate, evaluation, counters, table, generation):
    """The evaluation of a leaf, read from the table's leaf entries where this search (this
    ``generation``) has met the board before; counted as a position either way."""
    counters[NODES] += 1
    weights = evaluation.weights
    if evaluation.lines:
        t_lo = transpose_lo(lo)
        t_hi = transpose_hi(hi)
        total = 0.0
        for r in range(4):
            total += float(weights[0, row_index(lo, hi, r)])
            total += float(weights[0, row_index(t_lo, t_hi, r)])
        return total
    size = table.shape[0]
    chance = chance_slots(size)
    if chance == size:
        return evaluate(lo, hi, weights, evaluation.layout)
    entry = table[chance + _slot(lo, hi, LEAF_SLOTS)]
    stamp = _stamp(generation, hi)
    if entry.key == lo and entry.meta == stamp:
        return entry.value
    value = evaluate(lo, hi, weights, evaluation.layout)
    entry.key = lo
    entry.meta = stamp
    entry.value = value
    return value


@njit(cache=True, nogil=True, inline="always")
def node_entered(counters, deadline, node_limit):
    """Count a chance node of a search; False when the search is to stop instead (stopped
    already, or its ``deadline`` or ``node_limit`` passed: the clock and the count are read
    every :data:`CLOCK_EVERY` nodes), which marks ``counters[ABORTED]``."""
    if counters[ABORTED]:
        return False
    counters[NODES] += 1
    if counters[NODES] >= counters[NEXT_CLOCK] and (deadline > 0.0 or node_limit > 0):
        counters[NEXT_CLOCK] = counters[NODES] + CLOCK_EVERY
        if (node_limit > 0 and counters[NODES] > node_limit) or (
            deadline > 0.0 and monotonic() > deadline
        ):
            counters[ABORTED] = 1
            return False
    return True


@njit(cache=True, nogil=True, inline="always")
def _cornered(lo, hi):
    """``(cell, exponent)`` of the board's largest tile when it sits in a corner (its first
    cell in reading order, if it appears more than once), else ``(-1, 0)``."""
    cell = 0
    largest = 0
    for c in range(16):
        e = cell_exponent(lo, hi, c)
        if e > largest:
            largest = e
            cell = c
    if cell == 0 or cell == 3 or cell == 12 or cell == 15:
        return cell, largest
    return -1, 0


@njit_uncounted(
    types.float64(types.uint64, types.uint64, types.int64, types.float64, *SEARCH_RECORDS),
    cache=True,
    nogil=True,
)
def chance_value(lo, hi, depth, cprob, evaluate, evaluation, table, run):
    """Expected value of the afterstate ``(lo, hi)`` over the next spawn and the best replies.

    Only called with ``depth >= 1`` and ``cprob >= cprob_min``; the leaves below are evaluated
    in place, which saves a call per leaf.
    """
    counters = run.counters
    if not node_entered(counters, run.deadline, run.node_limit):
        return _DEAD
    entry = table[_slot(lo, hi, chance_slots(table.shape[0]))]
    stamp = _stamp(run.generation, hi)
    if (
        entry.key == lo
        and (entry.meta & ~_DEPTH_MASK) == stamp
        and int(entry.meta & _DEPTH_MASK) >= depth
    ):
        counters[TABLE_HITS] += 1
        return entry.value
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
        for exponent, p in SPAWN_ODDS:
            board = lo | (np.uint64(exponent) << shift)
            child_cprob = share * p
            at_leaf = depth <= 1 or child_cprob < run.cprob_min
            corner, largest = (-1, 0) if at_leaf else _cornered(board, hi)
            best = -np.inf
            for direction in range(4):
                new_lo, new_hi, gain = move(board, hi, direction, run.tables)
                if new_lo == board and new_hi == hi:
                    continue
                if at_leaf or (corner >= 0 and cell_exponent(new_lo, new_hi, corner) < largest):
                    value = _leaf(
                        new_lo, new_hi, evaluate, evaluation, counters, table, run.generation
                    )
                else:
                    value = chance_value(
                        new_lo, new_hi, depth - 1, child_cprob, evaluate, evaluation, table, run
                    )
                value += evaluation.gain_weight * gain
                if value > best:
                    best = value
            if best == -np.inf:  # the game is lost after this spawn
                best = _DEAD
                if evaluation.lost_penalty > 0.0:
                    best = _leaf(board, hi, evaluate, evaluation, counters, table, run.generation)
                    best -= evaluation.lost_penalty
            total += p * best
    result = total / empty
    if counters[ABORTED] == 0:
        entry.key = lo
        entry.meta = stamp | np.uint64(depth)
        entry.value = result
    return result


@njit_uncounted(
    types.void(types.uint64, types.uint64, types.int64, *SEARCH_RECORDS, types.float64[::1]),
    cache=True,
    nogil=True,
)
def search_root(lo, hi, depth, evaluate, evaluation, table, run, out):
    """Write each direction's value at ``depth`` into ``out`` (-inf where it is not a move)."""
    for direction in range(4):
        new_lo, new_hi, gain = move(lo, hi, direction, run.tables)
        if new_lo == lo and new_hi == hi:
            out[direction] = -np.inf
            continue
        if depth == 0:
            value = _leaf(new_lo, new_hi, evaluate, evaluation, run.counters, table, run.generation)
        else:
            value = chance_value(new_lo, new_hi, depth, 1.0, evaluate, evaluation, table, run)
        out[direction] = evaluation.gain_weight * gain + value


@njit("f8(i8)", cache=True, nogil=True)
def probability_cutoff(depth):
    """The ``cprob_min`` of a search of this depth: 2**-(depth + 4)."""
    return 2.0 ** -(depth + 4)


@njit(cache=True, nogil=True, inline="always")
def depth_for(distinct: int, empty: int, min_depth: int, max_depth: int) -> int:
    """The adaptive depth of a board with ``distinct`` tile values and ``empty`` free cells
    (every board size alike): one more every two values past seven, one more with three free
    cells or fewer, within ``min_depth`` to ``max_depth``."""
    extra = max(0, distinct - 7) // 2 + (1 if empty <= 3 else 0)
    return max(min_depth, min(max_depth, min_depth + extra))


@njit(cache=True, nogil=True, inline="always")
def deepening_range(plan: SearchPlan, legal: int, adaptive: int) -> tuple[int, int, int]:
    """``(first, target, floor)`` of a search as planned (every board size alike): the depths
    it starts and ends at and the floor up to which every search finishes. ``legal`` counts
    the moves; ``adaptive`` is the adaptive depth, read only when ``plan.adaptive``."""
    target = adaptive if plan.adaptive else plan.max_depth
    budgeted = plan.seconds > 0.0 or plan.nodes > 0
    if legal == 1 and (plan.adaptive or budgeted):
        target = 0
    first = 0 if budgeted else target
    return first, target, min(plan.min_depth, target)


@njit(cache=True, nogil=True, inline="always")
def over_budget(
    plan: SearchPlan,
    time_left: float,
    last_seconds: float,
    growth: float,
    nodes_left: int,
    previous_nodes: int,
) -> bool:
    """Whether the next, deeper search would overrun the budget: the last one's time (or
    positions) times its growth no longer fits what is left."""
    timed_out = plan.seconds > 0.0 and last_seconds * growth > time_left
    spent = plan.nodes > 0 and previous_nodes * growth > nodes_left
    return timed_out or spent


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
    return depth_for(distinct, empty, min_depth, max_depth)


_DEADLINE, _REACHED, _PREVIOUS_NODES, _LAST_SECONDS, _GROWTH, _STARTED, _BEFORE = range(7)
"""Slots of a position's deepening state (:func:`start_deepening`)."""


@njit(cache=True, nogil=True, inline="always")
def start_deepening(plan, legal, adaptive, counters, out):
    """Begin the searches of one position as ``plan`` says (every board size alike: see
    :func:`decide`): ``(first, target, floor, state)``, the depths to search from and to, the
    floor up to which every search finishes, and the state that :func:`next_depth` and
    :func:`depth_done` keep. ``legal`` counts the position's moves (with none, ``out`` is
    -inf everywhere and no depth is searched); ``adaptive`` is its adaptive depth, read only
    when ``plan.adaptive``; ``counters`` are those its searches count in."""
    state = np.zeros(7, dtype=np.float64)
    started = monotonic()
    state[_DEADLINE] = started + plan.seconds if plan.seconds > 0.0 else 0.0
    state[_REACHED] = -1.0
    state[_GROWTH] = 1.0
    counters[NODES] = 0
    counters[ABORTED] = 0
    counters[TABLE_HITS] = 0
    counters[NEXT_CLOCK] = CLOCK_EVERY
    if legal == 0:
        for direction in range(4):
            out[direction] = -np.inf
        return 0, -1, 0, state
    first, target, floor = deepening_range(plan, legal, adaptive)
    return first, target, floor, state


@njit(cache=True, nogil=True, inline="always")
def next_depth(plan, state, depth, floor, counters):
    """``(go, deadline, node_limit)`` of the next search, at ``depth``: whether it starts (a
    search past the floor only while the last one's cost times its growth still fits the
    budget), and the deadline and node limit it runs against (none up to the floor)."""
    started = monotonic()
    before = counters[NODES]
    state[_STARTED] = started
    state[_BEFORE] = before
    if depth <= floor:
        return True, 0.0, 0
    if over_budget(
        plan,
        state[_DEADLINE] - started,
        state[_LAST_SECONDS],
        state[_GROWTH],
        plan.nodes - before,
        int(state[_PREVIOUS_NODES]),
    ):
        return False, 0.0, 0
    return True, state[_DEADLINE], plan.nodes


@njit(cache=True, nogil=True, inline="always")
def depth_done(state, depth, counters, values, out):
    """After the search at ``depth``: False if the budget stopped it (its ``values`` are thrown
    away); else they become ``out``, the depth reached, and its cost the next one's measure."""
    if counters[ABORTED]:
        return False
    for direction in range(4):
        out[direction] = values[direction]
    state[_REACHED] = depth
    nodes = counters[NODES] - int(state[_BEFORE])
    previous = state[_PREVIOUS_NODES]
    state[_LAST_SECONDS] = monotonic() - state[_STARTED]
    state[_GROWTH] = nodes / previous if previous > 0 else 1.0
    state[_PREVIOUS_NODES] = nodes
    return True


@njit(cache=True, nogil=True, inline="always")
def depth_reached(state):
    """The depth whose values a position's searches answered with (-1: none)."""
    return int(state[_REACHED])


@njit(
    types.int64(types.uint64, types.uint64, SEARCH_PLAN, *SEARCH_RECORDS, types.float64[::1]),
    cache=True,
    nogil=True,
)
def decide(lo, hi, plan, evaluate, evaluation, table, run, out):
    """Search one position as planned; return the depth that answered (-1: no move exists).

    Without a budget, one search at the target depth. With a budget, iterative deepening from
    depth 0: each search deeper than ``plan.min_depth`` starts only if the last one's time (or
    positions, for a budget in positions) times its growth factor still fits, runs against the
    deadline (or the node limit), and is thrown away if that stops it; the searches up to
    ``plan.min_depth`` (the floor: a preset's minimum depth, 0 for a time budget) always
    finish, even past the budget. With a
    budget or a preset, a board with a single move is answered at depth 0 (the move is forced;
    a fixed depth still gives that move's value at the depth asked). ``run`` gives the move
    tables, the generation and the counters; its deadline, node limit and cutoff are set here
    for each depth.
    """
    legal = 0
    for direction in range(4):
        new_lo, new_hi, _ = move(lo, hi, direction, run.tables)
        if new_lo != lo or new_hi != hi:
            legal += 1
    adaptive = adaptive_depth(lo, hi, plan.min_depth, plan.max_depth) if plan.adaptive else 0
    first, target, floor, state = start_deepening(plan, legal, adaptive, run.counters, out)
    values = np.empty(4, dtype=np.float64)
    for depth in range(first, target + 1):
        go, deadline, node_limit = next_depth(plan, state, depth, floor, run.counters)
        if not go:
            break
        cutoff = probability_cutoff(depth)
        iteration = Run(run.tables, run.generation, run.counters, deadline, cutoff, node_limit)
        search_root(lo, hi, depth, evaluate, evaluation, table, iteration, values)
        if not depth_done(state, depth, run.counters, values, out):
            break
    return depth_reached(state)
