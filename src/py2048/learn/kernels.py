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
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit
from numba.core.dispatcher import Dispatcher

from py2048.engine.board import max_exponent, move, place, start
from py2048.engine.rng import draw, seed_key, spawn_cell_index
from py2048.evaluation.tuples import (
    Plan,
    capped_board,
    layout_plan,
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
TERMINAL = np.uint64(0xFFFFFFFFFFFFFFFF)
"""The gain recorded for the last move of a game, whose afterstate is worth 0."""
RESTART_DRAW = np.uint64(1 << 62)
"""Draw numbers from here on decide a game's restart; spawns never count this far."""


@njit(cache=True, nogil=True)
def start_game(
    worker: int,
    game: int,
    base_key: np.uint64,
    boards: np.ndarray,
    counters: np.ndarray,
    restart_share: float,
    restart_boards: np.ndarray,
    restart_count: int,
) -> None:
    """Set a worker up to play game number ``game`` of the run with this base key.

    With probability ``restart_share`` (drawn from the game's own key) and a non-empty pool,
    the game starts from one of the first ``restart_count`` boards of ``restart_boards``
    instead of a fresh opening.
    """
    key = seed_key(draw(base_key, np.uint64(game)))
    lo, hi = start(key)
    restarted = 0
    if restart_count > 0:
        coin = float(draw(key, RESTART_DRAW) >> np.uint64(11)) * 2.0**-53
        if coin < restart_share:
            pick_draw = draw(key, RESTART_DRAW + np.uint64(1))
            pick = spawn_cell_index(pick_draw, np.uint64(restart_count))
            lo = restart_boards[pick, 0]
            hi = restart_boards[pick, 1]
            restarted = 1
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
    plan, runs, staged = planned
    top = max_exponent(lo, hi) if staged else 0
    total = 0.0
    for board in symmetric_boards(capped_board(lo, hi)):
        for row in plan:
            if row[1] <= top < row[2]:
                total += weights[table_index(board, row, runs)]
    return total


@njit(cache=True, nogil=True, inline="always")
def _greedy_move(
    lo: np.uint64,
    hi: np.uint64,
    weights: np.ndarray,
    tables: np.ndarray,
    planned: Plan,
) -> tuple[int, np.uint64, np.uint64, int, float]:
    """The move maximising ``gain + V(afterstate)``: ``(direction, lo, hi, gain, V)``.

    Ties go to the lowest direction number; direction -1 means no legal move.
    """
    best_direction = -1
    best_total = -np.inf
    best_lo = lo
    best_hi = hi
    best_gain = 0
    best_value = 0.0
    for d in range(4):
        new_lo, new_hi, gain = move(lo, hi, d, tables)
        if new_lo == lo and new_hi == hi:
            continue
        value = _board_value(new_lo, new_hi, weights, planned)
        if gain + value > best_total:
            best_total = gain + value
            best_direction = d
            best_lo, best_hi, best_gain, best_value = new_lo, new_hi, gain, value
    return best_direction, best_lo, best_hi, best_gain, best_value


@njit(cache=True, nogil=True, inline="always")
def _learn_transition(
    lo: np.uint64,
    hi: np.uint64,
    target: float,
    weights: np.ndarray,
    coherence_sum: np.ndarray,
    coherence_abs: np.ndarray,
    temporal_coherence: bool,
    step: float,
    planned: Plan,
) -> None:
    """Move the value of afterstate ``(lo, hi)`` toward ``target`` (one TD(0) update)."""
    error = target - _board_value(lo, hi, weights, planned)
    plan, runs, staged = planned
    top = max_exponent(lo, hi) if staged else 0
    for board in symmetric_boards(capped_board(lo, hi)):
        for row in plan:
            if row[1] <= top < row[2]:
                j = table_index(board, row, runs)
                if temporal_coherence:
                    total_abs = coherence_abs[j]
                    rate = abs(coherence_sum[j]) / total_abs if total_abs > 0 else 1.0
                    weights[j] += step * rate * error
                    coherence_sum[j] += error
                    coherence_abs[j] += abs(error)
                else:
                    weights[j] += step * error


@njit(cache=True, nogil=True, inline="always")
def _play_segment(
    worker: int,
    steps: int,
    boards: np.ndarray,
    counters: np.ndarray,
    base_key: np.uint64,
    stride: int,
    total_games: int,
    weights: np.ndarray,
    coherence_sum: np.ndarray,
    coherence_abs: np.ndarray,
    temporal_coherence: bool,
    step: float,
    learn: bool,
    apply_now: bool,
    tables: np.ndarray,
    records: np.ndarray,
    record_counts: np.ndarray,
    results: np.ndarray,
    result_counts: np.ndarray,
    restart_exponents: int,
    restart_share: float,
    restart_boards: np.ndarray,
    restart_count: int,
    found: np.ndarray,
    found_counts: np.ndarray,
    planned: Plan,
) -> None:
    """Play up to ``steps`` turns of this worker's games, greedily on the current weights.

    The worker plays games ``worker, worker + stride, ...`` below ``total_games``; its game in
    progress lives in ``boards[worker]`` / ``counters[worker]`` between calls. With ``learn``,
    every transition is either learnt at once (``apply_now``: plain online learning, for one
    worker) or recorded as ``(afterstate, next afterstate, gain)`` in ``records[worker]`` for
    :func:`apply_records` to learn from after every worker's segment. Each finished game appends
    ``(game, score, max exponent, moves, restarted)`` to ``results[worker]``.

    Restarts: a game starts from a pool board as :func:`start_game` says, and whenever a game
    first makes a tile whose exponent bit is set in ``restart_exponents``, the board after the
    next spawn is appended to ``found[worker]``, for the trainer to add to the pool.
    """
    recorded = 0
    finished = 0
    discovered = 0
    for _ in range(steps):
        if counters[worker, COUNTER_IN_PROGRESS] == 0:
            if counters[worker, COUNTER_GAME] >= total_games:
                break
            start_game(
                worker, counters[worker, COUNTER_GAME], base_key, boards, counters, restart_share,
                restart_boards, restart_count,
            )  # fmt: skip
        lo = boards[worker, BOARD_LO]
        hi = boards[worker, BOARD_HI]
        direction, after_lo, after_hi, gain, after_value = _greedy_move(
            lo, hi, weights, tables, planned
        )
        if learn and counters[worker, COUNTER_HAS_PREV]:
            prev_lo = boards[worker, BOARD_PREV_LO]
            prev_hi = boards[worker, BOARD_PREV_HI]
            if apply_now:
                target = 0.0 if direction < 0 else gain + after_value
                _learn_transition(
                    prev_lo, prev_hi, target, weights, coherence_sum, coherence_abs,
                    temporal_coherence, step, planned,
                )  # fmt: skip
            else:
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
            results[worker, finished, 0] = counters[worker, COUNTER_GAME]
            results[worker, finished, 1] = counters[worker, COUNTER_SCORE]
            results[worker, finished, 2] = max_exponent(lo, hi)
            results[worker, finished, 3] = counters[worker, COUNTER_MOVES]
            results[worker, finished, 4] = counters[worker, COUNTER_RESTARTED]
            finished += 1
            counters[worker, COUNTER_GAME] += stride
            counters[worker, COUNTER_IN_PROGRESS] = 0
            continue
        boards[worker, BOARD_PREV_LO] = after_lo
        boards[worker, BOARD_PREV_HI] = after_hi
        counters[worker, COUNTER_HAS_PREV] = 1
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
        if restart_exponents:
            top = max_exponent(spawned, after_hi)
            if top > max_exponent(lo, hi) and (restart_exponents >> top) & 1:
                found[worker, discovered, 0] = spawned
                found[worker, discovered, 1] = after_hi
                discovered += 1
    record_counts[worker] = recorded
    result_counts[worker] = finished
    found_counts[worker] = discovered


@njit(cache=True, nogil=True, inline="always")
def _apply_records(
    records: np.ndarray,
    record_counts: np.ndarray,
    weights: np.ndarray,
    coherence_sum: np.ndarray,
    coherence_abs: np.ndarray,
    temporal_coherence: bool,
    step: float,
    planned: Plan,
) -> None:
    """Learn from every recorded transition, worker by worker in order.

    Each error is computed here, on the weights as updated by the records before it, so this
    is exactly sequential TD(0) over the recorded games.
    """
    for worker in range(record_counts.size):
        for i in range(record_counts[worker]):
            gain = records[worker, i, 4]
            target = 0.0
            if gain != TERMINAL:
                target = float(gain) + _board_value(
                    records[worker, i, 2], records[worker, i, 3], weights, planned
                )
            _learn_transition(
                records[worker, i, 0], records[worker, i, 1], target, weights, coherence_sum,
                coherence_abs, temporal_coherence, step, planned,
            )  # fmt: skip


class NetworkKernels(NamedTuple):
    """The compiled kernels of one network layout (see :func:`network_kernels`)."""

    board_value: Dispatcher
    greedy_move: Dispatcher
    play_segment: Dispatcher
    apply_records: Dispatcher


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
    def board_value(lo, hi, weights):
        return _board_value(lo, hi, weights, planned)

    @njit(cache=True, nogil=True)
    def greedy_move(lo, hi, weights, tables):
        return _greedy_move(lo, hi, weights, tables, planned)

    @njit(cache=True, nogil=True)
    def play_segment(
        worker, steps, boards, counters, base_key, stride, total_games, weights, coherence_sum,
        coherence_abs, temporal_coherence, step, learn, apply_now, tables, records,
        record_counts, results, result_counts, restart_exponents, restart_share,
        restart_boards, restart_count, found, found_counts,
    ):  # fmt: skip
        _play_segment(
            worker, steps, boards, counters, base_key, stride, total_games, weights,
            coherence_sum, coherence_abs, temporal_coherence, step, learn, apply_now, tables,
            records, record_counts, results, result_counts, restart_exponents, restart_share,
            restart_boards, restart_count, found, found_counts, planned,
        )  # fmt: skip

    @njit(cache=True, nogil=True)
    def apply_records(
        records, record_counts, weights, coherence_sum, coherence_abs, temporal_coherence, step
    ):
        _apply_records(
            records, record_counts, weights, coherence_sum, coherence_abs, temporal_coherence,
            step, planned,
        )  # fmt: skip

    return NetworkKernels(board_value, greedy_move, play_segment, apply_records)
