"""Whole games played by the solver inside compiled code, for ``2048 bench`` and research.

A game runs start to finish in one call that releases the GIL: no Python runs between moves,
so a bench measures the search, not the interpreter. With the ``py2048`` generator a game is
exactly ``Game(seed)`` played with ``best_move`` at the same settings (the tests check this);
with ``c-rand`` the spawns follow :mod:`py2048.solver.crand`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit, types

from py2048.engine.board import ROW_TABLES, max_exponent, move, play, start
from py2048.engine.rng import seed_key, validate_seed
from py2048.solver import crand
from py2048.solver.evaluation import KERNEL_TYPE, Evaluator, get_evaluator
from py2048.solver.hint import SearchPlan, table_arrays
from py2048.solver.presets import RNGS
from py2048.solver.search import COUNTER_SLOTS, NODES, decide

_PY2048, _C_RAND = 0, 1

FIGURE_SCORE, FIGURE_MOVES, FIGURE_MAX_EXPONENT, FIGURE_NODES = 0, 1, 2, 3
"""Slots of the figures array a compiled game fills."""


@njit(
    types.void(
        types.int64,  # generator: 0 py2048, 1 c-rand
        types.uint64,  # seed
        types.int64,
        types.int64,
        types.boolean,
        types.float64,
        KERNEL_TYPE,
        types.boolean,
        types.float32[:, ::1],
        types.int64[:, ::1],
        types.float64,
        types.float64,
        types.uint32[:, ::1],
        types.uint64[::1],
        types.uint64[::1],
        types.float64[::1],
        types.int64[::1],  # figures: score, moves, max exponent, nodes
    ),
    cache=True,
    nogil=True,
)
def play_game(
    generator,
    seed,
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
    figures,
):
    """Play one game with the solver until no move is left; write its figures."""
    key = seed_key(seed)
    c_rand = crand.new_state()
    if generator == _C_RAND:
        lo, hi = crand.start(seed, c_rand)
    else:
        lo, hi = start(key)
    counters = np.zeros(COUNTER_SLOTS, dtype=np.int64)
    out = np.empty(4, dtype=np.float64)
    score = 0
    moves = 0
    nodes = 0
    generation = np.uint64(0)
    while True:
        generation += np.uint64(1)
        reached = decide(
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
        )
        nodes += counters[NODES]
        if reached < 0:
            break
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


@dataclass(frozen=True)
class GameRecord:
    """One finished game, as ``2048 bench --json`` writes it."""

    seed: int
    score: int
    max_tile: int
    moves: int
    seconds: float
    nodes: int


def autoplay(
    seed: int,
    plan: SearchPlan,
    *,
    rng: str = "py2048",
    evaluator: str | Evaluator | None = None,
) -> GameRecord:
    """Play the game with this seed to the end with the solver and return its figures."""
    if rng not in RNGS:
        raise ValueError(f"unknown rng {rng!r}; choose one of {', '.join(RNGS)}")
    seed = validate_seed(seed)
    if rng == "c-rand" and seed >= crand.SEED_LIMIT:
        raise ValueError(f"a c-rand seed must be below 2**32, got {seed}")
    found = get_evaluator(evaluator)
    keys, meta, values = table_arrays(plan.max_depth)
    figures = np.zeros(4, dtype=np.int64)
    started = time.perf_counter()
    play_game(
        _C_RAND if rng == "c-rand" else _PY2048,
        np.uint64(seed),
        plan.min_depth,
        plan.max_depth,
        plan.adaptive,
        0.0 if plan.time_ms is None else plan.time_ms / 1000.0,
        found.kernel,
        found.lines,
        found.weights,
        found.layout,
        found.gain_weight,
        found.lost_penalty,
        ROW_TABLES,
        keys,
        meta,
        values,
        figures,
    )
    seconds = time.perf_counter() - started
    exponent = int(figures[FIGURE_MAX_EXPONENT])
    return GameRecord(
        seed=seed,
        score=int(figures[FIGURE_SCORE]),
        max_tile=1 << exponent if exponent else 0,
        moves=int(figures[FIGURE_MOVES]),
        seconds=seconds,
        nodes=int(figures[FIGURE_NODES]),
    )
