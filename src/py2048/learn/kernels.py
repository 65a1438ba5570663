"""Compiled n-tuple kernels: board value, greedy move, and TD(0) afterstate learning.

Boards are the engine's packed ``(lo, hi)`` words, and every move and spawn goes through the
engine's kernels (:func:`~py2048.engine.board.move`, :func:`~py2048.engine.board.place`), so the
network learns exactly the game that py2048 plays. The kernels that read the tables are
compiled once per network layout, with the layout as constants (:func:`network_kernels`).

Table indices use four bits per cell: a cell holding 65536 or 131072 (exponent 16 or 17, whose
fifth bit lives in ``hi``) reads as 32768. Such boards are rare enough (none in greedy play)
that giving them their own table entries is not worth twice the memory per 6-tuple.

Learning follows Szubert & Jaskowski (2014): the value function is over *afterstates* (the
board after the slide, before the spawn). After each move the previous afterstate ``s'`` moves
toward ``gain + V(next afterstate)``, and the last afterstate of a game toward 0. Every table
entry read by ``s'`` takes a share of the error: ``step * error`` with a fixed step, or, with
temporal coherence (Beal & Smith 1999, used for 2048 by Jaskowski 2018), ``step * |E|/A *
error`` where ``E`` and ``A`` are the entry's running sums of errors and of their absolute
values, so entries whose errors keep the same sign learn fast and noisy ones slow down.

Memory layout decides the speed of learning: an update touches one random table entry per
tuple and placement (32 for four tuples), so the learner keeps each entry's weight, ``E`` and
``A`` side by side in one row of a ``(entries, 3)`` float32 :attr:`Learning.table` (one cache
line per entry instead of three). Without temporal coherence the table has one column.

The kernels take a few records instead of long argument lists: :class:`Learning` (the table and
how to learn), :class:`Games` (one worker pool's games in progress and how new ones start) and
:class:`Output` (what a segment of play hands back).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.core.dispatcher import Dispatcher
from numba.extending import intrinsic

from py2048._compile_cache import cached_per
from py2048._uncounted import njit_uncounted
from py2048.engine.board import max_exponent, move, place, start
from py2048.engine.rng import draw, seed_key, spawn_cell_index
from py2048.evaluation.tuples import (
    Plan,
    layout_plan,
    network_board,
    stage_offset,
    symmetric_boards,
    table_index,
)

# Columns of the per-worker state arrays (see play_segment).
BOARD_LO, BOARD_HI, BOARD_PREV_LO, BOARD_PREV_HI, BOARD_KEY = 0, 1, 2, 3, 4
BOARD_COLUMNS = 5
(
    COUNTER_GAME,
    COUNTER_IN_PROGRESS,
    COUNTER_HAS_PREV,
    COUNTER_SCORE,
    COUNTER_MOVES,
    COUNTER_SPAWNS,
    COUNTER_RESTARTED,
) = range(7)
COUNTER_COLUMNS = 7
RECORD_COLUMNS = 5
RESULT_COLUMNS = 5
WEIGHT, COHERENCE_SUM, COHERENCE_ABS = 0, 1, 2
"""Columns of a learning table: the weight, then (with temporal coherence) ``E`` and ``A``."""
TERMINAL = np.uint64(0xFFFFFFFFFFFFFFFF)
"""The gain recorded for the last move of a game, whose afterstate is worth 0."""
RESTART_DRAW = np.uint64(1 << 62)
"""Draw numbers from here on decide a game's restart; spawns never count this far."""


class Learning(NamedTuple):
    """What a segment of play learns into, and how."""

    table: np.ndarray
    """float32 ``(entries, 3)`` rows of weight, E, A with temporal coherence; ``(entries, 1)``
    with a fixed step."""
    step: float
    """The step per table entry (the run's alpha over the entries a board reads)."""
    coherence: bool
    """Scale each entry's step by its ``|E|/A`` (temporal coherence)."""
    learn: bool
    """False: play only (measuring a network)."""
    online: bool
    """Learn each transition at once; otherwise record it for :func:`apply_records`."""


class Games(NamedTuple):
    """The games a pool of workers plays: where each stands, and how new ones begin."""

    boards: np.ndarray
    """uint64 ``(workers, BOARD_COLUMNS)``: each worker's board, previous afterstate, key."""
    counters: np.ndarray
    """int64 ``(workers, COUNTER_COLUMNS)``: each worker's game number, score, moves..."""
    base_key: np.uint64
    """The run's key: game ``g`` spawns from ``seed_key(draw(base_key, g))``."""
    stride: int
    """Worker ``w`` plays games ``w, w + stride, ...``."""
    total_games: int
    """Games numbered from here on are not started."""
    restart_exponents: int
    """Bit ``e`` set: a game's first tile of exponent ``e`` adds its board to the pool."""
    restart_share: float
    """Share of games started from a pool board once the pool holds one."""
    restart_boards: np.ndarray
    """uint64 ``(pool size, 2)``: the restart pool."""
    restart_count: int
    """Boards of the pool in use (its first rows)."""


class Output(NamedTuple):
    """What :func:`play_segment` hands back, per worker (the counts say how many rows)."""

    records: np.ndarray
    """uint64 ``(workers, steps, RECORD_COLUMNS)``: transitions to learn later."""
    record_counts: np.ndarray
    results: np.ndarray
    """int64 ``(workers, steps + 1, RESULT_COLUMNS)``: finished games."""
    result_counts: np.ndarray
    found: np.ndarray
    """uint64 ``(workers, steps, 2)``: boards for the restart pool."""
    found_counts: np.ndarray
    rows: np.ndarray
    """int64 ``(workers, PREVIOUS + 1, at least 8 entries a layout row)``: each worker's
    scratch for the table rows of its move's afterstates (:func:`scratch_rows`)."""


def scratch_rows(workers: int, layout_rows: int) -> np.ndarray:
    """The :attr:`Output.rows` scratch of ``workers`` workers for a network of ``layout_rows``
    layout rows, each worker's block followed by 64 unused bytes so that two lock-free workers
    never write to one cache line."""
    return np.zeros((workers, PREVIOUS + 1, 8 * layout_rows + 8), dtype=np.int64)


@njit(cache=True, nogil=True)
def start_game(worker: int, game: int, games: Games) -> None:
    """Set a worker up to play game number ``game`` of the run.

    With probability ``restart_share`` (drawn from the game's own key) and a non-empty pool,
    the game starts from one of the pool's boards instead of a fresh opening.
    """
    key = seed_key(draw(games.base_key, np.uint64(game)))
    lo, hi = start(key)
    restarted = 0
    if games.restart_count > 0:
        coin = float(draw(key, RESTART_DRAW) >> np.uint64(11)) * 2.0**-53
        if coin < games.restart_share:
            pick_draw = draw(key, RESTART_DRAW + np.uint64(1))
            pick = spawn_cell_index(pick_draw, np.uint64(games.restart_count))
            lo = games.restart_boards[pick, 0]
            hi = games.restart_boards[pick, 1]
            restarted = 1
    boards = games.boards
    counters = games.counters
    boards[worker, BOARD_LO] = lo
    boards[worker, BOARD_HI] = hi
    boards[worker, BOARD_KEY] = key
    counters[worker, COUNTER_GAME] = game
    counters[worker, COUNTER_IN_PROGRESS] = 1
    counters[worker, COUNTER_HAS_PREV] = 0
    counters[worker, COUNTER_SCORE] = 0
    counters[worker, COUNTER_MOVES] = 0
    counters[worker, COUNTER_SPAWNS] = 2
    counters[worker, COUNTER_RESTARTED] = restarted


@njit(cache=True, nogil=True, inline="always")
def _board_value(lo: np.uint64, hi: np.uint64, weights: np.ndarray, planned: Plan) -> float:
    """The network's value of a board: the sum of its table entries over every placement,
    reading only the tuples of the stage of its largest tile."""
    plan, runs, staged, _, _ = planned
    base = stage_offset(max_exponent(lo, hi), planned) if staged else 0
    total = 0.0
    for board in symmetric_boards(network_board(lo, hi)):
        for row in plan:
            total += weights[base + table_index(board, row, runs)]
    return total


@njit(cache=True, nogil=True, inline="always")
def _table_value(lo: np.uint64, hi: np.uint64, table: np.ndarray, planned: Plan) -> float:
    """:func:`_board_value` read from a learning table's weight column."""
    plan, runs, staged, _, _ = planned
    base = stage_offset(max_exponent(lo, hi), planned) if staged else 0
    total = 0.0
    for board in symmetric_boards(network_board(lo, hi)):
        for row in plan:
            total += table[base + table_index(board, row, runs), WEIGHT]
    return total


@intrinsic
def _prefetch_row(typingctx, table, index):
    """Ask the processor to start loading row ``index`` of a 2-D array into its caches.

    A hint only (LLVM's ``prefetch``): nothing is read or changed, and a row already cached
    costs nothing. The learner's table is far larger than any cache, so every entry a board
    reads is a trip to memory; asking for all of a move's entries before summing any of them
    lets those trips overlap. The rows are asked into the second-level cache and beyond
    (locality 2, ``prefetcht1`` on x86), not the first: a move asks for 256 rows, likely more
    than the first level holds beside the rest of the loop, and this trained 6-24% more moves
    a second than asking for them into the first level (docs/ntuple.md, "Speed").
    """
    signature = types.void(table, index)

    def codegen(context, builder, sig, args):
        table_type, index_type = sig.args
        array = context.make_array(table_type)(context, builder, args[0])
        row = context.cast(builder, args[1], index_type, types.intp)
        first = context.get_constant(types.intp, 0)
        pointer = cgutils.get_item_pointer(
            context, builder, table_type, array, [row, first], wraparound=False
        )
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        prefetch = cgutils.get_or_insert_function(
            builder.module,
            ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]),
            "llvm.prefetch.p0i8",
        )
        # read (0), keep in the second cache level and beyond (2), data cache (1)
        read, keep, data = ir.Constant(i32, 0), ir.Constant(i32, 2), ir.Constant(i32, 1)
        builder.call(prefetch, [builder.bitcast(pointer, byte_pointer), read, keep, data])
        return context.get_dummy_value()

    return signature, codegen


PREVIOUS = 4
"""The slot of a move's :class:`Scratch` that holds the previous afterstate's table rows (slots 0
to 3 hold each direction's afterstate)."""


@njit(cache=True, nogil=True, inline="always")
def _reads_per_board(planned: Plan) -> int:
    """How many table entries one board reads: its stage's tuples at all eight placements."""
    return 8 * len(planned[0])


@njit(cache=True, nogil=True, inline="always")
def _board_rows(lo: np.uint64, hi: np.uint64, planned: Plan, rows: np.ndarray, slot: int) -> None:
    """Write into ``rows[slot]`` every table row this board reads, in :func:`_table_value`'s
    order."""
    plan, runs, staged, _, _ = planned
    base = stage_offset(max_exponent(lo, hi), planned) if staged else 0
    n = 0
    for board in symmetric_boards(network_board(lo, hi)):
        for row in plan:
            rows[slot, n] = base + table_index(board, row, runs)
            n += 1


@njit(cache=True, nogil=True, inline="always")
def _rows_value(table: np.ndarray, rows: np.ndarray, slot: int, reads: int) -> float:
    """:func:`_table_value` of the board whose rows :func:`_board_rows` wrote into ``slot``
    (the same sum in the same order)."""
    total = 0.0
    for i in range(reads):
        total += table[rows[slot, i], WEIGHT]
    return total


@njit(cache=True, nogil=True, inline="always")
def _prefetch_rows(table: np.ndarray, rows: np.ndarray, slot: int, reads: int) -> None:
    for i in range(reads):
        _prefetch_row(table, rows[slot, i])  # type: ignore[call-arg]  # numba adds the context


@njit(cache=True, nogil=True, inline="always")
def _greedy_move(
    lo: np.uint64,
    hi: np.uint64,
    table: np.ndarray,
    tables: np.ndarray,
    planned: Plan,
    rows: np.ndarray,
) -> tuple[int, np.uint64, np.uint64, int, float]:
    """The move maximising ``gain + V(afterstate)``: ``(direction, lo, hi, gain, V)``.

    Ties go to the lowest direction number; direction -1 means no legal move. ``table`` is a
    learning table (the weights in its first column). ``rows`` (int64, at least 5 slots of
    :func:`_reads_per_board` entries) receives each legal direction's table rows in slots 0 to
    3, so that the move chosen can be learnt from without finding its rows again; all four
    afterstates' rows are asked for before any is summed, so their trips to memory overlap.
    """
    reads = _reads_per_board(planned)
    lo0, hi0, gain0 = move(lo, hi, 0, tables)
    lo1, hi1, gain1 = move(lo, hi, 1, tables)
    lo2, hi2, gain2 = move(lo, hi, 2, tables)
    lo3, hi3, gain3 = move(lo, hi, 3, tables)
    after_lo = (lo0, lo1, lo2, lo3)
    after_hi = (hi0, hi1, hi2, hi3)
    gains = (gain0, gain1, gain2, gain3)
    for d in range(4):
        if after_lo[d] != lo or after_hi[d] != hi:
            _board_rows(after_lo[d], after_hi[d], planned, rows, d)
            _prefetch_rows(table, rows, d, reads)
    best_direction = -1
    best_total = -np.inf
    best_lo = lo
    best_hi = hi
    best_gain = 0
    best_value = 0.0
    for d in range(4):
        new_lo, new_hi, gain = after_lo[d], after_hi[d], gains[d]
        if new_lo == lo and new_hi == hi:
            continue
        value = _rows_value(table, rows, d, reads)
        if gain + value > best_total:
            best_total = gain + value
            best_direction = d
            best_lo, best_hi, best_gain, best_value = new_lo, new_hi, gain, value
    return best_direction, best_lo, best_hi, best_gain, best_value


@njit(cache=True, nogil=True, inline="always")
def _learn_rows(target: float, learning: Learning, rows: np.ndarray, slot: int, reads: int) -> None:
    """:func:`_learn_transition` for the afterstate whose table rows are in ``rows[slot]``."""
    table = learning.table
    error = target - _rows_value(table, rows, slot, reads)
    for i in range(reads):
        _learn_entry(table, rows[slot, i], error, learning)


@njit(cache=True, nogil=True, inline="always")
def _learn_entry(table: np.ndarray, j: int, error: float, learning: Learning) -> None:
    """Move entry ``j`` by its share of ``error``: ``step * error``, scaled by ``|E| / A``
    with temporal coherence (whose sums then take the error in)."""
    if learning.coherence:
        total_abs = table[j, COHERENCE_ABS]
        rate = abs(table[j, COHERENCE_SUM]) / total_abs if total_abs > 0 else 1.0
        table[j, WEIGHT] += learning.step * rate * error
        table[j, COHERENCE_SUM] += error
        table[j, COHERENCE_ABS] += abs(error)
    else:
        table[j, WEIGHT] += learning.step * error


@njit(cache=True, nogil=True, inline="always")
def _learn_transition(
    lo: np.uint64, hi: np.uint64, target: float, learning: Learning, planned: Plan
) -> None:
    """Move the value of afterstate ``(lo, hi)`` toward ``target`` (one TD(0) update)."""
    table = learning.table
    error = target - _table_value(lo, hi, table, planned)
    plan, runs, staged, _, _ = planned
    base = stage_offset(max_exponent(lo, hi), planned) if staged else 0
    for board in symmetric_boards(network_board(lo, hi)):
        for row in plan:
            _learn_entry(table, base + table_index(board, row, runs), error, learning)


@njit(cache=True, nogil=True, inline="always")
def _play_segment(
    worker: int,
    steps: int,
    learning: Learning,
    games: Games,
    output: Output,
    tables: np.ndarray,
    planned: Plan,
) -> None:
    """Play up to ``steps`` turns of this worker's games, greedily on the current weights.

    The worker plays games ``worker, worker + stride, ...`` below ``total_games``; its game in
    progress lives in ``games.boards[worker]`` / ``games.counters[worker]`` between calls. With
    ``learning.learn``, every transition is either learnt at once (``learning.online``) or
    recorded as ``(afterstate, next afterstate, gain)`` in ``output.records[worker]`` for
    :func:`apply_records` to learn from after every worker's segment. Each finished game appends
    ``(game, score, max exponent, moves, restarted)`` to ``output.results[worker]``.

    Restarts: a game starts from a pool board as :func:`start_game` says, and whenever a game
    first makes a tile whose exponent bit is set in ``restart_exponents``, the board after the
    next spawn is appended to ``output.found[worker]``, for the trainer to add to the pool.
    """
    boards = games.boards
    counters = games.counters
    table = learning.table
    rows = output.rows[worker]
    reads = _reads_per_board(planned)
    if counters[worker, COUNTER_IN_PROGRESS] and counters[worker, COUNTER_HAS_PREV]:
        _board_rows(
            boards[worker, BOARD_PREV_LO], boards[worker, BOARD_PREV_HI], planned, rows, PREVIOUS
        )
    recorded = 0
    finished = 0
    discovered = 0
    for _ in range(steps):
        if counters[worker, COUNTER_IN_PROGRESS] == 0:
            if counters[worker, COUNTER_GAME] >= games.total_games:
                break
            start_game(worker, counters[worker, COUNTER_GAME], games)
        lo = boards[worker, BOARD_LO]
        hi = boards[worker, BOARD_HI]
        direction, after_lo, after_hi, gain, after_value = _greedy_move(
            lo, hi, table, tables, planned, rows
        )
        if learning.learn and counters[worker, COUNTER_HAS_PREV]:
            prev_lo = boards[worker, BOARD_PREV_LO]
            prev_hi = boards[worker, BOARD_PREV_HI]
            if learning.online:
                target = 0.0 if direction < 0 else gain + after_value
                _learn_rows(target, learning, rows, PREVIOUS, reads)
            else:
                records = output.records
                records[worker, recorded, 0] = prev_lo
                records[worker, recorded, 1] = prev_hi
                records[worker, recorded, 2] = after_lo
                records[worker, recorded, 3] = after_hi
                if direction < 0:
                    records[worker, recorded, 4] = TERMINAL
                else:
                    records[worker, recorded, 4] = np.uint64(gain)
                recorded += 1
        if direction < 0:
            results = output.results
            results[worker, finished, 0] = counters[worker, COUNTER_GAME]
            results[worker, finished, 1] = counters[worker, COUNTER_SCORE]
            results[worker, finished, 2] = max_exponent(lo, hi)
            results[worker, finished, 3] = counters[worker, COUNTER_MOVES]
            results[worker, finished, 4] = counters[worker, COUNTER_RESTARTED]
            finished += 1
            counters[worker, COUNTER_GAME] += games.stride
            counters[worker, COUNTER_IN_PROGRESS] = 0
            continue
        boards[worker, BOARD_PREV_LO] = after_lo
        boards[worker, BOARD_PREV_HI] = after_hi
        counters[worker, COUNTER_HAS_PREV] = 1
        for i in range(reads):
            rows[PREVIOUS, i] = rows[direction, i]
        counters[worker, COUNTER_SCORE] += gain
        counters[worker, COUNTER_MOVES] += 1
        spawned, _, _ = place(
            after_lo,
            after_hi,
            draw(boards[worker, BOARD_KEY], np.uint64(counters[worker, COUNTER_SPAWNS])),
        )
        counters[worker, COUNTER_SPAWNS] += 1
        boards[worker, BOARD_LO] = spawned
        boards[worker, BOARD_HI] = after_hi
        if games.restart_exponents:
            top = max_exponent(spawned, after_hi)
            if top > max_exponent(lo, hi) and (games.restart_exponents >> top) & 1:
                output.found[worker, discovered, 0] = spawned
                output.found[worker, discovered, 1] = after_hi
                discovered += 1
    output.record_counts[worker] = recorded
    output.result_counts[worker] = finished
    output.found_counts[worker] = discovered


@njit(cache=True, nogil=True, inline="always")
def _apply_records(output: Output, learning: Learning, planned: Plan) -> None:
    """Learn from every recorded transition, worker by worker in order.

    Each error is computed here, on the weights as updated by the records before it, so this
    is exactly sequential TD(0) over the recorded games.
    """
    records = output.records
    table = learning.table
    for worker in range(output.record_counts.size):
        for i in range(output.record_counts[worker]):
            gain = records[worker, i, 4]
            target = 0.0
            if gain != TERMINAL:
                target = float(gain) + _table_value(
                    records[worker, i, 2], records[worker, i, 3], table, planned
                )
            _learn_transition(
                records[worker, i, 0], records[worker, i, 1], target, learning, planned
            )


class NetworkKernels(NamedTuple):
    """The compiled kernels of one network layout (see :func:`network_kernels`)."""

    board_value: Dispatcher
    """``(lo, hi, weights)``: a board's value from a flat weights array."""
    greedy_move: Dispatcher
    """``(lo, hi, table, move tables)``: see :func:`_greedy_move`."""
    play_segment: Dispatcher
    """``(worker, steps, learning, games, output, move tables)``: see :func:`_play_segment`."""
    apply_records: Dispatcher
    """``(output, learning)``: see :func:`_apply_records`."""


def network_kernels(layout: np.ndarray) -> NetworkKernels:
    """The value, greedy-move, playing and learning kernels for networks of this layout.

    Each is a closure over the layout's plan (:func:`layout_plan`) that calls the generic
    kernel above, inlined, so the plan becomes constants of the compiled code. Closures that
    referred to other closures would not be found in numba's disk cache by a second process,
    so each calls only the module's own functions. numba caches them on disk per layout: only
    a network of a new shape compiles.
    """
    return _compiled_kernels(layout_plan(layout))


@lru_cache(maxsize=16)
def _compiled_kernels(planned: Plan) -> NetworkKernels:
    @njit(cache=True, nogil=True)
    @cached_per(planned)
    def board_value(lo, hi, weights):
        return _board_value(lo, hi, weights, planned)

    @njit(cache=True, nogil=True)
    @cached_per(planned)
    def greedy_move(lo, hi, table, tables):
        plan = planned[0]
        rows = np.empty((PREVIOUS + 1, 8 * len(plan)), dtype=np.int64)
        return _greedy_move(lo, hi, table, tables, planned, rows)

    # Without reference counting (py2048._uncounted): its scratch comes from Output.rows.
    @njit_uncounted(cache=True, nogil=True)
    @cached_per(planned)
    def play_segment(worker, steps, learning, games, output, tables):
        _play_segment(worker, steps, learning, games, output, tables, planned)

    @njit(cache=True, nogil=True)
    @cached_per(planned)
    def apply_records(output, learning):
        _apply_records(output, learning, planned)

    return NetworkKernels(board_value, greedy_move, play_segment, apply_records)
